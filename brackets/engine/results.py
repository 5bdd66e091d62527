"""One in-store match: seats, scores, on-screen placements, penalties, disqualification.

What staff enter from the result screen are facts: each seat's score and its on-screen
placement (1..n over every occupied seat, the dummy included). Everything else is derived
here:

* the real players' placements are the screen order with the dummy removed (K2);
* the screen placements are checked against the scores, and a mismatch becomes a warning
  (:class:`~brackets.engine.errors.Violation`), because the screen is authoritative and a
  typo in a score must not silently reorder a group;
* penalties (H7, −400 by default) are subtracted *before* placing, so scores may go
  negative, and penalised players are re-placed by their adjusted score; equal scores keep
  the on-screen order (H9), and only a tie on the screen itself needs a recorded lottery;
* a disqualified player (H8) drops to the bottom of that match only, and everyone below
  them moves up one place;
* a re-match after a machine fault must repeat the aborted match's selections (H7).

Score range. The on-screen score of one match is at most about 400 in every QMA version
seen so far, and the game never shows a negative total, so the default accepted range for a
*screen* score is 0.00 .. 1000.00 (two decimals, as shown). The range is a setting
(:class:`ScoreRange`) because versions differ. Penalties are applied afterwards and are not
bounded by the range: −400 on 320.50 gives −79.50 (H7).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from .errors import RuleRefusal, Violation
from .lottery import Lottery

SEATS: tuple[int, ...] = (1, 2, 3, 4)
"""The four cabinets (サテ 1–4) of one in-store match."""

DEFAULT_PENALTY = Decimal(400)
"""H7: points subtracted for an illegal choice, a bug exploit or a changed re-match."""


@dataclass(frozen=True)
class ScoreRange:
    """The accepted on-screen scores (inclusive) and their number of decimals."""

    low: Decimal = Decimal("0.00")
    high: Decimal = Decimal("1000.00")
    decimals: int = 2

    def check(self, seat: int, score: Decimal) -> None:
        """Raise :class:`RuleRefusal` when ``score`` cannot have come from the screen."""
        if not isinstance(score, Decimal) or not score.is_finite():
            raise RuleRefusal(
                "score_not_decimal",
                f"seat {seat}: score must be a finite Decimal",
                seat=seat,
                score=score,
            )
        if score < self.low or score > self.high:
            raise RuleRefusal(
                "score_out_of_range",
                f"seat {seat}: score {score} outside {self.low}..{self.high}",
                seat=seat,
                score=score,
                low=self.low,
                high=self.high,
            )
        exponent = score.as_tuple().exponent
        if isinstance(exponent, int) and exponent < -self.decimals:
            raise RuleRefusal(
                "score_precision",
                f"seat {seat}: score {score} has more than {self.decimals} decimals",
                seat=seat,
                score=score,
                decimals=self.decimals,
            )


DEFAULT_SCORE_RANGE = ScoreRange()


@dataclass(frozen=True)
class SeatEntry:
    """What the result screen shows for one seat. ``player`` is ``None`` for the dummy."""

    seat: int
    player: str | None
    score: Decimal
    screen_place: int

    @property
    def is_dummy(self) -> bool:
        return self.player is None


@dataclass(frozen=True)
class Penalty:
    """Points taken off one player's score in one match (H7); ``reason`` is free text."""

    player: str
    points: Decimal = DEFAULT_PENALTY
    reason: str = ""


@dataclass(frozen=True)
class PlacedPlayer:
    """One real player's derived result in a match."""

    player: str
    seat: int
    screen_score: Decimal
    penalty: Decimal
    score: Decimal
    screen_place: int
    place: int
    disqualified: bool = False


@dataclass(frozen=True)
class ScreenTie:
    """Real players the result screen shows on one placement (H9), and what ordered them.

    ``players`` are in their derived order; ``decided_by`` lists the tie-break slugs that
    separated them (``"lottery"`` when the recorded lottery did).
    """

    screen_place: int
    players: tuple[str, ...]
    decided_by: tuple[str, ...]


