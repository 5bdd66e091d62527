"""The only place that turns database rows into rule-engine inputs (and back into names).

Services and selectors load rows, hand them here as plain snapshots, and get engine
objects (a :class:`~brackets.engine.catalog.Catalog`, a
:class:`~brackets.engine.results.MatchResult`, a :class:`~brackets.engine.restrictions.Choices`
...) in return. No rule is decided here: this module only translates. Players are keyed by
``str(entrant_id)`` inside the engine.

Seams (marked ``SEAM``): the engine's preset registry (``brackets.engine.presets``) was not
available when this was written; :func:`round_plan` reads it when it exists and otherwise
falls back to the plain-data round descriptions in :data:`FALLBACK_PLANS`, which restate the
seed pages' round structure as configuration (no rule logic).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from brackets.engine.catalog import Catalog, Selection
from brackets.engine.errors import EngineError, Violation
from brackets.engine.lottery import Lottery
from brackets.engine.restrictions import (
    BASIC_RULE,
    Choices,
    HistoryEntry,
    MatchRules,
    Mode,
    PlayerRules,
    legal_choices,
)
from brackets.engine.results import (
    DEFAULT_PENALTY,
    MatchResult,
    Penalty,
    SeatEntry,
    match_result,
)
from brackets.engine.shura import (
    DrawnLots,
    ShuraDeclaration,
    lots_owed,
    shura_player_rules,
)

# ------------------------------------------------------------------------- catalog

_CATALOG_CACHE: dict[int, tuple[float, Catalog]] = {}
CATALOG_TTL = 30.0


def catalog_for(version_id: int) -> Catalog:
    """The engine catalog of a QMA version, built from the admin-editable rows.

    Cached per process for ``CATALOG_TTL`` seconds: pages read it on every request and it
    changes only when an organiser edits the admin.
    """
    hit = _CATALOG_CACHE.get(version_id)
    now = time.monotonic()
    if hit is not None and now - hit[0] < CATALOG_TTL:
        return hit[1]
    catalog = _load_catalog(version_id)
    _CATALOG_CACHE[version_id] = (now, catalog)
    return catalog


def clear_catalog_cache() -> None:
    _CATALOG_CACHE.clear()


def _load_catalog(version_id: int) -> Catalog:
    from brackets.models import Difficulty, Format, FormatGroup, Genre, QmaVersion, Rank, SubGenre

    version = QmaVersion.objects.get(id=version_id)
    genres = list(Genre.objects.filter(version=version).order_by("order", "id"))
    subs = list(SubGenre.objects.filter(version=version).select_related("genre")
                .order_by("order", "id"))
    groups = list(FormatGroup.objects.filter(version=version).order_by("order", "id"))
    formats = list(Format.objects.filter(version=version).order_by("order", "id"))
    data = {
        "format": "kyushu-catalog/1",
        "slug": version.slug,
        "genres": [{"name": g.name, "non_genre": g.is_non_genre,
                    "subgenres": [s.name for s in subs if s.genre_id == g.id]} for g in genres],
        "format_groups": [{"name": grp.name,
                           "formats": [f.name for f in formats if f.group_id == grp.id]}
                          for grp in groups],
        "difficulties": list(Difficulty.objects.filter(version=version)
                             .order_by("order", "id").values_list("name", flat=True)),
        "ranks": [{"name": r.name, "q_min": r.q_min, "q_max": r.q_max}
                  for r in Rank.objects.filter(version=version).order_by("order", "id")],
    }
    return Catalog.from_fixture(data)


# ------------------------------------------------------------------------ presets

# SEAM: plain-data round descriptions used until ``brackets.engine.presets`` exists.
# Keys: name, kind (groups | rule_select | partner | series | ranked_final), per_group,
# target, seeds_enter (seeds join this round), draw (random | snake | mod), window (history
# window name or None), recorded, restriction (basic | rank | free), cards, bans, rules
# (per-rule settings for rule_select), contenders_from, wins_needed.
_K_BASE = {"restriction": "basic", "window": "main", "recorded": True, "draw": "random",
           "per_group": 2, "target": None, "seeds_enter": False, "cards": False,
           "bans": False, "kind": "groups"}

FALLBACK_PLANS: dict[str, dict[str, Any]] = {
    "kyushu-cup-ix": {
        "name": "九州杯IX",
        "seeds_from_round": 2,
        "dummy_set": ["ノンジャンル", "ランダム", "HARD"],
        "penalty": "400",
        "rounds": [
            {**_K_BASE, "name": "1回戦", "target": 40},
            {**_K_BASE, "name": "2回戦", "seeds_enter": True},
            {**_K_BASE, "name": "3回戦", "kind": "rule_select",
             "rules": {"A": {"capacity": 12, "per_group": 2, "window": "main",
                             "recorded": True},
                       "B": {"capacity": 8, "per_group": 1, "window": None,
                             "recorded": False}},
             "order_from_round": 2},
            {**_K_BASE, "name": "4回戦", "cards": True},
            {**_K_BASE, "name": "準決勝", "bans": True},
            {**_K_BASE, "name": "3位決定戦", "kind": "partner", "window": None,
             "per_group": 1, "contenders_from": {"round": 5, "places": [3, 4]}},
            {**_K_BASE, "name": "決勝", "kind": "series", "window": "final",
             "per_group": 1, "wins_needed": 2,
             "contenders_from": {"round": 5, "places": [1, 2]}},
        ],
    },
    "katata-kansai5-qualifier": {
        "name": "堅田大会（関西杯5予選）",
        "seeds_from_round": None,
        "dummy_set": ["ノンジャンル", "ランダム", "HARD"],
        "penalty": "400",
        "rounds": [
            {**_K_BASE, "name": "1回戦", "restriction": "rank"},
            {**_K_BASE, "name": "準決勝", "restriction": "rank"},
            {**_K_BASE, "name": "決勝", "restriction": "rank", "kind": "ranked_final",
             "per_group": 4},
        ],
    },
    "shop-top2": {
        "name": "店舗大会（4人組・上位2名）",
        "seeds_from_round": None,
        "dummy_set": ["ノンジャンル", "ランダム", "HARD"],
        "penalty": "400",
        "rounds": [
            {**_K_BASE, "name": "1回戦", "restriction": "free"},
            {**_K_BASE, "name": "2回戦", "restriction": "free"},
            {**_K_BASE, "name": "決勝", "restriction": "free", "kind": "ranked_final",
             "per_group": 4},
        ],
    },
}
PRESET_ALIASES = {"kyushu-ix": "kyushu-cup-ix"}


def round_plan(preset_slug: str) -> dict[str, Any]:
    """The preset's rounds as plain data (see :data:`FALLBACK_PLANS` for the keys)."""
    slug = PRESET_ALIASES.get(preset_slug, preset_slug)
    try:  # SEAM: prefer the engine registry once it exposes a plain-data description.
        from brackets.engine import presets as engine_presets  # type: ignore[attr-defined]

        describe = getattr(engine_presets, "round_plan", None)
        if describe is not None:
            plan = describe(slug)
            if plan is not None:
                return dict(plan)
    except ImportError:
        pass
    if slug not in FALLBACK_PLANS:
        raise EngineError("preset_unknown", f"no preset {preset_slug!r}", preset=preset_slug)
    return FALLBACK_PLANS[slug]


