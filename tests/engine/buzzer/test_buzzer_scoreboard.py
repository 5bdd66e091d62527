"""The scoreboard payload says how each scoring is displayed (the screens decide no rule)."""

from __future__ import annotations

import json

import pytest
from buzzer_helpers import run

from brackets.engine.buzzer import (
    ABC_004,
    SCORING,
    TIE_RULES,
    Correct,
    RoundConfig,
    Rule,
    Wrong,
    display_hints,
    scoreboard,
    tiebreak_called,
)

POINT_SCORINGS = {"rentou", "updown", "plus-minus", "board", "by"}


@pytest.mark.parametrize("slug", SCORING.slugs())
def test_points_are_shown_for_scorings_whose_points_differ_from_the_correct_count(
    slug: str,
) -> None:
    hints = display_hints(RoundConfig(scoring=Rule(slug)))
    if slug in POINT_SCORINGS:
        assert (hints["main"], hints["unit"]) == ("points", "P")
    else:
        assert (hints["main"], hints["unit"]) == ("correct", "○")
    assert hints["factors"] is (slug == "by")


def test_every_scoring_is_classified() -> None:
    assert POINT_SCORINGS <= set(SCORING.slugs())


def test_m3_10by10_rows_carry_both_factors_of_the_product() -> None:
    config = RoundConfig(
        scoring=Rule("by", {"n": 10}), win=Rule("points-at-least", {"n": 100}), slots=1
    )
    s = run(config, 3, [Correct("p1"), Correct("p1"), Wrong("p1"), Wrong("p2")])
    rows = {r["id"]: r for r in scoreboard(s)["players"]}
    assert rows["p1"]["factors"] == [2, 9] and rows["p1"]["main"] == 18 == rows["p1"]["points"]
    assert rows["p2"]["factors"] == [0, 9] and rows["p2"]["main"] == 0
    assert rows["p3"]["factors"] == [0, 10]


def test_rows_without_factors_show_the_correct_count() -> None:
    config = RoundConfig(win=Rule("correct-at-least", {"n": 5}), slots=1)
    s = run(config, 2, [Correct("p2"), Wrong("p1")])
    rows = {r["id"]: r for r in scoreboard(s)["players"]}
    assert rows["p2"]["main"] == 1 == rows["p2"]["correct"]
    assert rows["p1"]["factors"] is None and rows["p1"]["main"] == 0


def test_m2_rentou_rows_show_points_with_the_streak_mark() -> None:
    cfg = ABC_004.round("2r").config
    assert cfg is not None
    data = scoreboard(run(cfg, 12, [Correct("p7"), Correct("p7")]))
    assert data["display"]["main"] == "points"
    row = next(p for p in data["players"] if p["id"] == "p7")
    assert row["main"] == row["points"] == 3 and row["streak"] is False


def test_sets_are_shown_only_in_rounds_played_in_sets() -> None:
    assert display_hints(RoundConfig(sets_to_win=2))["sets"] is True
    assert display_hints(RoundConfig())["sets"] is False


@pytest.mark.parametrize(
    ("tie_rule", "called"),
    [("playoff", "playoff"), ("split-1o1x", "sudden_death"), ("rank", "sudden_death")],
)
def test_the_tie_rule_names_the_deciding_round(tie_rule: str, called: str) -> None:
    """M3/M5 decide ties by an 早押しプレーオフ, L11 by a サドンデス."""
    config = RoundConfig(tie_rule=tie_rule)
    assert tiebreak_called(config) == called
    assert display_hints(config)["tiebreak"] == called
    assert set(TIE_RULES.slugs()) == {"playoff", "split-1o1x", "rank"}


def test_the_payload_is_json_with_its_hints() -> None:
    cfg = ABC_004.round("2r").config
    assert cfg is not None
    data = json.loads(json.dumps(scoreboard(run(cfg, 12, []))))
    assert set(data["display"]) == {"main", "unit", "factors", "sets", "tiebreak"}
    assert all({"main", "factors"} <= set(row) for row in data["players"])
