"""Creating buzzer rounds (staff): the list of a tournament's rounds, a round made by hand
(every setting a form field built from the engine's descriptions), and the rounds of a
preset seated by its feeds."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from brackets.engine import EngineError
from brackets.engine.buzzer import RoundConfig
from brackets.forms.buzzer_settings import RoundForm
from brackets.labels import round_name
from brackets.models import BuzzerRound, PaperMarking, Role, Tournament
from brackets.permissions import role_required
from brackets.selectors.buzzer import round_players, tournament_rounds
from brackets.selectors.buzzer_paper import paper_ranked
from brackets.services.buzzer import BuzzerRefused, buzzer_round_create
from brackets.services.buzzer_presets import (
    available_presets,
    preset_courses_seat,
    preset_round_seat,
    preset_rounds_create,
)
from brackets.views.buzzer import STAFF_ROLES, refusal_text


@role_required(*STAFF_ROLES)
def buzzer_index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every live round of the tournament, the preset buttons and the paper quizzes."""
    rounds = tournament_rounds(tournament.pk)
    markings = PaperMarking.objects.filter(tournament=tournament).select_related("by")
    return render(
        request,
        "brackets/buzzer/index.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "markings": markings,
            "presets": available_presets(),
            "is_organiser": Role.ORGANISER in request.roles,  # type: ignore[attr-defined]
        },
    )


@role_required(Role.ORGANISER)
def buzzer_round_new(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Create one round by hand: every setting a field, seeded from a round or a template."""
    initial: dict[str, Any] = {}
    config: RoundConfig | None = None
    template = request.GET.get("from", "")
    if template.isascii() and template.isdigit():  # a link's round id; anything else: a blank form
        source = BuzzerRound.objects.filter(tournament=tournament, pk=template).first()
        if source is not None:
            initial = {
                "name": source.name,
                "group_name": source.group_name,
                "players": "\n".join(p.name for p in round_players(source)),
            }
            config = RoundConfig.from_dict(source.config)
    preset_ref = request.GET.get("template", "")
    templates = [
        (f"{p.slug}:{r.slug}", f"{round_name(r.name)}（{r.rule}）")
        for p in available_presets()
        for r in p.rounds
        if r.config is not None
    ]
    # A round made from a preset round's template joins that preset's chain (the form posts
    # back to this URL, so the template is still in the query string): its winners and
    # carried points seat the preset's next rounds, e.g. M5 sets 2 and 3 after set 1.
    chain: dict[str, Any] = {}
    if ":" in preset_ref:
        preset_slug, round_slug = preset_ref.split(":", 1)
        try:
            preset = next(p for p in available_presets() if p.slug == preset_slug)
            preset_config = preset.round(round_slug).config
        except (StopIteration, EngineError):
            preset_config = None
        if preset_config is not None:
            config = preset_config
            initial.setdefault("name", preset.round(round_slug).name)
            chain = {
                "preset": preset_slug,
                "round_slug": round_slug,
                "ranking_from_seats": True,
                "position": list(preset.rounds).index(preset.round(round_slug)) * 10,
            }
    form = RoundForm(request.POST or None, tournament=tournament, initial=initial, config=config)
    if request.method == "POST" and form.is_valid():
        try:
            round_ = buzzer_round_create(
                tournament=tournament,
                name=form.cleaned_data["name"],
                group_name=form.cleaned_data["group_name"],
                config=form.cleaned_data["config"],
                players=form.cleaned_data["players"],
                by=request.user,
                **(chain or {"position": len(tournament_rounds(tournament.pk)) + 1}),
            )
        except BuzzerRefused as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(request, _("ラウンドを作成しました。"))
            return redirect("buzzer_console", slug=tournament.slug, round_id=round_.pk)
    return render(
        request,
        "brackets/buzzer/round_form.html",
        {"tournament": tournament, "form": form, "templates": templates, "current": preset_ref},
    )


@role_required(Role.ORGANISER)
def buzzer_presets(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Create the rounds of a preset (seed 003 / seed 004), seated by the engine's feeds."""
    markings = list(PaperMarking.objects.filter(tournament=tournament))
    presets = available_presets()
    if request.method == "POST":
        slug = request.POST.get("preset", "")
        round_slug = request.POST.get("round_slug", "")
        try:
            if request.POST.get("courses"):
                raw_order = {
                    k.removeprefix("order-"): request.POST.get(k, "").strip()
                    for k in request.POST
                    if k.startswith("order-")
                }
                # A typed "a" or "-1" is refused here, before int() sees it.
                if not all(v.isdigit() and int(v) > 0 for v in raw_order.values()):
                    messages.error(request, _("コースの順番は1以上の数字で入力してください。"))
                    return redirect("buzzer_presets", slug=tournament.slug)
                if len({int(v) for v in raw_order.values()}) != len(raw_order):
                    messages.error(request, _("コースの順番が重複しています。"))
                    return redirect("buzzer_presets", slug=tournament.slug)
                order = sorted(raw_order, key=lambda slug: int(raw_order[slug]))
                created = preset_courses_seat(
                    tournament=tournament,
                    preset=slug,
                    order=order,
                    raised={
                        k.removeprefix("raised-"): request.POST.get(k, "").splitlines()
                        for k in request.POST
                        if k.startswith("raised-")
                    },
                    by=request.user,
                )
            elif round_slug:
                names = [n for n in request.POST.get("first_round", "").splitlines() if n.strip()]
                marking_id = request.POST.get("paper", "")
                if not names and marking_id.isdigit():
                    marking = next((m for m in markings if m.pk == int(marking_id)), None)
                    if marking is not None:
                        names = [s.player for s in paper_ranked(tournament, marking)]
                raw_groups = request.POST.get("groups", "")
                created = preset_round_seat(
                    tournament=tournament,
                    preset=slug,
                    round_slug=round_slug,
                    by=request.user,
                    first_round=names or None,
                    groups=int(raw_groups)
                    if raw_groups.isdigit() and int(raw_groups) > 0
                    else None,
                )
            else:
                created = preset_rounds_create(tournament=tournament, preset=slug, by=request.user)
        except (BuzzerRefused, EngineError) as refused:
            messages.error(request, refusal_text(refused))
            return redirect("buzzer_presets", slug=tournament.slug)
        if created:
            messages.success(request, _("%(n)d個のラウンドを作成しました。") % {"n": len(created)})
        else:
            messages.info(
                request,
                _(
                    "今作成できるラウンドはありません（前のラウンドが未終了か、1R順位が未入力です）。"
                ),
            )
        return redirect("buzzer_index", slug=tournament.slug)
    return render(
        request,
        "brackets/buzzer/presets.html",
        {
            "tournament": tournament,
            "presets": presets,
            "markings": markings,
            "course_presets": [
                p.slug
                for p in presets
                if any(r.feed is not None and r.feed.grouping == "courses" for r in p.rounds)
            ],
        },
    )

