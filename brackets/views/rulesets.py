"""The rule-set composer's pages (#17), organiser only, under a tournament they organise.

The list starts a rule set from empty (空から作成: a name and one round, or a ladder), from
a built-in preset, from a rule file or from this tournament's rules (この大会のルールを複製).
The edit page shows the policies, the ladder or the rounds in forms (rounds are added,
moved and deleted there, and each K6 rule); every save is a new version, then the page
shows each problem ``validate_ruleset`` finds beside its field (a draft with problems is
kept, marked 要修正).
A rule set is exported as a file, rehearsed and its rule page read before it is applied
(:mod:`.ruleset_preview`; the rehearsal form is on this page), and applied to this
tournament while it has not started.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from brackets import engine_adapter as ea
from brackets.forms.rehearsal import RehearsalForm
from brackets.forms.ruleset_rounds import (
    KINDS,
    RESTRICTION_FIELDS,
    SECTIONS,
    Draft,
    RoundsEditor,
    drafts_of,
    drafts_posted,
    edit_drafts,
)
from brackets.forms.rulesets import (
    LadderForm,
    PoliciesForm,
    RuleSetEmptyForm,
    RuleSetImportForm,
    RuleSetStartForm,
    composed,
)
from brackets.models import Role, RuleSetDoc, Tournament
from brackets.permissions import role_required
from brackets.selectors import rulesets as sel
from brackets.services import rulesets as svc
from brackets.services.preset_settings import settings_locked
from brackets.views.rules import rehearsal_cabinets, rehearsal_initial


def _list(request: HttpRequest, tournament: Tournament, *, start: Any = None,
          upload: Any = None, empty: Any = None, status: int = 200) -> HttpResponse:
    return render(request, "brackets/rulesets/index.html", {
        "tournament": tournament, "rows": sel.ruleset_rows(),
        "start_form": start or RuleSetStartForm(), "import_form": upload or RuleSetImportForm(),
        "empty_form": empty or RuleSetEmptyForm(),
        "uses_ruleset": tournament.preset == ea.RULESET_PRESET,
        "started": settings_locked(tournament)}, status=status)


@require_GET
@role_required(Role.ORGANISER)
def ruleset_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every rule set with its state (使用可 / 要修正), and the ways to start one."""
    return _list(request, tournament)


