"""Seed 003 rules L1–L11 as named tests (domain.md §D)."""

from __future__ import annotations

import pytest
from buzzer_helpers import run, specs

from brackets.engine import EngineError
from brackets.engine.buzzer import (
    QUIZ_003,
    BoardResults,
    Correct,
    PlayerSpec,
    Thru,
    TieBreak,
    WrittenResults,
    Wrong,
    advantages_by_seat,
    apply,
    mod_split,
    replay,
    snake,
    tiebreak_from,
    tiebreak_round,
)

L1 = QUIZ_003.round("2r").config
L2 = QUIZ_003.round("3r").config
L3 = QUIZ_003.round("extra-1").config
L4 = QUIZ_003.round("extra-2").config
L5 = QUIZ_003.round("qf-1").config
L6 = QUIZ_003.round("qf-2").config
L7 = QUIZ_003.round("sf-1").config
L8 = QUIZ_003.round("sf-2").config
L9 = QUIZ_003.round("sf-3").config
L10 = QUIZ_003.round("final").config
assert None not in (L1, L2, L3, L4, L5, L6, L7, L8, L9, L10)


def thrus(n: int) -> list[Thru]:
    return [Thru() for _ in range(n)]


# ------------------------------------------------------------------ L1 2R 5○2×


def test_l1_advantages_3_2_2_1_1_1_by_seat() -> None:
    assert L1 is not None
    s = run(L1, 8, [])
    assert [s.players[f"p{i}"].correct for i in range(1, 9)] == [3, 2, 2, 1, 1, 1, 0, 0]
    assert advantages_by_seat(["a", "b", "c", "d", "e", "f", "g"], (3, 2, 2, 1, 1, 1)) == {
        "a": 3,
        "b": 2,
        "c": 2,
        "d": 1,
        "e": 1,
        "f": 1,
        "g": 0,
    }


def test_l1_five_correct_including_advantage_wins_two_wrong_out() -> None:
    assert L1 is not None
    s = run(L1, 8, [Correct("p1"), Correct("p1"), Wrong("p8"), Thru(), Wrong("p8")])
    assert s.winners == ("p1",)
    assert s.players["p1"].status == "won" and s.players["p1"].win_order == 1
    assert s.outs == ("p8",)


def test_l1_limit_35_judged_by_correct_then_fewer_wrong() -> None:
    assert L1 is not None
    # 8 players, nobody wins: at Q35 ○ desc → × asc decides the 5 places.
    events = [Wrong("p1"), Thru(), Wrong("p4"), Thru()] + thrus(33)
    s = run(L1, 8, events)
    assert s.question == 35 and s.over and s.end_reason == "limit"
    # ○: p1 3, p2 2, p3 2, p4 1 (1×), p5 1, p6 1, p7 0, p8 0 → p5 & p6 before p4.
    assert s.winners == ("p1", "p2", "p3", "p5", "p6")
    assert set(s.outs) == {"p4", "p7", "p8"}


def test_l1_tie_straddling_the_line_needs_sudden_death() -> None:
    assert L1 is not None
    s = run(L1, 8, thrus(35))
    # p4..p6 tie at 1○0× for 2 places (p1..p3 take 3).
    assert s.phase == "deciding"
    (d,) = s.pending
    assert d.side == "win" and set(d.candidates) == {"p4", "p5", "p6"} and d.places == 2
    with pytest.raises(EngineError) as err:
        apply(s, Correct("p4"))
    assert err.value.code == "decision_pending"
    s = apply(s, TieBreak("win", ("p6", "p4", "p5")))
    assert s.over and s.winners == ("p1", "p2", "p3", "p6", "p4")


# ------------------------------------------------------------------ L2 3R 7○3×


def test_l2_snake_group_a_is_1_10_11_20_21_30_31() -> None:
    groups = snake([str(i) for i in range(1, 36)], 5)
    assert groups[0] == ["1", "10", "11", "20", "21", "30", "31"]


def test_l2_snake_group_b_is_2_9_12_19() -> None:
    assert snake([str(i) for i in range(1, 36)], 5)[1][:4] == ["2", "9", "12", "19"]


