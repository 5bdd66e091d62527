"""Writes for preset tournaments: seat a preset round from the rounds that feed it.

The engine's :func:`~brackets.engine.buzzer.entrants` decides who plays where; this
module reads the finished rounds and creates the seated rounds with
:func:`brackets.services.buzzer.buzzer_round_create`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from brackets.engine import EngineError
from brackets.engine.buzzer import (
    PRESETS,
    RoundState,
    entrants,
    is_skipped,
    number10_courses,
)
from brackets.messages import error_text
from brackets.models import (
    BuzzerRound,
    Entrant,
    Tournament,
)
from brackets.selectors.buzzer import (
    round_state,
)
from brackets.services.buzzer import BuzzerRefused, buzzer_round_create


def available_presets() -> list[Any]:
    """The engine's whole-tournament presets (seed 003, seed 004 …), in slug order."""
    return [PRESETS.get(slug) for slug in PRESETS.slugs()]


def _first_round_rows(tournament: Tournament, names: Sequence[str]) -> list[dict[str, Any]]:
    """1st Round ranking rows (best first) with stable player keys for every later round."""
    by_name: dict[str, Entrant] = {}
    for entrant in Entrant.objects.filter(tournament=tournament):
        by_name.setdefault(entrant.name, entrant)
        by_name.setdefault(entrant.card_name, entrant)
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index, raw in enumerate(names, start=1):
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


