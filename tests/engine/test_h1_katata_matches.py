"""H1 (堅田大会): 4 players or 3 + a dummy (ノンジャンル HARD); 2 advance per group, 1 when
entries are many (a per-round setting); the final ranks all 4.

Everything goes through the ``katata-kansai5-qualifier`` preset: its round plan says how many
advance per group, the draws module forms the groups, the results module places the real
players (dummy removed), the advancement module takes the top k of each group.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

import pytest

from brackets.engine import (
    CATALOG_2016,
    Draw,
    EngineError,
    Lottery,
    MatchResult,
    Penalty,
    Preset,
    RoundSpec,
    SeatEntry,
    Selection,
    advance,
    draw_groups,
    get_preset,
    group_ratios,
    match_result,
)

C = CATALOG_2016
SLUG = "katata-kansai5-qualifier"


def screen(seats: Sequence[str | None], scores: Sequence[str]) -> list[SeatEntry]:
    """The result screen of one match: the screen order follows the (distinct) scores."""
    values = [Decimal(s) for s in scores]
    order = sorted(range(len(seats)), key=lambda i: -values[i])
    return [SeatEntry(i + 1, seats[i], values[i], order.index(i) + 1) for i in range(len(seats))]


def play_round(spec: RoundSpec, draw: Draw, lot: Lottery) -> dict[str, MatchResult]:
    """Distinct random screen scores for every seat of every group, dummy included."""
    results: dict[str, MatchResult] = {}
    for group in draw.groups:
        glot = lot.child(f"{spec.key}/g{group.number}")
        # The last digit is the seat index, so the four scores are always distinct.
        raw = [glot.die(3999) * 10 + i for i in range(len(group.seats))]
        entries = screen(group.seats, [f"{r / 100:.2f}" for r in raw])
        results[f"{spec.key}-{group.number}"] = match_result(entries, group=group.players)
    return results


def run_ladder(preset: Preset, entrants: int, seed: str) -> tuple[list[int], MatchResult]:
    """Play a whole 堅田-style ladder; returns the sizes played and the final's result."""
    lot = Lottery(seed, "h1")
    remaining = [f"k{i:03d}" for i in range(entrants)]
    sizes: list[int] = []
    for spec in preset.rounds_for(entrants):
        assert len(remaining) == spec.size
        sizes.append(len(remaining))
        draw = draw_groups(remaining, method=preset.settings["draw"],
                           lottery=lot.child(f"{spec.key}/draw"))
        assert all(len(g.seats) == 4 and len(g.players) in (3, 4) for g in draw.groups)
        results = play_round(spec, draw, lot)
        if spec.kind == "final_group":
            assert spec.ranks_all and len(results) == 1
            return sizes, next(iter(results.values()))
        outcome = advance(results, spec.advancement_rule(chain=preset.tie_break))
        per_group = spec.advance_per_group
        assert len(outcome.players) == per_group * len(draw.groups)
        for key, result in results.items():
            advancing = [a.player for a in outcome.advancers if a.group == key]
            assert advancing == result.ranking()[:per_group]
        remaining = outcome.players
    raise AssertionError("the plan has no final")


# -- 4 players, or 3 + a dummy -------------------------------------------------------------


def test_h1_groups_are_4_players_or_3_plus_a_dummy() -> None:
    preset = get_preset(SLUG)
    r1 = preset.rounds_for(13)[0]
    assert (r1.kind, r1.group_size, r1.size) == ("groups", 4, 13)
    draw = draw_groups([f"k{i:02d}" for i in range(13)], method=preset.settings["draw"],
                       lottery=Lottery("katata", "r1/groups"))
    assert len(draw.groups) == 4  # ceil(13 / 4)
    assert sorted(len(g.players) for g in draw.groups) == [3, 3, 3, 4]
    assert all(len(g.seats) == 4 and g.dummies == (4 - len(g.players)) for g in draw.groups)


def test_h1_the_dummy_plays_nongenre_hard() -> None:
    preset = get_preset(SLUG)
    dummy = preset.dummy_selection
    assert (dummy.genre, dummy.difficulty) == (C.nongenre, "HARD")
    C.validate(dummy)
    # The page names only ノンジャンル HARD: the dummy's format is a setting.
    other = get_preset(SLUG, {"dummy_format": "四択"}).dummy_selection
    assert other == Selection("ノンジャンル", "四択", "HARD")


def test_h1_dummy_format_must_exist_in_the_catalog() -> None:
    with pytest.raises(EngineError) as info:
        get_preset(SLUG, {"dummy_format": "早押し"})
    assert info.value.code == "unknown_format"


def test_h1_three_players_and_a_dummy_on_top_two_real_players_advance() -> None:
    preset = get_preset(SLUG)
    r1 = preset.rounds_for(13)[0]
    # The dummy wins on screen; placements are the screen order without it (K2 / H1).
    result = match_result(screen(["A", None, "B", "C"], ["250.00", "330.00", "280.00", "90.00"]),
                          group={"A", "B", "C"})
    assert result.ranking() == ["B", "A", "C"]
    assert [row.place for row in result.players] == [1, 2, 3]
    # Its score never counts: 惜敗率 is against B (280.00), not the dummy's 330.00.
    ratios = {p: r.display() for p, r in group_ratios(result).items()}
    assert ratios == {"B": Decimal("100.00"), "A": Decimal("89.29"), "C": Decimal("32.14")}
    outcome = advance({"G1": result}, r1.advancement_rule(chain=preset.tie_break))
    assert outcome.players == ["B", "A"]
    assert all(a.reason == "group_top" for a in outcome.advancers)


