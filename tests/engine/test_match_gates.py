"""The gates of a match (brackets/engine/match.py), named after the rules they decide.

Worked examples from docs/domain.md: K5 (seeds start in round 2), K7 (下関 cards before
selections), K8 (bans revealed together), K9/K10 (contenders from the semi-final's places),
K10 (first to 2 game wins, best of 3).
"""

from __future__ import annotations

import pytest

from brackets.engine import (
    Card,
    CardDraw,
    ContendersSource,
    EngineBug,
    EngineError,
    RoundRestrictions,
    RuleRefusal,
    bans_in_force,
    bans_pending,
    cards_pending,
    contenders,
    contenders_complete,
    contenders_source,
    game_needed,
    get_preset,
    list_presets,
    require_cards,
    seeds_join,
    seeds_play_round_1,
    seeds_round,
    series_decided,
    series_games,
)

KYUSHU = get_preset("kyushu-cup-ix").rounds_for(58, 7)
KATATA = get_preset("katata-kansai5-qualifier").rounds_for(13, 0)
BY_KEY = {spec.key: spec for spec in KYUSHU}
CARDED = BY_KEY["r4"].restrictions
SEMI = BY_KEY["sf"].restrictions


# -- K7 ----------------------------------------------------------------------------------

def test_k7_round_4_match_waits_for_its_cards() -> None:
    assert cards_pending(CARDED, drawn=False)
    with pytest.raises(RuleRefusal) as refused:
        require_cards(CARDED, drawn=False, round_name="4回戦")
    assert refused.value.code == "cards_missing"
    assert refused.value.params == {"round": "4回戦"}


def test_k7_once_drawn_the_selections_may_start() -> None:
    assert not cards_pending(CARDED, drawn=True)
    require_cards(CARDED, drawn=True)


def test_k7_a_round_without_cards_never_waits() -> None:
    for spec in (*KYUSHU, *KATATA):
        if not spec.restrictions.cards:
            assert not cards_pending(spec.restrictions, drawn=False)


@pytest.mark.parametrize("cards", [False, True])
@pytest.mark.parametrize("drawn", [False, True])
def test_k7_gate_is_what_the_round_restrictions_refuse(cards: bool, drawn: bool) -> None:
    """The gate and RoundRestrictions.match_rules (the engine's typed path) agree."""
    restrictions = RoundRestrictions(cards=cards)
    draw = CardDraw((Card("芸能", "セレクト"), Card("社会", "パネル")), recorded=True)
    try:
        restrictions.match_rules("4回戦", cards=draw if drawn and cards else None)
        refused = False
    except EngineError as exc:
        assert exc.code == "cards_missing"
        refused = True
    assert cards_pending(restrictions, drawn=drawn) is refused


# -- K8 ----------------------------------------------------------------------------------

def test_k8_semi_final_selections_wait_for_the_reveal() -> None:
    assert bans_pending(SEMI, revealed=False)
    assert not bans_pending(SEMI, revealed=True)
    assert not bans_pending(CARDED, revealed=False)


def test_k8_written_bans_restrict_nobody_before_the_reveal() -> None:
    written = [("p1", "芸能"), ("p2", "社会"), ("p3", "芸能"), ("p4", "スポーツ")]
    assert bans_in_force(written, revealed=False) == {}


def test_k8_revealed_together_every_named_genre_is_banned_for_everyone() -> None:
    written = [("p1", "芸能"), ("p2", "社会"), ("p3", "芸能"), ("p4", "スポーツ")]
    assert bans_in_force(written, revealed=True) == {
        "芸能": ("p1", "p3"), "社会": ("p2",), "スポーツ": ("p4",)}


# -- K10 ---------------------------------------------------------------------------------

def test_k10_best_of_3_has_three_games() -> None:
    assert series_games(2) == 3
    assert series_games(BY_KEY["final"].wins_needed or 0) == 3
    assert series_games(1) == 1


def test_k10_game_3_not_needed_after_2_0() -> None:
    winners = ["A", "A", None]
    assert series_decided(winners, 2) == "A"
    assert game_needed(1, winners, 2)
    assert game_needed(2, winners, 2)
    assert not game_needed(3, winners, 2)


def test_k10_game_3_needed_after_1_1() -> None:
    winners = ["A", "B", None]
    assert series_decided(winners, 2) is None
    assert game_needed(3, winners, 2)
    assert series_decided(["A", "B", "B"], 2) == "B"


