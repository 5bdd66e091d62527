"""What a player may choose in a match, and why everything else is greyed out.

Every QMA tournament rule about selections is built from a few pieces, combined per round by
a preset:

* a **mode** per player — FREE, PINPOINT (the exact genre × format pair is banned once used)
  or BOMBER (genre and format each banned once used). Fixed per tournament (K1) or derived
  from the Q level of the player's highest card (H2), with プチ修羅 opt-up and 修羅 forcing
  BOMBER (:func:`player_rules_for`);
* a **counting** per player — GROUPED (高火力: a whole format group is one format) or
  INDIVIDUAL (低火力: each format on its own), fixed or by Q level (H3). Sub-genre sets always
  consume their genre; they count in the サブジャンル group; ランダム is one group;
* a **history window**: only sets played earlier in the same window and recorded count
  (K6 rule B is played unrecorded; the K10 final opens a fresh window; a match may ignore
  history altogether, like the K9 third-place match);
* whole-event 修羅 lots on genres and formats (H4, H5);
* match-level limits: the 下関 cards (K7: only drawn genres and groups), the simultaneous
  bans (K8), and the partner's set of the same pair (K9/K10: the two sets of a pair differ in
  genre AND group);
* the **fallbacks** (H6, K7, K8): when no genre is legal ノンジャンル may be (re)used, when no
  format is legal ランダム may be; if the pair-level rules still leave nothing (a corner case
  the rule pages do not cover) the set (ノンジャンル, ランダム) is the forced choice.

:func:`legal_choices` computes a :class:`Choices` for one player and one match: cheap to
build (set operations over a handful of names, no enumeration of the 100-odd sets), with
per-set :meth:`Choices.reasons` for the page that greys options, and :meth:`Choices.check`
for a selection actually played (violations and the preset penalty).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import TypedDict

from brackets.engine.catalog import Catalog, Selection
from brackets.engine.errors import RuleRefusal, Violation
from brackets.engine.results import DEFAULT_PENALTY, Penalty


class Mode(StrEnum):
    """How a player's own history restricts them (H2), least to most strict."""

    FREE = "free"
    PINPOINT = "pinpoint"
    BOMBER = "bomber"

    @property
    def strictness(self) -> int:
        """Order used for プチ修羅 opt-up (a stricter mode may always be chosen)."""
        return _STRICTNESS[self]


_STRICTNESS = {Mode.FREE: 0, Mode.PINPOINT: 1, Mode.BOMBER: 2}


class Counting(StrEnum):
    """What counts as "the same format" (H3): 高火力 groups or 低火力 single formats."""

    GROUPED = "grouped"
    INDIVIDUAL = "individual"


@dataclass(frozen=True)
class QThresholds:
    """Q-level boundaries of seed 002 (H2, H3); a preset setting so other events can move them."""

    bomber_min_q: int = 80
    pinpoint_min_q: int = 50
    grouped_min_q: int = 35


#: Seed 002's thresholds, the default everywhere.
DEFAULT_THRESHOLDS = QThresholds()


def mode_for_q(q_level: int, thresholds: QThresholds = DEFAULT_THRESHOLDS) -> Mode:
    """The mode a rank gives (H2): ≥80 BOMBER, 50–79 PINPOINT, ≤49 FREE by default."""
    if q_level >= thresholds.bomber_min_q:
        return Mode.BOMBER
    if q_level >= thresholds.pinpoint_min_q:
        return Mode.PINPOINT
    return Mode.FREE


def counting_for_q(q_level: int, thresholds: QThresholds = DEFAULT_THRESHOLDS) -> Counting:
    """The counting a rank gives (H3): Q≥35 grouped (高火力), Q≤34 individual (低火力)."""
    return Counting.GROUPED if q_level >= thresholds.grouped_min_q else Counting.INDIVIDUAL


@dataclass(frozen=True)
class PlayerRules:
    """Everything about one player that restricts their choices for the whole event.

    ``lot_genres`` are genres drawn by 修羅 lots (H4); ``lot_formats`` are drawn format lots
    (H5), each either a format name or a group name (a group lot bans the whole column).
    ``subgenres_as_one``: under INDIVIDUAL counting, whether all sub-genre sets count as one
    format (default, "sub-genres form one group") or each sub-genre on its own.
    """

    mode: Mode = Mode.FREE
    counting: Counting = Counting.GROUPED
    lot_genres: frozenset[str] = frozenset()
    lot_formats: frozenset[str] = frozenset()
    subgenres_as_one: bool = True


