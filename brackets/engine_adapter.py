"""The only place that turns database rows into rule-engine inputs (and back into names).

Services and selectors load rows, hand them here as plain snapshots, and get engine
objects (a :class:`~brackets.engine.catalog.Catalog`, a
:class:`~brackets.engine.results.MatchResult`, a :class:`~brackets.engine.restrictions.Choices`
...) in return. No rule is decided here: this module only translates. Players are keyed by
``str(entrant_id)`` inside the engine.

Rounds come from the engine's preset registry (``brackets.engine.presets``); each round
stores the engine's own :class:`~brackets.engine.presets.RoundSpec` and the preset slug and
settings it was planned with (``brackets.adapters.rounds`` reads and writes that form).
Preset *settings* are the tournament's: :attr:`Tournament.preset_settings` holds the values
the organiser changed and the engine's defaults fill in the rest (:func:`preset_for`
accepts a tournament or a slug plus settings).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import Any

from brackets.engine import (
    BASIC_RULE,
    DEFAULT_SCREEN_TIE_BREAK,
    DEFAULT_SHURA_RULES,
    Catalog,
    Choices,
    DrawnLots,
    HistoryEntry,
    Lottery,
    MatchResult,
    MatchRules,
    Mode,
    Penalty,
    PlayerRules,
    RoundRestrictions,
    RuleRefusal,
    SeatEntry,
    Selection,
    ShuraDeclaration,
    ShuraRules,
    legal_choices,
    lots_owed,
    match_result,
    mode_for_q,
    shura_player_rules,
)
from brackets.engine import cards_pending as engine_cards_pending

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

PRESET_ALIASES = {"kyushu-ix": "kyushu-cup-ix"}

#: The preset slug of a tournament created from a composed rule set (#17): its settings
#: are ``{"document": RuleSet.to_dict()}``, the exact rules it was created with, so each
#: round's stored spec rebuilds the same preset without reading the rule set's rows.
RULESET_PRESET = "ruleset"


def preset_source(source: Any, settings: Mapping[str, Any] | None = None
                  ) -> tuple[str, dict[str, Any]]:
    """(engine slug, changed settings) of a tournament, or of a slug plus ``settings``."""
    if isinstance(source, str):
        return PRESET_ALIASES.get(source, source), dict(settings or {})
    slug = PRESET_ALIASES.get(source.preset, source.preset)
    if settings is not None:
        return slug, dict(settings)
    stored = dict(getattr(source, "preset_settings", None) or {})
    if slug == RULESET_PRESET:
        return slug, stored
    # Values typed for another preset (the tournament's preset was switched since, or the
    # row was imported) do not apply: only keys this preset declares are passed on.
    from brackets.engine import preset_settings

    try:
        keys = {s.key for s in preset_settings(slug)}
    except RuleRefusal:
        return slug, stored
    return slug, {k: v for k, v in stored.items() if k in keys}


def preset_for(source: Any, settings: Mapping[str, Any] | None = None) -> Any:
    """The engine's preset (``brackets.engine.presets``) for a tournament (its preset slug
    and the setting values its organiser changed) or for a slug plus ``settings``.

    A pure function of (slug, settings), so built presets are cached per process: pages
    ask for it on every request. Bad settings raise the engine's ``EngineError``.
    """
    slug, values = preset_source(source, settings)
    return _preset_cached(slug, json.dumps(values, sort_keys=True, default=str))


def event_key(tournament: Any) -> str:
    """Which event a tournament is an edition of (6-c-iii reads the earlier editions' wins):
    its preset, and for a rule-set tournament the slug its rules' document gives the event,
    so two organisers' composed events are never read as one."""
    slug, settings = preset_source(tournament)
    if slug != RULESET_PRESET:
        return slug
    document = settings.get("document")
    named = document.get("slug") if isinstance(document, Mapping) else None
    return f"{RULESET_PRESET}:{named or tournament.pk}"


@lru_cache(maxsize=256)
def _preset_cached(slug: str, settings_json: str) -> Any:
    from brackets.engine import get_preset

    if slug == RULESET_PRESET:
        return ruleset_preset(json.loads(settings_json))
    return get_preset(slug, json.loads(settings_json))


def ruleset_preset(settings: Mapping[str, Any]) -> Any:
    """The preset compiled from a rule-set tournament's settings (``{"document": …}``).

    A document that cannot be read is refused as the reader refuses it (the key named), as
    a preset refuses a bad setting."""
    from brackets.engine import RuleSet, compile_ruleset

    unknown = sorted(set(settings) - {"document"})
    if unknown or "document" not in settings:
        raise RuleRefusal("ruleset_key_unknown" if unknown else "ruleset_key_missing",
                          f"rule-set settings: {sorted(settings)}",
                          key=unknown[0] if unknown else "document")
    return compile_ruleset(RuleSet.from_dict(settings["document"]))


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


def group_result(facts: GroupFacts, lottery: Lottery | None = None,
                 screen_tie_break: Sequence[str] = DEFAULT_SCREEN_TIE_BREAK
                 ) -> MatchResult | None:
    """The engine's result for a group, or ``None`` while scores are missing.

    ``screen_tie_break`` is the round's chain for players the screen shows on one
    placement (H9)."""
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
        screen_tie_break=screen_tie_break,
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


def declaration_of(e: EntrantRulesInput, rules: ShuraRules = DEFAULT_SHURA_RULES) -> ShuraDeclaration:
    """The entrant's 修羅 declaration weighed by ``rules`` (their event's 修羅)."""
    return ShuraDeclaration(national_title=e.national_title, shiga_winner=e.shiga_winner,
                            seed_or_invitation=e.invited, volunteer=e.volunteer,
                            extra_lots=e.extra_lots, rules=rules)


def rules_input_from_entrant(entrant: Any, lots: Mapping[str, Any] | None,
                             duties: Any = None) -> EntrantRulesInput:
    """Translate an Entrant row (and its drawn 修羅 lots, if any) for the engine.

    ``duties`` are the entrant's duties in force (``brackets.selectors.duties``: the desk's
    typing combined with the registry); without them, what the desk typed alone."""
    if duties is None:
        return EntrantRulesInput(
            entrant_id=entrant.id, q_level=entrant.q_level, opt_up=entrant.opt_up or "",
            national_title=entrant.shura_titles > 0, shiga_winner=entrant.shura_local_wins > 0,
            invited=entrant.shura_invited, volunteer=entrant.shura_voluntary,
            extra_lots=entrant.shura_extra_lots,
            lot_genres=None if lots is None else tuple(lots.get("genres", ())),
            lot_formats=() if lots is None else tuple(lots.get("formats", ())),
        )
    return EntrantRulesInput(
        entrant_id=entrant.id, q_level=duties.q_level, opt_up=entrant.opt_up or "",
        national_title=duties.titles > 0, shiga_winner=duties.local_wins > 0,
        invited=duties.invited, volunteer=duties.volunteer, extra_lots=duties.extra_lots,
        lot_genres=None if lots is None else tuple(lots.get("genres", ())),
        lot_formats=() if lots is None else tuple(lots.get("formats", ())),
    )


def player_rules(restriction: str, e: EntrantRulesInput, preset: Any = "",
                 settings: Mapping[str, Any] | None = None) -> PlayerRules:
    """A player's standing restrictions: the preset decides (K1 fixed, or H2–H5 by rank
    with 修羅 lots); ``restriction`` "free" is a round without any history rule.
    ``preset`` is a slug (with the round spec's ``preset_settings``) or a tournament."""
    if restriction == "free":
        return PlayerRules()
    if restriction == "basic":
        return BASIC_RULE
    p = preset_for(preset, settings) if restriction == "preset" and preset else None
    owed = lots_owed(declaration_of(e, p.shura_rules if p is not None else DEFAULT_SHURA_RULES))
    drawn = None
    if e.lot_genres is not None:
        drawn = DrawnLots(player_key(e.entrant_id), e.lot_genres, e.lot_formats)
    elif owed.shura:
        # Lots owed but not drawn yet: the player is BOMBER; no lot bans exist yet.
        drawn = DrawnLots(player_key(e.entrant_id), (), ())
    opt = Mode(e.opt_up) if e.opt_up else None
    if p is not None:
        if p.mode_source == "fixed":
            return p.fixed_rules
        return p.player_rules(q_level=e.q_level, opt_up=_stricter_only(opt, e.q_level, p),
                              owed=owed, drawn=drawn)
    return shura_player_rules(e.q_level, owed, drawn, opt_up=_stricter_only(opt, e.q_level))


def opt_up_laxer_than_rank(tournament: Any, q_level: int, opt_up: str) -> tuple[str, str] | None:
    """H2: (opt-up, the rank's mode) when a プチ修羅の道 declaration is laxer than the mode
    the entrant's Q level gives in this tournament's preset (the desk refuses it), else
    None. Presets with one fixed mode for everyone (K1) ignore the declaration."""
    if not opt_up:
        return None
    p = preset_for(tournament)
    if p.mode_source == "fixed" or _stricter_only(Mode(opt_up), q_level, p) is not None:
        return None
    return opt_up, mode_for_q(q_level, p.thresholds).value


def _stricter_only(opt: Mode | None, q_level: int, p: Any = None) -> Mode | None:
    """``opt`` when it is at least as strict as the rank's mode (H2), else None: a laxer
    declaration changes nothing, the rank's mode being the stricter. The desk refuses such
    a declaration (:func:`opt_up_laxer_than_rank`), but one recorded before the Q level was
    raised or the preset switched must not make every page of the player's group fail:
    the engine treats it as a desk error."""
    if opt is None:
        return None
    rank = mode_for_q(q_level, p.thresholds) if p is not None else mode_for_q(q_level)
    return opt if opt.strictness >= rank.strictness else None


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
    apply_lots: bool = True,
    card_genres: Sequence[str] | None = None,
    card_groups: Sequence[str] | None = None,
    bans: Mapping[str, Sequence[str]] | None = None,
    partner: Selection | None = None,
) -> MatchRules:
    return MatchRules(
        round=label, window=window, apply_lots=apply_lots,
        card_genres=None if card_genres is None else frozenset(card_genres),
        card_groups=None if card_groups is None else frozenset(card_groups),
        match_bans=dict(bans or {}), partner=partner,
    )


def cards_pending(conf: RoundRestrictions, drawn: Sequence[Sequence[str]] | None) -> bool:
    """K7 as a flag for pages: True while the match waits for its cards
    (:func:`brackets.engine.cards_pending`)."""
    return engine_cards_pending(conf, drawn=drawn is not None)


def choices_for(catalog: Catalog, rules: PlayerRules, history: Sequence[HistoryEntry],
                rules_of_match: MatchRules) -> Choices:
    return legal_choices(catalog, rules, history, rules_of_match)


