"""惜敗率 (K3)."""

from __future__ import annotations

from decimal import Decimal as D
from fractions import Fraction

import pytest

from brackets.engine import UNDEFINED, Penalty, SeatEntry, group_ratios, match_result
from brackets.engine.ratio import ratio


def test_k3_worked_example() -> None:
    result = match_result(
        [
            SeatEntry(1, "A", D("290.00"), 2),
            SeatEntry(2, "B", D("250.00"), 3),
            SeatEntry(3, None, D("310.50"), 1),
            SeatEntry(4, "C", D("180.00"), 4),
        ]
    )
    ratios = group_ratios(result)
    assert {p: r.display() for p, r in ratios.items()} == {
        "A": D("100.00"),
        "B": D("86.21"),
        "C": D("62.07"),
    }
    assert str(ratios["B"]) == "86.21"


def test_k3_exact_value_kept_for_comparison() -> None:
    a = ratio(D("250.00"), D("290.00"))
    b = ratio(D("250.01"), D("290.00"))
    assert a.display() == b.display() == D("86.21")
    assert a.exact is not None and b.exact is not None and a.exact < b.exact
    assert a.exact == Fraction(25000, 290)


@pytest.mark.parametrize(
    ("score", "reference", "places", "shown"),
    [
        (D(1), D(8), 2, D("12.50")),
        (D(1), D(8), 1, D("12.5")),
        (D(1), D(16), 2, D("6.25")),
        (D(1), D(16), 1, D("6.3")),  # half rounds up
        (D(-1), D(16), 1, D("-6.3")),  # half away from zero, as ROUND_HALF_UP
        (D(250), D(290), 3, D("86.207")),
    ],
)
def test_display_rounds_half_up(score: D, reference: D, places: int, shown: D) -> None:
    assert ratio(score, reference).display(places) == shown


def test_k3_undefined_when_winner_score_not_positive() -> None:
    assert ratio(D(10), D(0)) is UNDEFINED
    assert ratio(D(-10), D(-5)).undefined
    assert UNDEFINED.display() is None
    assert str(UNDEFINED) == "—"
    # After penalties every score of a group can be ≤ 0.
    result = match_result(
        [SeatEntry(1, "A", D(300), 1), SeatEntry(2, "B", D(200), 2)],
        penalties=[Penalty("A"), Penalty("B")],
    )
    assert all(r.undefined for r in group_ratios(result).values())


def test_k3_undefined_ranks_below_every_defined_ratio() -> None:
    keys = sorted(
        [UNDEFINED.sort_key(), ratio(D(-50), D(100)).sort_key(), ratio(D(50), D(100)).sort_key()]
    )
    assert keys[-1] == UNDEFINED.sort_key()
    assert keys[0] == ratio(D(50), D(100)).sort_key()


def test_k3_computed_after_penalties() -> None:
    # H7: the winner's −400 makes B the reference.
    result = match_result(
        [
            SeatEntry(1, "A", D("320.50"), 1),
            SeatEntry(2, "B", D("200.00"), 2),
            SeatEntry(3, "C", D("100.00"), 3),
        ],
        penalties=[Penalty("A")],
    )
    ratios = group_ratios(result)
    assert ratios["B"].display() == D("100.00")
    assert ratios["C"].display() == D("50.00")
    assert ratios["A"].display() == D("-39.75")


def test_k3_reference_skips_disqualified_winner() -> None:
    result = match_result(
        [SeatEntry(1, "A", D(300), 1), SeatEntry(2, "B", D(200), 2), SeatEntry(3, "C", D(150), 3)],
        disqualified={"A"},
    )
    ratios = group_ratios(result)
    assert ratios["B"].display() == D("100.00")
    assert ratios["C"].display() == D("75.00")
