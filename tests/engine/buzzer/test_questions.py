"""Question files in the engine: which file question is read at each point of a round
(thrown-out questions skipped), and a sheet's rows checked with every problem listed."""

from __future__ import annotations

import pytest

from brackets.engine.buzzer import (
    Correct,
    RoundConfig,
    Rule,
    ThrowOut,
    Thru,
    Undo,
    apply,
    check_question_table,
    position_in_play,
    position_judged,
    read_position,
    start,
)


@pytest.mark.parametrize(
    ("thrown", "question", "position"),
    [((), 1, 1), ((), 5, 5), ((2,), 1, 1), ((2,), 2, 3), ((2, 3), 2, 4), ((1,), 1, 2)],
)
def test_read_position_skips_thrown_out_positions(
    thrown: tuple[int, ...], question: int, position: int
) -> None:
    assert read_position(thrown, question) == position


def test_a_throw_out_of_the_question_in_play_reads_the_next_file_question() -> None:
    config = RoundConfig(win=Rule("correct-at-least", {"n": 5}), slots=1)
    state = start(config, ["a", "b"])
    assert (position_in_play(state), position_judged(state)) == (1, None)
    state = apply(state, Correct("a", 1))
    state = apply(state, Thru(2))
    state = apply(state, Correct("b", 3))
    assert (position_in_play(state), position_judged(state)) == (4, 3)
    thrown = apply(state, ThrowOut(2))
    assert thrown.thrown == (2,)
    assert (position_in_play(thrown), position_judged(thrown)) == (4, 3)
    assert thrown.question == 2
    assert apply(thrown, Undo()).thrown == ()


def test_rows_are_sorted_by_number_and_every_problem_is_listed() -> None:
    checked = check_question_table([
        ["第2R"], ["No.", "問題文", "正解", "メモ"],
        ["3", "c", "C", ""], ["１", "a", "A", "全角の番号"], ["", "", "", ""],
        ["1", "dup", "D", ""], ["0", "zero", "Z", ""],
    ])
    assert [q.number for q in checked.questions] == [1, 3]
    assert [(p.code, p.params["row"]) for p in checked.problems] == [
        ("question_number_twice", 6), ("question_number_bad", 7)]
    assert not checked.ok
