"""Seed 004 rules M1–M6 as named tests (domain.md §D)."""

from __future__ import annotations

import pytest
from buzzer_helpers import run, specs

from brackets.engine import EngineError, Lottery
from brackets.engine.buzzer import (
    ABC_004,
    SCORING,
    ClockExpire,
    ClockStart,
    Correct,
    PlayerSpec,
    Thru,
    TieBreak,
    WrittenResults,
    Wrong,
    apply,
    entrants,
    number10_course_entry,
    number10_courses,
    number10_priority,
    paper_ranking,
    paper_score,
    ranking,
    replay,
    snake,
    tiebreak_from,
    tiebreak_round,
)

M2 = ABC_004.round("2r").config
UPDOWN = ABC_004.round("3r-updown").config
FREEZE = ABC_004.round("3r-freeze").config
SWEDISH = ABC_004.round("3r-swedish").config
BY10 = ABC_004.round("3r-10by10").config
M4_STEP1 = ABC_004.round("extra-1").config
M4_STEP2 = ABC_004.round("extra-2").config
M5_SET1 = ABC_004.round("sf-1").config
M5_SET2 = ABC_004.round("sf-2").config
M6 = ABC_004.round("final").config
assert None not in (M2, UPDOWN, FREEZE, SWEDISH, BY10, M4_STEP1, M4_STEP2, M5_SET1, M5_SET2, M6)


def thrus(n: int) -> list[Thru]:
    return [Thru() for _ in range(n)]


# ------------------------------------------------------------------ M1 paper quiz


def sheet(correct: set[int], n: int = 100) -> list[bool]:
    return [q in correct for q in range(1, n + 1)]


def test_m1_streaks_from_q1_and_after_the_first_miss() -> None:
    s = paper_score("a", sheet({1, 2, 3, 5, 6, 9}))
    assert (s.total, s.first_half, s.streak1, s.streak2) == (6, 6, 3, 2)
    assert paper_score("a", sheet({1, 2, 3, 9}), second_streak="next_run").streak2 == 1
    assert paper_score("a", sheet({1, 2, 3, 9})).streak2 == 0


def test_m1_tie_break_chain_total_first_half_streaks_lottery() -> None:
    second_half = set(range(51, 61))
    sheets = {
        "top": sheet(set(range(1, 30))),
        "half_b": sheet(set(range(1, 10)) | second_half | {70}),  # 20, first half 9
        "half_a": sheet(set(range(1, 11)) | set(range(51, 61))),  # 20, first half 10
        "c": sheet({1, 2, 3, 4, 5} | {7, 8, 9, 10} | second_half),  # 19, 9, s1 5
        "d": sheet({1, 2, 3} | {5, 6, 7, 8, 9, 10} | second_half),  # 19, 9, s1 3, s2 6
        "e": sheet({1, 2, 3} | {5, 6, 7, 8, 9, 10} | second_half),  # identical to d
        "f": sheet({1, 2, 3} | {5, 6, 7} | {9, 10, 11} | second_half),  # 19, 9, s1 3, s2 3
    }
    ranked = paper_ranking(sheets, lottery=Lottery("seed-004", "1r/ties"))
    order = [r.player for r in ranked]
    assert order[0] == "top"
    assert order[1:3] == ["half_a", "half_b"] and ranked[2].decided_by == "first_half"
    assert order[3] == "c" and ranked[4].decided_by == "streak1"
    assert set(order[4:6]) == {"d", "e"} and ranked[5].decided_by == "lottery"
    assert order[6] == "f" and ranked[6].decided_by == "streak2"
    again = paper_ranking(sheets, lottery=Lottery("seed-004", "1r/ties"))
    assert [r.player for r in again] == order  # reproducible draw


def test_m1_missing_question_column_is_an_engine_error() -> None:
    marks = {q: True for q in range(1, 101) if q != 37}
    with pytest.raises(EngineError) as err:
        paper_ranking({"a": marks}, lottery=Lottery("s", "p"))
    assert err.value.code == "missing_question" and err.value.params["questions"] == [37]
    with pytest.raises(EngineError) as err:
        paper_score("a", [True] * 99)
    assert err.value.code == "missing_question"


# ------------------------------------------------------------ M2 連答つき5○2×


def test_m2_snake_by_1r_rank_into_4_groups_of_12() -> None:
    ranks = {f"e{i}": i for i in range(1, 61)}
    groups = entrants(ABC_004, "2r", {}, ranks)
    assert [len(g) for g in groups] == [12] * 4
    assert [sp.id for sp in groups[0][:3]] == ["e1", "e8", "e9"]
    assert snake([f"e{i}" for i in range(1, 49)], 4)[3][:2] == ["e4", "e5"]


