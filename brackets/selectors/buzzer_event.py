"""Reads for a whole live event from a preset: every round laid out in order, and who a
round would seat now (the preview staff confirm).

The engine's :func:`~brackets.engine.buzzer.entrants` (snake, mod-n, carried points,
written-phase survivors) and :func:`~brackets.engine.buzzer.number10_courses` (course
entry) decide the seating; this module reads the rounds already played and turns the
engine's answer into a :class:`SeatPlan`. The services create exactly the plan the staff
saw: the plan's :meth:`SeatPlan.digest` travels with the confirm button and a changed plan
is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from brackets.engine import EngineError
from brackets.engine.buzzer import (
    PRESETS,
    RoundPreset,
    RoundState,
    TournamentPreset,
    advantages_by_seat,
    entrants,
    is_skipped,
    number10_courses,
)
from brackets.labels import listed, round_name
from brackets.messages import error_text
from brackets.models import BuzzerRound, Entrant, Tournament
from brackets.selectors.buzzer import round_state
from brackets.services.buzzer import BuzzerRefused

GROUP_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class PlannedGroup:
    """One round (or one group of a round) as it would be created."""

    round_slug: str
    name: str
    group_name: str
    position: int
    players: list[dict[str, Any]]


@dataclass(frozen=True)
class SeatPlan:
    """Who a preset round seats now, group by group, with the ranking it was built from."""

    preset: str
    round_slug: str
    groups: list[PlannedGroup]
    first_round: list[dict[str, Any]]
    feeds_from: BuzzerRound | None = None
    priority: list[str] = field(default_factory=list)

    def digest(self) -> str:
        """A fingerprint of the seating: the confirm refuses a plan that differs from it."""
        seating = [
            [g.round_slug, g.group_name,
             [[p["key"], p["seat"], p.get("advantage"), p.get("carried")] for p in g.players]]
            for g in self.groups
        ]
        raw = json.dumps(seating, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(raw.encode()).hexdigest()[:16]


def preset_or_refuse(slug: str) -> TournamentPreset:
    """The engine's preset ``slug``, or a refusal staff can read."""
    try:
        return PRESETS.get(slug)
    except EngineError as error:
        raise BuzzerRefused(error.code, _("プリセットが見つかりません。")) from error


def preset_results(
    tournament: Tournament, preset_slug: str
) -> tuple[dict[str, list[RoundState]], dict[str, list[BuzzerRound]]]:
    """Replayed states of the preset's rounds already created, by round slug (groups in order)."""
    rounds = list(
        BuzzerRound.objects.filter(
            tournament=tournament, preset=preset_slug, parent__isnull=True
        ).order_by("position", "group_name", "id")
    )
    states: dict[str, list[RoundState]] = {}
    by_slug: dict[str, list[BuzzerRound]] = {}
    for round_ in rounds:
        states.setdefault(round_.round_slug, []).append(round_state(round_))
        by_slug.setdefault(round_.round_slug, []).append(round_)
    return states, by_slug


def first_round_rows(tournament: Tournament, names: Sequence[str]) -> list[dict[str, Any]]:
    """1st Round ranking rows (best first) with stable player keys for every later round."""
    by_name: dict[str, Entrant] = {}
    for entrant in Entrant.objects.filter(tournament=tournament):
        by_name.setdefault(entrant.name, entrant)
        by_name.setdefault(entrant.card_name, entrant)
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for raw in names:
        name = raw.strip()
        if not name:
            continue
        if name in seen:
            raise BuzzerRefused("bad_player", _("「%(name)s」が2回あります。") % {"name": name})
        seen.add(name)
        entrant = by_name.get(name)
        key = f"e{entrant.pk}" if entrant is not None else f"r{len(rows) + 1}"
        rows.append({"key": key, "name": name, "entrant": entrant.pk if entrant else None})
    if not rows:
        raise BuzzerRefused("bad_player", _("1R順位を1人以上入力してください。"))
    return rows


def fed_entrants(tp: TournamentPreset, round_slug: str, results: Any, ranks: Any,
                 **kwargs: Any) -> Any:
    """The engine's seating of a preset round from the rounds that feed it; an engine
    refusal (feeding round unfinished or missing) becomes a message for staff."""
    try:
        return entrants(tp, round_slug, results, ranks, **kwargs)
    except EngineError as error:
        messages = {
            "round_not_over": _("前のラウンドがまだ終わっていません。"),
            "missing_result": _("前のラウンドがまだ作成されていません。"),
        }
        raise BuzzerRefused(error.code, messages.get(error.code) or error_text(error)) from error


