"""Who a player is and what a match adds: the inputs of :func:`legal_choices`.

Modes and counting with the Q-level thresholds that derive them (H2, H3), a player's
whole-event :class:`PlayerRules`, one set played earlier (:class:`HistoryEntry`) and the
match-level limits (:class:`MatchRules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from brackets.engine.catalog import Selection
from brackets.engine.errors import RuleRefusal


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