def test_m2_advantages_3_2_2_1_1_1_as_points() -> None:
    assert M2 is not None
    s = run(M2, 12, [])
    assert [s.players[f"p{i}"].points for i in range(1, 8)] == [3, 2, 2, 1, 1, 1, 0]


def test_m2_rentou_plus_one_then_plus_two_and_clears() -> None:
    assert M2 is not None
    s = run(M2, 12, [Correct("p7")])
    assert s.players["p7"].points == 1 and s.players["p7"].streak
    s = run(M2, 12, [Correct("p7"), Correct("p7")])
    assert s.players["p7"].points == 3 and not s.players["p7"].streak
    s = run(M2, 12, [Correct("p7"), Correct("p8")])
    assert not s.players["p7"].streak and s.players["p8"].streak
    s = run(M2, 12, [Correct("p7"), Wrong("p7")])
    assert not s.players["p7"].streak and s.players["p7"].points == 1
    s = run(M2, 12, [Correct("p7"), Thru()])
    assert s.players["p7"].streak  # a thru does not clear it


def test_m2_five_points_wins_two_wrongs_out() -> None:
    assert M2 is not None
    s = run(M2, 12, [Correct("p2"), Correct("p2")])  # 2 + 1 + 2 = 5
    assert s.winners == ("p2",)
    s = run(M2, 12, [Wrong("p9"), Thru(), Wrong("p9")])
    assert s.outs == ("p9",)


def test_m2_seven_out_ends_and_remaining_advance_by_points_wrongs_1r_rank() -> None:
    assert M2 is not None
    ps = specs(12)
    ps[3] = PlayerSpec("p4", 4, rank=5)
    ps[4] = PlayerSpec("p5", 5, rank=4)
    losers = [f"p{i}" for i in range(6, 13)]
    events = [Wrong("p3")] + [Wrong(p) for p in losers] + [Thru()] + [Wrong(p) for p in losers]
    s = replay(M2, ps, events)
    assert s.over and s.end_reason == "remaining_advance" and len(s.outs) == 7
    assert s.winners == ("p1", "p2", "p3", "p5", "p4")


# ------------------------------------------------------------------ M3 Number10


def test_m3_priority_earlier_2r_win_before_better_1r_rank() -> None:
    # "1R 1位→2R 5位通過" < "1R 48位→2R 1位通過" < "1R 23位→2R 1位通過"
    order = number10_priority({"a": 5, "b": 1, "c": 1}, {"a": 1, "b": 48, "c": 23})
    assert order == ["c", "b", "a"]


def test_m3_course_entry_overflow_takes_top_priority() -> None:
    prio = [f"q{i}" for i in range(1, 21)]
    raised = ["q2", "q4", "q6", "q8", "q10", "q12", "q14"]
    assert number10_course_entry(raised, prio, prio) == ["q2", "q4", "q6", "q8", "q10"]


def test_m3_course_entry_shortfall_filled_by_lowest_priority() -> None:
    prio = [f"q{i}" for i in range(1, 21)]
    chosen = number10_course_entry(["q1", "q3"], prio, prio)
    assert chosen == ["q1", "q3", "q18", "q19", "q20"]


def test_m3_four_courses_of_five_in_drawn_order() -> None:
    prio = [f"q{i}" for i in range(1, 21)]
    result = number10_courses(
        ["swedish", "updown", "10by10", "freeze"],
        {"swedish": ["q1", "q2"], "updown": ["q1", "q3", "q4", "q5", "q6", "q7"], "10by10": []},
        prio,
    )
    assert result["swedish"] == ["q1", "q2", "q18", "q19", "q20"]
    assert result["updown"] == ["q3", "q4", "q5", "q6", "q7"]
    assert result["10by10"] == ["q13", "q14", "q15", "q16", "q17"]
    assert result["freeze"] == ["q8", "q9", "q10", "q11", "q12"]


def test_m3_10_updown_wrong_resets_to_zero_two_wrongs_out_ten_wins() -> None:
    assert UPDOWN is not None
    s = run(UPDOWN, 5, [Correct("p1")] * 4 + [Wrong("p1")])
    assert s.players["p1"].points == 0 and s.players["p1"].correct == 4
    s = run(UPDOWN, 5, [Wrong("p2"), Thru(), Wrong("p2")])
    assert s.outs == ("p2",)
    s = run(UPDOWN, 5, [Correct("p3")] * 10)
    assert s.winners == ("p3",)