# -- 2 advance per group ------------------------------------------------------------------


def test_h1_two_advance_per_group_by_default() -> None:
    preset = get_preset(SLUG)
    assert preset.settings["advance_per_group"] == 2
    rounds = preset.rounds_for(13)
    assert [(r.size, r.advance_per_group) for r in rounds] == [(13, 2), (8, 2), (4, 0)]
    r1 = rounds[0]
    lot = Lottery("katata-h1", "r1")
    draw = draw_groups([f"k{i:02d}" for i in range(13)], lottery=lot.child("draw"))
    results = play_round(r1, draw, lot)
    outcome = advance(results, r1.advancement_rule(chain=preset.tie_break))
    # 4 groups × 2 = 8: exactly the next round (準決勝), no wildcards in 堅田.
    assert len(outcome.players) == 8 == rounds[1].size
    assert outcome.cut == 0 and outcome.warnings == ()
    for key, result in results.items():
        assert [a.player for a in outcome.advancers if a.group == key] == result.ranking()[:2]


# -- 1 advances when entries are many: a per-round setting -----------------------------------


def test_h1_one_advances_per_group_when_entries_are_many() -> None:
    preset = get_preset(SLUG, {"single_advance_from": 32})
    rounds = preset.rounds_for(40)
    # 40 ≥ 32: only group winners (10); 10 < 32: back to 2 per group.
    assert [(r.size, r.advance_per_group) for r in rounds] == [(40, 1), (10, 2), (6, 2), (4, 0)]
    lot = Lottery("katata-many", "r1")
    draw = draw_groups([f"k{i:02d}" for i in range(40)], lottery=lot.child("draw"))
    results = play_round(rounds[0], draw, lot)
    outcome = advance(results, rounds[0].advancement_rule(chain=preset.tie_break))
    assert len(outcome.players) == 10 == rounds[1].size
    assert all(a.place == 1 for a in outcome.advancers)
    # Below the threshold the same preset keeps 2 per group.
    assert [r.advance_per_group for r in preset.rounds_for(31)[:-1]] == [2, 2, 2]


def test_h1_single_advance_is_chosen_round_by_round() -> None:
    preset = get_preset(SLUG, {"single_advance_rounds": [2]})
    rounds = preset.rounds_for(48)
    assert [(r.name, r.size, r.advance_per_group) for r in rounds] == [
        ("1回戦", 48, 2), ("2回戦", 24, 1), ("準決勝", 6, 2), ("決勝", 4, 0)]


@pytest.mark.parametrize(("settings", "entrants", "sizes"), [
    ({}, 13, [13, 8, 4]),
    ({}, 27, [27, 14, 8, 4]),
    ({"single_advance_from": 32}, 40, [40, 10, 6, 4]),
    ({"single_advance_rounds": [2]}, 48, [48, 24, 6, 4]),
    ({"advance_per_group": 1}, 16, [16, 4]),
])
def test_h1_ladder_plays_to_a_final_that_ranks_all_four(
        settings: Mapping[str, object], entrants: int, sizes: list[int]) -> None:
    played, final = run_ladder(get_preset(SLUG, settings), entrants, f"h1-{entrants}")
    assert played == sizes
    assert [row.place for row in final.players] == [1, 2, 3, 4]


# -- the final ranks all 4 ------------------------------------------------------------------


def test_h1_final_ranks_all_four() -> None:
    preset = get_preset(SLUG)
    final = preset.rounds_for(13)[-1]
    assert (final.kind, final.size, final.ranks_all, final.advance_per_group) == (
        "final_group", 4, True, 0)
    result = match_result(screen(["A", "B", "C", "D"], ["301.00", "255.50", "270.25", "120.00"]),
                          group={"A", "B", "C", "D"})
    assert [(row.player, row.place) for row in result.players] == [
        ("A", 1), ("C", 2), ("B", 3), ("D", 4)]


def test_h1_final_ranking_applies_penalties_and_disqualification() -> None:
    entries = screen(["A", "B", "C", "D"], ["320.50", "255.50", "270.25", "120.00"])
    # H7: −400 on the on-screen winner: 320.50 → −79.50, last of the four.
    penalised = match_result(entries, penalties=[Penalty("A")])
    assert [(r.player, r.place) for r in penalised.players] == [
        ("C", 1), ("B", 2), ("D", 3), ("A", 4)]
    assert penalised.get("A").score == Decimal("-79.50")
    # H8: a disqualified finalist is ranked below everyone, the others move up.
    dq = match_result(entries, disqualified={"C"})
    assert [(r.player, r.place) for r in dq.players] == [
        ("A", 1), ("B", 2), ("D", 3), ("C", 4)]


def test_h1_final_of_three_and_a_dummy_ranks_the_three() -> None:
    preset = get_preset(SLUG, {"single_advance_rounds": [1]})
    rounds = preset.rounds_for(12)
    assert [r.size for r in rounds] == [12, 3]
    result = match_result(screen(["A", None, "B", "C"], ["200.00", "390.00", "150.00", "250.00"]))
    assert [(r.player, r.place) for r in result.players] == [("C", 1), ("A", 2), ("B", 3)]


def test_h1_the_final_advances_nobody() -> None:
    final = get_preset(SLUG).rounds_for(13)[-1]
    result = match_result(screen(["A", "B", "C", "D"], ["4.00", "3.00", "2.00", "1.00"]))
    with pytest.raises(EngineError) as info:
        advance({"F": result}, final.advancement_rule())
    assert info.value.code == "per_group_invalid"
