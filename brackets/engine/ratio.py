"""惜敗率 (ratio to winner), K3.

score ÷ score of the group's 1st-placed *real* player × 100, for every player of the group
(the winner has 100). It is computed from scores *after* penalties (H7), so it changes when
a penalty is entered, and the reference is the 1st-placed player after penalties and any
disqualification (H8).

Two values are kept: the exact ratio (a :class:`fractions.Fraction`, so two players whose
displayed ratios are both 86.21 still compare correctly) and the display value, a
``Decimal`` quantized with ROUND_HALF_UP (two places by default; some organisers print
three). When the reference score is ≤ 0 — possible after a −400 penalty — the ratio is
*undefined*: a distinct value, never zero and never an exception, so the cross-group table
can show and rank it explicitly (undefined ratios rank below every defined one).

A disqualified player (H8) has no 惜敗率 in that match at all: 「失格」 is what their row
says, not a number against the winner's score. Both kinds of "no ratio" carry their
reason (:attr:`Ratio.why`), so every page and document says the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from .results import MatchResult

HUNDRED = Fraction(100)


#: Why a player has no 惜敗率: the group's 1st scored ≤ 0 (K3), or disqualified (H8).
REFERENCE_NOT_POSITIVE = "reference_not_positive"
DISQUALIFIED_NO_RATIO = "disqualified"


@dataclass(frozen=True, order=False)
class Ratio:
    """One player's 惜敗率; ``exact is None`` means none, for the reason in ``why``
    (:data:`REFERENCE_NOT_POSITIVE` or :data:`DISQUALIFIED_NO_RATIO`; ``""`` when defined).
    """

    exact: Fraction | None
    why: str = ""

    @property
    def disqualified(self) -> bool:
        return self.why == DISQUALIFIED_NO_RATIO

    @property
    def undefined(self) -> bool:
        return self.exact is None

    def display(self, places: int = 2) -> Decimal | None:
        """The value shown to people: quantized half-up, or ``None`` when undefined."""
        if self.exact is None:
            return None
        # Rounded on the exact fraction (half away from zero, as Decimal's ROUND_HALF_UP),
        # so a true half is never lost to a 28-digit division.
        magnitude = abs(self.exact) * (10**places)
        units = magnitude.numerator // magnitude.denominator
        if magnitude - units >= Fraction(1, 2):
            units += 1
        signed = -units if self.exact < 0 else units
        return (
            Decimal(signed)
            .scaleb(-places)
            .quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
        )

    def sort_key(self) -> tuple[int, Fraction]:
        """Ascending key: the best ratio first, undefined ratios last, disqualified after."""
        if self.disqualified:
            return (2, Fraction(0))
        if self.exact is None:
            return (1, Fraction(0))
        return (0, -self.exact)

    def __str__(self) -> str:
        shown = self.display()
        return "—" if shown is None else f"{shown}"


UNDEFINED = Ratio(None, REFERENCE_NOT_POSITIVE)
DISQUALIFIED = Ratio(None, DISQUALIFIED_NO_RATIO)


def ratio(score: Decimal, reference: Decimal) -> Ratio:
    """The 惜敗率 of ``score`` against the group winner's ``reference`` score (K3)."""
    if reference <= 0:
        return UNDEFINED
    return Ratio(Fraction(score) / Fraction(reference) * HUNDRED)


def group_ratios(result: MatchResult) -> dict[str, Ratio]:
    """Every real player's 惜敗率 in one match; the dummy never counts (K2, K3), and a
    disqualified player has none (H8: :data:`DISQUALIFIED`)."""
    winner = result.winner
    if winner is None:
        return {}
    return {row.player: DISQUALIFIED if row.disqualified else ratio(row.score, winner.score)
            for row in result.players}
