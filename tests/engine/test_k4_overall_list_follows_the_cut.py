"""K4: the overall list (全体の成績) orders the non-advancers as the wildcard table does.

Its heading said 「2位以下は惜敗率順」 while it sorted by in-group place first, so a 4th
with a better 惜敗率 than another group's 3rd sat below him in the list but above him at
the cut line. domain.md K4 ranks the non-advancers by 惜敗率 across groups (the wildcard
chain), and E lists the cross-group table as "group winners by score, runners-up by
惜敗率, the cut line": the direct advancers by place, then every non-advancer together.
"""

from __future__ import annotations

from decimal import Decimal as D

from brackets.engine import (
    AdvancementRule,
    Lottery,
    MatchResult,
    SeatEntry,
    TieContext,
    advance,
    cross_group_table,
    match_result,
)


def _group(prefix: str, scores: list[str]) -> MatchResult:
    return match_result([SeatEntry(n, f"{prefix}{n}", D(s), n)
                         for n, s in enumerate(scores, start=1)])


RESULTS = {
    "A": _group("a", ["300", "250", "150", "120"]),  # a3 50.00, a4 40.00
    "B": _group("b", ["200", "180", "160", "140"]),  # b3 80.00, b4 70.00
}
CTX = TieContext(lottery=Lottery("k4", "round-1/wildcards"))


def test_k4_overall_list_pools_the_non_advancers_by_ratio() -> None:
    table = cross_group_table(RESULTS, CTX, advancing=2)
    # a1 300 > b1 200 by score; runners-up by 惜敗率 (b2 90.00, a2 83.33); then 3rd and 4th
    # places together by 惜敗率: b3 80, b4 70, a3 50, a4 40 (b4 above a3).
    assert [s.player for s in table] == ["a1", "b1", "b2", "a2", "b3", "b4", "a3", "a4"]


def test_k4_overall_list_reads_like_the_wildcard_table_at_the_cut() -> None:
    outcome = advance(RESULTS, AdvancementRule(per_group=2, target=6), context=CTX)
    table = cross_group_table(RESULTS, CTX, advancing=2)
    below = [s.player for s in table if s.place > 2]
    assert below == [row.standing.player for row in outcome.table]
    assert outcome.players[-2:] == ["b3", "b4"]  # the two wildcards are the list's next two


def test_k4_overall_list_by_rule_counts_each_group_by_its_own_advancers() -> None:
    # K6: rule B groups send only their 1st; their 2nd joins the non-advancers.
    table = cross_group_table(RESULTS, CTX, advancing={"A": 2, "B": 1})
    assert [s.player for s in table] == ["a1", "b1", "a2", "b2", "b3", "b4", "a3", "a4"]


def test_k4_without_advancing_each_place_is_ranked_by_itself_as_before() -> None:
    table = cross_group_table(RESULTS, CTX)
    assert [s.player for s in table] == ["a1", "b1", "b2", "a2", "b3", "a3", "b4", "a4"]
