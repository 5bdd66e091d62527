"""``brackets.engine.bounds``: every range once, read by the engine's own checks too."""

from __future__ import annotations

from decimal import Decimal

import pytest

from brackets.engine import RuleRefusal, bounds, preset_settings


@pytest.mark.parametrize("value", ["400", 400, "9999.99", "0.01", Decimal("310.50")])
def test_penalty_in_bounds_reads_as_a_decimal(value: object) -> None:
    assert bounds.PENALTY.check("penalty", value) == Decimal(str(value))


@pytest.mark.parametrize("value", ["100000", "0", "-1", "0.001", "NaN", "Infinity", "",
                                   "abc", None, True, 1.5, [400]])
def test_penalty_out_of_bounds_is_refused_with_its_range(value: object) -> None:
    with pytest.raises(RuleRefusal) as refused:
        bounds.PENALTY.check("penalty", value)
    assert refused.value.code == "out_of_bounds"
    assert (refused.value.params["low"], refused.value.params["high"]) == (
        Decimal("0.01"), Decimal("9999.99"))


def test_score_bound_is_the_engines_score_range() -> None:
    from brackets.engine import ScoreRange

    default = ScoreRange()
    assert (bounds.SCORE.low, bounds.SCORE.high, bounds.SCORE.decimals) == (
        default.low, default.high, default.decimals)
    assert bounds.SCORE.max_digits == 6 and bounds.PENALTY.max_digits == 6


def test_whole_and_text_bounds() -> None:
    assert bounds.EXTRA_LOTS.check("extra_lots", 4) == 4
    for bad in (5, -1, True, "3", 3_000_000_000):
        assert not bounds.EXTRA_LOTS.contains(bad)
    assert bounds.CARD_NAME.check("card_name", "ア" * 8) == "ア" * 8
    with pytest.raises(RuleRefusal) as long:
        bounds.CARD_NAME.check("card_name", "ア" * 20)
    assert long.value.params["max_length"] == 8 and long.value.params["length"] == 20
    with pytest.raises(RuleRefusal) as empty:
        bounds.CARD_NAME.check("card_name", "")
    assert empty.value.code == "required"


def test_every_bound_is_listed_by_its_key() -> None:
    names = {name.lower() for name in dir(bounds) if name.isupper() and name != "BOUNDS"}
    assert set(bounds.BOUNDS) <= names | {"shura_count", "csv_cell"}
    assert all(isinstance(b, (bounds.Whole, bounds.Points, bounds.Text))
               for b in bounds.BOUNDS.values())


def test_nesting_is_counted_without_recursion() -> None:
    assert bounds.json_depth({"a": [1, {"b": "[[["}]}) == 3
    assert bounds.text_depth('{"a": [1, {"b": "[[[\\"]]"}]}') == 3
    with pytest.raises(RuleRefusal):
        bounds.text_depth("[" * 100_000)
    deep: object = 1
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(RuleRefusal):
        bounds.json_depth(deep)


@pytest.mark.parametrize("slug", ["kyushu-cup-ix", "katata-kansai5-qualifier"])
def test_a_preset_penalty_setting_stays_within_the_penalty_bound(slug: str) -> None:
    setting = next(s for s in preset_settings(slug) if s.key == "penalty")
    assert setting.validate("9999.99") == Decimal("9999.99")
    with pytest.raises(RuleRefusal):
        setting.validate("100000")