def test_m3_freeze10_kth_wrong_rests_k_questions() -> None:
    assert FREEZE is not None
    s = run(FREEZE, 5, [Wrong("p1"), Thru()])
    assert s.players["p1"].rests == 1
    s = run(FREEZE, 5, [Wrong("p1"), Thru(), Thru(), Wrong("p1"), Thru()])
    assert s.players["p1"].rests == 2
    s = apply(s, Thru())
    assert s.players["p1"].rests == 1
    s = apply(s, Thru())
    assert s.players["p1"].rests == 0
    s = run(FREEZE, 5, [Correct("p4")] * 10)
    assert s.winners == ("p4",)


@pytest.mark.parametrize(
    ("correct", "marks"),
    [(0, 1), (1, 2), (2, 2), (3, 3), (4, 3), (5, 3), (6, 4), (7, 4), (8, 4), (9, 4)],
)
def test_m3_swedish10_ladder_1_2_3_4_marks(correct: int, marks: int) -> None:
    assert SWEDISH is not None
    s = run(SWEDISH, 5, [Correct("p1")] * correct + [Wrong("p1")])
    assert s.players["p1"].wrong == marks
    assert SCORING.get("swedish")({}).marks_for(correct) == marks  # type: ignore[attr-defined]


def test_m3_swedish10_ten_marks_out_ten_correct_wins() -> None:
    assert SWEDISH is not None
    # 6 correct then a wrong = 4×, again 4×, again 4× → 12 ≥ 10: out.
    ev = [Correct("p1")] * 6 + [Wrong("p1"), Thru(), Wrong("p1"), Thru()]
    s = run(SWEDISH, 5, ev)
    assert s.players["p1"].wrong == 8 and s.players["p1"].status == "active"
    s = apply(s, Wrong("p1"))
    assert s.players["p1"].status == "out"
    s = run(SWEDISH, 5, [Correct("p2")] * 10)
    assert s.winners == ("p2",)


def test_m3_10by10_product_at_least_100_wins_six_wrongs_out() -> None:
    assert BY10 is not None
    s = run(BY10, 5, [Correct("p1")] * 10)
    assert s.winners == ("p1",) and s.players["p1"].points == 100
    s = run(BY10, 5, [Wrong("p2"), Thru()] + [Correct("p2")] * 11)
    assert s.players["p2"].points == 99 and s.winners == ()
    s = apply(s, Correct("p2"))
    assert s.players["p2"].points == 108 and s.winners == ("p2",)
    s = run(BY10, 5, [Wrong("p3"), Thru()] * 6)
    assert s.outs == ("p3",)


def test_m3_clock_stops_on_wins_and_outs() -> None:
    assert UPDOWN is not None
    s = run(UPDOWN, 5, [ClockStart(0)] + [Correct("p1", clock_ms=1000 * i) for i in range(1, 11)])
    assert s.winners == ("p1",)
    assert not s.clock.running and s.clock.elapsed_ms == 10_000
    s = apply(s, ClockStart(10_000))
    s = apply(s, Wrong("p2", clock_ms=12_000))
    assert s.clock.running  # a first wrong is not an out
    s = apply(s, Thru())
    s = apply(s, Wrong("p2", clock_ms=15_000))
    assert not s.clock.running and s.clock.elapsed_ms == 15_000


def test_m3_fifteen_minutes_last_question_counts_then_course_judging() -> None:
    assert FREEZE is not None
    ev = [ClockStart(0), Correct("p1"), Correct("p1"), Correct("p2"), ClockExpire(15 * 60_000)]
    s = run(FREEZE, 5, ev)
    assert s.phase == "playing" and s.clock.expired and s.clock.last_question
    with pytest.raises(EngineError) as err:
        apply(s, ClockStart(15 * 60_000))
    assert err.value.code == "clock_expired"
    s = apply(s, Correct("p2"))
    # judged: correct → fewer wrong; p1 and p2 tie but both fit in the 2 places: no playoff.
    assert s.over and s.end_reason == "time" and s.question == 4
    assert s.winners == ("p1", "p2")