def test_l2_snake_group_e_is_5_6_15_16_25_26_35() -> None:
    assert snake([str(i) for i in range(1, 36)], 5)[4] == ["5", "6", "15", "16", "25", "26", "35"]


def test_l2_top_seat_plus_one_seven_correct_wins_three_wrong_out() -> None:
    assert L2 is not None
    s = run(L2, 7, [])
    assert [p.correct for p in s.players.values()] == [1, 0, 0, 0, 0, 0, 0]
    s = run(L2, 7, [Correct("p1")] * 6 + [Wrong("p7"), Thru(), Wrong("p7"), Thru(), Wrong("p7")])
    assert s.winners == ("p1",) and s.outs == ("p7",)


def test_l2_three_winners_end_the_group() -> None:
    assert L2 is not None
    events = [Correct("p1")] * 6 + [Correct("p2")] * 7 + [Correct("p3")] * 7
    s = run(L2, 7, events)
    assert s.over and s.winners == ("p1", "p2", "p3") and len(s.outs) == 4


def test_l2_limit_45() -> None:
    assert L2 is not None
    s = run(L2, 7, [Correct("p2")] * 3 + thrus(42))
    assert s.question == 45 and s.phase == "deciding"  # p1 and p2 ahead, 5 tied for 1 place


# ------------------------------------------------- L3 Extra step 1 written elimination


def _written(marks: dict[str, bool]) -> WrittenResults:
    return WrittenResults.of(marks)


def test_l3_sit_after_two_wrong_or_blank() -> None:
    assert L3 is not None
    ps = specs(20)
    # p1 blank twice (no mark = blank), p2 wrong twice; everyone else right.
    ok = {p.id: True for p in ps[2:]}
    s = replay(L3, ps, [_written({**ok, "p2": False}), _written({**ok, "p2": False})])
    assert s.players["p1"].status == "out" and s.players["p2"].status == "out"
    assert s.players["p3"].status == "active"


def test_l3_twelve_or_fewer_standing_go_to_step_2() -> None:
    assert L3 is not None
    ps = specs(20)
    ok12 = {f"p{i}": True for i in range(1, 13)}
    s = replay(L3, ps, [_written(ok12), _written(ok12)])
    assert s.over and s.end_reason == "passed" and set(s.winners) == set(ok12)


def test_l3_twelve_or_fewer_entrants_pass_before_any_question() -> None:
    assert L3 is not None
    s = run(L3, 12, [])
    assert s.over and len(s.winners) == 12


def test_l3_drop_from_13_or_more_to_zero_restands_those_standing_before() -> None:
    assert L3 is not None
    ps = specs(15)
    one_wrong = {p.id: False for p in ps}
    s = replay(L3, ps, [_written(one_wrong), _written(one_wrong)])
    assert s.phase == "playing"
    assert all(p.status == "active" for p in s.players.values())
    assert s.question == 2


def test_l3_after_q15_with_13_standing_fewer_wrongs_then_1r_rank_top_12() -> None:
    assert L3 is not None
    ps = [PlayerSpec(f"p{i}", i, rank=100 - i) for i in range(1, 15)]  # p14 best 1R rank
    events = []
    for q in range(1, 16):
        marks = {p.id: True for p in ps}
        if q == 1:
            marks["p1"] = False  # p1 one wrong
        events.append(_written(marks))
    s = replay(L3, ps, events)
    assert s.over and s.end_reason == "limit"
    # 14 standing: p1 drops for its wrong, then 1R rank: p2 (rank 98) is worst of the rest.
    assert set(s.winners) == {f"p{i}" for i in range(3, 15)}
    assert len(s.winners) == 12


# ---------------------------------------------------- L4 Extra step 2 4○1× revival


def test_l4_perfect_step_1_players_start_with_one_correct() -> None:
    from brackets.engine.buzzer import entrants

    assert L3 is not None
    ps = [PlayerSpec(f"p{i}", i, i) for i in range(1, 14)]
    events = []
    for q in range(1, 3):
        marks = {p.id: True for p in ps}
        marks["p13"] = False
        if q == 1:
            marks["p5"] = False
        events.append(_written(marks))
    step1 = replay(L3, ps, events)
    assert step1.over and len(step1.winners) == 12
    rank = {p.id: p.seat for p in ps} | {"x": 99}
    (group,) = entrants(QUIZ_003, "extra-2", {"extra-1": step1, "3r": []}, rank)
    adv = {sp.id: sp.advantage for sp in group}
    assert adv["p5"] is None and adv["p1"] == 1
    assert L4 is not None
    s = replay(L4, group, [])
    assert s.players["p1"].correct == 1 and s.players["p5"].correct == 0


