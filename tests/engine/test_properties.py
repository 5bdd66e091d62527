"""Issue 3's properties over whole rounds (hypothesis), beside the per-module ones.

Already elsewhere: draw invariants incl. seeds apart, ≤ 1 dummy, same seed → same draw
(test_draws); legal selection or fallback (test_restrictions); K6 capacity and order of
``assign_rules`` (test_special); lots (test_shura). Here, the properties that only show
when the modules are chained: draw → results (with penalties and disqualifications) →
standings / advancement / K6 processing order, and reproducibility of every kind of
random outcome from one stored seed.
"""

from __future__ import annotations

from decimal import Decimal
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from brackets.engine import (
    CATALOG_2016,
    AdvancementRule,
    Draw,
    Lottery,
    MatchResult,
    Penalty,
    SeatEntry,
    TieContext,
    advance,
    draw_cards,
    draw_groups,
    draw_lots,
    get_preset,
    group_count,
    match_result,
    processing_order,
    roll_dice,
    shimonoseki_deck,
    standings,
)
from brackets.engine.advancement import chain_key

VALID_N = st.integers(min_value=3, max_value=72).filter(lambda n: n != 5)


def names(n: int) -> list[str]:
    return [f"p{i:03d}" for i in range(n)]


def play(draw: Draw, lot: Lottery, *, penalty_rate: int = 0, dq_rate: int = 0
         ) -> dict[str, MatchResult]:
    """Every group's screen (distinct scores, screen order = score order), with now and then
    a −400 penalty (H7) or a disqualification (H8)."""
    results: dict[str, MatchResult] = {}
    for group in draw.groups:
        glot = lot.child(f"g{group.number}")
        scores = [Decimal(glot.die(3999) * 10 + i) / 100 for i in range(len(group.seats))]
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        entries = [SeatEntry(i + 1, group.seats[i], scores[i], order.index(i) + 1)
                   for i in range(len(scores))]
        penalties = [Penalty(p) for p in group.players
                     if penalty_rate and glot.die(penalty_rate) == 1]
        dq = {p for p in group.players[:1] if dq_rate and glot.die(dq_rate) == 1}
        results[f"G{group.number}"] = match_result(
            entries, group=group.players, penalties=penalties, disqualified=dq)
    return results


@settings(max_examples=100, deadline=None)
@given(n=VALID_N, seed=st.text(max_size=8), seeds=st.integers(min_value=0, max_value=8))
def test_property_every_entrant_is_placed_exactly_once_per_round(
        n: int, seed: str, seeds: int) -> None:
    players = names(n)
    seeded = players[: min(seeds, group_count(n))]
    draw = draw_groups(players, seeds=seeded, lottery=Lottery(seed, "r/groups"))
    results = play(draw, Lottery(seed, "r/scores"), penalty_rate=5, dq_rate=6)
    rows = standings(results)
    assert sorted(r.player for r in rows) == sorted(players)
    for key, result in results.items():
        assert [r.place for r in result.players] == list(range(1, len(result.players) + 1))
        assert {r.player for r in rows if r.group == key} == set(result.ranking())


@settings(max_examples=100, deadline=None)
@given(
    n=VALID_N,
    seed=st.text(max_size=8),
    per_group=st.integers(min_value=1, max_value=2),
    already_in=st.integers(min_value=0, max_value=8),
    extra=st.integers(min_value=0, max_value=12),
    withdrawals=st.integers(min_value=0, max_value=4),
)
def test_property_advancing_count_equals_target_with_seeds_withdrawals_and_dq(
        n: int, seed: str, per_group: int, already_in: int, extra: int,
        withdrawals: int) -> None:
    players = names(n)
    draw = draw_groups(players, lottery=Lottery(seed, "r1/groups"))
    results = play(draw, Lottery(seed, "r1/scores"), penalty_rate=6, dq_rate=8)
    withdrawn = set(Lottery(seed, "withdrawn").sample(players, min(withdrawals, n)))
    target = already_in + per_group * len(draw.groups) + extra
    rule = AdvancementRule(per_group=per_group, target=target, already_in=already_in)
    ctx = TieContext(lottery=Lottery(seed, "r1/ties"))
    outcome = advance(results, rule, withdrawn=withdrawn, context=ctx)

    rows = standings(results)
    eligible = {r.player for r in rows if not r.disqualified and r.player not in withdrawn}
    advancing = outcome.players
    assert len(set(advancing)) == len(advancing)
    assert set(advancing) <= eligible
    # The next round has exactly `target` players, unless too few are eligible (reported).
    assert len(advancing) + already_in == min(target, already_in + len(eligible))
    codes = [w.code for w in outcome.warnings]
    assert ("advancement_short" in codes) == (target > already_in + len(eligible))
    # Every eligible group top-k goes through; wildcards are the best of the rest by chain.
    for row in rows:
        if row.player in eligible and row.place <= per_group:
            assert outcome.reason_of(row.player) is not None
    key = chain_key(rule.wildcard_chain, ctx)
    wild = [r.standing for r in outcome.table if r.status == "wildcard"]
    out = [r.standing for r in outcome.table if r.status == "out"]
    if wild and out:
        assert max(key(w) for w in wild) <= min(key(o) for o in out)


@settings(max_examples=100, deadline=None)
@given(groups=st.integers(min_value=1, max_value=12), seed=st.text(max_size=8))
def test_property_k6_processing_order_winners_by_score_then_runners_up_by_ratio(
        groups: int, seed: str) -> None:
    draw = draw_groups(names(4 * groups), lottery=Lottery(seed, "r2/groups"))
    results = play(draw, Lottery(seed, "r2/scores"))
    top2 = [p for r in results.values() for p in r.ranking()[:2]]
    order = processing_order(results, players=top2,
                             context=TieContext(lottery=Lottery(seed, "r2/order")))
    assert sorted(s.player for s in order) == sorted(top2)
    assert [s.place for s in order] == [1] * groups + [2] * groups
    winners, runners_up = order[:groups], order[groups:]
    assert all(a.score >= b.score for a, b in pairwise(winners))
    assert all(a.ratio.sort_key() <= b.ratio.sort_key()
               for a, b in pairwise(runners_up))


@settings(max_examples=60, deadline=None)
@given(seed=st.text(max_size=12), n=VALID_N)
def test_property_same_seed_gives_the_same_random_outcomes(seed: str, n: int) -> None:
    """Group draws, 修羅 lots, 下関 cards, dice and tie lotteries all replay from the seed."""
    preset = get_preset("kyushu-cup-ix")
    deck = shimonoseki_deck(CATALOG_2016, preset.settings["k7_deck"])

    def outcomes(stored_seed: str) -> tuple[object, ...]:
        root = Lottery(stored_seed, "tournament")
        draw = draw_groups(names(n), lottery=root.child("r1/groups"))
        lots = draw_lots(root.child("shura"), CATALOG_2016, "p000", genre_lots=4)
        cards = draw_cards(deck, root.child("r4/g1/cards"))
        dice = roll_dice(("A", "B"), root.child("final/dice"))
        tie = match_result([SeatEntry(1, "A", Decimal(200), 1), SeatEntry(2, "B", Decimal(200), 1),
                            SeatEntry(3, "C", Decimal(200), 1)],
                           lottery=root.child("r1/g1/tie"))
        return draw, lots, cards, dice, tie.ranking()

    assert outcomes(seed) == outcomes(seed)