def _ranking_rows(rp: RoundPreset, by_slug: Mapping[str, list[BuzzerRound]],
                  tournament: Tournament, first_round: Sequence[str] | None
                  ) -> list[dict[str, Any]]:
    if first_round:
        return first_round_rows(tournament, first_round)
    assert rp.feed is not None
    sources = [r for src in rp.feed.sources for r in by_slug.get(src, [])]
    if not sources:
        sources = [r for rs in by_slug.values() for r in rs]
    rows = next((list(r.first_round) for r in sources if r.first_round), [])
    if not rows:
        raise BuzzerRefused("no_ranking", _("1R順位を入力してください。"))
    return rows


def _player(key: str, seat: int, rows_by_key: Mapping[str, dict[str, Any]], **extra: Any
            ) -> dict[str, Any]:
    row = rows_by_key.get(key, {})
    return {"key": key, "name": row.get("name", key), "entrant": row.get("entrant"),
            "seat": seat, **extra}


def preset_round_plan(
    *,
    tournament: Tournament,
    preset: str,
    round_slug: str,
    first_round: Sequence[str] | None = None,
    groups: int | None = None,
    course_order: Sequence[str] | None = None,
    raised: Mapping[str, Sequence[str]] | None = None,
    loaded: tuple[dict[str, list[RoundState]], dict[str, list[BuzzerRound]]] | None = None,
) -> SeatPlan:
    """Who round ``round_slug`` of ``preset`` would seat now, without writing anything.

    ``first_round`` (names, best first) is needed by a round fed from the 1st Round; later
    rounds reuse the ranking their sources were seated with. For Number10 courses (M3)
    ``course_order`` (the drawn order of the course slugs) and ``raised`` (names holding
    a plate up, per course) give one group per course; without them the plan holds only
    the priority order. ``loaded`` is :func:`preset_results` already read (the layout
    plans every round from one read). Raises :class:`BuzzerRefused` with a Japanese message.
    """
    tp = preset_or_refuse(preset)
    try:
        rp = tp.round(round_slug)
    except EngineError as error:
        raise BuzzerRefused(error.code, _("プリセットのラウンドが見つかりません。")) from error
    if rp.config is None or rp.feed is None:
        raise BuzzerRefused(
            "no_feed", _("このラウンドは早押し画面では進行しません（ペーパークイズなど）。"))
    results, by_slug = loaded or preset_results(tournament, preset)
    courses = [r for r in tp.rounds if r.feed is not None and r.feed.grouping == "courses"]
    is_course = rp.feed.grouping == "courses"
    siblings = [r.slug for r in courses] if is_course else [round_slug]
    if any(slug in by_slug for slug in siblings):
        raise BuzzerRefused("exists", _("このラウンドはすでに作成されています。"))
    if is_skipped(tp, round_slug, dict(results)):
        raise BuzzerRefused(
            "skipped", _("前のステップで敗者復活が決まったため、このラウンドは行いません。"))
    rows = _ranking_rows(rp, by_slug, tournament, first_round)
    rows_by_key = {row["key"]: row for row in rows}
    ranks = {row["key"]: index for index, row in enumerate(rows, start=1)}
    split = fed_entrants(tp, siblings[0], results, ranks, groups=groups)
    feeds_from = next((r for src in rp.feed.sources for r in by_slug.get(src, [])), None)
    base = list(tp.rounds).index(courses[0] if is_course else rp) * 10
    if is_course:
        specs = {s.id: s for s in split[0]}
        priority = [s.id for s in split[0]]
        plan_groups: list[PlannedGroup] = []
        if course_order is not None:
            plan_groups = _course_groups(tp, siblings, course_order, raised or {}, priority,
                                         specs, rows_by_key, base)
        return SeatPlan(preset, round_slug, plan_groups, rows, feeds_from, priority)
    plan_groups = []
    for index, specs in enumerate(split):
        if not specs:
            continue
        # The head start staff will see on the stage: the player's own (L4) or the seat's.
        by_seat = advantages_by_seat([s.id for s in specs], rp.config.advantages)
        plan_groups.append(PlannedGroup(
            round_slug, rp.name, f"{GROUP_LABELS[index]}組" if len(split) > 1 else "",
            base + index,
            [_player(s.id, s.seat, rows_by_key, rank=s.rank, advantage=s.advantage,
                     carried={"points": s.points, "rests": s.rests,
                              "board_correct": s.board_correct},
                     head_start=s.advantage if s.advantage is not None else by_seat[s.id])
             for s in specs],
        ))
    return SeatPlan(preset, round_slug, plan_groups, rows, feeds_from)