# ---------------------------------------------------------------- match snapshots


@dataclass(frozen=True)
class SeatRow:
    """One seat of a group as the engine needs it (player None = the dummy)."""

    seat_id: int
    number: int
    player: str | None
    entrant_id: int | None


@dataclass
class GroupFacts:
    """The current (newest, not voided) facts of one group, keyed by seat number."""

    seats: list[SeatRow]
    results: dict[int, tuple[Decimal | None, int | None]] = field(default_factory=dict)
    selections: dict[int, Selection] = field(default_factory=dict)
    penalties: list[tuple[int, Decimal, str]] = field(default_factory=list)
    disqualified: list[int] = field(default_factory=list)


def player_key(entrant_id: int) -> str:
    return str(entrant_id)


def results_complete(facts: GroupFacts) -> bool:
    """Every occupied seat has a score and a placement."""
    return bool(facts.seats) and all(
        s.number in facts.results and None not in facts.results[s.number] for s in facts.seats
    )


def group_result(facts: GroupFacts, lottery: Lottery | None = None) -> MatchResult | None:
    """The engine's result for a group, or ``None`` while scores are missing."""
    if not results_complete(facts):
        return None
    by_number = {s.number: s for s in facts.seats}
    entries = []
    for seat in facts.seats:
        score, place = facts.results[seat.number]
        assert score is not None and place is not None
        entries.append(SeatEntry(seat.number, seat.player, score, place))
    penalties = [Penalty(by_number[n].player or "", pts, reason)
                 for n, pts, reason in facts.penalties if by_number.get(n) and by_number[n].player]
    dq = [by_number[n].player for n in facts.disqualified
          if by_number.get(n) and by_number[n].player]
    return match_result(
        entries,
        group=[s.player for s in facts.seats if s.player],
        penalties=penalties,
        disqualified=[p for p in dq if p],
        lottery=lottery,
    )


