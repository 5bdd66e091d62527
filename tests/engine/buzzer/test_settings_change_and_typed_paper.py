"""Two engine rules the web layer asks before writing.

A started round's settings (any tap recorded) may change only where no recorded result can
move: the protest window and show_answer (``LIVE_EDITABLE``); the refusal names what changed and what stays
editable. A paper round typed as totals and tie-break data (M1) ranks like its sheets, and
numbers no sheet could give are refused.
"""

from __future__ import annotations

import dataclasses

import pytest

from brackets.engine import Lottery, RuleRefusal
from brackets.engine.buzzer import (
    LIVE_EDITABLE,
    PaperScore,
    RoundConfig,
    Rule,
    changed_settings,
    check_paper_score,
    paper_ranking,
    paper_scores_ranking,
    settings_change_refusal,
)

FIVE_TWO = RoundConfig(scoring=Rule("nomx"), win=Rule("correct-at-least", {"n": 5}),
                       loss=Rule("wrong-at-least", {"n": 2}), slots=5, question_limit=35)


def test_changed_settings_names_a_pieces_parameter_and_round_fields() -> None:
    seven = dataclasses.replace(FIVE_TWO, win=Rule("correct-at-least", {"n": 7}),
                                question_limit=45)
    assert changed_settings(FIVE_TWO, seven) == ("question_limit", "win:correct-at-least:n")
    assert changed_settings(FIVE_TWO, FIVE_TWO) == ()


def test_before_the_first_tap_every_setting_may_change() -> None:
    other = dataclasses.replace(FIVE_TWO, slots=3, scoring=Rule("rentou"))
    assert settings_change_refusal(FIVE_TWO, other, events=0) is None


def test_after_a_tap_only_the_protest_window_and_show_answer_may_change() -> None:
    assert LIVE_EDITABLE == {"protest_window", "show_answer"}
    wider = dataclasses.replace(FIVE_TWO, protest_window=4)
    assert settings_change_refusal(FIVE_TWO, wider, events=3) is None
    shown = dataclasses.replace(FIVE_TWO, show_answer=True)
    assert settings_change_refusal(FIVE_TWO, shown, events=3) is None
    stricter = dataclasses.replace(FIVE_TWO, loss=Rule("wrong-at-least", {"n": 1}),
                                   protest_window=4)
    refusal = settings_change_refusal(FIVE_TWO, stricter, events=3)
    assert isinstance(refusal, RuleRefusal) and refusal.code == "settings_round_started"
    assert refusal.params == {"settings": ["loss:wrong-at-least:n"],
                              "editable": ["protest_window", "show_answer"], "events": 3}


def test_typed_scores_rank_as_their_sheets_do() -> None:
    sheets = {"甲": [True] * 3 + [False] + [True] * 2, "乙": [True, False] + [True] * 4,
              "丙": [False] + [True] * 5}
    lottery = Lottery("seed", "paper")
    from_sheets = paper_ranking(sheets, lottery=lottery, questions=6, first_half=3)
    typed = [PaperScore(s.player, s.total, s.first_half, s.streak1, s.streak2)
             for s in from_sheets]
    assert paper_scores_ranking(typed, lottery=lottery) == from_sheets


@pytest.mark.parametrize("score", [
    PaperScore("甲", 101, 50, 0, 0),          # more than the questions
    PaperScore("甲", 40, 45, 0, 0),           # first half above the total
    PaperScore("甲", 70, 10, 0, 0),           # 60 right in a 50-question second half
    PaperScore("甲", 30, 30, 31, 0),          # a first run longer than the total
    PaperScore("甲", 30, 30, 20, 11),         # two runs longer than the total
    PaperScore("甲", 60, 40, 45, 0),          # a 45-question first run, 40 in the first half
])
def test_numbers_no_sheet_could_give_are_refused(score: PaperScore) -> None:
    with pytest.raises(RuleRefusal) as refused:
        check_paper_score(score, questions=100, first_half=50)
    assert refused.value.code == "bad_paper_score"


def test_numbers_a_sheet_can_give_pass() -> None:
    check_paper_score(PaperScore("甲", 100, 50, 100, 0))
    check_paper_score(PaperScore("甲", 72, 40, 5, 3))
