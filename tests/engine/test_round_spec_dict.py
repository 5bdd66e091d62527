"""RoundSpec.to_dict / from_dict: the stored form of a round's rules is exact and versioned.

Every preset, every planned round, over field sizes and the settings that change rounds:
through JSON and back gives an equal spec and the same dict; malformed data is refused.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from brackets.engine import (
    SPEC_VERSION,
    ContendersSource,
    EngineBug,
    EngineError,
    RoundSpec,
    contenders_source,
    games_scheduled,
    get_preset,
    list_presets,
    order_from_round,
    seeds_round,
)

SETTINGS: list[tuple[str, dict[str, Any]]] = [
    ("kyushu-cup-ix", {}),
    ("kyushu-cup-ix", {"r3_b_recorded": True, "history_reset_at_final": False,
                       "final_wins_needed": 3, "r2_draw": "snake"}),
    ("kyushu-cup-ix", {"r3_capacity_a": 8, "r3_capacity_b": 12}),
    ("katata-kansai5-qualifier", {}),
    ("katata-kansai5-qualifier", {"final_restricted": False, "advance_per_group": 1,
                                  "draw": "mod"}),
    ("katata-kansai5-qualifier", {"single_advance_from": 20, "single_advance_rounds": [2]}),
    ("shop-top2", {}),
    ("shop-top2", {"draw": "snake"}),
]
FIELDS = [(5, 0), (8, 0), (13, 0), (16, 0), (31, 0), (58, 7), (64, 8), (40, 0), (100, 0)]


def planned(slug: str, settings: dict[str, Any], entrants: int, seeds: int
            ) -> tuple[RoundSpec, ...]:
    preset = get_preset(slug, settings)
    if not any(sp.seeds_enter for sp in preset.rounds):
        entrants, seeds = entrants + seeds, 0
    try:
        return preset.rounds_for(entrants, seeds)
    except EngineError:
        return ()


@pytest.mark.parametrize("slug,settings", SETTINGS)
@pytest.mark.parametrize("entrants,seeds", FIELDS)
def test_every_planned_round_survives_json_exactly(slug: str, settings: dict[str, Any],
                                                   entrants: int, seeds: int) -> None:
    for spec in planned(slug, settings, entrants, seeds) or get_preset(slug, settings).rounds:
        data = spec.to_dict()
        assert data["version"] == SPEC_VERSION
        stored = json.loads(json.dumps(data))
        assert stored == data
        back = RoundSpec.from_dict(stored)
        assert back == spec
        assert back.to_dict() == data


def test_every_registered_template_round_survives() -> None:
    for preset in list_presets():
        for spec in preset.rounds:
            assert RoundSpec.from_dict(json.loads(json.dumps(spec.to_dict()))) == spec


def test_the_kyushu_rounds_read_as_their_kinds() -> None:
    rounds = get_preset("kyushu-cup-ix").rounds_for(58, 7)
    assert [sp.kind for sp in rounds] == ["groups", "groups", "rule_selection", "groups",
                                          "final_group", "partner_match", "partner_series"]
    assert [sp.is_pair for sp in rounds] == [False] * 5 + [True] * 2
    assert rounds[6].is_series and games_scheduled(rounds[6]) == 3
    assert games_scheduled(rounds[5]) == 1
    assert seeds_round(rounds) == 2
    assert contenders_source(rounds, 5) == ContendersSource(5, (3, 4))
    assert contenders_source(rounds, 6) == ContendersSource(5, (1, 2))
    assert contenders_source(rounds, 3) is None
    assert order_from_round(rounds, 3) == 2 and order_from_round(rounds, 4) is None


def test_a_ladder_final_is_a_ranked_final() -> None:
    rounds = get_preset("katata-kansai5-qualifier").rounds_for(16)
    assert rounds[-1].is_ranked_final and rounds[-1].is_last
    assert not any(sp.is_ranked_final for sp in rounds[:-1])
    assert seeds_round(rounds) is None


def _base() -> dict[str, Any]:
    return get_preset("kyushu-cup-ix").rounds[2].to_dict()


@pytest.mark.parametrize("change", [
    lambda d: d.update(version=2),
    lambda d: d.pop("version"),
    lambda d: d.pop("kind"),
    lambda d: d.update(extra=1),
    lambda d: d.update(kind="rule_select"),
    lambda d: d.update(draw="lottery"),
    lambda d: d.update(size="20"),
    lambda d: d.update(group_size=True),
    lambda d: d.update(seeds_enter=1),
    lambda d: d.update(variants={}),
    lambda d: d["variants"][0].pop("capacity"),
    lambda d: d["variants"][1]["restrictions"].update(window="main"),
    lambda d: d["restrictions"].update(lots="yes"),
    lambda d: d["restrictions"].update(read_window=3),
])
def test_malformed_data_is_refused_as_a_bug(change: Any) -> None:
    data = _base()
    change(data)
    with pytest.raises(EngineBug) as info:
        RoundSpec.from_dict(data)
    assert info.value.code == "round_spec_invalid"


@pytest.mark.parametrize("value", [None, [], "groups", 1])
def test_not_an_object_is_refused(value: Any) -> None:
    with pytest.raises(EngineBug):
        RoundSpec.from_dict(value)
