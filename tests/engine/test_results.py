"""Match results: dummy removal (K2), penalties (H7), disqualification (H8), ties (H9)."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brackets.engine import (
    EngineError,
    Lottery,
    Penalty,
    ScoreRange,
    SeatEntry,
    check_rematch,
    match_result,
)


def k2_entries() -> list[SeatEntry]:
    """K2's screen: D 310.50, A 290.00, B 250.00, C 180.00 (D the dummy)."""
    return [
        SeatEntry(1, "A", D("290.00"), 2),
        SeatEntry(2, "B", D("250.00"), 3),
        SeatEntry(3, None, D("310.50"), 1),
        SeatEntry(4, "C", D("180.00"), 4),
    ]


def test_k2_dummy_removed_from_placements() -> None:
    result = match_result(k2_entries(), group={"A", "B", "C"})
    assert result.ranking() == ["A", "B", "C"]
    assert [r.place for r in result.players] == [1, 2, 3]
    assert result.dummy is not None and result.dummy.score == D("310.50")
    assert result.warnings == ()


def test_h7_penalty_makes_score_negative_and_replaces() -> None:
    entries = [
        SeatEntry(1, "A", D("320.50"), 1),
        SeatEntry(2, "B", D("250.00"), 2),
        SeatEntry(3, "C", D("200.00"), 3),
        SeatEntry(4, "E", D("100.00"), 4),
    ]
    result = match_result(entries, penalties=[Penalty("A")])
    assert result.get("A").score == D("-79.50")
    assert result.get("A").penalty == D(400)
    assert result.get("A").screen_score == D("320.50")
    assert result.ranking() == ["B", "C", "E", "A"]


def test_h7_two_penalties_add_up() -> None:
    entries = [SeatEntry(1, "A", D(300), 1), SeatEntry(2, "B", D(10), 2)]
    result = match_result(entries, penalties=[Penalty("A"), Penalty("A", D(100))])
    assert result.get("A").score == D(-200)
    assert result.ranking() == ["B", "A"]


def test_h7_penalty_inserted_by_adjusted_score() -> None:
    entries = [
        SeatEntry(1, "A", D(380), 1),
        SeatEntry(2, "B", D(300), 2),
        SeatEntry(3, "C", D("-0") + D(10), 4),
        SeatEntry(4, None, D(200), 3),
    ]
    # A: 380 - 100 = 280 falls between B (300) and C (10).
    result = match_result(entries, penalties=[Penalty("A", D(100))])
    assert result.ranking() == ["B", "A", "C"]


def test_h9_equal_adjusted_scores_keep_screen_order() -> None:
    entries = [
        SeatEntry(1, "A", D(300), 1),
        SeatEntry(2, "B", D(200), 2),
        SeatEntry(3, "C", D(100), 3),
    ]
    # A drops to 200, equal to B: the screen had A above B, so A stays above.
    result = match_result(entries, penalties=[Penalty("A", D(100))])
    assert result.ranking() == ["A", "B", "C"]
    result = match_result(entries, penalties=[Penalty("B", D(100))])
    # B drops to 100, equal to C: B was above C on screen.
    assert result.ranking() == ["A", "B", "C"]


def test_h9_screen_tie_needs_recorded_lottery() -> None:
    entries = [
        SeatEntry(1, "A", D(200), 1),
        SeatEntry(2, "B", D(200), 1),
        SeatEntry(3, "C", D(100), 3),
    ]
    with pytest.raises(EngineError) as info:
        match_result(entries)
    assert info.value.code == "tie_needs_lottery"
    first = match_result(entries, lottery=Lottery("s", "r1/g1/tie"))
    again = match_result(entries, lottery=Lottery("s", "r1/g1/tie"))
    assert first.ranking() == again.ranking()
    assert first.lottery_used
    assert set(first.ranking()[:2]) == {"A", "B"} and first.ranking()[2] == "C"


def test_h8_disqualified_goes_last_and_lower_players_move_up() -> None:
    entries = [
        SeatEntry(1, "A", D(300), 1),
        SeatEntry(2, "B", D(250), 2),
        SeatEntry(3, "C", D(200), 3),
        SeatEntry(4, "E", D(150), 4),
    ]
    result = match_result(entries, disqualified={"A"})
    assert result.ranking() == ["B", "C", "E", "A"]
    assert result.get("B").place == 1
    assert result.get("A").disqualified and result.get("A").place == 4
    assert not result.get("B").disqualified


def test_h8_disqualification_only_affects_that_match() -> None:
    entries = [SeatEntry(1, "A", D(300), 1), SeatEntry(2, "B", D(250), 2)]
    match_result(entries, disqualified={"A"})
    assert match_result(entries).ranking() == ["A", "B"]


def test_mismatch_between_screen_and_scores_is_a_warning() -> None:
    entries = [
        SeatEntry(1, "A", D(100), 1),
        SeatEntry(2, "B", D(250), 2),
        SeatEntry(3, "C", D(50), 3),
    ]
    result = match_result(entries)
    assert result.ranking() == ["A", "B", "C"]  # the screen is authoritative
    codes = [(w.code, w.params["seat"], w.params["other_seat"]) for w in result.warnings]
    assert codes == [("placement_below_lower_score", 1, 2)]


def test_mismatch_with_dummy_is_reported_too() -> None:
    entries = [SeatEntry(1, "A", D(100), 1), SeatEntry(2, None, D(300), 2)]
    assert [w.code for w in match_result(entries).warnings] == ["placement_below_lower_score"]


