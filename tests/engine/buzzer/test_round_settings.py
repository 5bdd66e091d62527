"""Every setting of a round is described once (name, kind, range, default, label) and the
flat values a form edits turn back into the same round."""

from __future__ import annotations

import pytest

from brackets.engine import RuleRefusal
from brackets.engine.buzzer import (
    CONDITIONS,
    FORMATS,
    JUDGE_KEYS,
    LABELS,
    PRESETS,
    REST_RULES,
    SCORING,
    TIE_RULES,
    RoundConfig,
    config_from_values,
    config_values,
    setting_fields,
)

PRESET_ROUNDS = [
    (tp.slug, rp.slug, rp.config)
    for tp in (PRESETS.get(s) for s in PRESETS.slugs())
    for rp in tp.rounds
    if rp.config is not None
]


def test_every_registered_slug_has_a_label_and_nothing_else_does() -> None:
    registries = {"scoring": SCORING, "conditions": CONDITIONS, "rest_rules": REST_RULES,
                  "judge_keys": JUDGE_KEYS, "tie_rules": TIE_RULES, "formats": FORMATS}
    for name, registry in registries.items():
        assert set(LABELS[name]) == set(registry.slugs()), name
    by_slot = {(sf.section, sf.slug) for sf in setting_fields() if sf.slug}
    assert {s for slot, s in by_slot if slot == "scoring"} <= set(SCORING.slugs())
    assert {s for slot, s in by_slot if slot == "win"} == set(CONDITIONS.slugs())
    assert {s for slot, s in by_slot if slot == "rests"} == set(REST_RULES.slugs())


def test_every_setting_has_a_label_a_default_in_range_and_a_unique_key() -> None:
    keys = [sf.key for sf in setting_fields()]
    assert len(keys) == len(set(keys))
    for sf in setting_fields():
        assert sf.param.label
        if sf.param.kind in ("int", "bool", "ints"):
            assert sf.param.check(sf.param.default), sf.key


@pytest.mark.parametrize(("preset", "round_slug", "config"), PRESET_ROUNDS)
def test_each_preset_round_survives_the_round_trip_through_flat_values(
    preset: str, round_slug: str, config: RoundConfig
) -> None:
    rebuilt = config_from_values(config_values(config))
    assert config_values(rebuilt) == config_values(config)
    assert (rebuilt.scoring.slug, rebuilt.win, rebuilt.loss, rebuilt.written) == (
        config.scoring.slug, config.win, config.loss, config.written)


def test_m6_triple_seven_reads_as_seven_correct_three_wrong_three_sets() -> None:
    values = config_values(PRESETS.get("abc-the25th-004").round("final").config)  # type: ignore[arg-type]
    assert values["win"] == "correct-at-least" and values["win:correct-at-least:n"] == 7
    assert values["lockout:misses-at-least:n"] == 3 and values["sets_to_win"] == 3


@pytest.mark.parametrize(("key", "value"), [
    ("slots", -1), ("slots", 10_000), ("question_limit", 0), ("win:correct-at-least:n", 0),
    ("advantages", (3, -1)), ("tie_rule", "coin"), ("judge_keys", ("points", "points")),
    ("scoring", "nope"), ("sets_to_win", 10), ("clock_ms", 0),
])
def test_a_value_out_of_range_is_refused_with_its_key_and_range(key: str, value: object) -> None:
    values = config_values(RoundConfig())
    values["win"] = "correct-at-least"
    values[key] = value
    with pytest.raises(RuleRefusal) as refused:
        config_from_values(values)
    assert refused.value.code == "bad_setting" and refused.value.params["key"] == key


def test_a_parameter_of_an_unused_piece_is_not_carried() -> None:
    values = config_values(RoundConfig())
    values["scoring:plus-minus:plus"] = 9
    assert config_from_values(values).scoring.params == {}


def test_a_field_no_setting_describes_is_kept_from_the_base_config() -> None:
    """A RoundConfig field added without a Param (a form cannot show it) survives a save."""
    from dataclasses import fields

    base = RoundConfig(slots=3)
    rebuilt = config_from_values(config_values(base), base)
    for f in fields(RoundConfig):
        assert getattr(rebuilt, f.name) == getattr(base, f.name) or f.name == "scoring"
