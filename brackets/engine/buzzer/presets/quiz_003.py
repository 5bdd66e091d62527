"""Seed 003 (``quiz-003``): 5○2× → 7○3× → 2-step revival → board QF → 3-set SF → 12○5×.

Registered in :mod:`brackets.engine.buzzer.presets`.
"""

from __future__ import annotations

from brackets.engine.buzzer.config import RoundConfig, Rule, WrittenRules
from brackets.engine.buzzer.presets.base import Feed, RoundPreset, TournamentPreset, nomx

QUIZ_003 = TournamentPreset(
    "quiz-003",
    "Seed 003: 5○2× → 7○3× → 2-step revival → board QF → 3-set SF → 12○5×",
    (
        RoundPreset("1r", "1st Round", "-", None, None),
        RoundPreset("special", "Special Round", "-", None, None),
        RoundPreset(
            "2r",
            "2nd Round 5○2×クイズ",
            "L1",
            nomx(5, 2, slots=5, question_limit=35, advantages=(3, 2, 2, 1, 1, 1)),
            Feed(("1r",), order="rank", grouping="snake"),
        ),
        RoundPreset(
            "3r",
            "3rd Round 7○3×クイズ",
            "L2",
            nomx(7, 3, slots=3, question_limit=45, advantages=(1,)),
            Feed(("special", "2r"), order="source", grouping="snake", groups=5),
        ),
        RoundPreset(
            "extra-1",
            "Extra Round 1st Step 15問脱落式筆記クイズ",
            "L3",
            RoundConfig(
                format="written",
                judge_keys=("correct", "fewer_wrong"),
                written=WrittenRules(
                    lives=2,
                    elimination_from=1,
                    last_question=15,
                    pass_max=12,
                    final_keys=("fewer_wrong",),
                ),
            ),
            Feed(("3r",), take="losers", order="rank"),
        ),
        RoundPreset(
            "extra-2",
            "Extra Round 2nd Step アドバンテージ付き4○1×クイズ",
            "L4",
            nomx(4, 1, slots=1, question_limit=30, judge_keys=("correct",)),
            Feed(("extra-1",), order="source", perfect_advantage=1),
        ),
        RoundPreset(
            "qf-1",
            "Quarter Final Phase 1 読み切りボードクイズ",
            "L5",
            RoundConfig(
                scoring=Rule("board", {"board": 2, "bonus": 1, "bonus_max": 4}),
                slots=0,
                eliminate=0,
                question_limit=15,
                judge_keys=("points",),
                tie_rule="rank",
            ),
            Feed(("3r", "extra-2"), order="rank"),
        ),
        RoundPreset(
            "qf-2",
            "Quarter Final Phase 2 早押しボードクイズ",
            "L6",
            RoundConfig(
                scoring=Rule(
                    "board", {"plus": 4, "minus": 4, "board": 2, "bonus": 1, "bonus_max": 2}
                ),
                win=Rule("points-at-least", {"n": 40}),
                slots=4,
                question_limit=15,
                judge_keys=("points", "board_correct"),
            ),
            Feed(
                ("qf-1",),
                take="continuing",
                order="state",
                grouping="mod",
                groups=2,
                carry=("points", "board_correct"),
            ),
        ),
        RoundPreset(
            "sf-1",
            "Semi Final 1st Set +1/N休クイズ",
            "L7",
            RoundConfig(
                scoring=Rule("rest-n"),
                lockout=Rule("misses-at-least", {"n": 3}),
                slots=1,
                eliminate=1,
                question_limit=35,
                judge_keys=("points", "fewer_misses"),
            ),
            Feed(("qf-2",), order="source"),
        ),
        RoundPreset(
            "sf-2",
            "Semi Final 2nd Set +1/2休クイズ",
            "L8",
            RoundConfig(
                scoring=Rule("rest-fixed", {"rests": 2}),
                lockout=Rule("misses-at-least", {"n": 3}),
                slots=1,
                eliminate=1,
                question_limit=30,
                judge_keys=("points", "fewer_misses"),
            ),
            Feed(("sf-1",), take="continuing", order="state", carry=("points", "rests")),
        ),
        RoundPreset(
            "sf-3",
            "Semi Final 3rd Set +2/−1クイズ",
            "L9",
            RoundConfig(
                scoring=Rule("plus-minus", {"plus": 2, "minus": 1}),
                lockout=Rule("misses-at-least", {"n": 3}),
                slots=2,
                question_limit=25,
                judge_keys=("points", "fewer_misses"),
            ),
            Feed(("sf-2",), take="continuing", order="state", carry=("points", "rests")),
        ),
        RoundPreset(
            "final",
            "Final 12○5×クイズ",
            "L10",
            nomx(12, 5, slots=1, question_limit=50),
            Feed(("sf-1", "sf-2", "sf-3"), order="source"),
        ),
    ),
)
