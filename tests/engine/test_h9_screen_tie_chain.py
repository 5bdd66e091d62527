"""H9 (seed 002): two players on one on-screen placement are ordered by the tie-break chain.

domain.md H9 「On-screen order, else a recorded lottery」: the screen may show a tie
(1, 2, 2, 4). The order is derived, never entered: the round's chain (default: the higher
score, then the lottery recorded from the tournament's seed), and the result says which
players shared the place and what ordered them.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from brackets.engine import (
    DEFAULT_SCREEN_TIE_BREAK,
    EngineError,
    Lottery,
    ScreenTie,
    SeatEntry,
    match_result,
)

LOT = Lottery("seed-h9", "round-1/group-A/tie")


def _tie_at_second(b: str = "250.00", c: str = "250.00") -> list[SeatEntry]:
    return [SeatEntry(1, "A", D("310.50"), 1), SeatEntry(2, "B", D(b), 2),
            SeatEntry(3, "C", D(c), 2), SeatEntry(4, "E", D("180.00"), 4)]


def test_h9_default_chain_is_score_then_the_recorded_lottery() -> None:
    assert DEFAULT_SCREEN_TIE_BREAK == ("score", "lottery")


def test_h9_equal_scores_on_one_place_are_ordered_by_the_seeded_lottery() -> None:
    result = match_result(_tie_at_second(), lottery=LOT)
    order = result.ranking()
    assert order[0] == "A" and set(order[1:3]) == {"B", "C"} and order[3] == "E"
    assert [p.place for p in result.players] == [1, 2, 3, 4]
    assert result.lottery_used
    assert result.screen_ties == (ScreenTie(2, tuple(order[1:3]), ("lottery",)),)
    assert match_result(_tie_at_second(), lottery=Lottery(LOT.seed, LOT.purpose)).ranking() \
        == order  # the same seed and purpose give the same order on every page


def test_h9_a_tie_on_screen_with_different_scores_is_ordered_by_score_first() -> None:
    result = match_result(_tie_at_second(b="240.00", c="250.00"), lottery=LOT)
    assert result.ranking() == ["A", "C", "B", "E"]
    assert result.screen_ties == (ScreenTie(2, ("C", "B"), ("score",)),)
    assert not result.lottery_used
    assert [w.code for w in result.warnings] == ["placement_tie_with_different_scores"]


def test_h9_the_chain_is_the_presets_own() -> None:
    # A chain of seat first orders the tied pair by seat; slugs that cannot separate two
    # players of one match (組内順位, シード順) are passed over.
    result = match_result(_tie_at_second(), lottery=LOT,
                          screen_tie_break=("place", "seed", "seat", "lottery"))
    assert result.ranking() == ["A", "B", "C", "E"]
    assert result.screen_ties[0].decided_by == ("seat",)
    # Without a lottery in the chain, the recorded lottery still closes it (H9).
    closed = match_result(_tie_at_second(), lottery=LOT, screen_tie_break=("ratio",))
    assert closed.screen_ties[0].decided_by == ("lottery",)


def test_h9_a_tie_still_needs_a_lottery_and_only_the_screen_shape_is_accepted() -> None:
    with pytest.raises(EngineError) as err:
        match_result(_tie_at_second())
    assert err.value.code == "tie_needs_lottery"
    bad = _tie_at_second()[:3] + [SeatEntry(4, "E", D("180.00"), 3)]  # 1, 2, 2, 3
    with pytest.raises(EngineError) as err:
        match_result(bad, lottery=LOT)
    assert err.value.code == "placements_invalid"


def test_h9_no_tie_reports_none() -> None:
    entries = [SeatEntry(n, p, D(400 - 50 * n), n) for n, p in enumerate("ABCE", start=1)]
    assert match_result(entries).screen_ties == ()
