"""The legal choices of one player in one match (:class:`Choices`), with the reasons for every
greyed set, the verdict on a set played, and the pair, card and ban helpers (K7–K10)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TypedDict

from brackets.engine.catalog import Catalog, Selection
from brackets.engine.errors import RuleRefusal, Violation
from brackets.engine.restrictions.rules import Counting, HistoryEntry, MatchRules, Mode, PlayerRules
from brackets.engine.restrictions.usage import (
    group_of_unit,
    unit_of,
    units_of,
    usage,
    window_entries,
)
from brackets.engine.results import DEFAULT_PENALTY, Penalty


@dataclass(frozen=True)
class SelectionCheck:
    """Verdict on a selection actually played.

    ``penalty`` is the points to subtract (positive, like
    :class:`brackets.engine.results.Penalty`) — the preset's penalty when the selection broke
    a rule while a legal choice existed, else 0. ``fallback`` says the selection was
    legal only thanks to a fallback (ノンジャンル / ランダム / forced set).
    """

    ok: bool
    violations: tuple[Violation, ...] = ()
    penalty: Decimal = Decimal(0)
    fallback: bool = False

    def penalty_for(self, player: str) -> Penalty | None:
        """The :class:`Penalty` to pass to ``results.match_result``, or None when none is due."""
        if not self.penalty:
            return None
        return Penalty(player, self.penalty, "illegal_selection")


@dataclass(frozen=True)
class Option:
    """One cell of the selection grid for a page: a set and why it is greyed (if it is)."""

    genre: str
    format: str
    group: str
    legal: bool
    reasons: tuple[Violation, ...]




class ChoicesSummary(TypedDict):
    """Plain data of :meth:`Choices.summary`: the one "used / left" of a player in a match.

    ``closed_genres`` / ``closed_units``: every genre / unit of the screen that is not
    open, with why (the genre-axis or format-axis :class:`Violation` values, empty when
    only a pair-level rule or the other axis's fallback closes it).
    """

    mode: str
    counting: str
    legal_genres: list[str]
    legal_units: list[str]
    genre_fallback: bool
    format_fallback: bool
    forced: list[str] | None
    used_genres: dict[str, str]
    used_units: dict[str, str]
    used_groups: dict[str, str]
    used_pairs: list[tuple[str, str]]
    #: The player's 修羅 lots (H4, H5), whole-event bans whether or not this match applies them.
    lots: list[str]
    closed_genres: dict[str, tuple[Violation, ...]]
    closed_units: dict[str, tuple[Violation, ...]]


def _check_names(catalog: Catalog, rules: PlayerRules, match: MatchRules) -> None:
    """Unknown names in lots, cards or bans are bad data, not rules: raise, never ignore."""
    for genre in rules.lot_genres:
        if not catalog.is_genre(genre):
            raise RuleRefusal("unknown_genre", f"unknown lot genre {genre!r}", genre=genre)
    for name in rules.lot_formats:
        if name not in catalog.group_names:
            catalog.group_of(name)
    for genre in (*(match.card_genres or ()), *match.match_bans):
        catalog.require_genre(genre)
    for group in match.card_groups or ():
        catalog.group_kind(group)


class Choices:
    """The legal choices of one player in one match, with reasons for the rest.

    Built by :func:`legal_choices`. Cheap attributes (computed eagerly): ``legal_genres``,
    ``legal_units``, ``genre_fallback``, ``format_fallback``, ``forced``. Everything per set
    (:meth:`is_legal`, :meth:`reasons`, :meth:`options`) is computed on demand.
    """

    def __init__(self, catalog: Catalog, rules: PlayerRules, history: Sequence[HistoryEntry],
                 match: MatchRules) -> None:
        self.catalog = catalog
        self.rules = rules
        self.match = match
        _check_names(catalog, rules, match)
        used = usage(catalog, rules, window_entries(history, match.window))
        self._used = used
        self._units = units_of(catalog, rules)

        genres_ok = set(catalog.genre_names)
        if rules.mode is Mode.BOMBER:
            genres_ok.difference_update(used.genres)
        if match.apply_lots:
            genres_ok.difference_update(rules.lot_genres)
        if match.card_genres is not None:
            genres_ok.intersection_update(match.card_genres)
        genres_ok.difference_update(match.match_bans)

        units_ok = set(self._units)
        if rules.mode is Mode.BOMBER:
            units_ok.difference_update(used.units)
        if match.apply_lots and rules.lot_formats:
            units_ok = {u for u in units_ok if not self._unit_lotted(u)}
        if match.card_groups is not None:
            units_ok = {u for u in units_ok
                        if group_of_unit(catalog, u) in match.card_groups}

        self.genre_fallback = not genres_ok
        self.format_fallback = not units_ok
        self._genres_ok = frozenset(genres_ok) if genres_ok else frozenset({catalog.nongenre})
        random_unit = unit_of(catalog, catalog.random_format, rules)
        self._units_ok = frozenset(units_ok) if units_ok else frozenset({random_unit})

        self.forced: tuple[str, str] | None = None
        general_units = sum(1 for u in self._units_ok
                            if u != catalog.subgenre_group and not catalog.is_subgenre(u))
        if match.partner is None and general_units > (
                len(used.pairs) if rules.mode is Mode.PINPOINT else 0):
            # Some unit usable with every genre is certainly not exhausted by pinpoint pairs
            # (fewer pairs used than such units): no search needed.
            legal_genres = [g for g in catalog.genre_names if g in self._genres_ok]
        else:
            legal_genres = [g for g in catalog.genre_names if g in self._genres_ok
                            and any(self._pair_ok(g, u) for u in self._units_ok)]
        if not legal_genres:
            # Pair-level rules (pinpoint history, partner constraint) left nothing: the
            # forced set, in the spirit of H6 applied on both axes at once.
            self.forced = (catalog.nongenre, catalog.random_format)
            legal_genres = [catalog.nongenre]
        self.legal_genres: tuple[str, ...] = tuple(legal_genres)
        self.legal_units: tuple[str, ...] = tuple(u for u in self._units if u in self._units_ok)

    # -- internals ---------------------------------------------------------------------

    def _unit_lotted(self, unit: str) -> bool:
        lots = self.rules.lot_formats
        if unit in lots:
            return True
        if self.rules.counting is Counting.INDIVIDUAL:
            return group_of_unit(self.catalog, unit) in lots
        # A format lot under 高火力 bans its whole group (a format is its group there).
        return any(self.catalog.group_of(f) == unit for f in lots
                   if f not in self.catalog.group_names)

    def _pair_ok(self, genre: str, unit: str) -> bool:
        """Pair-level legality on (genre, unit) for the existence search."""
        catalog = self.catalog
        if genre == catalog.nongenre and unit == catalog.subgenre_group:
            return False
        if catalog.is_subgenre(unit) and catalog.parent_of(unit) != genre:
            return False
        if (self.rules.mode is Mode.PINPOINT and (genre, unit) in self._used.pairs
                and not self._waived(genre, unit)):
            return False
        partner = self.match.partner
        if partner is not None:
            if partner.genre == genre:
                return False
            if catalog.group_of(partner.format) == group_of_unit(catalog, unit):
                return False
        return True

    def _genre_waived(self, genre: str) -> bool:
        """History reasons are waived for the fallback genre ("may be reused")."""
        return self.genre_fallback and genre == self.catalog.nongenre

    def _unit_waived(self, unit: str) -> bool:
        """History reasons are waived for the fallback unit ("may be reused")."""
        return self.format_fallback and unit == self._random_unit()

    def _waived(self, genre: str, unit: str) -> bool:
        return self._genre_waived(genre) or self._unit_waived(unit)

    def _random_unit(self) -> str:
        return unit_of(self.catalog, self.catalog.random_format, self.rules)

    def _genre_reasons(self, genre: str) -> list[Violation]:
        """Why ``genre`` is closed on its own axis (history, lots, cards, bans)."""
        rules, match, used = self.rules, self.match, self._used
        out: list[Violation] = []
        if rules.mode is Mode.BOMBER and genre in used.genres:
            out.append(Violation("genre_used", {"genre": genre, "round": used.genres[genre]}))
        if match.apply_lots and genre in rules.lot_genres:
            out.append(Violation("genre_lot", {"genre": genre}))
        if match.card_genres is not None and genre not in match.card_genres:
            out.append(Violation("genre_not_drawn", {
                "genre": genre, "round": match.round, "drawn": sorted(match.card_genres)}))
        if genre in match.match_bans:
            out.append(Violation("genre_banned", {
                "genre": genre, "round": match.round,
                "banned_by": list(match.match_bans[genre])}))
        return out

    def _unit_reasons(self, unit: str, fmt: str, group: str) -> list[Violation]:
        """Why ``unit`` (played as ``fmt`` of ``group``) is closed on the format axis."""
        rules, match, used = self.rules, self.match, self._used
        out: list[Violation] = []
        if rules.mode is Mode.BOMBER and unit in used.units:
            code = "group_used" if rules.counting is Counting.GROUPED else "format_used"
            out.append(Violation(code, {"group": group, "format": fmt, "unit": unit,
                                        "round": used.units[unit]}))
        if match.apply_lots and rules.lot_formats and self._unit_lotted(unit):
            out.append(Violation("format_lot", {"format": fmt, "group": group, "unit": unit}))
        if match.card_groups is not None and group not in match.card_groups:
            out.append(Violation("group_not_drawn", {
                "group": group, "format": fmt, "round": match.round,
                "drawn": sorted(match.card_groups)}))
        return out

    # -- public --------------------------------------------------------------------------

    def is_legal(self, genre: str, fmt: str) -> bool:
        """Whether the set (genre, fmt) may be chosen (difficulty is always free)."""
        self.catalog.validate(Selection(genre, fmt, self.catalog.difficulties[0]))
        unit = unit_of(self.catalog, fmt, self.rules)
        if self.forced is not None:
            return (genre, fmt) == self.forced
        return genre in self._genres_ok and unit in self._units_ok and self._pair_ok(genre, unit)

    def legal_formats(self, genre: str) -> tuple[str, ...]:
        """Formats (and sub-genre sets) legal with ``genre``, in display order."""
        if genre not in self.legal_genres:
            self.catalog.require_genre(genre)
            return ()
        return tuple(f for f in self.catalog.options_for(genre) if self.is_legal(genre, f))

    def reasons(self, genre: str, fmt: str) -> tuple[Violation, ...]:
        """Why (genre, fmt) is illegal; empty when it is legal. Unknown names raise."""
        catalog = self.catalog
        catalog.validate(Selection(genre, fmt, catalog.difficulties[0]))
        if self.is_legal(genre, fmt):
            return ()
        rules, match, used = self.rules, self.match, self._used
        unit = unit_of(catalog, fmt, rules)
        group = catalog.group_of(fmt)
        out: list[Violation] = []
        if not self._genre_waived(genre):
            out.extend(self._genre_reasons(genre))
        if not self._unit_waived(unit):
            out.extend(self._unit_reasons(unit, fmt, group))
        # pair level
        if (rules.mode is Mode.PINPOINT and (genre, unit) in used.pairs
                and not self._waived(genre, unit)):
            out.append(Violation("pair_used", {"genre": genre, "format": fmt, "unit": unit,
                                               "group": group,
                                               "round": used.pairs[(genre, unit)]}))
        if match.partner is not None:
            out.extend(_partner_violations(catalog, genre, group, match.partner))
        # Fallback in force for the other axis: say so, so the page can explain.
        if self.genre_fallback and genre != catalog.nongenre and not out:
            out.append(Violation("nongenre_fallback", {"genre": catalog.nongenre}))
        if self.format_fallback and unit != self._random_unit() and not out:
            out.append(Violation("random_fallback", {"format": catalog.random_format}))
        if self.forced is not None:
            out.append(Violation("forced_fallback", {"genre": self.forced[0],
                                                     "format": self.forced[1]}))
        if not out:  # defensive: an illegal set always says why
            out.append(Violation("not_allowed", {"genre": genre, "format": fmt}))
        return tuple(out)

    def options(self) -> list[Option]:
        """The whole selection grid for one player (a page greys the illegal cells)."""
        result: list[Option] = []
        for genre in self.catalog.genre_names:
            for fmt in self.catalog.options_for(genre):
                reasons = self.reasons(genre, fmt)
                result.append(Option(genre, fmt, self.catalog.group_of(fmt), not reasons,
                                     reasons))
        return result

    def check(self, selection: Selection, *, penalty: Decimal = DEFAULT_PENALTY) -> SelectionCheck:
        """Judge a selection actually played (H7).

        Illegal while a legal choice existed → the violations and ``penalty`` (a preset
        setting: 400 points off in seed 002; 0 where illegal selections are refused). A legal
        choice is always available here, because the fallbacks guarantee one, so an illegal
        selection always carries the penalty; a selection that is legal only by a fallback is
        fine and carries none.
        """
        self.catalog.validate(selection)
        violations = self.reasons(selection.genre, selection.format)
        if violations:
            return SelectionCheck(ok=False, violations=violations, penalty=penalty)
        unit = unit_of(self.catalog, selection.format, self.rules)
        used_fallback = self.forced is not None or self._waived(selection.genre, unit)
        return SelectionCheck(ok=True, fallback=used_fallback)

    def summary(self) -> ChoicesSummary:
        """What the player has used and what is left, for pages and printed cards.

        The one "used / left": the match page greys from the same :class:`Choices`, so
        whatever shows this summary agrees with the tablet.
        """
        catalog, used = self.catalog, self._used
        closed_units: dict[str, tuple[Violation, ...]] = {}
        for unit in self._units:
            if unit in self.legal_units:
                continue
            group = group_of_unit(catalog, unit)
            closed_units[unit] = () if self._unit_waived(unit) else tuple(self._unit_reasons(unit, unit, group))
        closed_genres: dict[str, tuple[Violation, ...]] = {}
        for genre in catalog.genre_names:
            if genre in self.legal_genres:
                continue
            closed_genres[genre] = () if self._genre_waived(genre) else tuple(self._genre_reasons(genre))
        return {
            "mode": str(self.rules.mode),
            "counting": str(self.rules.counting),
            "legal_genres": list(self.legal_genres),
            "legal_units": list(self.legal_units),
            "genre_fallback": self.genre_fallback,
            "format_fallback": self.format_fallback,
            "forced": None if self.forced is None else list(self.forced),
            "used_genres": dict(used.genres),
            "used_units": dict(used.units),
            "used_groups": dict(used.groups),
            "used_pairs": list(used.pairs),
            "lots": sorted(self.rules.lot_genres | self.rules.lot_formats),
            "closed_genres": closed_genres,
            "closed_units": closed_units,
        }


def legal_choices(catalog: Catalog, rules: PlayerRules, history: Sequence[HistoryEntry],
                  match: MatchRules) -> Choices:
    """The legal choices of one player (or one pair, K10) for one match.

    ``history`` is everything the player played before this match; the match's ``window``
    picks what counts. For a K10 pair, pass the sets of both pair members in the final
    window and the partner's set of this game as ``match.partner``.
    """
    return Choices(catalog, rules, history, match)


def legal_choices_for_all(
    catalog: Catalog,
    players: Mapping[str, tuple[PlayerRules, Sequence[HistoryEntry]]],
    match: MatchRules,
) -> dict[str, Choices]:
    """:func:`legal_choices` for many players of one match context (e.g. a whole round's
    used-genre cards). Each player costs a few set operations; no set grid is enumerated."""
    return {player: Choices(catalog, rules, history, match)
            for player, (rules, history) in players.items()}


def check_selection(catalog: Catalog, rules: PlayerRules, history: Sequence[HistoryEntry],
                    match: MatchRules, selection: Selection, *,
                    penalty: Decimal = DEFAULT_PENALTY) -> SelectionCheck:
    """Judge a played selection: ok, or violations with the penalty that applies (H7)."""
    return Choices(catalog, rules, history, match).check(selection, penalty=penalty)


def check_pair(catalog: Catalog, first: Selection, second: Selection) -> tuple[Violation, ...]:
    """K9/K10: the two sets of one pair must differ in genre AND in format group."""
    catalog.validate(first)
    catalog.validate(second)
    return tuple(_partner_violations(catalog, first.genre, catalog.group_of(first.format), second))


def _partner_violations(catalog: Catalog, genre: str, group: str, partner: Selection
                        ) -> list[Violation]:
    out: list[Violation] = []
    if partner.genre == genre:
        out.append(Violation("partner_same_genre", {"genre": genre,
                                                    "partner_format": partner.format}))
    if catalog.group_of(partner.format) == group:
        out.append(Violation("partner_same_group", {"group": group,
                                                    "partner_format": partner.format}))
    return out


def card_allowance(catalog: Catalog, cards: Iterable[tuple[str, str]]
                   ) -> tuple[frozenset[str], frozenset[str]]:
    """K7: the genres and groups a set of drawn (genre, group) cards allows (their union)."""
    genres: set[str] = set()
    groups: set[str] = set()
    for genre, group in cards:
        catalog.require_genre(genre)
        catalog.group_kind(group)
        genres.add(genre)
        groups.add(group)
    return frozenset(genres), frozenset(groups)


def match_bans(catalog: Catalog, declarations: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """K8: player → genre written on the form, revealed together → genre → who banned it."""
    result: dict[str, list[str]] = {}
    for player, genre in declarations.items():
        catalog.require_genre(genre)
        result.setdefault(genre, []).append(player)
    return {g: tuple(sorted(p)) for g, p in result.items()}