#: H9's default order for players sharing a screen placement: the higher score, then the
#: recorded lottery. A preset passes its own chain; the lottery always closes it.
DEFAULT_SCREEN_TIE_BREAK: tuple[str, ...] = ("score", "lottery")

#: Slugs that can tell apart two players of one match on the same screen placement;
#: the others in a preset's chain (place, previous round, seed...) are passed over here.
_IN_MATCH_TIE_BREAKS = frozenset({"score", "ratio", "screen_score", "seat", "lottery"})


@dataclass(frozen=True)
class MatchResult:
    """The derived result of one match: real players in final placement order."""

    players: tuple[PlacedPlayer, ...]
    dummy: SeatEntry | None = None
    warnings: tuple[Violation, ...] = ()
    lottery_used: bool = False
    screen_ties: tuple[ScreenTie, ...] = ()

    def get(self, player: str) -> PlacedPlayer:
        """The row of ``player``; :class:`RuleRefusal` if they did not play here."""
        for row in self.players:
            if row.player == player:
                return row
        raise RuleRefusal("player_not_in_match", f"{player!r} did not play", player=player)

    @property
    def winner(self) -> PlacedPlayer | None:
        """The 1st-placed real player (the 惜敗率 reference), if any."""
        return self.players[0] if self.players else None

    def ranking(self) -> list[str]:
        return [row.player for row in self.players]


def _validate(
    entries: Sequence[SeatEntry],
    seats: Collection[int],
    group: Collection[str] | None,
    score_range: ScoreRange,
) -> None:
    used_seats: set[int] = set()
    used_players: set[str] = set()
    dummies = 0
    for entry in entries:
        if entry.seat not in seats:
            raise RuleRefusal("seat_unknown", f"seat {entry.seat} does not exist", seat=entry.seat)
        if entry.seat in used_seats:
            raise RuleRefusal("seat_twice", f"seat {entry.seat} used twice", seat=entry.seat)
        used_seats.add(entry.seat)
        if entry.player is None:
            dummies += 1
        else:
            if entry.player in used_players:
                raise RuleRefusal(
                    "player_twice", f"{entry.player!r} has two seats", player=entry.player
                )
            used_players.add(entry.player)
            if group is not None and entry.player not in group:
                raise RuleRefusal(
                    "player_not_in_group",
                    f"{entry.player!r} is not in this group",
                    player=entry.player,
                )
        score_range.check(entry.seat, entry.score)
    if dummies > 1:
        raise RuleRefusal("two_dummies", "a match has at most one dummy (K2)", count=dummies)
    # Screen placements: 1..n, ties allowed only as standard competition ranking (1,2,2,4).
    places = sorted(entry.screen_place for entry in entries)
    for place in places:
        expected = 1 + sum(1 for other in places if other < place)
        if place != expected or place < 1 or place > len(places):
            raise RuleRefusal(
                "placements_invalid",
                f"screen placements {places} are not 1..{len(places)}",
                placements=places,
            )


def placement_warnings(entries: Sequence[SeatEntry]) -> list[Violation]:
    """Pairs of seats whose screen placements contradict their scores.

    The screen is authoritative, so these are warnings for staff to re-check the entry,
    never a reordering.
    """
    warnings: list[Violation] = []
    ordered = sorted(entries, key=lambda e: (e.screen_place, e.seat))
    for i, upper in enumerate(ordered):
        for lower in ordered[i + 1 :]:
            if upper.screen_place < lower.screen_place and upper.score < lower.score:
                code = "placement_below_lower_score"
            elif upper.screen_place == lower.screen_place and upper.score != lower.score:
                code = "placement_tie_with_different_scores"
            else:
                continue
            warnings.append(
                Violation(
                    code,
                    {
                        "seat": upper.seat,
                        "place": upper.screen_place,
                        "score": upper.score,
                        "other_seat": lower.seat,
                        "other_place": lower.screen_place,
                        "other_score": lower.score,
                    },
                )
            )
    return warnings


