"""Rule presets: registry, settings with domain.md's default readings, round plans."""

from __future__ import annotations

from decimal import Decimal

import pytest

from brackets.engine import (
    BASIC_RULE,
    CATALOG_2016,
    NO_RESTRICTION,
    Card,
    Counting,
    DrawnLots,
    EngineError,
    Lottery,
    Mode,
    Preset,
    Selection,
    ShuraDeclaration,
    draw_cards,
    extra_card_rule,
    get_preset,
    legal_choices,
    list_presets,
    lots_owed,
    preset_settings,
    reveal_bans,
    shimonoseki_deck,
)

C = CATALOG_2016


def test_registry_lists_the_three_presets_with_stable_slugs() -> None:
    slugs = [p.slug for p in list_presets()]
    assert slugs[:3] == ["kyushu-cup-ix", "katata-kansai5-qualifier", "shop-top2"]
    for preset in list_presets():
        assert isinstance(preset, Preset) and preset.name
        assert preset.catalog.version == preset.catalog_version


def test_unknown_preset_and_settings_raise() -> None:
    with pytest.raises(EngineError) as err:
        get_preset("nope")
    assert err.value.code == "preset_unknown"
    with pytest.raises(EngineError) as err:
        get_preset("shop-top2", {"colour": "red"})
    assert err.value.code == "setting_unknown"
    with pytest.raises(EngineError):
        get_preset("kyushu-cup-ix", {"k7_extra_card": "sometimes"})
    with pytest.raises(EngineError):
        get_preset("kyushu-cup-ix", {"r2_size": "forty"})


def test_every_setting_documents_its_rule() -> None:
    for preset in list_presets():
        specs = preset_settings(preset.slug)
        assert specs and all(s.doc for s in specs)
        assert set(preset.settings) == {s.key for s in specs}


# -- 九州杯IX -----------------------------------------------------------------------------------

def test_kyushu_rounds_sizes_and_advancement() -> None:
    p = get_preset("kyushu-cup-ix")
    assert [r.key for r in p.rounds] == ["r1", "r2", "r3", "r4", "sf", "third", "final"]
    r1, r2 = p.round("r1"), p.round("r2")
    assert r1.draw_in_advance and r1.target == 40 and r1.advance_per_group == 2
    assert r2.seeds_enter and r2.seed_separation and r2.size == 40 and r2.target == 20
    rule = r1.advancement_rule(already_in=7, chain=p.tie_break)
    assert (rule.per_group, rule.target, rule.already_in) == (2, 40, 7)
    assert rule.wildcard_chain == ("ratio", "score", "lottery")
    assert p.round("r4").size == 8 and p.round("sf").losers_to == "third"
    assert p.round("final").wins_needed == 2


def test_kyushu_everyone_plays_the_basic_rule() -> None:
    p = get_preset("kyushu-cup-ix")
    assert p.player_rules(q_level=20) == BASIC_RULE
    assert p.player_rules(q_level=95) == BASIC_RULE
    with pytest.raises(EngineError):
        p.player_rules(owed=lots_owed(ShuraDeclaration(volunteer=True)))


def test_k6_rule_b_is_unrestricted_and_unrecorded_rule_a_is_basic() -> None:
    r3 = get_preset("kyushu-cup-ix").round("r3")
    a, b = r3.variant("A"), r3.variant("B")
    assert (a.capacity, a.advance_per_group, b.capacity, b.advance_per_group) == (12, 2, 8, 1)
    assert b.restrictions.read_window is None and b.restrictions.record_window is None
    entry = b.restrictions.history_entry(Selection("芸能", "四択", "HARD"), "3回戦")
    assert not entry.recorded
    assert a.restrictions.history_entry(Selection("芸能", "四択", "HARD"), "3回戦").recorded
    with pytest.raises(EngineError):
        r3.restrictions_for()
    assert r3.advancement_rule(variant="B").per_group == 1


def test_k6_capacities_must_fill_round_3() -> None:
    with pytest.raises(EngineError):
        get_preset("kyushu-cup-ix", {"r3_capacity_a": 16})
    p = get_preset("kyushu-cup-ix", {"r3_capacity_a": 8, "r3_capacity_b": 12})
    assert p.round("r4").size == 2 * 2 + 3