# --------------------------------------------------------------- player rules


@dataclass(frozen=True)
class EntrantRulesInput:
    """What the desk recorded about an entrant that bears on their restrictions."""

    entrant_id: int
    q_level: int
    opt_up: str = ""
    national_title: bool = False
    shiga_winner: bool = False
    invited: bool = False
    volunteer: bool = False
    extra_lots: int = 0
    lot_genres: tuple[str, ...] | None = None
    lot_formats: tuple[str, ...] = ()


def declaration_of(e: EntrantRulesInput) -> ShuraDeclaration:
    return ShuraDeclaration(national_title=e.national_title, shiga_winner=e.shiga_winner,
                            seed_or_invitation=e.invited, volunteer=e.volunteer,
                            extra_lots=e.extra_lots)


def rules_input_from_entrant(entrant: Any, lots: Mapping[str, Any] | None) -> EntrantRulesInput:
    """Translate an Entrant row (and its drawn 修羅 lots, if any) for the engine."""
    return EntrantRulesInput(
        entrant_id=entrant.id, q_level=entrant.q_level, opt_up=entrant.opt_up or "",
        national_title=entrant.shura_titles > 0, shiga_winner=entrant.shura_local_wins > 0,
        invited=entrant.shura_invited, volunteer=entrant.shura_voluntary,
        extra_lots=entrant.shura_extra_lots,
        lot_genres=None if lots is None else tuple(lots.get("genres", ())),
        lot_formats=() if lots is None else tuple(lots.get("formats", ())),
    )


def player_rules(restriction: str, e: EntrantRulesInput) -> PlayerRules:
    """A player's standing restrictions for a round of the given restriction kind."""
    if restriction == "basic":
        return BASIC_RULE
    if restriction == "free":
        return PlayerRules()
    owed = lots_owed(declaration_of(e))
    drawn = None
    if e.lot_genres is not None:
        drawn = DrawnLots(player_key(e.entrant_id), e.lot_genres, e.lot_formats)
    elif owed.shura:
        # Lots owed but not drawn yet: the player is BOMBER; no lot bans exist yet.
        drawn = DrawnLots(player_key(e.entrant_id), (), ())
    opt = Mode(e.opt_up) if e.opt_up else None
    return shura_player_rules(e.q_level, owed, drawn, opt_up=opt)


def history_of(rows: Iterable[tuple[Selection, str, str | None, bool]]) -> list[HistoryEntry]:
    """(selection, round label, window, recorded) rows → the engine's history entries."""
    out = []
    for selection, label, window, recorded in rows:
        if window is None:
            # A match that ignores history does not feed it either (K9, K6 rule B).
            continue
        out.append(HistoryEntry(selection, label, window, recorded))
    return out