def match_result(
    entries: Sequence[SeatEntry],
    *,
    group: Collection[str] | None = None,
    penalties: Sequence[Penalty] = (),
    disqualified: Collection[str] = (),
    lottery: Lottery | None = None,
    score_range: ScoreRange = DEFAULT_SCORE_RANGE,
    seats: Collection[int] = SEATS,
    screen_tie_break: Sequence[str] = DEFAULT_SCREEN_TIE_BREAK,
) -> MatchResult:
    """Place the real players of one match from the screen, penalties and disqualification.

    Order of work: the screen order without the dummy (K2); penalised players are taken
    out and merged back by adjusted score, so an unpenalised pair keeps its on-screen order
    even if a score was mistyped, and equal adjusted scores keep the screen order (H9);
    disqualified players go last, in screen order, and the others move up (H8).

    A tie *on the screen* (two seats showing the same placement, 1,2,2,4) that still
    matters after all of that is ordered by ``screen_tie_break`` (the preset's chain;
    slugs that cannot separate two players of one match are passed over, and the recorded
    lottery of H9 always closes it). Without ``lottery``, :class:`RuleRefusal`
    ``tie_needs_lottery`` is raised rather than guessing. Each such tie is reported in
    ``screen_ties`` so that pages can say the screen showed it and what decided it.

    ``group``, when given, lists the players drawn into this group: a result for anyone
    else is an error, and a member with no result is reported as a ``missing_result``
    warning (a no-show or a withdrawal staff should confirm).
    """
    _validate(entries, seats, group, score_range)
    penalty_of: dict[str, Decimal] = {}
    real = {e.player for e in entries if e.player is not None}
    for pen in penalties:
        if pen.player not in real:
            raise RuleRefusal(
                "penalty_player_unknown",
                f"penalty for {pen.player!r}, who has no result here",
                player=pen.player,
            )
        penalty_of[pen.player] = penalty_of.get(pen.player, Decimal(0)) + pen.points
    for player in disqualified:
        if player not in real:
            raise RuleRefusal(
                "disqualified_player_unknown",
                f"{player!r} is disqualified but has no result here",
                player=player,
            )

    warnings = placement_warnings(entries)
    if group is not None:
        for member in sorted(group):
            if member not in real:
                warnings.append(Violation("missing_result", {"player": member}))

    dummy = next((e for e in entries if e.player is None), None)
    humans = [e for e in entries if e.player is not None]

    # The recorded lottery only orders players who share a screen placement.
    lottery_used = False
    lot_rank: dict[str, int] = {}
    shared = {
        e.screen_place
        for e in humans
        if sum(1 for o in humans if o.screen_place == e.screen_place) > 1
    }

    def adjusted(entry: SeatEntry) -> Decimal:
        assert entry.player is not None
        return entry.score - penalty_of.get(entry.player, Decimal(0))

    def needs_lot(a: SeatEntry, b: SeatEntry) -> bool:
        return a.screen_place == b.screen_place and a.screen_place in shared

    def lot(entry: SeatEntry) -> int:
        nonlocal lottery_used
        if not lot_rank:
            if lottery is None:
                raise RuleRefusal(
                    "tie_needs_lottery",
                    "two players share a screen placement: record a lottery (H9)",
                    places=sorted(shared),
                )
            # A fresh Lottery of the same seed and purpose, so passing the same object
            # again (a preview, then the result) gives the same order.
            fresh = Lottery(lottery.seed, lottery.purpose)
            order = fresh.shuffled(sorted(e.player for e in humans if e.player))
            lot_rank.update({p: i for i, p in enumerate(order)})
        lottery_used = True
        assert entry.player is not None
        return lot_rank[entry.player]

    chain = [slug for slug in screen_tie_break if slug in _IN_MATCH_TIE_BREAKS]
    if "lottery" not in chain:
        chain.append("lottery")
    deciders: dict[int, list[str]] = {}

    def tie_key(slug: str, entry: SeatEntry) -> Decimal | int:
        # Within one match 惜敗率 orders as the score does (the same reference divides both).
        if slug in ("score", "ratio"):
            return -adjusted(entry)
        if slug == "screen_score":
            return -entry.score
        if slug == "seat":
            return entry.seat
        return lot(entry)

    def screen_before(a: SeatEntry, b: SeatEntry) -> bool:
        if a.screen_place != b.screen_place:
            return a.screen_place < b.screen_place
        if needs_lot(a, b):
            for slug in chain:
                ka, kb = tie_key(slug, a), tie_key(slug, b)
                if ka != kb:
                    used = deciders.setdefault(a.screen_place, [])
                    if slug not in used:
                        used.append(slug)
                    return ka < kb
        return a.seat < b.seat

    def before(a: SeatEntry, b: SeatEntry) -> bool:
        if adjusted(a) != adjusted(b):
            return adjusted(a) > adjusted(b)
        return screen_before(a, b)

    dq = set(disqualified)
    playing = [e for e in humans if e.player not in dq]
    out = [e for e in humans if e.player in dq]
    clean = _sorted([e for e in playing if e.player not in penalty_of], screen_before)
    penalised = _sorted([e for e in playing if e.player in penalty_of], before)
    merged: list[SeatEntry] = []
    i = j = 0
    while i < len(clean) or j < len(penalised):
        if j == len(penalised) or (i < len(clean) and not before(penalised[j], clean[i])):
            merged.append(clean[i])
            i += 1
        else:
            merged.append(penalised[j])
            j += 1
    merged.extend(_sorted(out, screen_before))

    rows = tuple(
        PlacedPlayer(
            player=e.player,
            seat=e.seat,
            screen_score=e.score,
            penalty=penalty_of.get(e.player, Decimal(0)),
            score=adjusted(e),
            screen_place=e.screen_place,
            place=index + 1,
            disqualified=e.player in dq,
        )
        for index, e in enumerate(merged)
        if e.player is not None
    )
    order = {row.player: index for index, row in enumerate(rows)}
    ties = tuple(
        ScreenTie(
            place,
            tuple(sorted((e.player for e in humans if e.player and e.screen_place == place),
                         key=lambda p: order[p])),
            tuple(deciders.get(place, ())),
        )
        for place in sorted(shared)
    )
    return MatchResult(
        players=rows,
        dummy=dummy,
        warnings=tuple(warnings),
        lottery_used=lottery_used,
        screen_ties=ties,
    )