def player_rules_for(
    q_level: int,
    *,
    opt_up: Mode | None = None,
    shura: bool = False,
    lot_genres: Iterable[str] = (),
    lot_formats: Iterable[str] = (),
    grouped_opt_up: bool = False,
    thresholds: QThresholds = DEFAULT_THRESHOLDS,
) -> PlayerRules:
    """Rules of a rank-based event (seed 002): mode and counting from the highest card's Q.

    ``opt_up`` is プチ修羅の道 (H2): a mode stricter than the rank gives; asking for a laxer
    one is a desk error and raises. ``shura`` (修羅, H4) forces BOMBER. ``grouped_opt_up``
    lets a 低火力 player choose 高火力 counting (a setting; the page only allows mode opt-up).
    """
    if q_level < 0:
        raise RuleRefusal("bad_q_level", "Q level cannot be negative", q_level=q_level)
    mode = mode_for_q(q_level, thresholds)
    if opt_up is not None:
        if opt_up.strictness < mode.strictness:
            raise RuleRefusal("opt_up_not_stricter", "プチ修羅 must be stricter than the rank",
                              rank_mode=str(mode), requested=str(opt_up))
        mode = opt_up
    if shura:
        mode = Mode.BOMBER
    counting = counting_for_q(q_level, thresholds)
    if grouped_opt_up:
        counting = Counting.GROUPED
    return PlayerRules(mode=mode, counting=counting, lot_genres=frozenset(lot_genres),
                       lot_formats=frozenset(lot_formats))


#: K1: everyone is 高火力 BOMBER regardless of rank.
BASIC_RULE = PlayerRules(mode=Mode.BOMBER, counting=Counting.GROUPED)


@dataclass(frozen=True)
class HistoryEntry:
    """One set a player (or, in a pair round, their partner) played earlier.

    ``window`` names the history span it belongs to (e.g. ``"main"`` for round 1 to the
    semi-final, ``"final"`` after the K10 reset); ``recorded`` False marks a set that the rule
    keeps out of the history (K6 rule B). ``round`` is a label for messages.
    """

    selection: Selection
    round: str = ""
    window: str = "main"
    recorded: bool = True


@dataclass(frozen=True)
class MatchRules:
    """What is specific to one match (one group of one round).

    ``window``: the history window read (None = this match ignores history, like rule B or
    the third-place match). ``apply_lots``: whether 修羅 lots apply. ``card_genres`` /
    ``card_groups``: the union of the 下関 cards drawn for this match (K7), None when no cards.
    ``match_bans``: genre → who named it (K8). ``partner``: the other set of the same pair
    when already known (K9/K10).
    """

    round: str = ""
    window: str | None = "main"
    apply_lots: bool = True
    card_genres: frozenset[str] | None = None
    card_groups: frozenset[str] | None = None
    match_bans: Mapping[str, Sequence[str]] = field(default_factory=dict)
    partner: Selection | None = None


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


@dataclass(frozen=True)
class Usage:
    """What a player has used in the sets that count, each with the round of its first use.

    ``units`` are what counts as "the format" for this player (H3: groups under 高火力,
    single formats under 低火力); ``groups`` are always the format groups, for pages that
    show the columns; ``pairs`` are (genre, unit), what PINPOINT bans (H2). Insertion order
    is the order of first use.
    """

    genres: Mapping[str, str]
    units: Mapping[str, str]
    groups: Mapping[str, str]
    pairs: Mapping[tuple[str, str], str]


def usage(catalog: Catalog, rules: PlayerRules, entries: Iterable[HistoryEntry]) -> Usage:
    """What ``entries`` use, as ``rules`` count it; every entry given counts (pick a window
    with :func:`window_entries`). A genre the catalog does not know, or a sub-genre set
    under another genre, is bad data and raises: it would silently ban nothing."""
    genres: dict[str, str] = {}
    units: dict[str, str] = {}
    groups: dict[str, str] = {}
    pairs: dict[tuple[str, str], str] = {}
    for entry in entries:
        sel = entry.selection
        catalog.require_genre(sel.genre)
        if catalog.is_subgenre(sel.format) and catalog.parent_of(sel.format) != sel.genre:
            raise RuleRefusal("subgenre_genre_mismatch",
                              f"{sel.format} belongs to {catalog.parent_of(sel.format)}, "
                              f"not {sel.genre}", subgenre=sel.format, genre=sel.genre,
                              parent=catalog.parent_of(sel.format), round=entry.round)
        unit = unit_of(catalog, sel.format, rules)
        genres.setdefault(sel.genre, entry.round)
        units.setdefault(unit, entry.round)
        groups.setdefault(catalog.group_of(sel.format), entry.round)
        pairs.setdefault((sel.genre, unit), entry.round)
    return Usage(genres, units, groups, pairs)


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


