"""Special rounds of 九州杯IX: rule selection (K6), simultaneous bans (K8),
partner matches (K9, K10), the final's dice, set order and best-of-3 series (K10).

Every random outcome comes from a :class:`Lottery` (reproducible from the stored seed) or
is a recorded physical outcome that is validated here, so both paths give the same data.
What players may *choose* under these rules (genre/format restrictions, K9's two-set
constraint) is the restrictions module's job; this module produces the facts it needs
(allowed genres and groups, banned genres, who plays for whom).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .errors import RuleRefusal
from .lottery import Lottery
from .results import MatchResult

# ------------------------------------------------------------------ K6 rule selection


@dataclass(frozen=True)
class RuleChoice:
    """One player's turn in the processing order: what they wrote and what they got."""

    position: int
    player: str
    wished: str
    assigned: str

    @property
    def displaced(self) -> bool:
        return self.wished != self.assigned


@dataclass(frozen=True)
class RuleAssignment:
    """The outcome of K6: each player's rule, in processing order."""

    choices: tuple[RuleChoice, ...]

    def rule_of(self, player: str) -> str:
        for choice in self.choices:
            if choice.player == player:
                return choice.assigned
        raise RuleRefusal("player_not_in_selection", f"{player!r} chose no rule", player=player)

    def players_of(self, rule: str) -> list[str]:
        """Players assigned to ``rule``, in processing order."""
        return [c.player for c in self.choices if c.assigned == rule]


def everyone_exactly_one(players: Sequence[str], given: Collection[str]) -> tuple[list[str], list[str]]:
    """Everyone exactly one (K6 wishes, K8 bans): the ``players`` who have handed in no
    form, in the order given, and the sorted names of forms from anyone else."""
    return [p for p in players if p not in given], sorted(set(given) - set(players))


def assign_rules(
    order: Sequence[str],
    wishes: Mapping[str, str],
    capacities: Mapping[str, int],
    *,
    fallback: Mapping[str, Sequence[str]] | None = None,
) -> RuleAssignment:
    """Give each player, in processing order, their wished rule while it has room (K6).

    When the wished rule is full the player gets the first rule of ``fallback[wish]``
    with room; by default that is the other rules in the order of ``capacities`` (with
    K6's two rules: "else the other"). Capacities that cannot hold everyone, a missing
    form, or an unknown rule are :class:`RuleRefusal`.
    """
    if len(set(order)) != len(order):
        raise RuleRefusal("player_twice", "a player appears twice in the processing order")
    if any(c < 0 for c in capacities.values()):
        raise RuleRefusal(
            "capacity_negative", "a rule capacity is negative", capacities=dict(capacities)
        )
    total = sum(capacities.values())
    if total < len(order):
        raise RuleRefusal(
            "capacity_too_small",
            f"rules hold {total} players, {len(order)} must be placed",
            capacity=total,
            players=len(order),
        )
    absent, outsiders = everyone_exactly_one(order, wishes)
    if absent:
        raise RuleRefusal("wish_missing", "players without a rule-selection form", players=absent)
    if outsiders:
        raise RuleRefusal("wish_from_outsider", "forms from players not in this round",
                          players=outsiders)
    rules = list(capacities)
    room = dict(capacities)
    choices: list[RuleChoice] = []
    for position, player in enumerate(order, start=1):
        wish = wishes[player]
        if wish not in room:
            raise RuleRefusal("rule_unknown", f"no rule {wish!r}", rule=wish, player=player)
        preference = [wish] + list(
            fallback[wish] if fallback and wish in fallback else [r for r in rules if r != wish]
        )
        assigned = next((r for r in preference if room.get(r, 0) > 0), None)
        if assigned is None:
            # Only reachable with a fallback that omits a rule that still has room.
            raise RuleRefusal(
                "no_rule_with_room", f"no rule has room for {player!r}", player=player
            )
        room[assigned] -= 1
        choices.append(RuleChoice(position, player, wish, assigned))
    return RuleAssignment(tuple(choices))


# ------------------------------------------------------------ K8 simultaneous bans


def reveal_bans(
    players: Collection[str],
    written: Mapping[str, str],
    *,
    genres: Collection[str] | None = None,
) -> frozenset[str]:
    """The genres banned for everyone in the match, once every player has written one.

    Reveal is simultaneous (K8), so a missing form is an error, not a partial reveal.
    ``genres`` (the catalog's genres) validates what was written. Two players naming the
    same genre ban it once.
    """
    absent, outsiders = everyone_exactly_one(sorted(set(players)), written)
    if absent:
        raise RuleRefusal("ban_missing", "not every player has written a ban", players=absent)
    if outsiders:
        raise RuleRefusal("ban_from_outsider", "bans from players not in the match",
                          players=outsiders)
    if genres is not None:
        unknown = sorted({g for g in written.values() if g not in genres})
        if unknown:
            raise RuleRefusal("genre_unknown", "an unknown genre was written", genres=unknown)
    return frozenset(written.values())