def test_k10_a_result_after_the_decision_does_not_change_the_champion() -> None:
    assert series_decided(["A", "A", "B", "B"], 2) == "A"
    assert not game_needed(4, ["A", "A", "B"], 2)


def test_k10_an_open_game_counts_nothing() -> None:
    assert series_decided(["A", None, "A"], 2) == "A"
    assert game_needed(3, ["A", None], 2)


def test_k10_bad_series_lengths_are_bugs_not_rules() -> None:
    with pytest.raises(EngineBug):
        series_games(0)
    with pytest.raises(EngineBug):
        game_needed(0, [], 2)


# -- K9 / K10 contenders -----------------------------------------------------------------

def test_k9_third_place_contenders_are_the_semi_finals_3rd_and_4th() -> None:
    index = [s.key for s in KYUSHU].index("third")
    assert contenders_source(KYUSHU, index) == ContendersSource(5, (3, 4))


def test_k10_finalists_are_the_semi_finals_1st_and_2nd() -> None:
    index = [s.key for s in KYUSHU].index("final")
    assert contenders_source(KYUSHU, index) == ContendersSource(5, (1, 2))


def test_k9_rounds_that_are_not_pair_rounds_have_no_contenders() -> None:
    assert all(contenders_source(KYUSHU, i) is None for i, s in enumerate(KYUSHU)
               if s.key not in ("third", "final"))
    assert all(contenders_source(KATATA, i) is None for i in range(len(KATATA)))


def test_k9_contenders_are_read_place_by_place_from_the_table() -> None:
    table = [("s1", 1), ("s2", 2), ("s3", 3), ("s4", 4)]
    assert contenders((3, 4), table) == ("s3", "s4")
    assert contenders((1, 2), list(reversed(table))) == ("s1", "s2")
    assert contenders_complete(("s3", "s4"))


def test_k9_a_disqualified_semi_finalist_leaves_the_pair_round_short() -> None:
    table = [("s1", 1), ("s2", 2), ("s3", 3), ("s4", None)]
    found = contenders((3, 4), table)
    assert found == ("s3",)
    assert not contenders_complete(found)


# -- K5 ----------------------------------------------------------------------------------

def test_k5_kyushu_seeds_start_in_round_2() -> None:
    assert seeds_round(KYUSHU) == 2
    assert not seeds_play_round_1(seeds_round(KYUSHU))
    assert [s.key for s in KYUSHU if seeds_join(s)] == ["r2"]


def test_k5_without_a_seed_round_seeds_play_from_round_1() -> None:
    assert seeds_round(KATATA) is None
    assert seeds_play_round_1(None)
    assert seeds_play_round_1(1)


# -- the app's stored plan says the same ---------------------------------------------------

def _plans() -> list[tuple[str, int, int]]:
    cases = []
    for preset in list_presets():
        for entrants, seeds in ((13, 0), (32, 0), (58, 7), (64, 8)):
            try:
                preset.rounds_for(entrants, seeds)
            except EngineError:
                continue
            cases.append((preset.slug, entrants, seeds))
    return cases


@pytest.mark.parametrize("slug,entrants,seeds", _plans())
def test_k5_k9_k10_gates_match_the_rounds_flat_form(slug: str, entrants: int, seeds: int) -> None:
    """What a round's rules say in the flat form files and the replay summary use
    (contenders_from, seeds_from_round, wins_needed, cards, bans) is what the engine gates
    decide."""
    from brackets import engine_adapter as ea
    from brackets.adapters.rounds import stored_form, stored_to_legacy

    specs = get_preset(slug).rounds_for(entrants, seeds)
    flat = [stored_to_legacy(stored_form(spec, preset_slug=slug, settings={},
                                         planned_for=(entrants, seeds)), number)[0]
            for number, spec in enumerate(specs, start=1)]
    for index, (spec, stored) in enumerate(zip(specs, flat, strict=True)):
        assert stored["seeds_from_round"] == seeds_round(specs)
        source = contenders_source(specs, index)
        expected = (None if source is None else
                    {"round": source.round_number, "places": list(source.places)})
        assert stored.get("contenders_from") == expected, spec.key
        assert bool(stored["seeds_enter"]) is seeds_join(spec)
        assert bool(stored["cards"]) is spec.restrictions.cards
        assert cards_pending(spec.restrictions, drawn=False) is ea.cards_pending(
            spec.restrictions, None)
        assert bool(stored["bans"]) is bans_pending(spec.restrictions, revealed=False)
        if spec.wins_needed:
            assert series_games(int(stored["wins_needed"])) == 2 * spec.wins_needed - 1
