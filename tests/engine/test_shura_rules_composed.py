"""What 修羅 owes, composed per event (#17): ShuraRules weigh the 3-a grounds, 修羅の道 and
6-c-iii; the defaults are 堅田's exactly; a rule-set document carries them, reads older
documents as 堅田's, and validation names the contradictions."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from brackets.engine import (
    DeskDuties,
    RecordGives,
    RuleRefusal,
    ShuraDeclaration,
    ShuraRules,
    duties_in_force,
    lots_owed,
)
from brackets.engine.rulesets import RuleSet, compile_ruleset, ruleset_of, validate_ruleset

KATATA = ruleset_of("katata-kansai5-qualifier")
OLD_FILE = (Path(__file__).resolve().parents[1] / "rulesets" / "files"
            / "katata-exported-before-shura-rules.json")


@pytest.mark.parametrize(("declaration", "lots", "reasons"), [
    (ShuraDeclaration(national_title=True, shiga_winner=True, seed_or_invitation=True), 3,
     ("national_title", "shiga_winner", "seed_or_invitation")),
    (ShuraDeclaration(volunteer=True), 1, ("volunteer",)),
    (ShuraDeclaration(extra_lots=2), 3, ("volunteer", "extra", "extra")),
    (ShuraDeclaration(national_title=True, volunteer=True, extra_lots=1), 2,
     ("national_title", "extra")),
])
def test_default_rules_owe_what_katata_3a_3b_6cii_owe(
        declaration: ShuraDeclaration, lots: int, reasons: tuple[str, ...]) -> None:
    owed = lots_owed(declaration)
    assert (owed.genre_lots, owed.reasons) == (lots, reasons)


def test_lots_per_ground_are_weighed_and_a_ground_of_zero_owes_none() -> None:
    rules = ShuraRules(national_title=2, shiga_winner=0)
    owed = lots_owed(ShuraDeclaration(national_title=True, shiga_winner=True,
                                      seed_or_invitation=True, rules=rules))
    assert (owed.genre_lots, owed.reasons) == (
        3, ("national_title", "national_title", "seed_or_invitation"))


def test_a_holder_of_only_a_ground_owing_nothing_may_still_walk_shura_no_michi() -> None:
    owed = lots_owed(ShuraDeclaration(shiga_winner=True, volunteer=True,
                                      rules=ShuraRules(shiga_winner=0)))
    assert owed.reasons == ("volunteer",)


def test_without_voluntary_lots_a_volunteer_owes_nothing() -> None:
    owed = lots_owed(ShuraDeclaration(volunteer=True, extra_lots=3,
                                      rules=ShuraRules(voluntary=False)))
    assert (owed.genre_lots, owed.shura) == (0, False)


def test_weighed_lots_over_the_cap_are_refused() -> None:
    with pytest.raises(RuleRefusal) as err:
        lots_owed(ShuraDeclaration(national_title=True, shiga_winner=True,
                                   rules=ShuraRules(national_title=3, shiga_winner=2)))
    assert (err.value.code, err.value.params["lots"]) == ("too_many_lots", 5)


def test_duties_in_force_drop_what_the_rules_do_not_allow() -> None:
    typed = DeskDuties(volunteer=True, extra_lots=2, past_win_lots=6, q_level=90)
    assert duties_in_force(typed, RecordGives()) == typed
    off = ShuraRules(voluntary=False, champion_format_lots=False)
    now = duties_in_force(typed, RecordGives(past_win_lots=7), rules=off)
    assert (now.volunteer, now.extra_lots, now.past_win_lots, now.rules) == (False, 0, 0, off)
    assert lots_owed(now.declaration()).genre_lots == 0


def test_compiled_rule_set_carries_its_shura_rules_and_builtins_keep_katatas() -> None:
    assert compile_ruleset(KATATA).shura_rules == ShuraRules()
    composed = replace(KATATA, shura=replace(KATATA.shura, national_title=2, voluntary=False))
    assert compile_ruleset(composed).shura_rules == ShuraRules(national_title=2,
                                                               voluntary=False)
    assert RuleSet.from_dict(json.loads(json.dumps(composed.to_dict()))) == composed


def test_a_document_exported_before_the_shura_rules_reads_as_katatas() -> None:
    data = json.loads(OLD_FILE.read_text(encoding="utf-8"))
    assert set(data["shura"]) == {"enabled", "max_lots", "format_lot_pool"}
    assert RuleSet.from_dict(data) == KATATA
    assert compile_ruleset(RuleSet.from_dict(data)).shura_rules == ShuraRules()


def test_an_unknown_shura_key_is_still_refused() -> None:
    data = KATATA.to_dict()
    data["shura"]["past_champions"] = True
    with pytest.raises(RuleRefusal) as err:
        RuleSet.from_dict(data)
    assert (err.value.code, err.value.params["key"]) == ("ruleset_key_unknown",
                                                         "shura.past_champions")


def test_a_new_shura_key_of_the_wrong_type_is_refused_by_its_path() -> None:
    data = KATATA.to_dict()
    data["shura"]["voluntary"] = "yes"
    with pytest.raises(RuleRefusal) as err:
        RuleSet.from_dict(data)
    assert (err.value.code, err.value.params["key"]) == ("ruleset_value_invalid",
                                                         "shura.voluntary")


def _codes(rs: RuleSet) -> list[tuple[str, dict[str, object]]]:
    return [(p.code, p.params) for p in validate_ruleset(rs)]


def _shura(rs: RuleSet, **changes: object) -> RuleSet:
    return replace(rs, shura=replace(rs.shura, **changes))


def test_lots_owed_while_shura_is_off_is_a_contradiction() -> None:
    shop = ruleset_of("shop-top2")
    assert _codes(shop) == []
    assert _codes(_shura(shop, national_title=2)) == [("ruleset_shura_off_lots_owed", {})]


def test_a_ground_owing_more_than_the_cap_is_a_contradiction() -> None:
    assert _codes(_shura(KATATA, max_lots=2, seed_or_invitation=3)) == [
        ("ruleset_shura_ground_over_cap",
         {"key": "shura.seed_or_invitation", "ground": "seed_or_invitation", "lots": 3,
          "cap": 2})]


def test_shura_owing_nothing_is_flagged_and_lots_per_ground_are_bounded() -> None:
    nothing = _shura(KATATA, national_title=0, shiga_winner=0, seed_or_invitation=0,
                     voluntary=False)
    assert _codes(nothing) == [("ruleset_shura_owes_nothing", {})]
    assert _codes(_shura(KATATA, shiga_winner=-1))[0][0] == "ruleset_value_range"
