"""九州杯IX round by round through the preset (K4, K5, K6, K8): the exact numbers of
domain.md §B — 58 entrants → 15 groups (2 with a dummy) → 30 + 7 = 37 → 3 wildcards → 40;
40 → 10 groups → 20; rule A 12 (3 groups, top 2) + rule B 8 (2 groups, winner) → 6 + 2 = 8;
semi-final: top 2 to the final, bottom 2 to the third-place match.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from brackets.engine import (
    Draw,
    Lottery,
    MatchResult,
    SeatEntry,
    advance,
    assign_rules,
    draw_groups,
    get_preset,
    match_result,
    processing_order,
    standings,
)

PRESET = get_preset("kyushu-cup-ix")
ENTRANTS = [f"e{i:02d}" for i in range(58)]
SEEDS = [f"s{i}" for i in range(1, 8)]
LOT = Lottery("kyushu-ix-worked", "tournament")


def play(draw: Draw, key: str) -> dict[str, MatchResult]:
    """Distinct screen scores (0.00..399.99) per seat, the screen order following them."""
    results: dict[str, MatchResult] = {}
    for group in draw.groups:
        glot = LOT.child(f"{key}/g{group.number}/scores")
        scores = [Decimal(glot.die(3999) * 10 + i) / 100 for i in range(len(group.seats))]
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        entries = [SeatEntry(i + 1, group.seats[i], scores[i], order.index(i) + 1)
                   for i in range(len(scores))]
        results[f"{key}-{group.number}"] = match_result(entries, group=group.players)
    return results


def draw(players: Sequence[str], key: str, seeds: Sequence[str] = ()) -> Draw:
    """A round's groups by the preset's draw method (R1, R2: a recorded lottery)."""
    method = PRESET.round(key).draw
    assert method == "random"
    return draw_groups(players, seeds=seeds, method=method, lottery=LOT.child(f"{key}/groups"))


def round_1() -> tuple[Draw, dict[str, MatchResult], list[str]]:
    d = draw(ENTRANTS, "r1")
    results = play(d, "r1")
    r1 = PRESET.rounds_for(58, 7)[0]
    outcome = advance(results, r1.advancement_rule(already_in=len(SEEDS), chain=PRESET.tie_break))
    return d, results, outcome.players


def test_k4_58_entrants_15_groups_2_dummies_30_plus_7_plus_3_wildcards_make_40() -> None:
    rounds = PRESET.rounds_for(58, 7)
    r1 = rounds[0]
    assert (r1.size, r1.target, r1.draw_in_advance) == (58, 40, True)
    d = draw(ENTRANTS, "r1")
    assert len(d.groups) == 15 and d.dummy_count == 2
    assert sorted(g.dummies for g in d.groups) == [0] * 13 + [1, 1]
    results = play(d, "r1")
    outcome = advance(results, r1.advancement_rule(already_in=7, chain=PRESET.tie_break))
    tops = [a for a in outcome.advancers if a.reason == "group_top"]
    wildcards = [a for a in outcome.advancers if a.reason == "wildcard"]
    assert len(tops) == 30 and len(tops) + 7 == 37
    assert outcome.cut == 3 and len(wildcards) == 3
    assert len(outcome.players) + 7 == 40 == rounds[1].size
    # The 3 wildcards are the 3 best non-advancers by 惜敗率, computed here independently.
    rest = [s for s in standings(results) if s.place > 2]
    best = sorted(rest, key=lambda s: -(s.ratio.exact or 0))[:3]
    assert [a.player for a in wildcards] == [s.player for s in best]
    assert outcome.warnings == ()


def test_k5_round_2_40_players_7_seeds_10_groups_seeds_apart_top_2_make_20() -> None:
    _, _, advancers = round_1()
    r2 = PRESET.round("r2")
    assert r2.seeds_enter and r2.seed_separation
    players = advancers + SEEDS
    assert len(players) == 40 == r2.size
    d = draw(players, "r2", seeds=SEEDS)
    assert len(d.groups) == 10 and d.dummy_count == 0
    assert all(sum(1 for p in g.players if p in SEEDS) <= 1 for g in d.groups)
    outcome = advance(play(d, "r2"), r2.advancement_rule(chain=PRESET.tie_break))
    assert len(outcome.players) == 20 == r2.target == PRESET.round("r3").size
    assert outcome.cut == 0


def test_k6_rule_a_3_groups_top_2_plus_rule_b_2_groups_winner_make_8() -> None:
    _, _, advancers = round_1()
    r2_draw = draw(advancers + SEEDS, "r2", seeds=SEEDS)
    r2_results = play(r2_draw, "r2")
    r3_players = advance(r2_results, PRESET.round("r2").advancement_rule()).players
    r3 = PRESET.round("r3")
    # Forms processed in K6's order: R2 winners by score, then runners-up by 惜敗率.
    order = [s.player for s in processing_order(r2_results, players=r3_players)]
    assert len(order) == 20
    wishes = {p: ("B" if i % 3 else "A") for i, p in enumerate(order)}  # 13 want B
    capacities = {v.key: v.capacity for v in r3.variants}
    assert capacities == {"A": 12, "B": 8}
    assignment = assign_rules(order, wishes, capacities)
    advancing: list[str] = []
    per_rule = {}
    for variant in r3.variants:
        members = assignment.players_of(variant.key)
        assert len(members) == variant.capacity
        d = draw_groups(members, lottery=LOT.child(f"r3/{variant.key}/groups"))
        assert len(d.groups) == {"A": 3, "B": 2}[variant.key] and d.dummy_count == 0
        outcome = advance(play(d, f"r3{variant.key}"), r3.advancement_rule(variant=variant.key))
        per_rule[variant.key] = len(outcome.players)
        advancing += outcome.players
    assert per_rule == {"A": 6, "B": 2}
    assert len(advancing) == 8 == PRESET.round("r4").size


def test_k8_semifinal_top_2_to_the_final_bottom_2_to_the_third_place_match() -> None:
    sf = PRESET.round("sf")
    assert (sf.size, sf.advance_per_group, sf.losers_to) == (4, 2, "third")
    third, final = PRESET.round(sf.losers_to or ""), PRESET.round("final")
    assert (third.kind, third.size, final.kind, final.size) == (
        "partner_match", 2, "partner_series", 2)
    players = ["w", "x", "y", "z"]
    result = play(draw_groups(players, lottery=LOT.child("sf/groups")), "sf")
    outcome = advance(result, sf.advancement_rule())
    ranking = next(iter(result.values())).ranking()
    assert outcome.players == ranking[:2]
    assert [row.standing.player for row in outcome.table if row.status == "out"] == ranking[2:]
