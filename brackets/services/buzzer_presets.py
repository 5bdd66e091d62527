"""Writes for preset tournaments: seat a preset round from the rounds that feed it.

The seating is the plan of :func:`brackets.selectors.buzzer_event.preset_round_plan` (the
engine's :func:`~brackets.engine.buzzer.entrants` and Number10 course entry); this module
creates the planned rounds with :func:`brackets.services.buzzer.buzzer_round_create`, in one
transaction, and refuses a plan that changed since staff previewed it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from brackets.engine.buzzer import PRESETS, RoundConfig, TournamentPreset
from brackets.models import BuzzerRound, Entrant, Tournament
from brackets.selectors.buzzer_event import SeatPlan, preset_or_refuse, preset_round_plan
from brackets.services.buzzer import BuzzerRefused, buzzer_round_create


def available_presets() -> list[TournamentPreset]:
    """The engine's whole-tournament presets (seed 003, seed 004 …), in slug order."""
    return [PRESETS.get(slug) for slug in PRESETS.slugs()]


def _plan_create(
    *, tournament: Tournament, plan: SeatPlan, configs: Mapping[str, RoundConfig], by: Any
) -> list[BuzzerRound]:
    tp = preset_or_refuse(plan.preset)
    ids = [p["entrant"] for g in plan.groups for p in g.players if p.get("entrant")]
    entrant_objs = {e.pk: e for e in Entrant.objects.filter(tournament=tournament, pk__in=ids)}
    created: list[BuzzerRound] = []
    for group in plan.groups:
        round_config = configs.get(group.round_slug) or tp.round(group.round_slug).config
        assert round_config is not None
        round_ = buzzer_round_create(
            tournament=tournament,
            name=group.name,
            group_name=group.group_name,
            config=round_config,
            players=[{**p, "entrant": entrant_objs.get(p.get("entrant") or 0)}
                     for p in group.players],
            by=by,
            preset=plan.preset,
            round_slug=group.round_slug,
            position=group.position,
            feeds_from=plan.feeds_from,
        )
        BuzzerRound.objects.filter(pk=round_.pk).update(first_round=plan.first_round)
        round_.first_round = plan.first_round
        created.append(round_)
    return created


@transaction.atomic
def preset_plan_confirm(
    *,
    tournament: Tournament,
    preset: str,
    round_slug: str,
    expect: str,
    config: RoundConfig | None = None,
    configs: Mapping[str, RoundConfig] | None = None,
    first_round: Sequence[str] | None = None,
    groups: int | None = None,
    course_order: Sequence[str] | None = None,
    raised: Mapping[str, Sequence[str]] | None = None,
    by: Any = None,
) -> list[BuzzerRound]:
    """Create the round staff previewed: the plan is computed again and must match ``expect``.

    ``expect`` is the previewed plan's :meth:`SeatPlan.digest`; a round that finished
    differently (an undo, a tie-break) since the preview changes the seating, and the
    confirm is refused so that nobody is seated where staff did not see them. ``config``
    (the settings form's round) replaces the preset's settings for this round; ``configs``
    does so by round slug (each Number10 course created by one confirm has its own).
    """
    plan = preset_round_plan(tournament=tournament, preset=preset, round_slug=round_slug,
                             first_round=first_round, groups=groups,
                             course_order=course_order, raised=raised)
    if not plan.groups:
        raise BuzzerRefused("courses", _("コースの順番と札を挙げた人を入力してください。"))
    if plan.digest() != expect:
        raise BuzzerRefused(
            "stale", _("確認した後に席順が変わりました。新しい席順を確認してから作成してください。"))
    chosen = dict(configs or {})
    if config is not None:
        chosen[round_slug] = config
    return _plan_create(tournament=tournament, plan=plan, configs=chosen, by=by)


@transaction.atomic
def preset_round_seat(
    *,
    tournament: Tournament,
    preset: str,
    round_slug: str,
    by: Any = None,
    first_round: Sequence[str] | None = None,
    groups: int | None = None,
) -> list[BuzzerRound]:
    """Create one round of a preset, one :class:`BuzzerRound` per group, seated by the engine.

    The engine evaluates the round's feed against the finished rounds of the same preset
    (winners of one round feed the next, carried points and all). ``first_round`` is the
    1st Round ranking (names, best first), needed by rounds fed from "1r"; later rounds
    reuse the ranking their sources were seated with.
    """
    plan = preset_round_plan(tournament=tournament, preset=preset, round_slug=round_slug,
                             first_round=first_round, groups=groups)
    if not plan.groups:
        raise BuzzerRefused(
            "courses",
            _("コースは参加者が選びます（優先順: %(order)s）。「コース決め」の欄から作成してください。")
            % {"order": "、".join(_names(plan, plan.priority))},
        )
    return _plan_create(tournament=tournament, plan=plan, configs={}, by=by)


def _names(plan: SeatPlan, keys: Sequence[str]) -> list[str]:
    by_key = {row["key"]: row["name"] for row in plan.first_round}
    return [by_key.get(k, k) for k in keys]


def preset_rounds_create(
    *, tournament: Tournament, preset: str, by: Any = None
) -> list[BuzzerRound]:
    """Seat every round of ``preset`` that can be seated now (sources over, ranking known)."""
    tp = preset_or_refuse(preset)
    created: list[BuzzerRound] = []
    for rp in tp.rounds:
        try:
            created += preset_round_seat(
                tournament=tournament, preset=preset, round_slug=rp.slug, by=by
            )
        except BuzzerRefused:
            continue
    return created


@transaction.atomic
def preset_courses_seat(
    *,
    tournament: Tournament,
    preset: str,
    order: Sequence[str],
    raised: Mapping[str, Sequence[str]],
    by: Any = None,
) -> list[BuzzerRound]:
    """Number10 (M3): seat the course rounds after the entry time.

    ``order`` is the courses' drawn order (round slugs); ``raised[slug]`` the names who
    held a plate up for that course. The engine's priority (2R pass order → 1R rank),
    overflow and forced filling decide who plays where; each course becomes one round,
    seated in priority order.
    """
    tp = preset_or_refuse(preset)
    courses = [r for r in tp.rounds if r.feed is not None and r.feed.grouping == "courses"]
    if not courses:
        raise BuzzerRefused("no_courses", _("このプリセットにはコース選択がありません。"))
    plan = preset_round_plan(tournament=tournament, preset=preset, round_slug=courses[0].slug,
                             course_order=order, raised=raised)
    return _plan_create(tournament=tournament, plan=plan, configs={}, by=by)
