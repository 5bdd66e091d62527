"""Protests (seed 003 「審議を求めることができる」) and thrown-out questions, engine only.

A protest is a new event; the round is recomputed from the log. The window: until the
question two later is read (the app learns that from the first answer recorded on it).
"""

from __future__ import annotations

import dataclasses

import pytest
from buzzer_helpers import run

from brackets.engine import RuleRefusal
from brackets.engine.buzzer import (
    QUIZ_003,
    BoardResults,
    Correct,
    Rejudge,
    RoundConfig,
    Rule,
    ThrowOut,
    Thru,
    Undo,
    WrittenResults,
    Wrong,
    apply,
    event_from_dict,
    protest_preview,
    protest_refusal,
    scoreboard,
)

# 5○2× with the seed 003 advantages off, so the counts are the answers themselves.
NOMX = dataclasses.replace(QUIZ_003.round("2r").config, advantages=())
SEVEN = RoundConfig(win=Rule("correct-at-least", {"n": 2}), loss=Rule("wrong-at-least", {"n": 2}),
                    slots=1, question_limit=10)


def test_the_window_is_two_questions_by_default() -> None:
    assert RoundConfig().protest_window == 2
    assert RoundConfig.from_dict({}).protest_window == 2


def test_wrong_judged_correct_moves_the_point_and_voids_later_answers_on_that_question() -> None:
    state = run(NOMX, 12, [Wrong("p1", 1), Correct("p2", 1)])
    after = apply(state, Rejudge(1, "p1", True))
    assert (after.player("p1").correct, after.player("p1").wrong) == (1, 0)
    assert after.player("p2").correct == 0
    assert after.question == 1


def test_correct_judged_wrong_closes_the_question_as_a_thru() -> None:
    state = run(NOMX, 12, [Correct("p1", 1), Correct("p2", 2)])
    after = apply(state, Rejudge(1, "p1", False))
    assert (after.player("p1").correct, after.player("p1").wrong) == (0, 1)
    assert after.player("p2").correct == 1
    assert after.question == 2


def test_a_protest_is_in_time_until_the_question_two_later_gets_an_answer() -> None:
    state = run(NOMX, 12, [Correct("p1", 1), Thru(2)])
    assert protest_refusal(state, Rejudge(1, "p1", False)) is None
    state = apply(state, Wrong("p2", 3))
    assert protest_refusal(state, Rejudge(1, "p1", False)) == "protest_late"
    with pytest.raises(RuleRefusal) as refused:
        apply(state, Rejudge(1, "p1", False))
    assert refused.value.code == "protest_late"


def test_a_protest_after_the_question_two_later_closed_is_late() -> None:
    state = run(NOMX, 12, [Correct("p1", 1), Thru(2), Thru(3)])
    assert protest_refusal(state, ThrowOut(1)) == "protest_late"
    assert protest_refusal(state, ThrowOut(2)) is None


def test_the_window_is_a_round_setting() -> None:
    wide = dataclasses.replace(NOMX, protest_window=5)
    state = run(wide, 12, [Correct("p1", 1), Thru(2), Thru(3)])
    assert protest_refusal(state, Rejudge(1, "p1", False)) is None


def test_the_organiser_overrules_a_late_protest() -> None:
    state = run(NOMX, 12, [Correct("p1", 1), Thru(2), Thru(3)])
    after = apply(state, Rejudge(1, "p1", False, overrule=True))
    assert after.player("p1").correct == 0


def test_a_finished_round_needs_the_organiser_and_reopens() -> None:
    state = run(SEVEN, 3, [Correct("p1", 1), Correct("p1", 2)])
    assert state.over
    preview = protest_preview(state, Rejudge(2, "p1", False))
    assert preview.refusal == "protest_round_over"
    assert preview.reopens and not preview.state.over
    with pytest.raises(RuleRefusal) as refused:
        apply(state, Rejudge(2, "p1", False))
    assert refused.value.code == "protest_round_over"
    after = apply(state, Rejudge(2, "p1", False, overrule=True))
    assert not after.over and after.winners == ()