def _sorted(
    items: list[SeatEntry], before: Callable[[SeatEntry, SeatEntry], bool]
) -> list[SeatEntry]:
    """Insertion sort by a strict 'comes before' predicate (at most four seats)."""
    result: list[SeatEntry] = []
    for item in items:
        position = len(result)
        for k, existing in enumerate(result):
            if before(item, existing):
                position = k
                break
        result.insert(position, item)
    return result


# ---------------------------------------------------------------- re-match (H7)


@dataclass(frozen=True)
class RematchCheck:
    """Players whose re-match selection differs from the aborted match's (H7)."""

    violations: tuple[Violation, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return not self.violations

    def penalties(self, points: Decimal = DEFAULT_PENALTY) -> list[Penalty]:
        """The H7 penalty for each changed selection, to pass to :func:`match_result`."""
        return [
            Penalty(str(v.params["player"]), points, "rematch_selection_changed")
            for v in self.violations
        ]


def check_rematch(aborted: Mapping[str, Hashable], rematch: Mapping[str, Hashable]) -> RematchCheck:
    """Compare each player's selection in a re-match with the aborted match.

    Selections are opaque (whatever the caller uses: a (genre, format, difficulty) tuple, a
    catalog id ...), compared with ``==``. The same players must play both matches; a
    changed selection is an expected rule violation (H7: −400), not an error.
    """
    if set(aborted) != set(rematch):
        raise RuleRefusal(
            "rematch_players_differ",
            "a re-match is played by the same players as the aborted match",
            missing=sorted(set(aborted) - set(rematch)),
            extra=sorted(set(rematch) - set(aborted)),
        )
    violations = tuple(
        Violation(
            "rematch_selection_changed",
            {"player": player, "before": aborted[player], "after": rematch[player]},
        )
        for player in sorted(aborted)
        if aborted[player] != rematch[player]
    )
    return RematchCheck(violations)