# ------------------------------------------------------------ K9/K10 partner matches


@dataclass(frozen=True)
class PartnerMatch:
    """Two contenders at seats 1 and 4, each with a partner beside them (2 and 3)."""

    first: str
    first_partner: str
    second: str
    second_partner: str

    def __post_init__(self) -> None:
        people = [self.first, self.first_partner, self.second, self.second_partner]
        if len(set(people)) != 4:
            raise RuleRefusal(
                "partner_invalid",
                "contenders and partners must be four different players",
                players=people,
            )

    @property
    def seats(self) -> dict[int, str]:
        """サテ → player: contenders 1 and 4, partners 2 and 3 (each pair side by side)."""
        return {1: self.first, 2: self.first_partner, 3: self.second_partner, 4: self.second}

    def partner_of(self, contender: str) -> str:
        if contender == self.first:
            return self.first_partner
        if contender == self.second:
            return self.second_partner
        raise RuleRefusal("not_a_contender", f"{contender!r} is not a contender", player=contender)


def partner_match(
    contenders: tuple[str, str],
    partners: Mapping[str, str],
    *,
    present: Collection[str] | None = None,
) -> PartnerMatch:
    """Seat a partner match; a partner is a present player who is not a contender (K9)."""
    a, b = contenders
    for contender in contenders:
        if contender not in partners:
            raise RuleRefusal("partner_missing", f"{contender!r} has no partner", player=contender)
    for contender, partner in partners.items():
        if contender not in contenders:
            raise RuleRefusal(
                "not_a_contender", f"{contender!r} is not a contender", player=contender
            )
        if partner in contenders:
            raise RuleRefusal(
                "partner_is_contender", "a contender cannot be a partner", player=partner
            )
        if present is not None and partner not in present:
            raise RuleRefusal("partner_absent", f"{partner!r} is not present", player=partner)
    return PartnerMatch(a, partners[a], b, partners[b])


@dataclass(frozen=True)
class PartnerOutcome:
    """The contenders' order; partners' placements do not count (K9)."""

    winner: str
    loser: str


def partner_match_winner(match: PartnerMatch, result: MatchResult) -> PartnerOutcome:
    """The better-placed contender wins; contenders must sit at seats 1 and 4."""
    for contender, seat in ((match.first, 1), (match.second, 4)):
        row = result.get(contender)
        if row.seat != seat:
            raise RuleRefusal(
                "contender_seat",
                f"{contender!r} must sit at seat {seat}",
                player=contender,
                seat=row.seat,
                expected=seat,
            )
    for partner in (match.first_partner, match.second_partner):
        result.get(partner)
    first = result.get(match.first)
    second = result.get(match.second)
    if first.disqualified and second.disqualified:
        raise RuleRefusal("both_disqualified", "both contenders are disqualified")
    if first.place < second.place:
        return PartnerOutcome(match.first, match.second)
    return PartnerOutcome(match.second, match.first)


# -------------------------------------------------------------------- K10 the final

Decision = Literal["seat_order", "question_order"]
QuestionOrder = Literal["simple", "alternating"]


@dataclass(frozen=True)
class DiceDuel:
    """The dice rolls of the final; every roll but the last is a tie (ties reroll)."""

    players: tuple[str, str]
    rolls: tuple[tuple[int, int], ...]

    @property
    def winner(self) -> str:
        a, b = self.rolls[-1]
        return self.players[0] if a > b else self.players[1]

    @property
    def loser(self) -> str:
        return self.players[1] if self.winner == self.players[0] else self.players[0]


def roll_dice(
    players: tuple[str, str], lottery: Lottery, *, sides: int = 6, max_rolls: int = 1000
) -> DiceDuel:
    """Roll until the two dice differ (K10), from the tournament's lottery."""
    rolls: list[tuple[int, int]] = []
    for _ in range(max_rolls):
        pair = (lottery.die(sides), lottery.die(sides))
        rolls.append(pair)
        if pair[0] != pair[1]:
            return DiceDuel(players, tuple(rolls))
    raise RuleRefusal("dice_never_differ", "the dice tied on every roll", rolls=len(rolls))


