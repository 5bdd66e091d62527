"""Preset settings typed by organisers are refused when saved, not when a round is drawn."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.engine import EngineError, get_preset


@pytest.mark.parametrize(("slug", "settings"), [
    ("kyushu-cup-ix", {"r2_size": -1}),
    ("kyushu-cup-ix", {"final_wins_needed": 0}),
    ("kyushu-cup-ix", {"penalty": "NaN"}),
    ("kyushu-cup-ix", {"penalty": "-5"}),
    ("kyushu-cup-ix", {"wildcard_chain": ["ratio", "ratio"]}),
    ("kyushu-cup-ix", {"wildcard_chain": []}),
    ("kyushu-cup-ix", {"max_seeds": -1}),
    ("kyushu-cup-ix", {"k7_draw_per": "day"}),
    ("katata-kansai5-qualifier", {"advance_per_group": 4}),
    ("katata-kansai5-qualifier", {"single_advance_rounds": ["1"]}),
    ("katata-kansai5-qualifier", {"single_advance_rounds": [0]}),
    ("katata-kansai5-qualifier", {"single_advance_rounds": [2, 2]}),
    ("katata-kansai5-qualifier", {"single_advance_from": -3}),
    ("katata-kansai5-qualifier", {"bomber_min_q": 10}),
    ("katata-kansai5-qualifier", {"max_lots": 5}),
    ("shop-top2", {"tie_break": []}),
])
def test_bad_values_raise_setting_invalid(slug: str, settings: dict[str, Any]) -> None:
    with pytest.raises(EngineError) as err:
        get_preset(slug, settings)
    assert err.value.code == "setting_invalid"


def test_good_values_still_build() -> None:
    preset = get_preset("kyushu-cup-ix", {"wildcard_chain": ["score", "ratio", "lottery"],
                                          "penalty": "300", "k7_draw_per": "round"})
    assert preset.tie_break == ("score", "ratio", "lottery")
    assert str(preset.penalty) == "300"
    katata = get_preset("katata-kansai5-qualifier",
                        {"single_advance_rounds": [1, 2], "single_advance_from": 40,
                         "advance_per_group": 1})
    assert katata.settings["single_advance_rounds"] == (1, 2)