def match_rules(
    *,
    label: str,
    window: str | None,
    card_genres: Sequence[str] | None = None,
    card_groups: Sequence[str] | None = None,
    bans: Mapping[str, Sequence[str]] | None = None,
    partner: Selection | None = None,
) -> MatchRules:
    return MatchRules(
        round=label, window=window, apply_lots=True,
        card_genres=None if card_genres is None else frozenset(card_genres),
        card_groups=None if card_groups is None else frozenset(card_groups),
        match_bans=dict(bans or {}), partner=partner,
    )


def choices_for(catalog: Catalog, rules: PlayerRules, history: Sequence[HistoryEntry],
                rules_of_match: MatchRules) -> Choices:
    return legal_choices(catalog, rules, history, rules_of_match)


def penalty_points(plan: Mapping[str, Any]) -> Decimal:
    return Decimal(str(plan.get("penalty", DEFAULT_PENALTY)))


# ----------------------------------------------------------------- messages


VIOLATION_TEXT = {
    "genre_used": "{genre} は{round}で使用済み",
    "group_used": "{group} は{round}で使用済み",
    "format_used": "{format} は{round}で使用済み",
    "pair_used": "{genre}×{format} は{round}で使用済み（ピンポイント）",
    "genre_lot": "{genre} は修羅くじで使用不可",
    "format_lot": "{format} は修羅くじで使用不可",
    "genre_not_drawn": "{genre} は引いたカードにない",
    "group_not_drawn": "{group} は引いたカードにない",
    "genre_banned": "{genre} は禁止ジャンル",
    "partner_same_genre": "パートナーと同じジャンル（{genre}）",
    "partner_same_group": "パートナーと同じ形式群（{group}）",
    "nongenre_fallback": "使えるジャンルがないためノンジャンルのみ",
    "random_fallback": "使える形式がないためランダムのみ",
    "forced_fallback": "ノンジャンル・ランダムのみ",
    "not_allowed": "選択不可",
    "placement_below_lower_score": "サテ{seat}（{place}位 {score}）がサテ{other_seat}"
                                   "（{other_place}位 {other_score}）より低い得点",
    "placement_tie_with_different_scores": "サテ{seat}とサテ{other_seat}が同順位なのに得点が違う",
    "missing_result": "結果のない選手がいる",
    "rematch_selection_changed": "再試合で出題を変更",
    "advancement_short": "勝ち抜け人数が目標（{target}）に届かない",
    "advancement_over_target": "勝ち抜け人数が目標（{target}）を超える",
    "unresolved_tie_at_cut": "ボーダーで同率：抽選が必要",
}


def violation_text(v: Violation, names: Mapping[str, str] | None = None) -> str:
    """A Japanese message for an engine violation (player keys shown as names)."""
    params = {k: _show(val, names) for k, val in v.params.items()}
    template = VIOLATION_TEXT.get(v.code, v.code)
    try:
        return template.format(**params)
    except (KeyError, IndexError):
        return template


def _show(value: Any, names: Mapping[str, str] | None) -> Any:
    if isinstance(value, str) and names and value in names:
        return names[value]
    if isinstance(value, (list, tuple)):
        return "・".join(str(_show(v, names)) for v in value)
    return value


ERROR_TEXT = {
    "score_out_of_range": "サテ{seat}の得点 {score} は {low}〜{high} の範囲外です",
    "score_precision": "サテ{seat}の得点は小数2桁までです",
    "score_not_decimal": "サテ{seat}の得点が数値ではありません",
    "placements_invalid": "順位 {placements} は1位から順に付けてください（同じ順位の重複不可）",
    "player_not_in_group": "この組にいない選手の結果です",
    "tie_needs_lottery": "同順位があります：抽選で順位を決めてください",
    "seat_twice": "同じサテが2回あります",
    "two_dummies": "ダミーは1組に1人までです",
}


def error_text(exc: EngineError) -> str:
    template = ERROR_TEXT.get(exc.code)
    if template is None:
        return str(exc)
    try:
        return template.format(**exc.params)
    except (KeyError, IndexError):
        return str(exc)
