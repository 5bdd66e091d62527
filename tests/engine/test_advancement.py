"""Advancement: top k per group, wildcards by 惜敗率 (K4), tie-breaks, processing order (K6)."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brackets.engine import (
    TIE_BREAKS,
    AdvancementRule,
    EngineError,
    Lottery,
    MatchResult,
    Penalty,
    SeatEntry,
    TieContext,
    advance,
    cross_group_table,
    draw_groups,
    get_preset,
    match_result,
    processing_order,
    register_tie_break,
    standings,
)
from brackets.engine.advancement import rank_by_chain


def group(scores: dict[str, str], dummy: str | None = None, **kwargs: object) -> MatchResult:
    """A match whose screen order follows the scores (dummy included)."""
    rows: list[tuple[str | None, D]] = [(p, D(s)) for p, s in scores.items()]
    if dummy is not None:
        rows.append((None, D(dummy)))
    ordered = sorted(rows, key=lambda r: -r[1])
    entries = [
        SeatEntry(seat, player, score, ordered.index((player, score)) + 1)
        for seat, (player, score) in enumerate(rows, start=1)
    ]
    return match_result(entries, **kwargs)  # type: ignore[arg-type]


def k4_round() -> dict[str, MatchResult]:
    """58 entrants in 15 groups, two with a dummy; scores differ so ratios are distinct."""
    players = [f"e{i:02d}" for i in range(58)]
    draw = draw_groups(players, lottery=Lottery("kyushu-ix", "round-1/groups"))
    results: dict[str, MatchResult] = {}
    for g in draw.groups:
        scores = {}
        for k, p in enumerate(g.players):
            base = 300 - 40 * k - int(p[1:]) % 7 - g.number
            scores[p] = f"{base}.{int(p[1:]):02d}"
        results[f"G{g.number}"] = group(scores, dummy="150.00" if g.dummies else None)
    return results


def test_k4_58_entrants_7_seeds_three_wildcards_make_40() -> None:
    results = k4_round()
    assert len(results) == 15
    assert sum(1 for r in results.values() if r.dummy is not None) == 2
    outcome = advance(results, AdvancementRule(per_group=2, target=40, already_in=7))
    assert len(outcome.players) == 33
    assert sum(1 for a in outcome.advancers if a.reason == "group_top") == 30
    wildcards = [a for a in outcome.advancers if a.reason == "wildcard"]
    assert [a.wildcard_rank for a in wildcards] == [1, 2, 3]
    assert outcome.cut == 3
    # The 3 best non-advancers by 惜敗率, computed independently.
    rest = [s for s in standings(results) if s.place > 2]
    best = sorted(rest, key=lambda s: s.ratio.exact or 0, reverse=True)[:3]
    assert [a.player for a in wildcards] == [s.player for s in best]
    table = outcome.table
    assert [row.status for row in table[:4]] == ["wildcard"] * 3 + ["out"]
    assert len(table) == 58 - 30
    assert outcome.warnings == ()


def test_k4_no_wildcards_without_target() -> None:
    outcome = advance(k4_round(), AdvancementRule(per_group=2))
    assert len(outcome.players) == 30 and outcome.cut == 0


def two_groups() -> dict[str, MatchResult]:
    return {
        "G1": group({"A": "300", "B": "240", "C": "150", "D": "90"}),  # C 50.00
        "G2": group({"E": "200", "F": "150", "G": "100", "H": "20"}),  # G 50.00
    }


def test_k3_default_tie_break_is_raw_score_after_ratio() -> None:
    outcome = advance(two_groups(), AdvancementRule(target=5))
    assert outcome.table[0].standing.player == "C"  # equal 惜敗率, higher score
    assert outcome.table[1].standing.player == "G"
    assert outcome.table[1].tied_with_previous is False
    assert [a.player for a in outcome.advancers if a.reason == "wildcard"] == ["C"]


def test_tie_break_chain_is_reorderable() -> None:
    # H's ratio is 10.00 but no one cares: the chain starts with seat, then score.
    rule = AdvancementRule(target=5, wildcard_chain=("place", "screen_score"))
    outcome = advance(two_groups(), rule)
    assert [row.standing.player for row in outcome.table] == ["C", "G", "D", "H"]


def test_full_tie_needs_lottery_and_is_reproducible() -> None:
    results = {
        "G1": group({"A": "300", "B": "240", "C": "150"}, dummy="10"),
        "G2": group({"E": "300", "F": "240", "G": "150"}, dummy="10"),
    }
    no_lot = advance(results, AdvancementRule(target=5, wildcard_chain=("ratio", "score")))
    assert [w.code for w in no_lot.warnings] == ["unresolved_tie_at_cut"]
    ctx = TieContext(lottery=Lottery("seed-x", "round-1/wildcards"))
    one = advance(results, AdvancementRule(target=5), context=ctx)
    two = advance(results, AdvancementRule(target=5), context=ctx)
    assert one.players == two.players and one.warnings == ()
    recorded = TieContext(recorded_lottery=["G", "C"])
    out = advance(results, AdvancementRule(target=5), context=recorded)
    assert out.players[-1] == "G"
    recorded = TieContext(recorded_lottery=["C", "G"])
    assert advance(results, AdvancementRule(target=5), context=recorded).players[-1] == "C"


def test_registered_keys_previous_place_and_seed() -> None:
    results = {
        "G1": group({"A": "300", "C": "150"}, dummy="10"),
        "G2": group({"E": "300", "G": "150"}, dummy="10"),
    }
    rows = [s for s in standings(results) if s.place == 2]
    ctx = TieContext(previous_place={"C": 3, "G": 1})
    assert [r.player for r, _ in rank_by_chain(rows, ("ratio", "previous_place"), ctx)] == [
        "G",
        "C",
    ]
    ctx = TieContext(seed_rank={"C": 2})
    assert [r.player for r, _ in rank_by_chain(rows, ("seed",), ctx)] == ["C", "G"]
    assert {"score", "ratio", "previous_place", "seed", "lottery", "screen_order"} <= set(
        TIE_BREAKS
    )


def test_unknown_or_duplicate_tie_break_raises() -> None:
    with pytest.raises(EngineError):
        advance(two_groups(), AdvancementRule(target=5, wildcard_chain=("nope",)))
    with pytest.raises(EngineError):
        register_tie_break("score")(TIE_BREAKS["score"])


def test_withdrawn_group_winner_is_refilled_by_wildcard() -> None:
    outcome = advance(two_groups(), AdvancementRule(target=4), withdrawn={"A"})
    assert "A" not in outcome.players
    assert outcome.reason_of("C") is not None
    assert outcome.reason_of("C").reason == "wildcard"  # type: ignore[union-attr]
    assert len(outcome.players) == 4
    assert ("A", "withdrawn") in [(r.standing.player, r.status) for r in outcome.table]


def test_h8_disqualified_never_advances_and_others_move_up() -> None:
    results = {"G1": group({"A": "300", "B": "240", "C": "150", "D": "90"}, disqualified={"A"})}
    outcome = advance(results, AdvancementRule(target=3))
    assert outcome.players[:2] == ["B", "C"]
    assert outcome.players[2] == "D"
    assert ("A", "disqualified") in [(r.standing.player, r.status) for r in outcome.table]


def test_h7_penalty_changes_wildcard_order() -> None:
    results = {
        "G1": group({"A": "300", "B": "240", "C": "150", "D": "90"}, penalties=[Penalty("C")]),
        "G2": group({"E": "200", "F": "150", "G": "100", "H": "20"}),
    }
    outcome = advance(results, AdvancementRule(target=5))
    assert outcome.players[-1] == "G"


def test_undefined_ratio_ranks_last_in_wildcard_table() -> None:
    results = {
        "G1": group(
            {"A": "300", "B": "240", "C": "200"},
            penalties=[Penalty("A"), Penalty("B"), Penalty("C")],
            dummy="0",
        ),
        "G2": group({"E": "200", "F": "150", "G": "1"}, dummy="0"),
    }
    outcome = advance(results, AdvancementRule(target=5))
    assert outcome.table[0].standing.player == "G"
    assert outcome.table[-1].standing.ratio.undefined


def test_short_and_over_target_are_reported() -> None:
    short = advance(two_groups(), AdvancementRule(target=20))
    assert len(short.players) == 8
    assert [w.code for w in short.warnings] == ["advancement_short"]
    over = advance(two_groups(), AdvancementRule(target=3))
    assert len(over.players) == 4 and over.cut == 0
    assert [w.code for w in over.warnings] == ["advancement_over_target"]


def test_player_in_two_groups_raises() -> None:
    with pytest.raises(EngineError):
        standings({"G1": group({"A": "1"}), "G2": group({"A": "2"})})


def test_k6_processing_order_winners_by_score_then_runners_up_by_ratio() -> None:
    results = {
        "G1": group({"A": "250", "B": "200", "C": "100", "D": "50"}),  # B 80.00
        "G2": group({"E": "300", "F": "270", "G": "100", "H": "50"}),  # F 90.00
        "G3": group({"I": "280", "J": "140", "K": "100"}, dummy="500"),  # J 50.00
    }
    top2 = {"A", "B", "E", "F", "I", "J"}
    order = processing_order(results, players=top2)
    assert [s.player for s in order] == ["E", "I", "A", "F", "B", "J"]
    table = cross_group_table(results)
    assert [s.player for s in table][:6] == ["E", "I", "A", "F", "B", "J"]
    assert len(table) == 11
    subset = processing_order(results, players={"A", "B", "C", "E"})
    assert [s.player for s in subset] == ["E", "A", "B", "C"]


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=12, max_value=80),
    per_group=st.integers(min_value=1, max_value=2),
    extra=st.integers(min_value=0, max_value=10),
    seed=st.text(max_size=6),
)
def test_property_number_advancing_equals_target(
    n: int, per_group: int, extra: int, seed: str
) -> None:
    players = [f"p{i}" for i in range(n)]
    draw = draw_groups(players, lottery=Lottery(seed, "r1"))
    lot = Lottery(seed, "scores")
    results = {}
    for g in draw.groups:
        scores = {p: f"{lot.die(400)}.{lot.die(99):02d}" for p in g.players}
        entries_dummy = "100.00" if g.dummies else None
        results[str(g.number)] = group(scores, dummy=entries_dummy)
    direct = per_group * len(draw.groups)
    target = min(n, direct + extra)
    outcome = advance(
        results,
        AdvancementRule(per_group=per_group, target=target),
        context=TieContext(lottery=Lottery(seed, "ties")),
    )
    assert len(outcome.players) == target
    assert len(set(outcome.players)) == target
    assert outcome.cut == target - direct


def ratio_vs_score_groups() -> dict[str, MatchResult]:
    """Non-advancers where 惜敗率 and raw score disagree: G 80.00 (120), C 70.00 (210)."""
    return {
        "G1": group({"A": "300", "B": "280", "C": "210", "D": "100"}),  # C 70.00, D 33.33
        "G2": group({"E": "150", "F": "140", "G": "120", "H": "60"}),  # G 80.00, H 40.00
    }


def test_tie_break_chain_is_a_tournament_setting_and_its_order_decides() -> None:
    results = ratio_vs_score_groups()
    orders = {}
    for chain in (None, ["score", "ratio", "lottery"]):
        settings = {"r2_size": 5} if chain is None else {"r2_size": 5, "wildcard_chain": chain}
        preset = get_preset("kyushu-cup-ix", settings)
        rule = preset.round("r1").advancement_rule(chain=preset.tie_break)
        assert rule.target == 5 and rule.wildcard_chain == preset.tie_break
        outcome = advance(results, rule)
        assert len(outcome.players) == 5
        orders[preset.tie_break] = (
            [a.player for a in outcome.advancers if a.reason == "wildcard"],
            [row.standing.player for row in outcome.table],
        )
    # K3/K4 default: 惜敗率 first → G; the reordered chain puts raw score first → C.
    assert orders[("ratio", "score", "lottery")] == (["G"], ["G", "C", "H", "D"])
    assert orders[("score", "ratio", "lottery")] == (["C"], ["C", "G", "D", "H"])


def test_katata_tie_break_chain_is_its_own_setting() -> None:
    results = ratio_vs_score_groups()
    default = get_preset("katata-kansai5-qualifier")
    by_score = get_preset("katata-kansai5-qualifier", {"tie_break": ["score", "lottery"]})
    assert default.tie_break == ("ratio", "score", "lottery")
    picks = [advance(results, AdvancementRule(per_group=2, target=5, wildcard_chain=p.tie_break))
             .players[-1] for p in (default, by_score)]
    assert picks == ["G", "C"]


def test_previous_place_or_seed_first_changes_who_wins_a_ratio_tie() -> None:
    results = {
        "G1": group({"A": "300", "B": "240", "C": "150"}, dummy="10"),  # C 50.00
        "G2": group({"E": "200", "F": "150", "G": "100"}, dummy="10"),  # G 50.00
    }
    ctx = TieContext(previous_place={"C": 2, "G": 1}, seed_rank={"C": 1})
    by_previous = AdvancementRule(target=5, wildcard_chain=("ratio", "previous_place", "score"))
    by_seed = AdvancementRule(target=5, wildcard_chain=("ratio", "seed", "previous_place"))
    by_score = AdvancementRule(target=5, wildcard_chain=("ratio", "score"))
    assert advance(results, by_previous, context=ctx).players[-1] == "G"
    assert advance(results, by_seed, context=ctx).players[-1] == "C"
    assert advance(results, by_score, context=ctx).players[-1] == "C"


def test_k6_processing_order_tie_needs_a_lottery_never_a_guess() -> None:
    results = {
        "G1": group({"A": "300", "B": "240", "C": "100"}, dummy="10"),
        "G2": group({"E": "300", "F": "150", "G": "100"}, dummy="10"),
    }
    with pytest.raises(EngineError) as info:
        processing_order(results, players={"A", "B", "E", "F"})
    assert info.value.code == "tie_needs_lottery"
    assert (info.value.params["place"], info.value.params["players"]) == (1, ["A", "E"])
    ctx = TieContext(lottery=Lottery("seed", "round-3/order"))
    first = [s.player for s in processing_order(results, players={"A", "B", "E", "F"},
                                                context=ctx)]
    assert first == [s.player for s in processing_order(
        results, players={"A", "B", "E", "F"}, context=ctx)]
    assert set(first[:2]) == {"A", "E"} and first[2:] == ["B", "F"]
    for recorded in (["E", "A"], ["A", "E"]):
        order = processing_order(results, players={"A", "B", "E", "F"},
                                 context=TieContext(recorded_lottery=recorded))
        assert [s.player for s in order][:2] == recorded


def test_reusing_a_tie_context_never_changes_the_outcome() -> None:
    # Six runners-up with the same score and 惜敗率: only the lottery separates them.
    results = {f"G{i}": group({f"W{i}": "300", f"R{i}": "150"}, dummy="10") for i in range(6)}
    ctx = TieContext(lottery=Lottery("seed", "round-1/wildcards"))
    rule = AdvancementRule(per_group=1, target=9)
    tables = [[row.standing.player for row in advance(results, rule, context=ctx).table]
              for _ in range(3)]
    assert tables[0] == tables[1] == tables[2]
    fresh = TieContext(lottery=Lottery("seed", "round-1/wildcards"))
    assert [row.standing.player for row in advance(results, rule, context=fresh).table] == \
        tables[0]
    orders = [[s.player for s in processing_order(results, context=ctx)] for _ in range(2)]
    assert orders[0] == orders[1]
