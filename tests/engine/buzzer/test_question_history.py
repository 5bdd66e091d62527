"""The decided version question by question (score sheets and spreadsheets read it): one
record per question with the state after it, protests applied, thrown-out questions gone."""

from __future__ import annotations

import dataclasses

from buzzer_helpers import run

from brackets.engine.buzzer import (
    QUIZ_003,
    BoardResults,
    ClockStart,
    Correct,
    Rejudge,
    RoundConfig,
    Rule,
    ThrowOut,
    Thru,
    Undo,
    Wrong,
    apply,
    player_rows,
    question_history,
    scoreboard,
)

NOMX = dataclasses.replace(QUIZ_003.round("2r").config, advantages=())


def test_each_question_has_its_answers_and_the_counts_after_it() -> None:
    state = run(NOMX, 12, [Wrong("p1", 1), Correct("p2", 1), Thru(2), Correct("p1", 3)])
    history = question_history(state)
    assert [r.number for r in history] == [1, 2, 3]
    assert [type(e).__name__ for e in history[0].events] == ["Wrong", "Correct"]
    assert history[0].correct == ("p2",)
    assert history[1].correct == ()
    after_1 = history[0].state.players
    assert (after_1["p1"].wrong, after_1["p2"].correct) == (1, 1)
    assert history[-1].state == state


def test_an_undo_and_clock_taps_leave_no_trace_in_the_questions() -> None:
    clocked = dataclasses.replace(NOMX, clock_ms=600_000)
    state = run(clocked, 12, [ClockStart(0), Correct("p1", 1), Undo(), Correct("p2", 1)])
    history = question_history(state)
    assert len(history) == 1 and history[0].correct == ("p2",)


def test_a_protest_shows_the_decided_judgement() -> None:
    state = run(NOMX, 12, [Wrong("p1", 1), Correct("p2", 1), Correct("p3", 2)])
    state = apply(state, Rejudge(1, "p1", True))
    history = question_history(state)
    assert history[0].correct == ("p1",)
    assert [e.player for e in history[0].events] == ["p1"]  # type: ignore[attr-defined]
    assert history[-1].state.players["p2"].correct == 0


def test_a_thrown_out_question_is_replaced_by_the_next_one() -> None:
    state = run(NOMX, 12, [Correct("p1", 1), Correct("p2", 2), Correct("p3", 3)])
    state = apply(state, ThrowOut(2))
    history = question_history(state)
    assert [(r.number, r.correct) for r in history] == [(1, ("p1",)), (2, ("p3",))]


def test_a_question_left_open_is_the_last_record_not_closed() -> None:
    state = run(NOMX, 12, [Correct("p1", 1), Wrong("p2", 2)])
    history = question_history(state)
    assert [(r.number, r.closed) for r in history] == [(1, True), (2, False)]


def test_a_board_question_lists_the_buzzer_first_then_the_boards() -> None:
    config = RoundConfig(scoring=Rule("board"), slots=1, question_limit=5)
    state = run(config, 4, [BoardResults(frozenset({"p3", "p1"}), buzzer="p2",
                                         buzzer_correct=True)])
    assert question_history(state)[0].correct == ("p2", "p1", "p3")


def test_player_rows_are_the_scoreboards_rows() -> None:
    state = run(NOMX, 12, [Correct("p1", 1)])
    assert player_rows(state) == scoreboard(state)["players"]