def test_m3_playoff_for_a_tie_at_the_second_place() -> None:
    assert UPDOWN is not None
    ev = [
        ClockStart(0),
        Correct("p1"),
        Correct("p1"),
        Correct("p2"),
        Correct("p3"),
        ClockExpire(900_000, False),
    ]
    s = run(UPDOWN, 5, ev)
    (d,) = s.pending
    assert set(d.candidates) == {"p2", "p3"} and d.places == 1
    cfg, players = tiebreak_round(s, "win")
    assert cfg.question_limit is None  # playoff: until decided
    sub = replay(cfg, players, [Thru(), Wrong("p2")])
    s = apply(s, tiebreak_from(sub, "win"))
    assert s.winners == ("p1", "p3")


def test_m3_three_out_ends_course_remaining_advance() -> None:
    assert UPDOWN is not None
    ev = [Correct("p5")] + [Wrong("p1"), Wrong("p2"), Wrong("p3"), Thru()] * 2
    s = run(UPDOWN, 5, ev[:-1])
    assert s.over and s.winners == ("p5", "p4") and len(s.outs) == 3


# ------------------------------------------------------------- M4 Extra round


def _w(marks: dict[str, bool]) -> WrittenResults:
    return WrittenResults.of(marks)


def _phase1(n: int, top: list[str]) -> list[WrittenResults]:
    """Ten questions where ``top`` get all right and everyone else misses Q1 only."""
    ids = [f"p{i}" for i in range(1, n + 1)]
    return [_w({p: (p in top or q > 1) for p in ids}) for q in range(1, 11)]


def test_m4_phase_1_single_top_is_revived() -> None:
    assert M4_STEP1 is not None
    s = run(M4_STEP1, 30, _phase1(30, ["p7"]))
    assert s.over and s.end_reason == "revived" and s.winners == ("p7",)


def test_m4_phase_1_top_tie_of_2_to_12_go_to_step_2() -> None:
    assert M4_STEP1 is not None
    top = [f"p{i}" for i in range(1, 13)]
    s = run(M4_STEP1, 30, _phase1(30, top))
    assert s.over and s.end_reason == "passed" and set(s.winners) == set(top)


def test_m4_phase_1_top_tie_of_13_or_more_go_to_phase_2_later_first_miss() -> None:
    assert M4_STEP1 is not None
    top = [f"p{i}" for i in range(1, 15)]
    s = run(M4_STEP1, 30, _phase1(30, top))
    assert s.phase == "playing" and len(s.remaining) == 14
    # phase 2: everyone 4 of 5; first misses at Q11 (p1..p10), Q12 (p11, p12), Q15 (p13, p14)
    miss = {f"p{i}": 11 for i in range(1, 11)} | {"p11": 12, "p12": 12, "p13": 15, "p14": 15}
    for q in range(11, 16):
        s = apply(s, _w({p: miss[p] != q for p in top}))
    assert s.over and s.end_reason == "passed" and set(s.winners) == {"p13", "p14"}


def test_m4_survival_one_wrong_sits_twelve_or_fewer_pass_all_sit_restand() -> None:
    assert M4_STEP1 is not None
    top = [f"p{i}" for i in range(1, 21)]
    s = run(M4_STEP1, 20, _phase1(20, top))
    for _ in range(11, 16):
        s = apply(s, _w({p: True for p in top}))
    assert s.phase == "playing" and s.question == 15
    s = apply(s, _w({}))  # Q16: everyone sits → all stand again
    assert len(s.remaining) == 20
    s = apply(s, _w({p: p not in ("p1", "p2", "p3") for p in top}))  # Q17: 17 left
    assert len(s.remaining) == 17
    s = apply(s, _w({p: p in top[3:15] for p in top[3:]}))  # Q18: 12 left → step 2
    assert s.over and s.end_reason == "passed" and len(s.winners) == 12


def test_m4_survival_lone_survivor_is_revived_and_step_2_is_skipped() -> None:
    from brackets.engine.buzzer import is_skipped, round_winners

    assert M4_STEP1 is not None
    top = [f"p{i}" for i in range(1, 21)]
    s = run(M4_STEP1, 20, _phase1(20, top) + [_w({p: True for p in top})] * 5)
    s = apply(s, _w({"p9": True}))
    assert s.over and s.end_reason == "revived" and s.winners == ("p9",)
    results = {"extra-1": s}
    assert is_skipped(ABC_004, "extra-2", results)
    assert round_winners(ABC_004, "extra-2", results) == ["p9"]