def _course_groups(tp: TournamentPreset, slugs: list[str], order: Sequence[str],
                   raised: Mapping[str, Sequence[str]], priority: list[str], specs: Any,
                   rows_by_key: Mapping[str, dict[str, Any]], base: int) -> list[PlannedGroup]:
    if sorted(order) != sorted(slugs):
        raise BuzzerRefused("bad_request", _("コースの順番をすべて入力してください。"))
    key_of = {rows_by_key[pid]["name"]: pid for pid in priority if pid in rows_by_key}
    raised_keys: dict[str, list[str]] = {}
    for slug in slugs:
        keys = []
        for name in raised.get(slug, ()):
            name = name.strip()
            if not name:
                continue
            if name not in key_of:
                raise BuzzerRefused(
                    "unknown_player",
                    _("「%(name)s」はこのラウンドの参加者ではありません。") % {"name": name})
            keys.append(key_of[name])
        raised_keys[slug] = keys
    try:
        placed = number10_courses(list(order), raised_keys, priority,
                                  size=len(priority) // len(slugs))
    except EngineError as error:
        raise BuzzerRefused(error.code, error_text(error)) from error
    return [
        PlannedGroup(
            slug, tp.round(slug).name, "", base + index,
            [_player(pid, seat, rows_by_key, rank=specs[pid].rank)
             for seat, pid in enumerate(sorted(placed[slug], key=priority.index), start=1)],
        )
        for index, slug in enumerate(order)
    ]


@dataclass(frozen=True)
class LayoutRow:
    """One round of the event as the layout page shows it.

    ``status``: ``"created"`` (its rounds exist: ``rounds``), ``"ready"`` (it can be
    seated now), ``"needs_ranking"`` (fed from the 1st Round: type or pick the ranking),
    ``"waiting"`` (``reason`` says for what), ``"skipped"`` (M4: revival already decided)
    or ``"outside"`` (a paper or other round not run on the console).
    """

    preset: RoundPreset
    status: str
    rounds: list[BuzzerRound]
    reason: str = ""
    courses: bool = False


def _pending_sources(tp: TournamentPreset, rp: RoundPreset,
                     results: Mapping[str, list[RoundState]]) -> list[str]:
    """Names of the rounds ``rp`` follows that are not over yet (a skipped one is done)."""
    assert rp.feed is not None
    pending: list[str] = []
    for src in rp.feed.sources:
        if src == "1r" or tp.round(src).config is None or is_skipped(tp, src, dict(results)):
            continue
        states = results.get(src, [])
        if not states or any(state.phase != "over" for state in states):
            pending.append(round_name(tp.round(src).name))
    return pending


def event_layout(tournament: Tournament, preset: str) -> list[LayoutRow]:
    """Every round of ``preset`` in playing order with what can be done with it now."""
    tp = preset_or_refuse(preset)
    results, by_slug = preset_results(tournament, preset)
    layout: list[LayoutRow] = []
    for rp in tp.rounds:
        courses = rp.feed is not None and rp.feed.grouping == "courses"
        if rp.config is None or rp.feed is None:
            layout.append(LayoutRow(rp, "outside", [], _("早押し画面の外で行います（ペーパー"
                                                          "クイズなど）。")))
            continue
        if rp.slug in by_slug:
            layout.append(LayoutRow(rp, "created", by_slug[rp.slug], courses=courses))
            continue
        pending = _pending_sources(tp, rp, results)
        if pending:
            layout.append(LayoutRow(rp, "waiting", [], _("%(rounds)s の終了後に席が決まります。")
                                    % {"rounds": listed(pending)}, courses=courses))
            continue
        try:
            preset_round_plan(tournament=tournament, preset=preset, round_slug=rp.slug,
                              loaded=(results, by_slug))
        except BuzzerRefused as refused:
            status = {"no_ranking": "needs_ranking", "skipped": "skipped",
                      "exists": "created"}.get(refused.code, "waiting")
            layout.append(LayoutRow(rp, status, [], refused.message, courses=courses))
            continue
        layout.append(LayoutRow(rp, "ready", [], courses=courses))
    return layout