def record_dice(
    players: tuple[str, str], rolls: Sequence[tuple[int, int]], *, sides: int = 6
) -> DiceDuel:
    """Record physical rolls: faces 1..sides, ties then one decisive roll."""
    if not rolls:
        raise RuleRefusal("dice_missing", "no roll recorded")
    for index, (a, b) in enumerate(rolls):
        if not (1 <= a <= sides and 1 <= b <= sides):
            raise RuleRefusal(
                "dice_face_invalid", "a die shows 1..sides", roll=index + 1, faces=(a, b)
            )
        last = index == len(rolls) - 1
        if last and a == b:
            raise RuleRefusal("dice_undecided", "the last roll is a tie: roll again")
        if not last and a != b:
            raise RuleRefusal(
                "dice_after_decision", "rolls after the decisive roll", roll=index + 1
            )
    return DiceDuel(players, tuple((a, b) for a, b in rolls))


@dataclass(frozen=True)
class FinalSetup:
    """Who goes first (seat 1, 先攻 in games 1 and 3) and the question order."""

    first: str
    second: str
    question_order: QuestionOrder
    seat_order_by: str
    question_order_by: str

    def seating(
        self, partners: Mapping[str, str], *, present: Collection[str] | None = None
    ) -> PartnerMatch:
        """The final's seats: the finalist going first at サテ 1, the other at 4 (K10)."""
        return partner_match((self.first, self.second), partners, present=present)

    def set_order(self, game: int) -> tuple[int, ...]:
        """Seats in asking order for ``game`` under the chosen question order."""
        return set_order(self.question_order, game)


def final_setup(
    duel: DiceDuel,
    *,
    winner_decides: Decision,
    first: str,
    question_order: QuestionOrder,
) -> FinalSetup:
    """Apply K10's decisions: the dice winner takes one, the other finalist the other.

    ``first`` is the finalist chosen to go first (by whoever decides the seat order);
    ``question_order`` is 単純 (simple) or 交互 (alternating), chosen by the other.
    """
    if first not in duel.players:
        raise RuleRefusal("not_a_finalist", f"{first!r} is not a finalist", player=first)
    if question_order not in ("simple", "alternating"):
        raise RuleRefusal("question_order_unknown", f"no question order {question_order!r}")
    if winner_decides == "seat_order":
        seat_by, order_by = duel.winner, duel.loser
    elif winner_decides == "question_order":
        seat_by, order_by = duel.loser, duel.winner
    else:
        raise RuleRefusal("decision_unknown", f"no decision {winner_decides!r}")
    second = duel.players[1] if first == duel.players[0] else duel.players[0]
    return FinalSetup(first, second, question_order, seat_by, order_by)


_SET_ORDER: dict[str, tuple[int, ...]] = {
    "simple": (1, 2, 3, 4),
    "alternating": (1, 3, 2, 4),
}


def set_order(question_order: QuestionOrder, game: int) -> tuple[int, ...]:
    """Seats in the order their sets are asked in ``game`` (1-based), K10's table.

    Odd games use the base order (単純 1,2,3,4; 交互 1,3,2,4), even games its reverse
    (4,3,2,1; 4,2,3,1): game 2 lets seat 4 ask first, game 3 is like game 1.
    """
    if question_order not in _SET_ORDER:
        raise RuleRefusal("question_order_unknown", f"no question order {question_order!r}")
    if game < 1:
        raise RuleRefusal("game_invalid", "games are numbered from 1", game=game)
    base = _SET_ORDER[question_order]
    return base if game % 2 == 1 else tuple(reversed(base))


@dataclass(frozen=True)
class SeriesState:
    """Where a best-of-n series stands after the games played so far."""

    players: tuple[str, str]
    wins: tuple[int, int]
    games_played: int
    winner: str | None
    wins_needed: int

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def next_game(self) -> int | None:
        return None if self.finished else self.games_played + 1


def series_state(
    players: tuple[str, str], game_winners: Sequence[str], *, wins_needed: int = 2
) -> SeriesState:
    """Replay game winners: the first to ``wins_needed`` wins (K10: best of 3)."""
    if players[0] == players[1]:
        raise RuleRefusal("finalists_same", "a series needs two different players")
    wins = [0, 0]
    winner: str | None = None
    for index, game_winner in enumerate(game_winners, start=1):
        if winner is not None:
            raise RuleRefusal(
                "game_after_series_won",
                "a game after the series was decided",
                game=index,
                winner=winner,
            )
        if game_winner not in players:
            raise RuleRefusal(
                "not_a_finalist",
                f"{game_winner!r} is not in this series",
                player=game_winner,
                game=index,
            )
        side = players.index(game_winner)
        wins[side] += 1
        if wins[side] >= wins_needed:
            winner = game_winner
    return SeriesState(players, (wins[0], wins[1]), len(game_winners), winner, wins_needed)