def unit_of(catalog: Catalog, fmt: str, rules: PlayerRules) -> str:
    """The name that counts as "the format" of ``fmt`` for this player (H3).

    GROUPED: the group. INDIVIDUAL: the format itself, except sub-genre sets, which count as
    the sub-genre group unless ``subgenres_as_one`` is off.
    """
    group = catalog.group_of(fmt)
    if rules.counting is Counting.GROUPED:
        return group
    if group == catalog.subgenre_group and rules.subgenres_as_one:
        return group
    return fmt


def units_of(catalog: Catalog, rules: PlayerRules) -> tuple[str, ...]:
    """All units of the selection screen for this player's counting, in display order."""
    if rules.counting is Counting.GROUPED:
        return catalog.group_names
    return catalog.memo(("units", rules.subgenres_as_one),
                        lambda: _individual_units(catalog, rules))


def _individual_units(catalog: Catalog, rules: PlayerRules) -> tuple[str, ...]:
    result: list[str] = []
    for group in catalog.group_names:
        if group == catalog.subgenre_group and rules.subgenres_as_one:
            result.append(group)
        else:
            result.extend(catalog.formats_in(group))
    return tuple(result)


def _group_of_unit(catalog: Catalog, unit: str) -> str:
    if unit in catalog.group_names:
        return unit
    return catalog.group_of(unit)


def window_entries(history: Iterable[HistoryEntry], window: str | None) -> list[HistoryEntry]:
    """The entries that count in ``window``: recorded and in that window (none for None)."""
    if window is None:
        return []
    return [e for e in history if e.recorded and e.window == window]


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
                        if _group_of_unit(catalog, u) in match.card_groups}

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
            return _group_of_unit(self.catalog, unit) in lots
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
            if catalog.group_of(partner.format) == _group_of_unit(catalog, unit):
                return False
        return True

    def _waived(self, genre: str, unit: str) -> bool:
        """History reasons are waived for a fallback genre / unit ("may be reused")."""
        return ((self.genre_fallback and genre == self.catalog.nongenre)
                or (self.format_fallback and unit == self._random_unit()))

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

    @property
    def any_fallback(self) -> bool:
        """Whether some fallback is in force for this player in this match."""
        return self.genre_fallback or self.format_fallback or self.forced is not None

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
        genre_waived = self.genre_fallback and genre == catalog.nongenre
        unit_waived = self.format_fallback and unit == self._random_unit()
        if not genre_waived:
            out.extend(self._genre_reasons(genre))
        if not unit_waived:
            out.extend(self._unit_reasons(unit, fmt, group))
        # pair level
        if (rules.mode is Mode.PINPOINT and (genre, unit) in used.pairs
                and not (genre_waived or unit_waived)):
            out.append(Violation("pair_used", {"genre": genre, "format": fmt, "unit": unit,
                                               "group": group,
                                               "round": used.pairs[(genre, unit)]}))
        partner = match.partner
        if partner is not None:
            if partner.genre == genre:
                out.append(Violation("partner_same_genre", {
                    "genre": genre, "partner_format": partner.format}))
            if catalog.group_of(partner.format) == group:
                out.append(Violation("partner_same_group", {
                    "group": group, "partner_format": partner.format}))
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
        setting: 400 points off in seed 002; 0 where illegal selections are refused). A legal choice is always available here, because the
        fallbacks guarantee one, so an illegal selection always carries the penalty; a
        selection that is legal only by a fallback is fine and carries none.
        """
        self.catalog.validate(selection)
        violations = self.reasons(selection.genre, selection.format)
        if violations:
            return SelectionCheck(ok=False, violations=violations, penalty=penalty)
        unit = unit_of(self.catalog, selection.format, self.rules)
        used_fallback = (self.forced is not None
                         or (self.genre_fallback and selection.genre == self.catalog.nongenre)
                         or (self.format_fallback and unit == self._random_unit()))
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
            group = _group_of_unit(catalog, unit)
            waived = self.format_fallback and unit == self._random_unit()
            closed_units[unit] = () if waived else tuple(self._unit_reasons(unit, unit, group))
        closed_genres: dict[str, tuple[Violation, ...]] = {}
        for genre in catalog.genre_names:
            if genre in self.legal_genres:
                continue
            waived = self.genre_fallback and genre == catalog.nongenre
            closed_genres[genre] = () if waived else tuple(self._genre_reasons(genre))
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
    out: list[Violation] = []
    if first.genre == second.genre:
        out.append(Violation("partner_same_genre", {"genre": first.genre,
                                                    "partner_format": second.format}))
    group = catalog.group_of(first.format)
    if group == catalog.group_of(second.format):
        out.append(Violation("partner_same_group", {"group": group,
                                                    "partner_format": second.format}))
    return tuple(out)


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
