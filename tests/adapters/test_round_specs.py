"""The round adapter: the stored form of a round's rules, and the form stored before it.

``legacy_round_specs.json`` holds ``Round.spec``/``Round.kind`` exactly as the app stored
them before the typed spec (written by the old ``engine_adapter.round_plan``), for both
full events and the shop preset, under several settings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from brackets.adapters.rounds import (
    rules_from_stored,
    stored_form,
    stored_from_legacy,
    stored_to_legacy,
    upgrade_record,
)
from brackets.engine import EngineBug, get_preset

LEGACY = json.loads((Path(__file__).parent / "legacy_round_specs.json").read_text("utf-8"))


def ident(row: dict[str, Any]) -> str:
    return f"{row['slug']}-{row['counts']}-{sorted(row['settings'])}-{row['number']}"


@pytest.mark.parametrize("row", LEGACY, ids=ident)
def test_a_legacy_round_converts_to_the_planned_round(row: dict[str, Any]) -> None:
    planned = get_preset(row["slug"], row["settings"]).rounds_for(*row["counts"])
    expected = stored_form(planned[row["number"] - 1], preset_slug=row["slug"],
                           settings=row["settings"], planned_for=tuple(row["counts"]))
    stored, kind = stored_from_legacy(row["spec"], row["kind"], row["number"])
    assert stored == expected
    assert kind == planned[row["number"] - 1].kind


@pytest.mark.parametrize("row", LEGACY, ids=ident)
def test_the_conversion_is_reversible_exactly(row: dict[str, Any]) -> None:
    stored, _kind = stored_from_legacy(row["spec"], row["kind"], row["number"])
    assert stored_to_legacy(stored, row["number"]) == (row["spec"], row["kind"])


@pytest.mark.parametrize("row", LEGACY, ids=ident)
def test_plan_values_are_derived_as_they_were_stored(row: dict[str, Any]) -> None:
    stored, _kind = stored_from_legacy(row["spec"], row["kind"], row["number"])
    rules = rules_from_stored(json.loads(json.dumps(stored)), row["number"])
    old = row["spec"]
    assert rules.penalty_text == old["penalty"]
    assert list(rules.dummy_set) == old["dummy_set"]
    assert rules.seeds_from_round == old["seeds_from_round"]
    assert rules.refuses_illegal == (old["illegal_selection"] == "refuse")
    assert list(rules.tie_break) == old["tie_break"]
    assert (rules.k7_deck, rules.k7_extra_card) == (old["k7_deck"], old["k7_extra_card"])
    assert rules.k7_draw_per_round == (old["k7_draw_per"] == "round")
    assert rules.max_matches == old["max_matches"]
    assert rules.draw_method == old["draw"]
    assert rules.per_group() == old["per_group"]
    assert rules.cards == old["cards"] and rules.bans == old["bans"]
    if "contenders_from" in old:
        assert rules.contenders_from == (old["contenders_from"]["round"],
                                         tuple(old["contenders_from"]["places"]))
    else:
        assert rules.contenders_from is None
    if "rules" in old:
        assert rules.order_from_round == old["order_from_round"]
        assert [v.key for v in rules.variants] == list(old["rules"])
    assert rules.published_kind == row["kind"]


def test_a_file_record_in_the_old_form_is_upgraded_and_a_new_one_kept() -> None:
    row = next(r for r in LEGACY if r["kind"] == "series")
    record = {"id": 7, "number": row["number"], "kind": "series", "spec": row["spec"]}
    upgraded = upgrade_record(record)
    assert upgraded["kind"] == "partner_series" and upgraded["spec"]["version"] == 1
    assert upgrade_record(upgraded) == upgraded


@pytest.mark.parametrize("data", [
    {}, {"version": 2}, {"version": 1, "round": {}, "preset": {"slug": "x", "settings": {}},
                         "planned_for": [1, 0]},
    {"version": 1, "round": get_preset("shop-top2").rounds[0].to_dict(),
     "preset": {"slug": "shop-top2"}, "planned_for": [1, 0]},
    {"version": 1, "round": get_preset("shop-top2").rounds[0].to_dict(),
     "preset": {"slug": "shop-top2", "settings": {}}, "planned_for": [1]},
    {"version": 1, "round": get_preset("shop-top2").rounds[0].to_dict(),
     "preset": {"slug": "shop-top2", "settings": {}}, "planned_for": [1, 0], "penalty": "0"},
])
def test_a_malformed_stored_spec_is_refused_as_a_bug(data: dict[str, Any]) -> None:
    with pytest.raises(EngineBug):
        rules_from_stored(data, 1)
