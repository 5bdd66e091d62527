"""L7–L8 (seed 003): a third wrong that locks a player still earns its N-question rest.

「N回目の誤答でN問の間休みとなり、休みはセットをまたぐ…このセット内で3×をすると
解答権剥奪となる(判定には残る)」: the lockout ends answering in this set, the rest counts
down over the set's remaining questions and whatever is left carries into the next set.
"""

from __future__ import annotations

import pytest

from brackets.engine import EngineError
from brackets.engine.buzzer import (
    QUIZ_003,
    Correct,
    PlayerSpec,
    Thru,
    Wrong,
    apply,
    entrants,
    replay,
)

L7 = QUIZ_003.round("sf-1").config
L8 = QUIZ_003.round("sf-2").config
L9 = QUIZ_003.round("sf-3").config
RANKS = {f"p{i}": i for i in range(1, 9)}


def thrus(n: int) -> list[Thru]:
    return [Thru() for _ in range(n)]


def _set_1_with_p1_locked_on_question_33() -> list[Correct | Wrong | Thru]:
    """p1 takes 3 points, misses on Q9, Q11 and Q33 (the third wrong: 3休 and locked)."""
    ev: list[Correct | Wrong | Thru] = [Correct("p1")] * 3 + [Correct("p2")] * 4  # Q1–Q7
    ev += [Wrong("p8"), Thru()]  # Q8: p8 has the only other miss, so p8 is the one out
    ev += [Wrong("p1"), Thru(), Thru()]  # Q9 (1休), Q10
    ev += [Wrong("p1"), Thru(), Thru(), Thru()]  # Q11 (2休), Q12, Q13
    ev += thrus(19)  # Q14–Q32
    ev += [Wrong("p1"), Thru()]  # Q33: third wrong of the set, 3休, locked
    return ev


def test_l7_third_wrong_locks_and_still_rests_three_questions() -> None:
    assert L7 is not None
    s = replay(
        L7, [PlayerSpec(p, r, r) for p, r in RANKS.items()], _set_1_with_p1_locked_on_question_33()
    )
    p1 = s.players["p1"]
    assert (p1.status, p1.misses, p1.rests) == ("locked", 3, 3)
    s = apply(s, Thru())  # Q34: one of the three rest questions passes
    assert s.players["p1"].rests == 2 and s.players["p1"].status == "locked"


def test_l7_rest_left_at_the_end_of_set_1_carries_into_set_2() -> None:
    assert L7 is not None and L8 is not None
    ev = _set_1_with_p1_locked_on_question_33() + thrus(2)  # Q34, Q35
    s1 = replay(L7, [PlayerSpec(p, r, r) for p, r in RANKS.items()], ev)
    assert s1.over and s1.winners == ("p2",) and s1.outs == ("p8",)
    assert "p1" in s1.continuing and s1.players["p1"].rests == 1
    (group,) = entrants(QUIZ_003, "sf-2", {"sf-1": s1}, RANKS)
    carried = {sp.id: (sp.points, sp.rests) for sp in group}
    assert carried["p1"] == (3, 1)
    s2 = replay(L8, group, [])
    with pytest.raises(EngineError) as err:
        apply(s2, Correct("p1"))
    assert err.value.code == "player_resting"
    s2 = replay(L8, group, [Thru(), Correct("p1")])
    assert s2.players["p1"].points == 4


def test_l8_third_wrong_of_set_2_locks_and_its_two_rests_carry_into_set_3() -> None:
    assert L8 is not None and L9 is not None
    players = [PlayerSpec(f"p{i}", i, i, points=1 if i == 1 else 0) for i in range(1, 7)]
    ev: list[Correct | Wrong | Thru] = [Correct("p2")] * 3  # Q1–Q3: p2 leads set 2
    ev += [Wrong("p6"), Thru()]  # Q4: p6 holds the only other miss, so p6 is the one out
    ev += [Wrong("p1"), Thru(), Thru(), Thru()]  # Q5 (2休), Q6, Q7
    ev += [Wrong("p1"), Thru(), Thru(), Thru()]  # Q8 (2休), Q9, Q10
    ev += thrus(18)  # Q11–Q28
    ev += [Wrong("p1"), Thru()]  # Q29: third wrong of set 2, 2休, locked
    s = replay(L8, players, ev)
    assert (s.players["p1"].status, s.players["p1"].rests) == ("locked", 2)
    s2 = apply(s, Thru())  # Q30, the set's last question, is one rest
    assert s2.over and s2.players["p1"].rests == 1 and "p1" in s2.continuing
    (group,) = entrants(QUIZ_003, "sf-3", {"sf-2": s2}, RANKS)
    assert {sp.id: sp.rests for sp in group}["p1"] == 1
    s3 = replay(L9, group, [])
    with pytest.raises(EngineError) as err:
        apply(s3, Correct("p1"))
    assert err.value.code == "player_resting"