def test_thrown_out_question_does_not_count_and_its_answers_do_not_stand() -> None:
    state = run(NOMX, 12, [Correct("p1", 1), Correct("p2", 2)])
    after = apply(state, ThrowOut(1))
    assert after.player("p1").correct == 0
    assert after.player("p2").correct == 1
    assert after.question == 1
    # The replacement question is read as the next question.
    after = apply(after, Correct("p3", 2))
    assert after.player("p3").correct == 1


def test_undo_of_a_protest_restores_the_earlier_version() -> None:
    state = run(NOMX, 12, [Wrong("p1", 1), Correct("p2", 1)])
    after = apply(apply(state, Rejudge(1, "p1", True)), Undo())
    assert after == state


def test_preview_lists_the_players_it_changes_and_the_voided_answers() -> None:
    state = run(NOMX, 12, [Wrong("p1", 1), Correct("p2", 1)])
    preview = protest_preview(state, Rejudge(1, "p1", True))
    assert [c.player for c in preview.changes] == ["p1", "p2"]
    assert preview.changes[1].before.correct == 1 and preview.changes[1].after.correct == 0
    assert {v.code for v in preview.voided} == {"protest_superseded"}
    assert preview.refusal is None


def test_a_later_answer_by_a_player_now_out_is_voided() -> None:
    state = run(SEVEN, 3, [Wrong("p1", 1), Thru(1), Correct("p1", 2), Thru(3), Correct("p1", 4)])
    assert state.over and state.winners == ("p1",)
    preview = protest_preview(state, Rejudge(2, "p1", False))
    assert preview.refusal == "protest_round_over" and preview.reopens
    after = preview.state
    assert after.player("p1").status == "out"
    assert [(v.question, v.code) for v in preview.voided] == [
        (2, "protest_superseded"), (4, "player_out")]
    # Q4 still happened (it was read): closed as a thru, so the next question is 5.
    assert after.question == 4


def test_board_question_rejudged_for_one_writer() -> None:
    board = QUIZ_003.round("qf-1").config
    state = run(board, 6, [BoardResults(frozenset({"p1"}), question=1)])
    after = apply(state, Rejudge(1, "p2", True))
    assert after.player("p2").points > 0


def test_protest_on_a_question_with_no_answer_or_same_judgement_is_refused() -> None:
    state = run(NOMX, 12, [Correct("p1", 1)])
    for event, code in [
        (Rejudge(4, "p1", False), "protest_no_question"),
        (Rejudge(1, "p2", True), "protest_no_answer"),
        (Rejudge(1, "p1", True), "protest_no_change"),
    ]:
        with pytest.raises(RuleRefusal) as refused:
            apply(state, event)
        assert refused.value.code == code


def test_protest_events_round_trip_through_the_log() -> None:
    for event in (Rejudge(3, "p1", True, overrule=True), ThrowOut(2)):
        assert event_from_dict(event.to_dict()) == event


def test_the_scoreboard_shows_the_recomputed_round() -> None:
    state = run(NOMX, 12, [Wrong("p1", 1), Correct("p2", 1)])
    board = scoreboard(apply(state, Rejudge(1, "p1", True)))
    rows = {r["id"]: r for r in board["players"]}
    assert rows["p1"]["main"] == 1 and rows["p2"]["main"] == 0


def test_the_preview_says_where_each_event_of_the_new_version_comes_from() -> None:
    state = run(NOMX, 12, [Wrong("p1", 1), Correct("p2", 1), Correct("p3", 2)])
    preview = protest_preview(state, Rejudge(1, "p1", True))
    # The new ○ is the protest's own; p2's ○ is gone; p3's ○ is the old third event.
    assert preview.sources == (None, 2)
    assert sorted(v.index for v in preview.voided if v.index is not None) == [0, 1]


def test_written_question_rejudged_for_one_writer() -> None:
    written = QUIZ_003.round("extra-1").config
    marks = {f"p{i}": i != 3 for i in range(1, 21)}
    state = run(written, 20, [WrittenResults.of(marks, 1)])
    assert state.player("p3").wrong == 1
    after = apply(state, Rejudge(1, "p3", True))
    assert after.player("p3").wrong == 0 and after.player("p3").correct == 1