@pytest.mark.parametrize(
    ("entries", "code"),
    [
        ([SeatEntry(1, "A", D(1), 1), SeatEntry(1, "B", D(0), 2)], "seat_twice"),
        ([SeatEntry(5, "A", D(1), 1)], "seat_unknown"),
        ([SeatEntry(1, "A", D(1), 1), SeatEntry(2, "A", D(0), 2)], "player_twice"),
        ([SeatEntry(1, "A", D(1), 1), SeatEntry(2, "B", D(0), 3)], "placements_invalid"),
        ([SeatEntry(1, "A", D(1), 2), SeatEntry(2, "B", D(0), 2)], "placements_invalid"),
        ([SeatEntry(1, "A", D(1), 0), SeatEntry(2, "B", D(0), 1)], "placements_invalid"),
        ([SeatEntry(1, None, D(1), 1), SeatEntry(2, None, D(0), 2)], "two_dummies"),
        ([SeatEntry(1, "A", D("1000.01"), 1)], "score_out_of_range"),
        ([SeatEntry(1, "A", D(-1), 1)], "score_out_of_range"),
        ([SeatEntry(1, "A", D("1.005"), 1)], "score_precision"),
    ],
)
def test_impossible_input_raises(entries: list[SeatEntry], code: str) -> None:
    with pytest.raises(EngineError) as info:
        match_result(entries)
    assert info.value.code == code


def test_score_range_is_configurable() -> None:
    entries = [SeatEntry(1, "A", D(-5), 1)]
    result = match_result(entries, score_range=ScoreRange(low=D(-100), high=D(500)))
    assert result.get("A").score == D(-5)


def test_result_for_player_not_in_group_raises() -> None:
    with pytest.raises(EngineError) as info:
        match_result(k2_entries(), group={"A", "B"})
    assert info.value.code == "player_not_in_group"


def test_group_member_without_result_is_warned() -> None:
    result = match_result(k2_entries(), group={"A", "B", "C", "Z"})
    assert [(w.code, w.params["player"]) for w in result.warnings] == [("missing_result", "Z")]


def test_penalty_or_dq_for_absent_player_raises() -> None:
    with pytest.raises(EngineError):
        match_result(k2_entries(), penalties=[Penalty("Z")])
    with pytest.raises(EngineError):
        match_result(k2_entries(), disqualified={"Z"})


def test_h7_rematch_must_repeat_selections() -> None:
    aborted = {"A": ("芸能", "四択", "HARD"), "B": ("社会", "連想", "EASY")}
    same = check_rematch(aborted, dict(aborted))
    assert same.ok and same.penalties() == []
    changed = check_rematch(aborted, {"A": ("芸能", "四択", "HARD"), "B": ("社会", "○×", "EASY")})
    assert not changed.ok
    assert [v.params["player"] for v in changed.violations] == ["B"]
    assert changed.penalties() == [Penalty("B", D(400), "rematch_selection_changed")]


def test_rematch_with_other_players_raises() -> None:
    with pytest.raises(EngineError) as info:
        check_rematch({"A": 1}, {"B": 1})
    assert info.value.code == "rematch_players_differ"


@settings(max_examples=150, deadline=None)
@given(
    scores=st.lists(st.integers(min_value=0, max_value=40000), min_size=1, max_size=4),
    dummy_at=st.integers(min_value=0, max_value=3),
    penalised=st.sets(st.integers(min_value=0, max_value=3)),
    dq=st.sets(st.integers(min_value=0, max_value=3), max_size=1),
)
def test_property_consistent_screen_places_by_adjusted_score(
    scores: list[int], dummy_at: int, penalised: set[int], dq: set[int]
) -> None:
    values = [D(s) / 100 for s in scores]
    order = sorted(range(len(values)), key=lambda i: (-values[i], i))
    players: list[str | None] = [f"P{i}" for i in range(len(values))]
    if dummy_at < len(players) and len(players) > 1:
        players[dummy_at] = None
    entries = [
        SeatEntry(i + 1, players[i], values[i], order.index(i) + 1) for i in range(len(values))
    ]
    real = [e for e in entries if e.player is not None]
    pens = [Penalty(e.player) for e in real if e.seat - 1 in penalised and e.player]
    out = {e.player for e in real if e.seat - 1 in dq and e.player}
    result = match_result(entries, penalties=pens, disqualified=out)
    assert result.warnings == ()
    assert [r.place for r in result.players] == list(range(1, len(real) + 1))
    pen_of = {p.player: p.points for p in pens}
    expected = sorted(
        real,
        key=lambda e: (
            e.player in out,
            -(e.score - pen_of.get(e.player or "", D(0))) if e.player not in out else 0,
            e.screen_place,
        ),
    )
    assert result.ranking() == [e.player for e in expected]


def test_h9_reusing_the_same_lottery_object_gives_the_same_order() -> None:
    entries = [SeatEntry(i + 1, f"P{i}", D(200), 1) for i in range(4)]
    lot = Lottery("s", "r1/g1/tie")
    rankings = [match_result(entries, lottery=lot).ranking() for _ in range(4)]
    assert all(r == rankings[0] for r in rankings)
    assert match_result(entries, lottery=Lottery("s", "r1/g1/tie")).ranking() == rankings[0]