def test_l4_one_wrong_out_four_correct_revives() -> None:
    assert L4 is not None
    s = run(L4, 5, [Wrong("p1"), Correct("p2"), Correct("p2"), Correct("p2"), Correct("p2")])
    assert s.outs[0] == "p1" and s.winners == ("p2",) and s.over


def test_l4_thirty_question_limit_then_sudden_death() -> None:
    assert L4 is not None
    s = run(L4, 4, [Correct("p1"), Correct("p2")] + thrus(28))
    assert s.question == 30 and s.phase == "deciding"
    assert set(s.pending[0].candidates) == {"p1", "p2"}


def test_l4_last_one_standing_revives() -> None:
    assert L4 is not None
    s = run(L4, 3, [Wrong("p1"), Wrong("p2")])
    assert s.over and s.winners == ("p3",) and s.end_reason == "remaining_advance"


# --------------------------------------------------------- L5 QF phase 1 board quiz


def test_l5_board_plus_two_and_plus_one_more_if_four_or_fewer_correct() -> None:
    assert L5 is not None
    four = frozenset({"p1", "p2", "p3", "p4"})
    five = frozenset({"p1", "p2", "p3", "p4", "p5"})
    s = run(L5, 16, [BoardResults(four), BoardResults(five)])
    assert s.players["p1"].points == 3 + 2
    assert s.players["p5"].points == 2
    assert s.players["p6"].points == 0
    assert s.players["p1"].board_correct == 2


def test_l5_fifteen_questions_everyone_moves_on_ordered_by_points() -> None:
    assert L5 is not None
    s = run(L5, 16, [BoardResults(frozenset({"p16"}))] + [BoardResults(frozenset())] * 14)
    assert s.over and s.question == 15
    assert s.winners == () and s.outs == ()
    assert s.continuing[0] == "p16" and s.continuing[1:] == tuple(f"p{i}" for i in range(1, 16))


# ------------------------------------------------------- L6 QF phase 2 buzz board


def test_l6_mod_2_split_of_phase_1_order() -> None:
    order = [f"r{i}" for i in range(1, 17)]
    a, b = mod_split(order, 2)
    assert a == ["r1", "r3", "r5", "r7", "r9", "r11", "r13", "r15"]
    assert b[0] == "r2"


def test_l6_buzz_plus_minus_four_board_two_bonus_if_two_or_fewer_points_negative() -> None:
    assert L6 is not None
    s = run(
        L6,
        8,
        [
            BoardResults(frozenset({"p2", "p3"}), buzzer="p1", buzzer_correct=True),
            BoardResults(frozenset({"p2", "p3", "p4"}), buzzer="p5", buzzer_correct=False),
        ],
    )
    p = s.players
    assert p["p1"].points == 4
    assert p["p2"].points == 3 + 2
    assert p["p4"].points == 2
    assert p["p5"].points == -4


def test_l6_forty_points_with_phase_1_carried_wins() -> None:
    assert L6 is not None
    ps = [PlayerSpec(f"p{i}", i, i, points=36 if i == 1 else 0) for i in range(1, 9)]
    s = replay(L6, ps, [BoardResults(frozenset(), buzzer="p1", buzzer_correct=True)])
    assert s.winners == ("p1",)


def test_l6_simultaneous_forty_judged_by_points_then_board_corrects_then_sudden_death() -> None:
    assert L6 is not None
    pts = {1: 38, 2: 38, 3: 38, 4: 38, 5: 38, 6: 0, 7: 0, 8: 0}
    bc = {1: 5, 2: 6, 3: 6, 4: 4, 5: 4}
    ps = [PlayerSpec(f"p{i}", i, i, points=pts[i], board_correct=bc.get(i, 0)) for i in range(1, 9)]
    s = replay(L6, ps, [BoardResults(frozenset({"p1", "p2", "p3", "p4", "p5"}))])
    # 5 reach 40 (38 + 2, no bonus with 5 correct) for 4 places: board corrects 7,7,6,5,5.
    assert s.phase == "deciding"
    (d,) = s.pending
    assert set(d.candidates) == {"p4", "p5"} and d.places == 1
    s = apply(s, TieBreak("win", ("p5", "p4")))
    assert s.winners == ("p2", "p3", "p1", "p5")