def test_k7_round_needs_cards_and_feeds_them_to_restrictions() -> None:
    p = get_preset("kyushu-cup-ix")
    r4 = p.round("r4").restrictions
    with pytest.raises(EngineError):
        r4.match_rules("4回戦")
    deck = shimonoseki_deck(C, p.settings["k7_deck"])
    assert len(deck) == 7 * 5 and Card("ノンジャンル", "セレクト") not in deck
    cards = draw_cards(deck, Lottery("s", "r4/g1/cards"),
                       extra_if=extra_card_rule(p.settings["k7_extra_card"]))
    match = r4.match_rules("4回戦", cards=cards)
    ch = legal_choices(C, p.player_rules(), [], match)
    assert set(ch.legal_genres) == set(cards.allowed_genres)


def test_k8_semifinal_takes_revealed_bans() -> None:
    sf = get_preset("kyushu-cup-ix").round("sf").restrictions
    bans = reveal_bans(["A", "B", "C", "D"], {"A": "芸能", "B": "芸能", "C": "社会", "D": "スポーツ"})
    ch = legal_choices(C, BASIC_RULE, [], sf.match_rules("準決勝", bans=bans))
    assert not ch.is_legal("芸能", "四択") and ch.is_legal("理系学問", "四択")
    with pytest.raises(EngineError):
        get_preset("kyushu-cup-ix").round("r2").restrictions.match_rules("2回戦", bans=bans)


def test_k9_k10_third_place_unrestricted_final_resets_per_pair() -> None:
    p = get_preset("kyushu-cup-ix")
    third, final = p.round("third").restrictions, p.round("final").restrictions
    assert third.read_window is None and third.pair_sets
    assert final.read_window == "final" and final.pair_history and final.pair_sets
    partner = Selection("スポーツ", "線結び", "HARD")
    ch = legal_choices(C, BASIC_RULE, [], third.match_rules("3位決定戦", partner=partner))
    assert not ch.is_legal("スポーツ", "野球") and not ch.is_legal("社会", "一問多答")


def test_kyushu_penalty_policy_is_a_setting() -> None:
    assert get_preset("kyushu-cup-ix").selection_penalty() == 0
    p = get_preset("kyushu-cup-ix", {"illegal_selection": "penalty", "penalty": "300"})
    assert p.selection_penalty() == Decimal(300)


# -- 堅田大会 -----------------------------------------------------------------------------------

def test_katata_modes_follow_q_level_and_shura() -> None:
    p = get_preset("katata-kansai5-qualifier")
    assert p.player_rules(q_level=85).mode is Mode.BOMBER
    assert p.player_rules(q_level=62).mode is Mode.PINPOINT
    assert p.player_rules(q_level=40).mode is Mode.FREE
    assert p.player_rules(q_level=30).counting is Counting.INDIVIDUAL
    owed = lots_owed(ShuraDeclaration(volunteer=True))
    rules = p.player_rules(q_level=30, owed=owed, drawn=DrawnLots("x", ("芸能",)))
    assert rules.mode is Mode.BOMBER and rules.lot_genres == {"芸能"}
    assert p.selection_penalty() == Decimal(400)


def test_katata_thresholds_are_settings() -> None:
    p = get_preset("katata-kansai5-qualifier", {"bomber_min_q": 90})
    assert p.player_rules(q_level=85).mode is Mode.PINPOINT


@pytest.mark.parametrize(("entrants", "sizes", "names"), [
    (4, [4], ["決勝"]),
    (7, [7, 4], ["準決勝", "決勝"]),
    (13, [13, 8, 4], ["1回戦", "準決勝", "決勝"]),
    (17, [17, 10, 6, 4], ["1回戦", "2回戦", "準決勝", "決勝"]),
    (64, [64, 32, 16, 8, 4], ["1回戦", "2回戦", "3回戦", "準決勝", "決勝"]),
])
def test_katata_ladder_of_rounds(entrants: int, sizes: list[int], names: list[str]) -> None:
    rounds = get_preset("katata-kansai5-qualifier").rounds_for(entrants)
    assert [r.size for r in rounds] == sizes and [r.name for r in rounds] == names
    assert rounds[-1].ranks_all and rounds[-1].kind == "final_group"


