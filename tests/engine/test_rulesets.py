"""Rule sets (#17): an event's rules as a document, compiled, validated, exchanged as JSON.

The built-in presets are the first test: their documents compile to presets that plan the
same rounds for every field and hold the same policies (the full-event replays are in
``test_full_events.py``); then each refusal of the reader and of the validator.
"""

from __future__ import annotations

import json
from dataclasses import fields, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from brackets.engine import (
    NO_RESTRICTION,
    RULESET_VERSION,
    SPEC_VERSION,
    EngineError,
    LadderRules,
    Mode,
    PlayerPolicy,
    Preset,
    RoundRestrictions,
    RoundSpec,
    RuleRefusal,
    RuleSet,
    RuleVariant,
    Selection,
    SelectionPolicy,
    ShuraPolicy,
    compile_ruleset,
    get_preset,
    ruleset_of,
    validate_ruleset,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "rulesets"

SETTINGS: list[tuple[str, dict[str, Any]]] = [
    ("kyushu-cup-ix", {}),
    ("kyushu-cup-ix", {"r2_draw": "snake", "max_seeds": 4}),
    ("kyushu-cup-ix", {"r3_capacity_a": 8, "r3_capacity_b": 12}),
    ("kyushu-cup-ix", {"r2_size": 32, "r3_size": 16, "r3_capacity_a": 8, "r3_capacity_b": 8}),
    ("kyushu-cup-ix", {"history_reset_at_final": False, "final_wins_needed": 3}),
    ("kyushu-cup-ix", {"illegal_selection": "penalty", "penalty": "300",
                       "wildcard_chain": ["score", "ratio", "lottery"]}),
    ("kyushu-cup-ix", {"r3_b_recorded": True, "k7_extra_card": "identical", "k7_deck": "all",
                       "k7_draw_per": "round"}),
    ("katata-kansai5-qualifier", {}),
    ("katata-kansai5-qualifier", {"single_advance_from": 30}),
    ("katata-kansai5-qualifier", {"single_advance_rounds": [1, 3]}),
    ("katata-kansai5-qualifier", {"advance_per_group": 1, "draw": "snake"}),
    ("katata-kansai5-qualifier", {"bomber_min_q": 90, "pinpoint_min_q": 60,
                                  "grouped_min_q": 40}),
    ("katata-kansai5-qualifier", {"final_restricted": False, "penalty": "250"}),
    ("katata-kansai5-qualifier", {"max_lots": 3, "format_lot_pool": "formats",
                                  "low_firepower_subgenres": "each", "dummy_format": "四択",
                                  "berths": 2}),
    ("shop-top2", {}),
    ("shop-top2", {"draw": "mod", "tie_break": ["score", "ratio", "lottery"]}),
]
IDS = [f"{slug}-{i}" for i, (slug, _s) in enumerate(SETTINGS)]


def _json_round_trip(ruleset: RuleSet) -> RuleSet:
    return RuleSet.from_dict(json.loads(json.dumps(ruleset.to_dict(), ensure_ascii=False)))


def _plan(preset: Preset, entrants: int, seeds: int) -> object:
    """The rounds planned, or the refusal (code and params) when the field cannot play."""
    try:
        return preset.rounds_for(entrants, seeds)
    except EngineError as err:
        return (err.code, err.params)


def _max_matches(preset: Preset, entrants: int) -> object:
    try:
        return preset.max_matches(entrants)
    except EngineError as err:
        return (err.code, err.params)


# -- the built-in presets as documents --------------------------------------------------------

@pytest.mark.parametrize(("slug", "settings"), SETTINGS, ids=IDS)
def test_builtin_rule_set_survives_json_exactly(slug: str, settings: dict[str, Any]) -> None:
    ruleset = ruleset_of(slug, settings)
    assert _json_round_trip(ruleset) == ruleset
    assert ruleset.to_dict()["version"] == RULESET_VERSION


@pytest.mark.parametrize(("slug", "settings"), SETTINGS, ids=IDS)
def test_compiled_builtin_plans_the_same_rounds_for_every_field(
        slug: str, settings: dict[str, Any]) -> None:
    """Every field from 0 to 130 entrants with 0 to 9 seeds: the same rounds, or the same
    refusal with the same params (too many seeds, round 2 overfull, a round undrawable)."""
    builtin = get_preset(slug, settings)
    compiled = compile_ruleset(_json_round_trip(ruleset_of(slug, settings)))
    assert compiled.rounds == builtin.rounds
    differ = [(n, s) for n in range(131) for s in range(10)
              if _plan(compiled, n, s) != _plan(builtin, n, s)]
    assert differ == []


@pytest.mark.parametrize(("slug", "settings"), SETTINGS, ids=IDS)
def test_compiled_builtin_holds_the_same_policies(slug: str, settings: dict[str, Any]) -> None:
    """Every field of the preset but the plan callable and the settings form (a document is
    its own form); the K7 settings the app reads are carried under the same keys."""
    builtin = get_preset(slug, settings)
    compiled = compile_ruleset(ruleset_of(slug, settings))
    for f in fields(Preset):
        if f.name not in ("plan", "settings", "setting_specs"):
            assert getattr(compiled, f.name) == getattr(builtin, f.name), f.name
    for key, value in compiled.settings.items():
        assert builtin.settings.get(key, value) == value, key
    for q in (0, 34, 35, 49, 50, 62, 79, 80, 95):
        assert compiled.player_rules(q_level=q) == builtin.player_rules(q_level=q)
    assert compiled.selection_penalty() == builtin.selection_penalty()
    for n in (13, 40, 64):
        assert _max_matches(compiled, n) == _max_matches(builtin, n)


@pytest.mark.parametrize(("slug", "settings"),
                         [s for s in SETTINGS if s[1].get("history_reset_at_final", True)],
                         ids=[i for i, s in zip(IDS, SETTINGS, strict=True)
                              if s[1].get("history_reset_at_final", True)])
def test_builtin_rule_sets_validate_clean(slug: str, settings: dict[str, Any]) -> None:
    assert validate_ruleset(ruleset_of(slug, settings)) == []


def test_k10_final_without_its_reset_is_flagged_as_a_window_needing_one() -> None:
    """K10 read literally without the history reset: a finalist who used five groups in
    round 1 .. semi-final plays up to six more sets in the same window; the 2016 catalog has
    six groups (ランダム included), so the final is played on the fallback."""
    problems = validate_ruleset(ruleset_of("kyushu-cup-ix", {"history_reset_at_final": False}))
    assert [(p.code, p.params) for p in problems] == [
        ("ruleset_window_exhausted",
         {"round": "決勝", "window": "main", "sets": 10, "available": 6})]


@pytest.mark.parametrize("slug", ["kyushu-cup-ix", "katata-kansai5-qualifier", "shop-top2"])
def test_builtin_rule_set_files_match_the_presets(slug: str) -> None:
    """fixtures/rulesets/ holds the three presets as files an organiser imports and edits;
    they are the built-in presets' documents, byte for byte as JSON values."""
    data = json.loads((FIXTURES / f"{slug}.json").read_text(encoding="utf-8"))
    assert data == ruleset_of(slug).to_dict()
    assert validate_ruleset(RuleSet.from_dict(data)) == []


def test_kyushu_rule_set_reads_like_the_rule_page() -> None:
    ruleset = ruleset_of("kyushu-cup-ix")
    assert (ruleset.capacity, ruleset.max_seeds) == (64, 8)  # 定員64名＋シード最大8名
    assert [r.key for r in ruleset.rounds] == ["r1", "r2", "r3", "r4", "sf", "third", "final"]
    assert ruleset.players.mode is Mode.BOMBER and ruleset.ladder is None
    assert ruleset.selection.dummy == Selection("ノンジャンル", "ランダム", "HARD")


def test_a_new_round_spec_layout_needs_a_new_document_version() -> None:
    """A round inside a document is RoundSpec.to_dict() without its own version, so the two
    versions move together: bump RULESET_VERSION (and read the old one) with SPEC_VERSION.
    Version 2 of the document is the 修羅 rules, with the round layout unchanged."""
    assert (SPEC_VERSION, RULESET_VERSION) == (1, 2)


# -- composing from empty ---------------------------------------------------------------------

BASIC = RoundRestrictions(read_window="main", record_window="main", lots=False)


def five_round_event() -> RuleSet:
    """The issue's next organiser: five rounds, bans in the quarter-final, thresholds at
    Q 60, 40 entrants and 4 seeds joining round 2."""
    return RuleSet(
        slug="next-cup", name="次の大会", capacity=40, max_seeds=4,
        rounds=(
            RoundSpec("r1", "1回戦", advance_per_group=2, target=24, draw_in_advance=True,
                      restrictions=BASIC),
            RoundSpec("r2", "2回戦", size=24, seeds_enter=True, restrictions=BASIC),
            RoundSpec("qf", "準々決勝", size=12, restrictions=replace(BASIC, match_bans=True),
                      advance_per_group=1, target=4),
            RoundSpec("sf", "準決勝", "final_group", size=4, draw="fixed", restrictions=BASIC,
                      losers_to="third"),
            RoundSpec("third", "3位決定戦", "partner_match", size=2, draw="fixed",
                      restrictions=replace(NO_RESTRICTION, pair_sets=True)),
            RoundSpec("final", "決勝", "partner_series", size=2, draw="fixed", wins_needed=2,
                      restrictions=RoundRestrictions("final", "final", lots=False,
                                                     pair_sets=True, pair_history=True)),
        ),
        players=PlayerPolicy(mode_source="by_q", bomber_min_q=80, pinpoint_min_q=60),
        selection=SelectionPolicy(illegal="penalty", penalty=Decimal(400)),
    )


def test_a_rule_set_composed_from_empty_validates_compiles_and_plans() -> None:
    ruleset = five_round_event()
    assert validate_ruleset(ruleset) == []
    preset = compile_ruleset(_json_round_trip(ruleset))
    assert [r.size for r in preset.rounds_for(40, 4)] == [40, 24, 12, 4, 2, 2]
    assert preset.player_rules(q_level=62).mode is Mode.PINPOINT
    assert preset.player_rules(q_level=55).mode is Mode.FREE
    with pytest.raises(RuleRefusal) as err:
        preset.rounds_for(40, 5)
    assert err.value.code == "too_many_seeds"


def test_ladder_seeds_join_a_later_round() -> None:
    ladder = LadderRules(seeds_from_round=2)
    preset = compile_ruleset(RuleSet("ladder", "勝ち上がり", ladder=ladder))
    rounds = preset.rounds_for(32, 4)
    assert [(r.size, r.seeds_enter) for r in rounds] == [(32, False), (20, True), (10, False),
                                                          (6, False), (4, False)]
    with pytest.raises(RuleRefusal) as err:
        preset.rounds_for(3, 2)
    assert err.value.code == "seeds_round_not_played"
    assert err.value.params["seeds_round"] == 2


# -- the reader's refusals --------------------------------------------------------------------

def _doc() -> dict[str, Any]:
    return ruleset_of("kyushu-cup-ix").to_dict()


def _refusal(data: Any) -> RuleRefusal:
    with pytest.raises(RuleRefusal) as err:
        RuleSet.from_dict(data)
    return err.value


def test_a_document_of_a_newer_version_is_refused() -> None:
    data = _doc() | {"version": RULESET_VERSION + 1, "a_key_from_the_future": 1}
    err = _refusal(data)
    assert err.code == "ruleset_version_newer"
    assert err.params == {"version": RULESET_VERSION + 1, "supported": RULESET_VERSION}


@pytest.mark.parametrize(("edit", "key"), [
    (lambda d: d.update(colour="red"), "colour"),
    (lambda d: d["players"].update(mood="calm"), "players.mood"),
    (lambda d: d["rounds"][2].update(extra=1), "rounds[2].extra"),
    (lambda d: d["rounds"][2]["variants"][1]["restrictions"].update(x=1),
     "rounds[2].variants[1].restrictions.x"),
])
def test_an_unknown_key_is_refused_by_its_path(edit: Any, key: str) -> None:
    data = _doc()
    edit(data)
    err = _refusal(data)
    assert (err.code, err.params["key"]) == ("ruleset_key_unknown", key)


def test_a_missing_key_is_refused_by_its_path() -> None:
    data = _doc()
    del data["selection"]["dummy"]["difficulty"]
    err = _refusal(data)
    assert (err.code, err.params["key"]) == ("ruleset_key_missing", "selection.dummy.difficulty")
    assert _refusal({k: v for k, v in _doc().items() if k != "version"}).code == (
        "ruleset_key_missing")


@pytest.mark.parametrize(("edit", "key"), [
    (lambda d: d.update(capacity="64"), "capacity"),
    (lambda d: d.update(version=0), "version"),
    (lambda d: d["players"].update(mode="strict"), "players.mode"),
    (lambda d: d["selection"].update(penalty="NaN"), "selection.penalty"),
    (lambda d: d.update(tie_break="ratio"), "tie_break"),
    (lambda d: d["rounds"][0].update(group_size=True), "rounds[0].group_size"),
    (lambda d: d["rounds"][1].update(kind="knockout"), "rounds[1].kind"),
])
def test_a_value_of_the_wrong_type_is_refused_by_its_path(edit: Any, key: str) -> None:
    data = _doc()
    edit(data)
    err = _refusal(data)
    assert (err.code, err.params["key"]) == ("ruleset_value_invalid", key)


def test_a_document_that_is_not_an_object_is_refused() -> None:
    assert _refusal([1, 2]).code == "ruleset_value_invalid"


# -- the validator's refusals -----------------------------------------------------------------

KYUSHU = ruleset_of("kyushu-cup-ix")
KATATA = ruleset_of("katata-kansai5-qualifier")
assert KATATA.ladder is not None
KATATA_LADDER = KATATA.ladder


def _rounds(**changes: dict[str, Any]) -> RuleSet:
    """九州杯IX with some rounds (by key) changed."""
    return replace(KYUSHU, rounds=tuple(replace(r, **changes.get(r.key, {}))
                                        for r in KYUSHU.rounds))


def _codes(ruleset: RuleSet) -> list[tuple[str, dict[str, Any]]]:
    return [(p.code, p.params) for p in validate_ruleset(ruleset)]


def test_a_round_after_the_podium_is_unreachable() -> None:
    extra = RoundSpec("bonus", "エキシビション", size=4)
    assert ("ruleset_round_unreachable", {"round": "エキシビション"}) in _codes(
        replace(KYUSHU, rounds=KYUSHU.rounds + (extra,)))


def test_rounds_ending_without_a_podium_are_refused() -> None:
    assert _codes(replace(KYUSHU, rounds=KYUSHU.rounds[:4])) == [
        ("ruleset_no_final", {"round": "4回戦"})]


def test_a_losers_round_that_does_not_exist_is_refused() -> None:
    codes = _codes(_rounds(sf={"losers_to": "consolation"}))
    assert ("ruleset_losers_to_unknown", {"round": "準決勝", "target": "consolation"}) in codes
    # The semi-final's winners then go to the next round, the third-place match; nobody
    # reaches the final.
    assert ("ruleset_round_unreachable", {"round": "決勝"}) in codes


def test_a_round_needing_more_players_than_can_arrive_is_refused() -> None:
    """Round 4 of 8 but round 3's rules send on only 6 + 2: a 4回戦 of 12 cannot fill."""
    codes = _codes(_rounds(r4={"size": 12}))
    assert ("ruleset_round_short",
            {"round": "4回戦", "previous": "3回戦", "players": 8, "size": 12}) in codes


def test_a_round_smaller_than_the_advancers_is_refused() -> None:
    """The semi-final of 4 after a round 4 of 8 advancing three a group."""
    codes = _codes(_rounds(r4={"advance_per_group": 3}))
    assert ("ruleset_round_overfull",
            {"round": "準決勝", "previous": "4回戦", "players": 6, "size": 4}) in codes


def test_the_final_must_match_the_semi_finals_advancers() -> None:
    codes = _codes(_rounds(sf={"advance_per_group": 1}))
    assert ("ruleset_round_short",
            {"round": "決勝", "previous": "準決勝", "players": 1, "size": 2}) in codes
    assert ("ruleset_round_overfull",
            {"round": "3位決定戦", "previous": "準決勝", "players": 3, "size": 2}) in codes


def test_wildcards_filling_to_another_size_than_the_next_round_are_refused() -> None:
    assert ("ruleset_target_mismatch",
            {"round": "1回戦", "target": 36, "next": "2回戦", "size": 40}) in _codes(
        _rounds(r1={"target": 36}))


def test_capacity_beyond_what_round_2_can_take_is_refused_as_the_plan_would() -> None:
    codes = _codes(replace(KYUSHU, capacity=72))
    assert ("ruleset_round_overfull",
            {"round": "2回戦", "previous": "1回戦", "players": 44, "size": 40}) in codes
    assert any(code == "round_overfull" for code, _p in codes)


def test_advancers_as_many_as_the_group_are_a_contradiction() -> None:
    assert ("ruleset_advance_invalid", {"round": "2回戦", "advance": 4, "group_size": 4}) in (
        _codes(_rounds(r2={"advance_per_group": 4})))
    assert _codes(replace(KATATA, ladder=replace(KATATA_LADDER, advance_per_group=4)))[0] == (
        "ruleset_advance_invalid", {"round": "各回戦", "advance": 4, "group_size": 4})


def test_k6_capacities_must_fill_the_round_in_whole_groups() -> None:
    r3 = KYUSHU.rounds[2]
    a, b = r3.variants
    codes = _codes(_rounds(r3={"variants": (replace(a, capacity=10), b)}))
    assert ("ruleset_capacity_mismatch", {"round": "3回戦", "capacity": 18, "size": 20}) in codes
    assert ("ruleset_capacity_groups", {"round": "3回戦", "variant": "ルールA", "capacity": 10,
                                        "group_size": 4}) in codes
    one = (RuleVariant("A", "ルールA", 20, 2, BASIC),)
    assert ("ruleset_variants_kind", {"round": "3回戦"}) in _codes(_rounds(r3={"variants": one}))


def test_pair_rounds_have_two_contenders_and_a_series_a_length() -> None:
    codes = _codes(_rounds(final={"size": 4, "wins_needed": None}))
    assert ("ruleset_pair_size", {"round": "決勝", "size": 4}) in codes
    assert ("ruleset_wins_needed", {"round": "決勝"}) in codes
    assert ("ruleset_pair_rule_kind", {"round": "4回戦"}) in _codes(
        _rounds(r4={"restrictions": replace(BASIC, cards=True, pair_sets=True)}))


def test_a_window_read_before_anything_writes_it_is_refused() -> None:
    codes = _codes(_rounds(r2={"restrictions": replace(BASIC, read_window="mian")}))
    assert ("ruleset_window_never_written", {"round": "2回戦", "window": "mian"}) in codes


def test_a_window_that_never_resets_before_a_long_final_is_refused() -> None:
    long_final = RoundRestrictions("main", "main", lots=False, pair_sets=True,
                                   pair_history=True)
    codes = _codes(_rounds(final={"restrictions": long_final, "wins_needed": 3}))
    assert ("ruleset_window_exhausted",
            {"round": "決勝", "window": "main", "sets": 14, "available": 6}) in codes


def test_policies_that_contradict_each_other_are_refused() -> None:
    by_q = replace(KATATA, players=replace(KATATA.players, pinpoint_min_q=85),
                   tie_break=("ratio", "coin_toss", "ratio"))
    assert _codes(by_q) == [
        ("ruleset_tie_break_unknown", {"tie_breaks": ["coin_toss"]}),
        ("ruleset_tie_break_repeated", {"tie_breaks": ["ratio"]}),
        ("ruleset_thresholds_order", {"pinpoint": 85, "bomber": 80}),
    ]
    assert _codes(replace(KYUSHU, tie_break=())) == [("ruleset_tie_break_empty", {})]
    assert _codes(replace(KYUSHU, shura=ShuraPolicy(enabled=True))) == [
        ("ruleset_shura_fixed_mode", {})]
    assert _codes(replace(KATATA, shura=replace(KATATA.shura, format_lot_pool="dice"))) == [
        ("ruleset_lot_pool_unknown", {"pool": "dice"})]
    penalty = replace(KATATA, selection=replace(KATATA.selection, penalty=Decimal(0)))
    assert [code for code, _p in _codes(penalty)] == ["ruleset_penalty_range"]


def test_a_dummy_set_outside_the_catalog_is_refused() -> None:
    dummy = replace(KYUSHU.selection, dummy=Selection("ノンジャンル", "早押し", "HARD"))
    assert [code for code, _p in _codes(replace(KYUSHU, selection=dummy))] == [
        "unknown_format"]


def test_values_out_of_range_name_the_key() -> None:
    ruleset = replace(KATATA, berths=9, ladder=replace(KATATA_LADDER, group_size=5))
    codes = _codes(ruleset)
    assert ("ruleset_value_range", {"key": "berths", "value": 9, "low": 0, "high": 4}) in codes
    assert ("ruleset_value_range",
            {"key": "ladder.group_size", "value": 5, "low": 2, "high": 4}) in codes


def test_rounds_and_a_ladder_together_or_neither_are_refused() -> None:
    assert _codes(replace(KATATA, rounds=KYUSHU.rounds)) == [
        ("ruleset_rounds_and_ladder", {})]
    assert _codes(replace(KATATA, ladder=None)) == [("ruleset_rounds_missing", {})]
    assert ("ruleset_round_key_twice", {"round": "2回戦", "key": "r1"}) in _codes(
        _rounds(r2={"key": "r1"}))


def test_a_ladder_final_larger_than_a_group_is_refused() -> None:
    assert _codes(replace(KATATA, ladder=replace(KATATA_LADDER, final_size=6))) == [
        ("ruleset_final_size", {"final_size": 6, "group_size": 4})]


def test_a_ladder_at_its_capacity_is_planned_and_its_refusal_reported() -> None:
    """One advancer a group from 20 players leaves 5 for the semi-final: undrawable."""
    ladder = replace(KATATA_LADDER, single_advance_rounds=(1,))
    codes = _codes(replace(KATATA, ladder=ladder, capacity=20))
    assert [code for code, _p in codes] == ["round_undrawable"]


def test_a_version_2_document_without_the_shura_rules_is_refused_by_key() -> None:
    """Only a version-1 file, written before the 修羅 rules were composable, may lack them."""
    data = ruleset_of("katata-kansai5-qualifier").to_dict()
    del data["shura"]["voluntary"]
    with pytest.raises(RuleRefusal) as refused:
        RuleSet.from_dict(data)
    assert refused.value.code == "ruleset_key_missing"
    assert RuleSet.from_dict({**data, "version": 1}).shura.voluntary is True
