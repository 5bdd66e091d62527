"""H8 + K3: a disqualified player has no 惜敗率 in that match.

「違反者を失格とし、下位プレイヤーの順位を繰り上げる」: the cheater drops to the bottom and the
next player becomes the reference. Computing his ratio against that new 1st gave 107.14 in
a 堅田 match; he has none (``DISQUALIFIED``), and the others' ratios are against the new 1st.
"""

from __future__ import annotations

from decimal import Decimal as D

from brackets.engine import DISQUALIFIED, UNDEFINED, SeatEntry, group_ratios, match_result

SCREEN = [SeatEntry(1, "A", D("300.00"), 1), SeatEntry(2, "B", D("280.00"), 2),
          SeatEntry(3, "C", D("200.00"), 3), SeatEntry(4, "E", D("100.00"), 4)]


def test_h8_disqualified_winner_has_no_ratio_and_the_next_player_is_the_reference() -> None:
    result = match_result(SCREEN, disqualified={"A"})
    ratios = group_ratios(result)
    assert ratios["A"] is DISQUALIFIED and ratios["A"].display() is None
    assert ratios["A"].disqualified and ratios["A"].why == "disqualified"
    assert ratios["B"].display() == D("100.00")
    assert ratios["C"].display() == D("71.43")


def test_h8_disqualified_ratio_is_not_the_undefined_k3_ratio() -> None:
    assert DISQUALIFIED != UNDEFINED and not UNDEFINED.disqualified
    assert UNDEFINED.why == "reference_not_positive"
    # Undefined ratios rank below every defined one, a disqualified player below both.
    assert sorted([DISQUALIFIED, UNDEFINED], key=lambda r: r.sort_key()) == [
        UNDEFINED, DISQUALIFIED]