def test_katata_max_matches_for_h5() -> None:
    p = get_preset("katata-kansai5-qualifier")
    assert p.max_matches(13) == 3 and p.max_matches(17) == 4 and p.max_matches(64) == 5


def test_katata_single_advance_when_entries_are_many() -> None:
    p = get_preset("katata-kansai5-qualifier", {"single_advance_from": 30})
    rounds = p.rounds_for(40)
    assert [(r.size, r.advance_per_group) for r in rounds] == [(40, 1), (10, 2), (6, 2),
                                                                 (4, 0)]
    p = get_preset("katata-kansai5-qualifier", {"single_advance_rounds": [1]})
    assert [r.size for r in p.rounds_for(16)] == [16, 4]


def test_katata_final_keeps_restrictions_by_default() -> None:
    final = get_preset("katata-kansai5-qualifier").rounds_for(13)[-1]
    assert final.restrictions.read_window == "main" and final.restrictions.lots
    final = get_preset("katata-kansai5-qualifier",
                       {"final_restricted": False}).rounds_for(13)[-1]
    assert final.restrictions == NO_RESTRICTION


# -- shop -------------------------------------------------------------------------------------

def test_shop_top2_has_no_restrictions() -> None:
    p = get_preset("shop-top2")
    rounds = p.rounds_for(33)
    assert [r.size for r in rounds] == [33, 18, 10, 6, 4]
    assert all(r.advance_per_group == 2 for r in rounds[:-1])
    assert all(r.restrictions == NO_RESTRICTION for r in rounds)
    rules = p.player_rules(q_level=99)
    assert rules.mode is Mode.FREE
    history = [rounds[0].restrictions.history_entry(Selection("芸能", "四択", "HARD"), "1回戦")]
    match = rounds[1].restrictions.match_rules("2回戦")
    assert legal_choices(C, rules, history, match).is_legal("芸能", "四択")


def test_katata_lot_settings() -> None:
    p = get_preset("katata-kansai5-qualifier")
    assert p.format_lot_pool() == ("セレクト", "パネル", "キーボード", "マルチセレクト")
    p = get_preset("katata-kansai5-qualifier", {"format_lot_pool": "formats"})
    assert "四択" in p.format_lot_pool() and "ランダム" not in p.format_lot_pool()
    p = get_preset("katata-kansai5-qualifier", {"max_lots": 3})
    with pytest.raises(EngineError):
        p.player_rules(q_level=80, owed=lots_owed(ShuraDeclaration(volunteer=True,
                                                                   extra_lots=3)),
                       drawn=DrawnLots("x", ("芸能", "社会", "スポーツ", "理系学問")))


def test_katata_low_firepower_subgenre_counting_is_a_setting() -> None:
    history = [Selection("スポーツ", "野球", "HARD")]
    for value, legal in (("as_one", False), ("each", True)):
        p = get_preset("katata-kansai5-qualifier", {"low_firepower_subgenres": value})
        rules = p.player_rules(q_level=30, opt_up=Mode.BOMBER)
        entries = [p.rounds_for(13)[0].restrictions.history_entry(s, "1回戦") for s in history]
        match = p.rounds_for(13)[1].restrictions.match_rules("準決勝")
        assert legal_choices(C, rules, entries, match).is_legal("芸能", "音楽") is legal


def test_katata_dummy_set() -> None:
    assert get_preset("katata-kansai5-qualifier").dummy_selection == Selection(
        "ノンジャンル", "ランダム", "HARD")
    C.validate(get_preset("kyushu-cup-ix").dummy_selection)


def test_kyushu_plan_for_58_entrants_and_7_seeds() -> None:
    p = get_preset("kyushu-cup-ix")
    rounds = p.rounds_for(58, 7)
    assert [r.size for r in rounds] == [58, 40, 20, 8, 4, 2, 2]
    # R1, R2, R3, R4, semi-final, and up to 3 final games (the third-place match is the
    # alternative to the final).
    assert p.max_matches(58, 7) == 8
    with pytest.raises(EngineError):
        p.rounds_for(58, 9)