def test_m4_after_q20_with_13_standing_12_by_1r_rank() -> None:
    assert M4_STEP1 is not None
    top = [f"p{i}" for i in range(1, 21)]
    ps = [PlayerSpec(f"p{i}", i, rank=21 - i) for i in range(1, 21)]
    s = replay(M4_STEP1, ps, _phase1(20, top) + [_w({p: True for p in top})] * 10)
    assert s.over and s.end_reason == "limit" and s.question == 20
    assert set(s.winners) == {f"p{i}" for i in range(9, 21)}


def test_m4_step_2_first_to_5_one_wrong_out_last_one_revives() -> None:
    assert M4_STEP2 is not None
    s = run(M4_STEP2, 4, [Correct("p2")] * 5)
    assert s.winners == ("p2",)
    s = run(M4_STEP2, 4, [Wrong("p1"), Wrong("p2"), Wrong("p3")])
    assert s.winners == ("p4",) and s.end_reason == "remaining_advance"


# ------------------------------------------------------------- M5 Nine Hundred


def test_m5_set_1_top_advances_bottom_two_out_points_carried() -> None:
    assert M5_SET1 is not None and M5_SET2 is not None
    ev = [ClockStart(0), Correct("p1"), Correct("p1"), Correct("p2"), Correct("p3")]
    ev += [Wrong("p8"), Thru(), Wrong("p9"), Thru(), Wrong("p9"), Thru(), ClockExpire(300_000)]
    s = run(M5_SET1, 9, ev)
    s = apply(s, Correct("p4"))
    assert s.over and s.end_reason == "time"
    assert s.winners == ("p1",) and s.outs == ("p9", "p8")
    assert s.continuing[:3] == ("p2", "p3", "p4")
    (group,) = entrants(ABC_004, "sf-2", {"sf-1": s}, {f"p{i}": i for i in range(1, 10)})
    assert [(sp.id, sp.points) for sp in group[:3]] == [("p2", 1), ("p3", 1), ("p4", 1)]
    s2 = replay(M5_SET2, group, [Wrong("p2")])
    assert s2.players["p2"].points == -1  # +1/−2


def test_m5_tie_on_a_line_goes_to_playoff_points_unchanged() -> None:
    assert M5_SET1 is not None
    s = run(M5_SET1, 9, [ClockStart(0), Correct("p1"), Correct("p2"), ClockExpire(300_000, False)])
    sides = {d.side: d for d in s.pending}
    assert set(sides["win"].candidates) == {"p1", "p2"}
    assert len(sides["loss"].candidates) == 7 and sides["loss"].places == 5
    s = apply(s, TieBreak("win", ("p2", "p1")))
    s = apply(s, TieBreak("loss", ("p3", "p4", "p5", "p6", "p7", "p8", "p9")))
    assert s.winners == ("p2",) and s.outs == ("p9", "p8")
    assert s.players["p2"].points == 1 and s.players["p1"].points == 1


def test_m5_three_sets_nine_to_three() -> None:
    ranks = {f"p{i}": i for i in range(1, 10)}
    s1 = replay(
        ABC_004.round("sf-1").config or M5_SET1,
        [PlayerSpec(f"p{i}", i, i) for i in range(1, 10)],
        [Correct("p1"), Wrong("p8"), Thru(), Wrong("p9"), Thru(), ClockExpire(None, False)],
    )
    # p2..p7 tie at 0 in the middle, no line crossed.
    assert s1.over and s1.winners == ("p1",)
    (g2,) = entrants(ABC_004, "sf-2", {"sf-1": s1}, ranks)
    s2 = replay(
        ABC_004.round("sf-2").config or M5_SET2,
        g2,
        [Correct("p2"), Wrong("p6"), Thru(), Wrong("p7"), Thru(), ClockExpire(None, False)],
    )
    assert s2.winners == ("p2",) and set(s2.outs) == {"p6", "p7"}
    (g3,) = entrants(ABC_004, "sf-3", {"sf-2": s2}, ranks)
    cfg3 = ABC_004.round("sf-3").config
    assert cfg3 is not None
    tied = replay(cfg3, g3, [ClockExpire(None, False)])
    (d,) = tied.pending  # three players: top 1 / bottom 2 is a single line
    assert d.side == "win" and d.places == 1
    six_tied = replay(ABC_004.round("sf-2").config or M5_SET2, g2, [ClockExpire(None, False)])
    (d,) = six_tied.pending  # one six-way tie straddles both lines: one playoff decides both
    assert d.side == "both" and d.places == 1 and d.out_places == 2
    done = apply(six_tied, TieBreak("both", ("p7", "p2", "p3", "p4", "p5", "p6")))
    assert done.winners == ("p7",) and done.outs == ("p6", "p5")
    s3 = replay(cfg3, g3, [Correct("p3"), ClockExpire(None, False)])
    assert s3.over and s3.winners == ("p3",) and set(s3.outs) == {"p4", "p5"}
    (final,) = entrants(ABC_004, "final", {"sf-1": s1, "sf-2": s2, "sf-3": s3}, ranks)
    assert [(sp.id, sp.rank) for sp in final] == [("p1", 1), ("p2", 2), ("p3", 3)]