@require_POST
@role_required(Role.ORGANISER)
def ruleset_start(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = RuleSetStartForm(request.POST)
    if form.is_valid():
        try:
            ruleset = svc.ruleset_start(by=request.user, preset=form.cleaned_data["preset"])
        except svc.RuleSetError as exc:
            form.add_error("preset", exc.message)
        else:
            messages.success(request, _("ルールセットを作成しました。"))
            return redirect("ruleset_edit", slug=tournament.slug, ruleset_id=ruleset.pk)
    return _list(request, tournament, start=form, status=400)


@require_POST
@role_required(Role.ORGANISER)
def ruleset_start_empty(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """空から作成: a rule set with a name and one round (or a ladder) to build on."""
    form = RuleSetEmptyForm(request.POST)
    if form.is_valid():
        ruleset = svc.ruleset_start_empty(by=request.user, name=form.cleaned_data["name"],
                                          ladder=form.cleaned_data["shape"] == "ladder")
        messages.success(request, _("空のルールセットを作成しました。回戦を追加して組み立ててください。"))
        return redirect("ruleset_edit", slug=tournament.slug, ruleset_id=ruleset.pk)
    return _list(request, tournament, empty=form, status=400)


@require_POST
@role_required(Role.ORGANISER)
def ruleset_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = RuleSetImportForm(request.POST, request.FILES)
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            ruleset = svc.ruleset_import(by=request.user, content=upload.read(),
                                         filename=upload.name or "")
        except svc.RuleSetError as exc:
            form.add_error("file", exc.message)
        else:
            messages.success(request, _("ルールファイルを読み込みました。"))
            return redirect("ruleset_edit", slug=tournament.slug, ruleset_id=ruleset.pk)
    return _list(request, tournament, upload=form, status=400)


@require_POST
@role_required(Role.ORGANISER)
def ruleset_clone(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """この大会のルールを複製: the tournament's rules as a new rule set to edit."""
    try:
        ruleset = svc.ruleset_clone_tournament(by=request.user, tournament=tournament)
    except svc.RuleSetError as exc:
        messages.error(request, exc.message)
        return redirect("rulesets", slug=tournament.slug)
    messages.success(request, _("この大会のルールを新しいルールセットに複製しました。"))
    return redirect("ruleset_edit", slug=tournament.slug, ruleset_id=ruleset.pk)


def _forms(rs: Any, data: Any = None, drafts: list[Draft] | None = None
           ) -> tuple[PoliciesForm, LadderForm | None, RoundsEditor | None]:
    """The page's forms: bound to ``data`` to save it, else showing ``drafts`` (the rounds
    as typed, after a round was added or moved) or the document."""
    policies = PoliciesForm(data, prefix="p", initial=PoliciesForm.initial_of(rs))
    ladder = (LadderForm(data, prefix="l", initial=LadderForm.initial_of(rs))
              if rs.ladder is not None else None)
    rounds = None
    if rs.ladder is None:
        if drafts is not None:
            rounds = RoundsEditor.build(drafts)
        elif data is not None:
            rounds = RoundsEditor.build(drafts_posted(data), data)
        else:
            rounds = RoundsEditor.build(drafts_of(rs.rounds))
    return policies, ladder, rounds


def _rows(form: Any, problems: dict[str, list[str]], names: Any = None
          ) -> list[tuple[Any, list[str]]]:
    """(bound field, problem texts) per visible field of a form (of ``names`` only)."""
    return [(form[name], problems.get(name, [])) for name in (names or form.fields)
            if not form[name].is_hidden and name != "DELETE"]


def _round_rows(rounds: RoundsEditor, rs: Any, places: Any) -> list[dict[str, Any]]:
    """Per round form: its fields by section with their problems, and its K6 rules'.

    Problems are found by the round's key, so they stay beside their round when rounds were
    added or moved since the version they were found in."""
    by_key = {spec.key: places.rounds.get(i, {}) for i, spec in enumerate(rs.rounds)}
    out = []
    for i, form in enumerate(rounds.formset.forms):
        draft = rounds.drafts[i] if i < len(rounds.drafts) else Draft({})
        problems = by_key.get(draft.key, {})
        variants = []
        for j, vform in enumerate(rounds.variants[i].forms):
            mine = {name.removeprefix(f"v{j}."): texts for name, texts in problems.items()
                    if name.startswith(f"v{j}.")}
            variants.append({"form": vform, "rows": _rows(vform, mine),
                             "problems": mine.get("", [])})
        kind = str(draft.values.get("kind") or "groups")
        # A K6 round's sets are played under its rules' restrictions: its own are kept as
        # they are (hidden) and each rule's are shown with the rule.
        chosen = kind == "rule_selection" and bool(variants)
        # Its advancers are each rule's too (K6: top 2 under A, the winner under B), so the
        # round's own number is kept as it is (hidden) rather than offered as if it applied.
        selection = kind == "rule_selection"
        hidden = (*(RESTRICTION_FIELDS if chosen else ()),
                  *(("advance_per_group",) if selection else ()))
        out.append({"form": form, "index": i, "key": draft.key,
                    "name": draft.values.get("name") or "", "kind": KINDS.get(kind, ""),
                    "rule_selection": selection,
                    "sections": [(title, _rows(form, problems,
                                               [n for n in names if n not in hidden]))
                                 for title, names in SECTIONS
                                 if not (chosen and names == RESTRICTION_FIELDS)],
                    "kept": [form[name] for name in hidden],
                    "problems": problems.get("", []), "variants": variants,
                    "variant_management": rounds.variants[i].management_form})
    return out


def _rehearsal_context(tournament: Tournament, ruleset: RuleSetDoc) -> dict[str, Any]:
    """The pre-apply rehearsal's form on the rule set's page, posting to its own page."""
    return {"rehearsal_form": RehearsalForm(initial=rehearsal_initial(tournament)),
            "rehearsal_action": reverse("ruleset_rehearsal", args=[tournament.slug, ruleset.pk]),
            "cabinets": rehearsal_cabinets(tournament)}


_EDITED = {"add_round": _("回戦を追加しました。"), "move": _("回戦の順番を変えました。"),
           "add_variant": _("ルールを追加しました。")}


@role_required(Role.ORGANISER)
def ruleset_edit(request: HttpRequest, tournament: Tournament, ruleset_id: int) -> HttpResponse:
    """GET: the newest version in forms with its problems; POST: save the next version,
    or (a round added or moved, a K6 rule added) show the page again with everything typed
    kept and nothing saved."""
    ruleset = get_object_or_404(RuleSetDoc, pk=ruleset_id)
    version = svc.current_version(ruleset)
    rs, refusal = sel.parsed(version)
    if rs is None:
        raise Http404(str(refusal))
    status = 200
    edited = None
    if request.method == "POST" and rs.ladder is None:
        drafts = drafts_posted(request.POST)
        edited = edit_drafts(drafts, request.POST)
    if edited is not None:
        policies, ladder, rounds = _forms(rs, request.POST, drafts)
        messages.info(request, _EDITED[edited])
    else:
        policies, ladder, rounds = _forms(rs, request.POST if request.method == "POST"
                                          else None)
    if request.method == "POST" and edited is None:
        valid = [f.is_valid() for f in (policies, ladder, rounds) if f is not None]
        if all(valid):
            new = composed(rs, policies.cleaned_data,
                           ladder.cleaned_data if ladder is not None else None,
                           rounds.specs() if rounds is not None else None)
            try:
                saved = svc.ruleset_save(ruleset=ruleset, document=new.to_dict(),
                                         by=request.user, note=_("フォームで編集"))
            except svc.RuleSetError as exc:
                messages.error(request, exc.message)
            else:
                if saved is None:
                    messages.info(request, _("変更はありません。"))
                else:
                    count = len(svc.ruleset_problems(saved.document))
                    if count:
                        messages.warning(request, _(
                            "第%(n)d版として保存しました（要修正：問題%(c)d件）。") % {
                                "n": saved.number, "c": count})
                    else:
                        messages.success(request, _("第%(n)d版として保存しました。")
                                         % {"n": saved.number})
                return redirect("ruleset_edit", slug=tournament.slug, ruleset_id=ruleset.pk)
        status = 400
    places = sel.problem_places(svc.ruleset_problems(version.document), rs)
    return render(request, "brackets/rulesets/edit.html", {
        "tournament": tournament, "ruleset": ruleset, "version": version, "rs": rs,
        "places": places, "policies": policies, "policy_rows": _rows(policies, places.policies),
        "ladder": ladder,
        "ladder_rows": _rows(ladder, places.ladder) if ladder is not None else [],
        "rounds": rounds,
        "round_rows": _round_rows(rounds, rs, places) if rounds is not None else [],
        "history": sel.ruleset_history(ruleset), "edited": edited,
        **_rehearsal_context(tournament, ruleset),
        "in_use": tournament.preset == ea.RULESET_PRESET
        and (tournament.preset_settings or {}).get("document") == version.document,
        "started": settings_locked(tournament)}, status=status)


@require_GET
@role_required(Role.ORGANISER)
def ruleset_export(request: HttpRequest, tournament: Tournament, ruleset_id: int
                   ) -> HttpResponse:
    """The newest version as a rule file (JSON) another server imports."""
    ruleset = get_object_or_404(RuleSetDoc, pk=ruleset_id)
    filename, content_type, body = svc.ruleset_file(svc.current_version(ruleset))
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_POST
@role_required(Role.ORGANISER)
def ruleset_apply(request: HttpRequest, tournament: Tournament, ruleset_id: int
                  ) -> HttpResponse:
    """Run this rule set's newest version in this tournament (refused once it started)."""
    ruleset = get_object_or_404(RuleSetDoc, pk=ruleset_id)
    try:
        svc.tournament_ruleset_apply(tournament=tournament,
                                     version=svc.current_version(ruleset), by=request.user)
    except svc.RuleSetError as exc:
        messages.error(request, exc.message)
        return redirect("ruleset_edit", slug=tournament.slug, ruleset_id=ruleset.pk)
    messages.success(request, _("この大会のルールをルールセットに変更しました。"))
    # Back on the rule set, now in use: its rehearsal and rule page are a tap away.
    return redirect("ruleset_edit", slug=tournament.slug, ruleset_id=ruleset.pk)
