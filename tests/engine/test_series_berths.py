"""0-a's berths, derived from the qualifiers' results (engine/series.py): the top N not
already holding a berth, hand grants ordered by their date, a place granted once."""

from __future__ import annotations

import pytest

from brackets.engine import (
    BerthGrant,
    QualifierResult,
    RuleRefusal,
    berth_holders,
    check_berth_grant,
    series_berths,
)


def q(key: str, day: str, *players: str, berths: int = 1) -> QualifierResult:
    return QualifierResult(key, day, tuple(players), berths)


def test_each_qualifier_gives_its_champion_the_berth_by_default() -> None:
    berths = series_berths([q("堅田1", "2019-01-13", "A", "B", "C", "D"),
                            q("堅田2", "2019-02-10", "E", "F", "G", "H")])
    assert [(b.qualifier, b.place, b.player) for b in berths] == [
        ("堅田1", 1, "A"), ("堅田2", 1, "E")]


def test_a_holder_who_places_again_passes_the_berth_down() -> None:
    berths = series_berths([q("堅田2", "2019-02-10", "A", "B", "C", "D"),
                            q("堅田1", "2019-01-13", "A", "X", "Y", "Z")])
    assert [(b.qualifier, b.place, b.player, b.passed_over) for b in berths] == [
        ("堅田1", 1, "A", ()), ("堅田2", 2, "B", ("A",))]


def test_two_berths_go_to_the_top_two_not_holding_one() -> None:
    berths = series_berths([q("堅田1", "2019-01-13", "A", "B", "C", "D"),
                            q("堅田2", "2019-02-10", "B", "A", "C", "D", berths=2)])
    assert [(b.qualifier, b.player) for b in berths] == [
        ("堅田1", "A"), ("堅田2", "B"), ("堅田2", "C")]


def test_a_qualifier_with_fewer_placements_than_berths_gives_what_it_can() -> None:
    assert len(series_berths([q("小", "2019-01-01", "A", "B", berths=3)])) == 2
    assert series_berths([q("無", "2019-01-01", "A", berths=0)]) == ()


def test_a_berth_won_elsewhere_earlier_passes_a_later_app_berth_down() -> None:
    grant = BerthGrant("g1", "草津予選", "2019-01-05", 1, "A")
    berths = series_berths([q("堅田1", "2019-01-13", "A", "B")], [grant])
    assert [(b.qualifier, b.player, b.by_hand) for b in berths] == [
        ("草津予選", "A", True), ("堅田1", "B", False)]


def test_holders_before_a_date_exclude_later_berths() -> None:
    berths = series_berths([q("堅田1", "2019-01-13", "A"), q("堅田2", "2019-03-01", "B")])
    assert berth_holders(berths, before="2019-02-01") == {"A"}
    assert berth_holders(berths) == {"A", "B"}


def test_a_place_cannot_be_granted_twice() -> None:
    first = BerthGrant("g1", "草津予選", "2019-01-05", 1, "A")
    again = BerthGrant("g2", "草津予選 ", "2019-01-05", 1, "B")
    with pytest.raises(RuleRefusal) as refused:
        check_berth_grant(again, grants=[first])
    assert refused.value.code == "berth_place_taken"
    assert refused.value.params == {"qualifier": "草津予選 ", "place": 1}
    check_berth_grant(BerthGrant("g3", "草津予選", "2019-01-05", 2, "B"), grants=[first])


def test_a_player_already_holding_a_berth_is_not_granted_another() -> None:
    won = q("堅田1", "2019-01-13", "A", "B")
    with pytest.raises(RuleRefusal) as refused:
        check_berth_grant(BerthGrant("g", "大津予選", "2019-02-01", 1, "A"), qualifiers=[won])
    assert refused.value.code == "berth_already_held"
    # Granted for a qualifier held before the app's win: allowed (the app's berth passes down).
    check_berth_grant(BerthGrant("g", "大津予選", "2019-01-01", 1, "A"), qualifiers=[won])


@pytest.mark.parametrize(("grant", "code"), [
    (BerthGrant("g", "", "2019-01-01", 1, "A"), "berth_qualifier_missing"),
    (BerthGrant("g", "大津予選", "", 1, "A"), "berth_date_missing"),
    (BerthGrant("g", "大津予選", "2019-01-01", 0, "A"), "berth_place_invalid"),
])
def test_a_grant_without_qualifier_date_or_place_is_refused(grant: BerthGrant,
                                                             code: str) -> None:
    with pytest.raises(RuleRefusal) as refused:
        check_berth_grant(grant)
    assert refused.value.code == code