# ------------------------------------------------------------- M6 Triple Seven


def test_m6_seven_correct_takes_a_set_first_to_three_sets_wins() -> None:
    assert M6 is not None
    ev = [Correct("p1")] * 7 + [Correct("p2")] * 7 + [Correct("p1")] * 7
    s = run(M6, 3, ev)
    assert s.players["p1"].sets == 2 and s.players["p2"].sets == 1
    assert s.players["p1"].correct == 0  # counters reset for the next set
    s = apply(s, Correct("p3"))
    for _ in range(7):
        s = apply(s, Correct("p1"))
    assert s.over and s.winners == ("p1",)
    # others: sets (p2 1, p3 0) → p2 2nd.
    assert [r.player for r in ranking(s)] == ["p1", "p2", "p3"]


def test_m6_three_wrongs_out_of_the_set_two_out_gives_the_set_to_the_third() -> None:
    assert M6 is not None
    ev = [Wrong("p1"), Thru()] * 2 + [Wrong("p1")]
    s = run(M6, 3, ev)
    assert s.players["p1"].status == "locked"
    with pytest.raises(EngineError) as err:
        apply(s, Correct("p1"))
    assert err.value.code == "player_locked"
    s = apply(s, Thru())
    s = run(M6, 3, [*ev, Thru(), Wrong("p2"), Thru(), Wrong("p2"), Thru()])
    assert s.question == 5
    s = apply(s, Wrong("p2"))  # p2 out of the set too: p3 takes it, the question closes
    assert s.players["p3"].sets == 1 and s.question == 6
    assert all(p.status == "active" and p.wrong == 0 for p in s.players.values())  # new set


def test_m6_others_ranked_by_sets_then_last_set_correct_then_semi_final_pass_order() -> None:
    assert M6 is not None
    ps = [PlayerSpec("a", 1, 1), PlayerSpec("b", 2, 2), PlayerSpec("c", 3, 3)]
    ev = [Correct("a")] * 21
    s = replay(
        M6,
        ps,
        ev[:14] + [Correct("c"), Correct("c"), Correct("b"), Correct("b")] + [Correct("a")] * 7,
    )
    assert s.winners == ("a",)
    # b and c: 0 sets, 2 correct each in the last set → semi-final pass order: b before c.
    assert [r.player for r in ranking(s)] == ["a", "b", "c"]
    s = replay(M6, ps, ev[:14] + [Correct("c"), Correct("c"), Correct("b")] + [Correct("a")] * 7)
    assert [r.player for r in ranking(s)] == ["a", "c", "b"]


def test_m6_final_feed_keeps_semi_final_pass_order_as_fallback() -> None:
    assert ABC_004.round("final").feed is not None
    assert ABC_004.round("final").feed.fallback == "feed_order"  # type: ignore[union-attr]


def test_m1_paper_ranks_feed_the_2nd_round() -> None:
    from brackets.engine.buzzer import paper_ranks

    sheets = {f"e{i}": sheet(set(range(1, 101 - i))) for i in range(1, 61)}
    ranks = paper_ranks(paper_ranking(sheets, lottery=Lottery("s", "1r")))
    assert ranks["e1"] == 1 and ranks["e60"] == 60
    groups = entrants(ABC_004, "2r", {}, ranks)
    assert sorted(sp.id for g in groups for sp in g) == sorted(f"e{i}" for i in range(1, 49))


def test_m6_third_set_taken_by_two_lockouts_wins_the_final() -> None:
    assert M6 is not None
    ev = [Correct("p3")] * 14  # p3 takes two sets
    ev += [Correct("p1"), Correct("p1")]
    ev += [Wrong("p1"), Wrong("p2"), Thru()] * 2 + [Wrong("p1"), Wrong("p2")]
    s = run(M6, 3, ev)
    assert s.over and s.winners == ("p3",) and s.players["p3"].sets == 3
    # p1 and p2: 0 sets; last set correct p1 2, p2 0 (locked players keep their count).
    assert [r.player for r in ranking(s)] == ["p3", "p1", "p2"]
