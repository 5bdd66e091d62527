"""Seed 004 (``abc-the25th-004``, abc the25th rules).

Paper → 連答5○2× → Number10 → revival → Nine Hundred → Triple Seven. Registered in
:mod:`brackets.engine.buzzer.presets`.
"""

from __future__ import annotations

from brackets.engine.buzzer.assignment import PaperRules
from brackets.engine.buzzer.config import Checkpoint, RoundConfig, Rule, WrittenRules
from brackets.engine.buzzer.presets.base import MINUTE, Feed, RoundPreset, TournamentPreset, nomx


def _course(scoring: Rule, win: Rule, loss: Rule | None, keys: tuple[str, ...]) -> RoundConfig:
    return RoundConfig(
        scoring=scoring,
        win=win,
        loss=loss,
        slots=2,
        clock_ms=15 * MINUTE,
        clock_stops_on_win_out=True,
        judge_keys=keys,
        tie_rule="playoff",
    )


def _race_set(plus: int, minus: int) -> RoundConfig:
    return RoundConfig(
        scoring=Rule("plus-minus", {"plus": plus, "minus": minus}),
        slots=1,
        eliminate=2,
        clock_ms=5 * MINUTE,
        judge_keys=("points",),
        tie_rule="playoff",
    )


_COURSE_FEED = Feed(("2r",), order="number10", grouping="courses")


ABC_004 = TournamentPreset(
    "abc-the25th-004",
    "Seed 004 (abc the25th rules): paper → 連答5○2× → Number10 → revival → Nine Hundred → Triple Seven",
    (
        RoundPreset(
            "1r",
            "1st Round 100問ペーパークイズ",
            "M1",
            None,
            None,
            paper=PaperRules(questions=100, first_half=50, advance=48),
        ),
        RoundPreset(
            "2r",
            "2nd Round 連答つき5○2×",
            "M2",
            RoundConfig(
                scoring=Rule("rentou"),
                win=Rule("points-at-least", {"n": 5}),
                loss=Rule("wrong-at-least", {"n": 2}),
                slots=5,
                judge_keys=("points", "fewer_wrong"),
                tie_rule="rank",
                advantages=(3, 2, 2, 1, 1, 1),
            ),
            Feed(("1r",), order="rank", grouping="snake", groups=4, limit=48),
        ),
        RoundPreset(
            "3r-updown",
            "3rd Round Number10 10 up-down",
            "M3",
            _course(
                Rule("updown"),
                Rule("points-at-least", {"n": 10}),
                Rule("wrong-at-least", {"n": 2}),
                ("points",),
            ),
            _COURSE_FEED,
        ),
        RoundPreset(
            "3r-freeze",
            "3rd Round Number10 Freeze10",
            "M3",
            _course(
                Rule("rest-n"),
                Rule("correct-at-least", {"n": 10}),
                None,
                ("correct", "fewer_wrong"),
            ),
            _COURSE_FEED,
        ),
        RoundPreset(
            "3r-swedish",
            "3rd Round Number10 Swedish10",
            "M3",
            _course(
                Rule("swedish"),
                Rule("correct-at-least", {"n": 10}),
                Rule("wrong-at-least", {"n": 10}),
                ("correct", "fewer_wrong"),
            ),
            _COURSE_FEED,
        ),
        RoundPreset(
            "3r-10by10",
            "3rd Round Number10 10by10",
            "M3",
            _course(
                Rule("by", {"n": 10}),
                Rule("points-at-least", {"n": 100}),
                Rule("wrong-at-least", {"n": 6}),
                ("points",),
            ),
            _COURSE_FEED,
        ),
        RoundPreset(
            "extra-1",
            "Extra Round First Step",
            "M4",
            RoundConfig(
                format="written",
                judge_keys=("correct", "later_first_miss"),
                written=WrittenRules(
                    lives=1,
                    elimination_from=16,
                    checkpoints=(
                        Checkpoint(10, ("correct",)),
                        Checkpoint(15, ("correct", "later_first_miss")),
                    ),
                    last_question=20,
                    pass_max=12,
                    single_revives=True,
                    final_keys=(),
                ),
            ),
            Feed(
                ("3r-updown", "3r-freeze", "3r-swedish", "3r-10by10"),
                take="losers",
                order="rank",
            ),
        ),
        RoundPreset(
            "extra-2",
            "Extra Round Second Step",
            "M4",
            nomx(5, 1, slots=1, judge_keys=("correct",)),
            Feed(("extra-1",), order="source"),
            skip_when_revived_from="extra-1",
        ),
        RoundPreset(
            "sf-1",
            "準決勝 Nine Hundred 第1セット",
            "M5",
            _race_set(1, 1),
            Feed(("3r-updown", "3r-freeze", "3r-swedish", "3r-10by10", "extra-2"), order="source"),
        ),
        RoundPreset(
            "sf-2",
            "準決勝 Nine Hundred 第2セット",
            "M5",
            _race_set(1, 2),
            Feed(("sf-1",), take="continuing", order="state", carry=("points",)),
        ),
        RoundPreset(
            "sf-3",
            "準決勝 Nine Hundred 第3セット",
            "M5",
            _race_set(2, 2),
            Feed(("sf-2",), take="continuing", order="state", carry=("points",)),
        ),
        RoundPreset(
            "final",
            "決勝 トリプルセブン",
            "M6",
            RoundConfig(
                scoring=Rule("nomx"),
                win=Rule("correct-at-least", {"n": 7}),
                lockout=Rule("misses-at-least", {"n": 3}),
                sets_to_win=3,
                slots=1,
                judge_keys=("sets", "correct"),
                tie_rule="rank",
            ),
            Feed(("sf-1", "sf-2", "sf-3"), order="source", fallback="feed_order"),
        ),
    ),
)