# ------------------------------------------------------------- L7–L9 Semi Final


def test_l7_nth_wrong_rests_n_questions() -> None:
    assert L7 is not None
    s = run(L7, 8, [Wrong("p1"), Thru()])
    assert s.players["p1"].rests == 1
    with pytest.raises(EngineError) as err:
        apply(s, Correct("p1"))
    assert err.value.code == "player_resting"
    s = run(L7, 8, [Wrong("p1"), Thru(), Thru(), Wrong("p1"), Thru()])
    assert s.players["p1"].rests == 2 and s.players["p1"].points == 0


def test_l7_three_wrongs_lock_but_player_stays_ranked() -> None:
    assert L7 is not None
    ev = [Wrong("p1"), Thru(), Thru(), Wrong("p1"), Thru(), Thru(), Thru(), Wrong("p1")]
    s = run(L7, 8, ev)
    assert s.players["p1"].status == "locked"
    with pytest.raises(EngineError) as err:
        apply(s, Correct("p1"))
    assert err.value.code == "player_locked"
    assert "p1" in s.remaining


def test_l7_after_35_one_advances_one_is_out_rests_carry_into_set_2() -> None:
    from brackets.engine.buzzer import entrants

    assert L7 is not None and L8 is not None
    ev = [Correct("p1")] * 3 + [Correct("p2")] * 2
    ev += [Wrong("p8"), Thru(), Wrong("p7"), Thru()] + thrus(27) + [Wrong("p2"), Thru()]
    s1 = replay(L7, specs(8), ev)
    assert s1.question == 35 and s1.phase == "deciding"
    (d,) = s1.pending
    assert d.side == "loss" and set(d.candidates) == {"p7", "p8"} and d.places == 1
    s1 = apply(s1, TieBreak("loss", ("p8", "p7")))
    assert s1.over and s1.winners == ("p1",) and s1.outs == ("p7",)
    assert s1.continuing == ("p2", "p3", "p4", "p5", "p6", "p8")
    (group,) = entrants(QUIZ_003, "sf-2", {"sf-1": s1}, {f"p{i}": i for i in range(1, 9)})
    carried = {sp.id: (sp.points, sp.rests) for sp in group}
    assert carried["p2"] == (2, 1) and carried["p3"] == (0, 0)
    s2 = replay(L8, group, [])
    with pytest.raises(EngineError) as err:
        apply(s2, Correct("p2"))
    assert err.value.code == "player_resting"
    s2 = replay(L8, group, [Thru(), Correct("p2")])
    assert s2.players["p2"].points == 3


def test_l8_two_rest_and_total_points_judging() -> None:
    assert L8 is not None
    ps = [
        PlayerSpec(f"p{i}", i, i, points=3 - i if i < 3 else 0, rests=1 if i == 6 else 0)
        for i in range(1, 7)
    ]
    s = replay(L8, ps, [])
    with pytest.raises(EngineError):
        apply(s, Correct("p6"))  # rest carried from set 1
    s = replay(L8, ps, [Wrong("p3"), Thru(), Thru()])
    assert s.players["p3"].rests == 1
    s = replay(L8, ps, [Correct("p1"), Wrong("p3"), Thru()] + thrus(28))
    assert s.over and s.question == 30
    assert s.winners == ("p1",) and s.players["p1"].points == 3 and s.outs == ("p3",)


def test_l9_plus_two_minus_one_two_advance() -> None:
    assert L9 is not None
    ps = [PlayerSpec(f"p{i}", i, i) for i in range(1, 5)]
    s = replay(
        L9, ps, [Correct("p1"), Correct("p2"), Correct("p2"), Wrong("p3"), Thru()] + thrus(21)
    )
    assert s.over and s.players["p2"].points == 4 and s.players["p3"].points == -1
    assert s.winners == ("p2", "p1") and len(s.outs) == 2