def test_unknown_tie_break_in_a_preset_setting_is_refused_when_built() -> None:
    for slug, key in (("kyushu-cup-ix", "wildcard_chain"),
                      ("katata-kansai5-qualifier", "tie_break"), ("shop-top2", "tie_break")):
        with pytest.raises(EngineError) as err:
            get_preset(slug, {key: ["ratio", "coin_toss"]})
        assert err.value.code == "tie_break_unknown"
        assert err.value.params["tie_breaks"] == ["coin_toss"]


def test_preset_with_a_catalog_version_only_the_database_knows() -> None:
    p = get_preset("shop-top2", {"catalog_version": "qma-db-only"})
    with pytest.raises(EngineError) as err:
        _ = p.catalog
    assert err.value.code == "catalog_unknown"


@pytest.mark.parametrize(("slug", "settings", "entrants", "seeds", "round_key", "players"), [
    ("katata-kansai5-qualifier", {}, 5, 0, "sf", 5),          # 3 dummies in 2 groups
    ("katata-kansai5-qualifier", {}, 2, 0, "final", 2),       # 2 dummies in the final
    # 1 per group in round 1: 20 → 5 winners, who cannot be drawn into round 2.
    ("katata-kansai5-qualifier", {"single_advance_rounds": [1]}, 20, 0, "sf", 5),
    ("shop-top2", {}, 5, 0, "sf", 5),
    ("kyushu-cup-ix", {}, 5, 0, "r1", 5),
])
def test_plan_refuses_a_round_that_cannot_be_drawn(
        slug: str, settings: dict[str, object], entrants: int, seeds: int, round_key: str,
        players: int) -> None:
    with pytest.raises(EngineError) as err:
        get_preset(slug, settings).rounds_for(entrants, seeds)
    assert err.value.code == "round_undrawable"
    assert (err.value.params["round"], err.value.params["players"]) == (round_key, players)


def test_k6_negative_capacity_setting_is_refused() -> None:
    with pytest.raises(EngineError) as err:
        get_preset("kyushu-cup-ix", {"r3_capacity_a": -4, "r3_capacity_b": 24})
    assert err.value.code == "setting_invalid"


def test_tie_break_setting_must_be_slugs() -> None:
    with pytest.raises(EngineError) as err:
        get_preset("shop-top2", {"tie_break": [["ratio"]]})
    assert err.value.code == "tie_break_unknown"


@pytest.mark.parametrize(("entrants", "seeds", "r2_players", "most"), [
    (65, 8, 42, 64),   # the rule page's 定員64名＋シード最大8名, one over
    (66, 7, 41, 64),
    (81, 0, 42, 80),   # without seeds round 1 takes 80 (20 groups → 40)
])
def test_kyushu_plan_refuses_more_round_one_players_than_round_two_can_take(
        entrants: int, seeds: int, r2_players: int, most: int) -> None:
    """K4: wildcards only fill round 2 up to 40; nothing cuts a larger field down, and
    round 2's winners would then overfill round 3's K6 capacities (12 + 8). Found by a
    sweep of random 九州杯IX runs: 70 entrants and 8 seeds only failed at round 3."""
    preset = get_preset("kyushu-cup-ix")
    with pytest.raises(EngineError) as err:
        preset.rounds_for(entrants, seeds)
    assert err.value.code == "round_overfull"
    assert (err.value.params["players"], err.value.params["most"]) == (r2_players, most)
    preset.rounds_for(most, seeds)  # the largest field that fits is planned as before


def test_k5_round_3_smaller_than_round_2s_advancers_is_refused() -> None:
    """Round 2 advances two per group (K5): a round 3 that cannot hold them all is a
    setting the desk is told to change, never a draw that fails on the day."""
    from brackets.messages import error_text

    with pytest.raises(EngineError) as err:
        get_preset("kyushu-cup-ix", {"r2_size": 40, "r3_size": 16, "r3_capacity_a": 8,
                                     "r3_capacity_b": 8})
    assert err.value.code == "setting_invalid"
    assert err.value.params["advancers"] == 20
    assert "20名以上" in error_text(err.value)
    get_preset("kyushu-cup-ix", {"r2_size": 32, "r3_size": 16, "r3_capacity_a": 8,
                                 "r3_capacity_b": 8})