def _preset_results(
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


@transaction.atomic
def _fed_entrants(tp: Any, round_slug: str, results: Any, ranks: Any, **kwargs: Any) -> Any:
    """The engine's seating of a preset round from the rounds that feed it; an engine
    refusal (feeding round unfinished or missing) becomes a message for staff."""

    try:
        return entrants(tp, round_slug, results, ranks, **kwargs)
    except EngineError as error:
        messages = {
            "round_not_over": _("前のラウンドがまだ終わっていません。"),
            "missing_result": _("前のラウンドがまだ作成されていません。"),
        }
        raise BuzzerRefused(
            error.code, messages.get(error.code) or error_text(error)
        ) from error


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

    The engine's :func:`~brackets.engine.buzzer.presets.entrants` evaluates the round's
    feed against the finished rounds of the same preset (winners of one round feed the
    next, carried points and all). ``first_round`` is the 1st Round ranking (names, best
    first), needed by rounds fed from "1r"; later rounds reuse the ranking their sources
    were seated with.
    """
    try:
        tp = PRESETS.get(preset)
        rp = tp.round(round_slug)
    except EngineError as error:
        raise BuzzerRefused(error.code, _("プリセットのラウンドが見つかりません。")) from error
    if rp.config is None or rp.feed is None:
        raise BuzzerRefused(
            "no_feed", _("このラウンドは早押し画面では進行しません（ペーパークイズなど）。")
        )
    results, by_slug = _preset_results(tournament, preset)
    if round_slug in by_slug:
        raise BuzzerRefused("exists", _("このラウンドはすでに作成されています。"))

    if is_skipped(tp, round_slug, dict(results)):
        raise BuzzerRefused(
            "skipped", _("前のステップで敗者復活が決まったため、このラウンドは行いません。")
        )
    if first_round:
        rows = _first_round_rows(tournament, first_round)
    else:
        sources = [r for src in rp.feed.sources for r in by_slug.get(src, [])]
        if not sources:
            sources = [r for rs in by_slug.values() for r in rs]
        rows = next((list(r.first_round) for r in sources if r.first_round), [])
        if not rows:
            raise BuzzerRefused("no_ranking", _("1R順位を入力してください。"))
    ranks = {row["key"]: index for index, row in enumerate(rows, start=1)}
    names = {row["key"]: row["name"] for row in rows}
    entrant_ids = {row["key"]: row.get("entrant") for row in rows}
    split = _fed_entrants(tp, round_slug, results, ranks, groups=groups)
    if rp.feed.grouping == "courses":
        raise BuzzerRefused(
            "courses",
            _(
                "コースは参加者が選びます（優先順: %(order)s）。「コース決め」の欄から作成してください。"
            )
            % {"order": "、".join(names.get(s.id, s.id) for s in split[0])},
        )
    entrant_objs = {
        e.pk: e
        for e in Entrant.objects.filter(
            tournament=tournament, pk__in=[i for i in entrant_ids.values() if i]
        )
    }
    feeds_from = next((r for src in rp.feed.sources for r in by_slug.get(src, [])), None)
    position = list(tp.rounds).index(rp) * 10
    created: list[BuzzerRound] = []
    labels = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for index, specs in enumerate(split):
        if not specs:
            continue
        round_ = buzzer_round_create(
            tournament=tournament,
            name=rp.name,
            group_name=f"{labels[index]}組" if len(split) > 1 else "",
            config=rp.config,
            players=[
                {
                    "key": s.id,
                    "name": names.get(s.id, s.id),
                    "entrant": entrant_objs.get(entrant_ids.get(s.id) or 0),
                    "seat": s.seat,
                    "rank": s.rank,
                    "advantage": s.advantage,
                    "carried": {
                        "points": s.points,
                        "rests": s.rests,
                        "board_correct": s.board_correct,
                    },
                }
                for s in specs
            ],
            by=by,
            preset=preset,
            round_slug=round_slug,
            position=position + index,
            feeds_from=feeds_from,
        )
        BuzzerRound.objects.filter(pk=round_.pk).update(first_round=rows)
        round_.first_round = rows
        created.append(round_)
    return created


def preset_rounds_create(
    *, tournament: Tournament, preset: str, by: Any = None
) -> list[BuzzerRound]:
    """Seat every round of ``preset`` that can be seated now (sources over, ranking known)."""
    try:
        tp = PRESETS.get(preset)
    except EngineError as error:
        raise BuzzerRefused(error.code, _("プリセットが見つかりません。")) from error
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
    overflow and forced filling (:func:`~brackets.engine.buzzer.assignment.number10_courses`)
    decide who plays where; each course becomes one round, seated in priority order.
    """
    try:
        tp = PRESETS.get(preset)
    except EngineError as error:
        raise BuzzerRefused(error.code, _("プリセットが見つかりません。")) from error
    courses = [r for r in tp.rounds if r.feed is not None and r.feed.grouping == "courses"]
    slugs = [r.slug for r in courses]
    if not courses:
        raise BuzzerRefused("no_courses", _("このプリセットにはコース選択がありません。"))
    if sorted(order) != sorted(slugs):
        raise BuzzerRefused("bad_request", _("コースの順番をすべて入力してください。"))
    results, by_slug = _preset_results(tournament, preset)
    if any(slug in by_slug for slug in slugs):
        raise BuzzerRefused("exists", _("コースのラウンドはすでに作成されています。"))
    sources = [r for src in courses[0].feed.sources for r in by_slug.get(src, [])]  # type: ignore[union-attr]
    rows = next((list(r.first_round) for r in sources if r.first_round), [])
    if not rows:
        raise BuzzerRefused("missing_result", _("前のラウンドがまだ作成されていません。"))
    ranks = {row["key"]: index for index, row in enumerate(rows, start=1)}
    names = {row["key"]: row["name"] for row in rows}
    priority_specs = _fed_entrants(tp, slugs[0], results, ranks)[0]
    specs = {spec.id: spec for spec in priority_specs}
    priority = [spec.id for spec in priority_specs]
    key_of = {names[pid]: pid for pid in priority}
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
                    _("「%(name)s」はこのラウンドの参加者ではありません。") % {"name": name},
                )
            keys.append(key_of[name])
        raised_keys[slug] = keys
    size = len(priority) // len(slugs)
    try:
        placed = number10_courses(list(order), raised_keys, priority, size=size)
    except EngineError as error:
        raise BuzzerRefused(error.code, error_text(error)) from error
    entrant_ids = {row["key"]: row.get("entrant") for row in rows}
    entrant_objs = {
        e.pk: e
        for e in Entrant.objects.filter(
            tournament=tournament, pk__in=[i for i in entrant_ids.values() if i]
        )
    }
    feeds_from = sources[0] if sources else None
    created: list[BuzzerRound] = []
    for index, slug in enumerate(order):
        rp = tp.round(slug)
        seated = sorted(placed[slug], key=priority.index)
        round_ = buzzer_round_create(
            tournament=tournament,
            name=rp.name,
            config=rp.config,  # type: ignore[arg-type]
            players=[
                {
                    "key": pid,
                    "name": names.get(pid, pid),
                    "entrant": entrant_objs.get(entrant_ids.get(pid) or 0),
                    "seat": seat,
                    "rank": specs[pid].rank,
                }
                for seat, pid in enumerate(seated, start=1)
            ],
            by=by,
            preset=preset,
            round_slug=slug,
            position=list(tp.rounds).index(courses[0]) * 10 + index,
            feeds_from=feeds_from,
        )
        BuzzerRound.objects.filter(pk=round_.pk).update(first_round=rows)
        round_.first_round = rows
        created.append(round_)
    return created
