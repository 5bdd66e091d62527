"""The rehearsal (#17 item 3): a rule set played headless, per-round figures, shortfalls."""

from __future__ import annotations

import pytest

from brackets.engine import (
    LadderRules,
    Mode,
    PlayerPolicy,
    RuleRefusal,
    RuleSet,
    check_rehearsal,
    rehearse,
    ruleset_of,
)


@pytest.mark.parametrize(("slug", "entrants", "seeds"), [
    ("kyushu-cup-ix", 58, 7), ("kyushu-cup-ix", 40, 0),
    ("katata-kansai5-qualifier", 13, 0), ("katata-kansai5-qualifier", 100, 0),
    ("shop-top2", 41, 0)])
def test_builtin_rule_sets_rehearse_typical_fields(slug: str, entrants: int, seeds: int) -> None:
    report = rehearse(ruleset_of(slug), entrants, seeds, runs=2, seed="t")
    first = report.rounds[0]
    assert first.players.low == first.players.high == entrants + (0 if slug == "kyushu-cup-ix"
                                                                   else seeds)
    assert all(r.matches.low >= 1 for r in report.rounds)
    assert report.minutes > 0


def test_kyushu_cup_ix_58_and_7_seeds_has_the_rule_page_sizes() -> None:
    report = rehearse(ruleset_of("kyushu-cup-ix"), 58, 7, runs=2, seed="t")
    sizes = {r.key: r.players.high for r in report.rounds}
    assert sizes == {"r1": 58, "r2": 40, "r3": 20, "r4": 8, "sf": 4, "third": 2, "final": 2}
    r1 = report.rounds[0]
    assert (r1.groups.high, r1.dummies.high, r1.advancers.high, r1.wildcards.high) == (
        15, 2, 33, 3)
    final = report.rounds[-1]
    assert 2 <= final.matches.low <= final.matches.high <= 3
    # 下関 cards leave some players only ノンジャンル / ランダム (K7's own fallback).
    assert report.rounds[3].genres_left.low == 0


def test_rehearsal_is_deterministic_for_a_seed() -> None:
    doc = ruleset_of("katata-kansai5-qualifier")
    assert rehearse(doc, 30, runs=2, seed="same") == rehearse(doc, 30, runs=2, seed="same")


def test_duration_is_matches_times_minutes_shared_over_cabinet_sets() -> None:
    doc = ruleset_of("shop-top2")
    alone = rehearse(doc, 32, runs=1, minutes_per_match=10)
    assert alone.rounds[0].minutes == 8 * 10
    shared = rehearse(doc, 32, runs=1, minutes_per_match=10, cabinets=3)
    assert shared.rounds[0].minutes == 3 * 10  # 8 matches on 3 sets: 3 waves


def test_a_long_bomber_window_with_no_reset_is_flagged_with_where() -> None:
    """Seven group matches under one BOMBER window: the sixth format group runs out."""
    tight = RuleSet("tight", "長い履歴区間", ladder=LadderRules(),
                    players=PlayerPolicy(mode=Mode.BOMBER))
    report = rehearse(tight, 256, runs=1, seed="t")
    assert not report.rounds[0].flagged
    flagged = report.flagged
    assert flagged and flagged[-1].key == "final"
    shortfall = flagged[0].shortfalls[0]
    assert shortfall.run == 1 and shortfall.axis in ("format", "forced")
    assert shortfall.mode == "bomber" and shortfall.played >= 6
    assert flagged[0].formats_left.low == 0


def test_builtin_shop_event_is_never_flagged() -> None:
    assert rehearse(ruleset_of("shop-top2"), 64, runs=1).flagged == ()


@pytest.mark.parametrize(("kwargs", "code"), [
    ({"entrants": 1025}, "rehearsal_entrants_range"),
    ({"entrants": 1}, "rehearsal_entrants_range"),
    ({"runs": 21}, "rehearsal_runs_range"),
    ({"runs": 0}, "rehearsal_runs_range"),
    ({"minutes_per_match": 0}, "rehearsal_minutes_range"),
    ({"seeds": 65}, "rehearsal_seeds_range"),
    ({"cabinets": 0}, "rehearsal_cabinets_range"),
    ({"entrants": 1024, "runs": 5}, "rehearsal_too_large")])
def test_rehearsal_bounds_are_refused(kwargs: dict[str, int], code: str) -> None:
    args = {"entrants": 40, "seeds": 0, "runs": 5, "minutes_per_match": 12, **kwargs}
    with pytest.raises(RuleRefusal) as caught:
        check_rehearsal(**args)
    assert caught.value.code == code


def test_a_field_the_plan_cannot_hold_is_refused_as_the_tournament_would() -> None:
    with pytest.raises(RuleRefusal) as caught:
        rehearse(ruleset_of("kyushu-cup-ix"), 80, 8, runs=1)
    assert caught.value.code == "round_overfull"