# ---------------------------------------------------------------- L10 Final


def test_l10_final_12_correct_5_wrong_50_questions() -> None:
    assert L10 is not None
    s = run(L10, 4, [Correct("p2")] * 12)
    assert s.winners == ("p2",) and s.over
    s = run(L10, 4, [Wrong("p1"), Thru()] * 5)
    assert s.outs == ("p1",)
    s = run(L10, 4, [Correct("p3")] + thrus(49))
    assert s.question == 50 and s.winners == ("p3",)


# -------------------------------------------------------------- L11 sudden death


def test_l11_no_sudden_death_when_tie_does_not_straddle_the_line() -> None:
    assert L1 is not None
    s = run(L1, 8, [Correct("p4"), Correct("p5"), Correct("p6")] + thrus(32))
    # p1 3, p2 2, p3 2, p4..p6 2 → 6 at ≥2... p1, then five at 2 for 4 places: straddles.
    assert s.phase == "deciding"
    s = run(L1, 7, [Correct("p4"), Correct("p5")] + thrus(33))
    # p1 3; p2..p5 2 (4 players) → 5 places exactly; p6, p7 tie below the line: no decision.
    assert s.over and set(s.winners) == {"p1", "p2", "p3", "p4", "p5"}


def test_l11_participants_plus_two_questions_of_1o1x_then_1r_rank() -> None:
    assert L1 is not None
    s = run(L1, 8, thrus(35))
    config, players = tiebreak_round(s, "win")
    assert config.question_limit == 3 + 2
    sub = replay(config, players, thrus(5))
    # no correct in 3 + 2 questions: p4, p5 take the 2 places by 1R rank.
    assert sub.over and sub.end_reason == "limit"
    tb = tiebreak_from(sub, "win")
    assert tb.order[:2] == ("p4", "p5")
    s = apply(s, tb)
    assert s.winners == ("p1", "p2", "p3", "p4", "p5")


def test_l11_sudden_death_wrong_is_out_and_the_rest_fill_the_places() -> None:
    assert L1 is not None
    s = run(L1, 8, thrus(35))
    config, players = tiebreak_round(s, "win")
    sub = replay(config, players, [Wrong("p4")])
    assert sub.over and sub.winners == ("p5", "p6")
    s = apply(s, tiebreak_from(sub, "win"))
    assert s.winners[3:] == ("p5", "p6") and "p4" in s.outs


def test_l11_win_side_and_loss_side_are_decided_separately() -> None:
    assert L7 is not None
    # Set 1: p1, p2 tie on top (1 point), p7, p8 tie at the bottom (0 points, 1 miss).
    ev = [Correct("p1"), Correct("p2"), Wrong("p7"), Thru(), Wrong("p8"), Thru()] + thrus(31)
    s = run(L7, 8, ev)
    assert s.phase == "deciding"
    sides = {d.side: d for d in s.pending}
    assert set(sides) == {"win", "loss"}
    assert set(sides["win"].candidates) == {"p1", "p2"}
    assert set(sides["loss"].candidates) == {"p7", "p8"} and sides["loss"].places == 1
    cfg, players = tiebreak_round(s, "loss")
    sub = replay(cfg, players, [Correct("p8")])
    s = apply(s, tiebreak_from(sub, "loss"))
    assert s.phase == "deciding" and [d.side for d in s.pending] == ["win"]
    s = apply(s, TieBreak("win", ("p2", "p1")))
    assert s.over and s.winners == ("p2",) and s.outs == ("p7",)
    assert s.continuing[0] == "p1" and "p8" in s.continuing


def test_l11_sudden_death_loss_side_wrong_is_out() -> None:
    assert L7 is not None
    ev = [Correct("p1"), Wrong("p7"), Thru(), Wrong("p8"), Thru()] + thrus(32)
    s = run(L7, 8, ev)
    cfg, players = tiebreak_round(s, "loss")
    sub = replay(cfg, players, [Wrong("p7")])
    assert sub.over and sub.winners == ("p8",)
    s = apply(s, tiebreak_from(sub, "loss"))
    assert s.outs == ("p7",)
