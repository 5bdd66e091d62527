"""下関 variants (#17): the number of cards drawn is a rule, and a variant may never redraw.
K7 as played (two cards, one more on an overlap) is the default and does not change."""

from __future__ import annotations

from dataclasses import replace

import pytest

from brackets.engine import (
    MAX_CARDS_PER_DRAW,
    Card,
    CardRules,
    EngineBug,
    Lottery,
    RuleRefusal,
    RuleSet,
    compile_ruleset,
    draw_cards,
    extra_card_rule,
    get_preset,
    record_cards,
    ruleset_of,
    validate_ruleset,
)

DECK = [Card(g, grp) for g in ("芸能", "社会", "スポーツ", "文系学問")
        for grp in ("セレクト", "パネル", "キーボード")]
NEVER = extra_card_rule("never")
SHARE = extra_card_rule("share_genre_or_group")


def test_three_cards_without_redraw_always_draws_three() -> None:
    for match in range(30):
        drawn = draw_cards(DECK, Lottery("variant", f"m{match}"), extra_if=NEVER, base=3)
        assert len(drawn.cards) == 3 and len(set(drawn.cards)) == 3


def test_three_cards_with_redraw_draws_a_fourth_when_any_two_overlap() -> None:
    for match in range(30):
        drawn = draw_cards(DECK, Lottery("variant", f"m{match}"), extra_if=SHARE, base=3)
        first = drawn.cards[:3]
        overlap = any(a.genre == b.genre or a.group == b.group
                      for i, a in enumerate(first) for b in first[i + 1:])
        assert len(drawn.cards) == (4 if overlap else 3)


def test_two_cards_by_default_draw_as_k7_always_did() -> None:
    """The default base and rule give the very cards of the same lottery as before."""
    for match in range(30):
        lot = Lottery("kyushu-ix", f"round-4/match-{match}/cards")
        order = Lottery("kyushu-ix", f"round-4/match-{match}/cards").shuffled(list(DECK))
        a, b = order[:2]
        expected = 3 if (a.genre == b.genre or a.group == b.group) else 2
        assert draw_cards(DECK, lot).cards == tuple(order[:expected])


def test_recorded_three_card_draw_without_redraw_checks_the_count() -> None:
    three = [Card("芸能", "セレクト"), Card("芸能", "パネル"), Card("社会", "キーボード")]
    assert len(record_cards(three, deck=DECK, extra_if=NEVER, base=3).cards) == 3
    with pytest.raises(RuleRefusal) as short:
        record_cards(three[:2], deck=DECK, extra_if=NEVER, base=3)
    assert short.value.code == "card_count_short"
    with pytest.raises(RuleRefusal) as extra:
        record_cards([*three, Card("スポーツ", "パネル")], deck=DECK, extra_if=NEVER, base=3)
    assert (extra.value.code, extra.value.params["expected"]) == ("card_count_expected", 3)


def test_two_cards_never_redraw_refuses_a_third() -> None:
    with pytest.raises(RuleRefusal) as refused:
        record_cards([Card("芸能", "セレクト"), Card("芸能", "パネル"), Card("社会", "パネル")],
                     extra_if=NEVER)
    assert refused.value.code == "card_count_expected"


def test_a_deck_too_small_for_the_draw_and_its_redraw_is_a_bug() -> None:
    with pytest.raises(EngineBug):
        draw_cards(DECK[:3], Lottery("s", "p"), extra_if=SHARE, base=3)
    assert len(draw_cards(DECK[:3], Lottery("s", "p"), extra_if=NEVER, base=3).cards) == 3
    with pytest.raises(EngineBug):
        draw_cards(DECK, Lottery("s", "p"), base=MAX_CARDS_PER_DRAW + 1)


def test_kyushu_preset_takes_cards_per_draw_as_a_setting() -> None:
    assert get_preset("kyushu-cup-ix").settings["k7_cards_per_draw"] == 2
    preset = get_preset("kyushu-cup-ix", {"k7_cards_per_draw": 3, "k7_extra_card": "never"})
    assert (preset.settings["k7_cards_per_draw"], preset.settings["k7_extra_card"]) == (3, "never")
    with pytest.raises(RuleRefusal):
        get_preset("kyushu-cup-ix", {"k7_cards_per_draw": 0})


def test_a_composed_three_card_variant_compiles_to_the_settings_the_app_reads() -> None:
    rs = replace(ruleset_of("kyushu-cup-ix"),
                 cards=CardRules(cards_per_draw=3, extra_card="never"))
    assert validate_ruleset(rs) == []
    settings = compile_ruleset(rs).settings
    assert (settings["k7_cards_per_draw"], settings["k7_extra_card"]) == (3, "never")
    assert RuleSet.from_dict(rs.to_dict()) == rs


def test_one_card_with_a_redraw_rule_is_a_contradiction() -> None:
    rs = replace(ruleset_of("kyushu-cup-ix"), cards=CardRules(cards_per_draw=1))
    assert [(p.code, p.params["key"]) for p in validate_ruleset(rs)] == [
        ("ruleset_cards_redraw_one", "cards.extra_card")]
    alone = replace(rs, cards=CardRules(cards_per_draw=1, extra_card="never"))
    assert validate_ruleset(alone) == []


def test_cards_per_draw_out_of_range_names_its_key() -> None:
    rs = replace(ruleset_of("kyushu-cup-ix"), cards=CardRules(cards_per_draw=0))
    assert [(p.code, p.params["key"]) for p in validate_ruleset(rs)] == [
        ("ruleset_value_range", "cards.cards_per_draw")]


def test_a_deck_without_room_for_the_redraw_is_a_problem() -> None:
    """Every genre × group of the catalog holds any draw the composer allows; a catalog
    whose deck is smaller is named with both numbers."""
    from brackets.engine.rulesets import validate as validate_module

    rs = replace(ruleset_of("kyushu-cup-ix"), cards=CardRules(cards_per_draw=6))
    original = validate_module.shimonoseki_deck
    validate_module.shimonoseki_deck = lambda catalog, kind: tuple(DECK[:6])
    try:
        problems = validate_ruleset(rs)
    finally:
        validate_module.shimonoseki_deck = original
    assert [(p.code, p.params["deck"], p.params["needed"]) for p in problems] == [
        ("ruleset_cards_deck_small", 6, 7)]


def test_only_a_version_1_file_may_lack_cards_per_draw() -> None:
    data = ruleset_of("kyushu-cup-ix").to_dict()
    del data["cards"]["cards_per_draw"]
    with pytest.raises(RuleRefusal) as refused:
        RuleSet.from_dict(data)
    assert refused.value.code == "ruleset_key_missing"
    old = {**data, "version": 1}
    for key in ("national_title", "shiga_winner", "seed_or_invitation", "voluntary",
                "champion_format_lots"):
        old["shura"] = {k: v for k, v in old["shura"].items() if k != key}
    assert RuleSet.from_dict(old).cards.cards_per_draw == 2
