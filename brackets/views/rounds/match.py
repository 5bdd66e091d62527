"""The tablet match page and its writes (selection, results, penalties, confirmation,
下関 cards and semi-final bans) and the match history."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from brackets import engine_adapter as ea
from brackets.engine import set_order
from brackets.forms.fields import RefusalForm
from brackets.forms.match import (
    BanForm,
    CardsPhysicalForm,
    ConfirmForm,
    DisqualificationForm,
    MatchActionForm,
    PenaltyForm,
    PenaltyRevokeForm,
    RematchForm,
    ResultsForm,
    SeatsForm,
    SelectionForm,
)
from brackets.labels import (
    PAIR_ROLE_LABELS,
    QUESTION_ORDER_LABELS,
    label,
    penalised_score_html,
)
from brackets.models import Entrant, Group, Round, SpecialFact, Tournament
from brackets.perf.page_cache import render_page
from brackets.permissions import role_required
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from brackets.views.rounds._common import STAFF, _group, seat_rule_label
from brackets.views.rounds.seat_grid import seat_picker_html


def _typed_number(raw: Any) -> Decimal | None:
    """A typed score as a number, to compare with a saved one (「300」 is 300.00)."""
    try:
        return Decimal(str(raw).strip())
    except (InvalidOperation, ValueError):
        return None


def _match_context(request: HttpRequest, tournament: Tournament, group: Group,
                   **extra: Any) -> dict[str, Any]:
    catalog = ea.catalog_for(tournament.version_id)
    snap = sel.match_snapshot(group, catalog)
    gv, mctx, choices, match_gates = snap.view, snap.context, snap.choices, snap.gates
    names = {ea.player_key(s.entrant_id): s.entrant.name for s in gv.seats if s.entrant_id}
    last = len(catalog.difficulties) - 1
    seats = []
    posted = extra.get("posted")
    places = list(range(1, len(gv.seats) + 1))
    conf = snap.restrictions
    for seat in gv.seats:
        current = gv.result_rows.get(seat.number)
        row: dict[str, Any] = {"seat": seat, "selection": gv.selection_rows.get(seat.number),
                               "result": current,
                               "score_value": current.score if current else None,
                               "place_value": current.placement if current else None}
        if posted is not None and f"score_{seat.number}" in posted:
            row["score_value"] = posted.get(f"score_{seat.number}")
            raw_place = posted.get(f"place_{seat.number}", "")
            row["place_value"] = int(raw_place) if raw_place.isdigit() else None
            if extra.get("stale") and current is not None and (
                    _typed_number(row["score_value"]), row["place_value"]) != (
                    current.score, current.placement):
                # Another tablet's save won: the inputs keep what was typed here (not
                # saved), and the row says what is saved, so nobody takes one for the other.
                row["saved_text"] = _("保存済：{score}点 {place}位（{by}）").format(
                    score=current.score, place=current.placement, by=current.by or "?")
        # Built here, not by template loops: per seat × place and seat × difficulty tags
        # would be a third of the page's render time. Same markup as those loops.
        row["place_options"] = mark_safe("".join(
            f'<option value="{p}"{" selected" if row["place_value"] == p else ""}>{p}</option>'
            for p in places))
        n = seat.number
        # A refused save comes back with the difficulty staff tapped, not the default: a
        # second tap (e.g. confirming an illegal set) would otherwise save HARD unseen.
        # Otherwise the seat's saved set shows as it is, so changing only its difficulty
        # is one tap (the form came back empty, and the set had to be found again).
        saved = row["selection"]
        tapped = (posted.get("difficulty") if posted is not None
                  and posted.get("seat") == str(n) else None)
        if tapped is None and saved is not None:
            tapped = saved.difficulty
        pick = (catalog.difficulties.index(tapped) if tapped in catalog.difficulties
                else last)
        row["difficulty_radios"] = mark_safe("".join(
            f'\n          <input type="radio" class="btn-check" name="difficulty" '
            f'id="d{n}{escape(d)}" value="{escape(d)}"{" checked" if i == pick else ""}>'
            f'\n          <label class="btn btn-outline-secondary" for="d{n}{escape(d)}">'
            f'{escape(d)}</label>'
            for i, d in enumerate(catalog.difficulties)))
        if seat.entrant_id:
            key = ea.player_key(seat.entrant_id)
            sc = choices[seat.number]
            chosen = "" if saved is None else f"{saved.genre}|{saved.format}"
            if posted is not None and posted.get("seat") == str(seat.number):
                chosen = posted.get("set", "")
            legal, illegal, grid = seat_picker_html(catalog, sc, names, chosen)
            placed = gv.row_of(key)
            row.update(legal=legal, illegal=illegal, grid=grid, rules=sc.rules,
                       mode_label=seat_rule_label(conf, sc.rules),
                       lots=[*sc.rules.lot_genres, *sc.rules.lot_formats],
                       placed=placed, ratio=gv.ratios.get(key),
                       score_shown=(mark_safe(penalised_score_html(placed))
                                    if placed is not None and placed.penalty else ""),
                       penalties=[p for p in gv.penalty_rows if p.seat_id == seat.id],
                       dq=any(d.seat_id == seat.id for d in gv.dq_rows),
                       ban=mctx["bans"].get(seat.entrant_id))
        seats.append(row)
    rnd = group.round
    rules = snap.rules
    set_order_row = None
    if rules.spec.is_series:
        setup = sel.special_facts(tournament, SpecialFact.Kind.FINAL_SETUP, round=rnd)
        if setup:
            qo = setup[0].data["question_order"]
            set_order_row = {"label": label(QUESTION_ORDER_LABELS, qo),
                             "order": set_order(qo, group.game)}
    series_winner = ""
    if snap.series_winner is not None:
        # K10: once a finalist has won enough games the rest are not played; say so here
        # rather than let staff enter a game that cannot change the champion.
        series_winner = names.get(snap.series_winner, snap.series_winner)
    series_score = ""
    if match_gates.pair:
        # K9/K10: which two play for the place and which two only partner them (their
        # places do not count), and after a result who won the game.
        roles = snap.roles
        for row in seats:
            if row["seat"].entrant_id:
                role = roles.get(ea.player_key(row["seat"].entrant_id), "")
                row["pair_role"] = role
                row["pair_role_label"] = label(PAIR_ROLE_LABELS, role)
    if match_gates.series:
        # The series so far (this game included), so staff know what the next game is for.
        state = snap.series_now
        if state is not None:
            a, b = (names.get(p, p) for p in state.players)
            series_score = _("{a} {x}勝 – {y}勝 {b}").format(a=a, b=b, x=state.wins[0],
                                                           y=state.wins[1])
    banned = sorted(match_gates.bans_in_force)
    page_base = reverse("match_page", args=[tournament.slug, 0])[: -len("0/")]
    # The physical-draw form offers exactly the genres and groups of the preset's K7 deck
    # (the default deck has サブジャンル cards, which the app may also draw).
    deck = svc._deck(catalog, rnd) if match_gates.cards else []
    deck_genres = list(dict.fromkeys(c.genre for c in deck))
    deck_groups = list(dict.fromkeys(c.group for c in deck))
    # A refused physical draw comes back with the cards staff picked, not blank selects.
    drawn_back = posted is not None and posted.get("action") == "cards_physical"
    # K7: what the drawn cards allow, in one line (the badges alone left staff to work it
    # out while the players wait).
    drawn = match_gates.cards_drawn
    cards_allowed = {"genres": list(dict.fromkeys(c[0] for c in drawn)),
                     "groups": list(dict.fromkeys(c[1] for c in drawn)),
                     "extra": len(drawn) > rules.k7_cards_per_draw}
    card_rows = [{"i": i,
                  "genre": posted.get(f"card_genre_{i}", "") if drawn_back else "",
                  "group": posted.get(f"card_group_{i}", "") if drawn_back else ""}
                 for i in range(1, rules.k7_card_slots + 1)]
    return {"tournament": tournament, "group": group, "round": rnd, "round_rules": rules,
            "gv": gv, "seats": seats,
            "set_order": set_order_row, "banned": banned,
            "deck_genres": deck_genres, "deck_groups": deck_groups,
            "card_rows": card_rows, "cards_allowed": cards_allowed, "cards_error": extra.get("error", "") if drawn_back else "",
            "series_winner": series_winner, "series_score": series_score,
            "can_reseat": not gv.selection_rows and not gv.result_rows,
            "catalog": catalog, "dummy_set": list(rules.dummy_set),
            "places": places,
            "status_label": sel.STATUS_LABELS[gv.status], "mctx": mctx,
            "match_gates": match_gates,
            # Nearby groups only: one tap to the neighbours, the round page for the rest
            # (a 256-group round would otherwise put 256 tabs on every match page).
            # Links built here: one reverse() instead of one {% url %} per tab and per seat.
            "siblings": [{**s, "url": f"{page_base}{s['id']}/"} for s in Group.objects.filter(
                round=rnd, number__gte=group.number - 5, number__lte=group.number + 6)
                .order_by("number").values("id", "label")],
            "selection_url": reverse("match_selection", args=[tournament.slug, group.id]),
            "two_person": tournament.two_person_confirmation,
            # A manual penalty starts at the event's H7 points; an event that refuses
            # illegal sets has none (0), and 0 is not a penalty: the field starts empty.
            "penalty_default": rules.penalty_text if rules.penalty > 0 else "",
            # K10: a game after the series is decided takes no input (the service refuses).
            "accepting": (rnd.status in (Round.Status.DRAWN, Round.Status.RUNNING)
                          and not series_winner),
            # K8: no selection form until the bans are revealed (the service refuses too).
            "bans_pending": match_gates.bans_pending,
            # K7: no selection form until the 下関 cards are drawn (the service refuses too).
            "cards_pending": match_gates.cards_pending,
            **extra}


def _match_response(request: HttpRequest, tournament: Tournament, group_id: int, *,
                    cache: bool, status: int = 200, **extra: Any) -> HttpResponse:
    """The match page; its body comes from the page cache unless it shows what this
    request posted (``cache=False``)."""
    def build() -> dict[str, Any]:
        group = _group(tournament, group_id)
        return {**_match_context(request, tournament, group, **extra),
                # A one-match round's group is named after it: 「3位決定戦」, not twice.
                "frame": {"title": group.round.name if group.label == group.round.name
                          else f"{group.round.name} {group.label}"}}

    return render_page(request, "brackets/rounds/match.html", "brackets/rounds/_match_body.html",
                       build, tournament=tournament,
                       cache_as=("match", group_id) if cache else None, status=status)


@role_required(*STAFF)
def match_page(request: HttpRequest, tournament: Tournament, group_id: int) -> HttpResponse:
    return _match_response(request, tournament, group_id, cache=True)


def _refused(request: HttpRequest, tournament: Tournament, group: Group,
             exc: svc.RoundError) -> HttpResponse:
    """The match page again, with what staff typed and the error beside it (HTTP 400, or
    409 for a stale version or a submit key already saved with other content). Nothing was
    saved. ``page_url`` lets match.js put the match
    page's own URL in the address bar (history.replaceState), so reloading it is a plain
    GET instead of a re-post of the refused form."""
    stale = isinstance(exc, svc.StaleVersion)
    status = 409 if stale or isinstance(exc, svc.RepeatedKey) else 400
    return _match_response(request, tournament, group.id, cache=False, status=status,
                           stale=stale,
                           error=exc.message, error_field=exc.field,
                           changes=getattr(exc, "changes", []), posted=request.POST,
                           reasons=exc.extra.get("reasons", []),
                           page_url=reverse("match_page", args=[tournament.slug, group.id]))


def _saved(request: HttpRequest, tournament: Tournament, group: Group, *,
           changed: bool = True) -> HttpResponse:
    """POST/redirect/GET: back on the match page with 「保存しました」, so a reload there
    is a plain GET and the tablet sees at once that the tap was recorded; a save that
    changed nothing says 「変更はありません」 (as the desk and settings pages do)."""
    if changed:
        messages.success(request, _("保存しました"))
    else:
        messages.info(request, _("変更はありません（保存済みの内容と同じです）"))
    return redirect("match_page", slug=tournament.slug, group_id=group.id)


def _form_refused(request: HttpRequest, tournament: Tournament, group: Group,
                  form: RefusalForm) -> HttpResponse:
    """A malformed post, refused like a service refusal (the page with the message)."""
    message, field = form.refusal()
    return _refused(request, tournament, group, svc.RoundError(message, field=field))


def _write_answer(request: HttpRequest, tournament: Tournament, group: Group,
                  write: Callable[[], Any], *, malformed: str = "") -> HttpResponse:
    """Run one match write and answer as every match post does: saved (or a repeated tap
    with the same content, already recorded) → the page with 「保存しました」 (or
    「変更はありません」 when the write answers with a ``changed`` that is false); a refusal
    (a repeated key with other content included: ``svc.RepeatedKey``) → the page with the
    error;
    a ValueError only the service could see → refused with ``malformed`` (when given)."""
    changed = True
    try:
        done = write()
        changed = getattr(done, "changed", True)
    except svc.Duplicate:
        pass  # the same tap again (same key, same content): recorded once, said the same way
    except svc.RoundError as exc:
        return _refused(request, tournament, group, exc)
    except ValueError:
        if not malformed:
            raise
        return _refused(request, tournament, group, svc.RoundError(malformed))
    return _saved(request, tournament, group, changed=changed)


@require_POST
@role_required(*STAFF)
def match_selection(request: HttpRequest, tournament: Tournament, group_id: int) -> HttpResponse:
    group = _group(tournament, group_id)
    form = SelectionForm(request.POST)
    if not form.is_valid():
        return _form_refused(request, tournament, group, form)
    data = form.cleaned_data
    genre, fmt = data["set"]
    return _write_answer(request, tournament, group, lambda: svc.selection_save(
        group=group, by=request.user, seat_number=data["seat"], genre=genre, format=fmt,
        difficulty=data["difficulty"], base_version=data["version"],
        confirm_illegal=data["confirm_illegal"], key=data["key"]),
        malformed=_("サテを選んでください。"))


@require_POST
@role_required(*STAFF)
def match_results(request: HttpRequest, tournament: Tournament, group_id: int) -> HttpResponse:
    group = _group(tournament, group_id)
    form = ResultsForm(request.POST)
    if not form.is_valid():
        return _form_refused(request, tournament, group, form)
    return _write_answer(request, tournament, group, lambda: svc.results_record(
        group=group, by=request.user, rows=form.rows(),
        base_version=form.cleaned_data["version"], key=form.cleaned_data["key"]))


def _penalty(form: Any, **common: Any) -> None:
    data = form.cleaned_data
    svc.penalty_add(seat_number=data["seat"], points=data["points"], reason=data["reason"],
                    **common)


def _penalty_revoke(form: Any, **common: Any) -> None:
    data = form.cleaned_data
    svc.penalty_revoke(penalty_id=data["penalty"], reason=data["reason"], **common)


def _disqualification(*, revoke: bool) -> Any:
    def write(form: Any, **common: Any) -> None:
        data = form.cleaned_data
        svc.disqualification_add(seat_number=data["seat"], reason=data["reason"],
                                 revoke=revoke, **common)
    return write


def _rematch(form: Any, **common: Any) -> None:
    svc.rematch_record(reason=form.cleaned_data["reason"], **common)


def _reseat(form: Any, *, group: Group, by: Any, base_version: int | None, key: str) -> None:
    svc.seats_assign(group=group, by=by, order=form.order(), base_version=base_version)


# The match page's "ペナルティ・失格・再試合" panel posts to one URL: the action it names
# picks the form and the service call.
MATCH_ACTIONS: dict[str, tuple[type[MatchActionForm], Any]] = {
    "penalty": (PenaltyForm, _penalty),
    "penalty_revoke": (PenaltyRevokeForm, _penalty_revoke),
    "dq": (DisqualificationForm, _disqualification(revoke=False)),
    "dq_revoke": (DisqualificationForm, _disqualification(revoke=True)),
    "rematch": (RematchForm, _rematch),
    "reseat": (SeatsForm, _reseat),
}


@require_POST
@role_required(*STAFF)
def match_action(request: HttpRequest, tournament: Tournament, group_id: int) -> HttpResponse:
    """Penalty, disqualification (or lifting one), re-match, seat order: each with a
    reason."""
    group = _group(tournament, group_id)
    form_class, write = MATCH_ACTIONS.get(request.POST.get("action", ""),
                                          (MatchActionForm, None))
    form = form_class(request.POST)
    if not form.is_valid():
        return _form_refused(request, tournament, group, form)
    if write is None:
        return _refused(request, tournament, group, svc.RoundError(_("操作を選んでください。")))
    return _write_answer(request, tournament, group, lambda: write(
        form, group=group, by=request.user, base_version=form.cleaned_data["version"],
        key=form.cleaned_data["key"]), malformed=_("入力を確認してください。"))


@require_POST
@role_required(*STAFF)
def match_confirm(request: HttpRequest, tournament: Tournament, group_id: int) -> HttpResponse:
    group = _group(tournament, group_id)
    form = ConfirmForm(request.POST)
    form.is_valid()  # a version that is not a number reads as none: the stale check decides
    try:
        svc.result_confirm(group=group, by=request.user, version=form.cleaned_data["version"] or 0)
        messages.success(request, _("結果を確認しました。"))
    except svc.RoundError as exc:
        return _refused(request, tournament, group, exc)
    return redirect("match_page", slug=tournament.slug, group_id=group.id)


def _cards_app(request: HttpRequest, group: Group, form: Any) -> None:
    svc.card_draw(group=group, by=request.user)


def _cards_physical(request: HttpRequest, group: Group, form: Any) -> None:
    svc.card_draw(group=group, by=request.user, cards=form.cleaned_data["cards"])


def _ban(request: HttpRequest, group: Group, form: Any) -> None:
    entrant = get_object_or_404(Entrant, id=form.cleaned_data["entrant"],
                                tournament=group.round.tournament)
    svc.ban_record(group=group, entrant=entrant, genre=form.cleaned_data["genre"],
                   by=request.user)


def _ban_reveal(request: HttpRequest, group: Group, form: Any) -> None:
    svc.ban_reveal(group=group, by=request.user)


# The 下関 card and ban sections of the match page post to one URL, naming their action.
MATCH_SPECIALS: dict[str, tuple[type[RefusalForm], Any]] = {
    "cards_app": (RefusalForm, _cards_app),
    "cards_physical": (CardsPhysicalForm, _cards_physical),
    "ban": (BanForm, _ban),
    "reveal": (RefusalForm, _ban_reveal),
}


@require_POST
@role_required(*STAFF)
def match_special(request: HttpRequest, tournament: Tournament, group_id: int) -> HttpResponse:
    """下関 cards (physical or app draw) and semi-final bans (enter all, reveal together)."""
    group = _group(tournament, group_id)
    form_class, write = MATCH_SPECIALS.get(request.POST.get("action", ""), (RefusalForm, None))
    form = form_class(request.POST)
    if not form.is_valid():
        return _form_refused(request, tournament, group, form)
    if write is None:
        return _refused(request, tournament, group, svc.RoundError(_("操作を選んでください。")))
    return _write_answer(request, tournament, group, lambda: write(request, group, form))


@role_required(*STAFF)
def match_history(request: HttpRequest, tournament: Tournament, group_id: int) -> HttpResponse:
    group = _group(tournament, group_id)
    return render(request, "brackets/rounds/history.html",
                  {"tournament": tournament, "group": group,
                   "events": sel.group_history(group)})
