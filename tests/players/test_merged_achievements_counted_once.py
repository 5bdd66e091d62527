"""After two records of one person are merged, an achievement both records held (the same
kind, game version, date, title and source: a title recorded at a venue and again here) is
listed once and counts once for 3-a; both rows are kept, and a withdrawal or a correction
of the fact supersedes both."""

from __future__ import annotations

import datetime
from typing import Any

from django.urls import reverse

from brackets.models import Achievement, AchievementCorrection, Player, Tournament
from brackets.selectors.duties import in_force_of
from brackets.selectors.registry import entrant_duties, player_record
from brackets.selectors.registry_sheets import registry_rows
from brackets.services.players import achievement_add, player_create, player_merge
from brackets.services.registry_corrections import achievement_correct, achievement_withdraw
from tests.conftest import client_for
from tests.players.helpers import register
from tests.states import use_katata

TITLE = {"kind": "national_title", "title": "賢帝", "game_version": "tg",
         "held_on": datetime.date(2016, 3, 1), "source": "QMA公式 全国大会結果"}


def _merged(cast: dict[str, Any], **second: Any) -> tuple[Player, Player]:
    kept = player_create(name="鈴木", reading="すずき", card_name="スズキ", q_level=70,
                         by=cast["desk"])
    dup = player_create(name="鈴木", reading="すずき", card_name="スズキ2", q_level=40,
                        by=cast["desk"])
    achievement_add(player=kept, data=TITLE, by=cast["desk"])
    achievement_add(player=dup, data={**TITLE, **second}, by=cast["organiser"])
    player_merge(kept=kept, merged=dup, reason="同一人物", by=cast["organiser"])
    return kept, dup


def test_the_same_fact_of_two_merged_records_is_listed_and_counted_once(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    use_katata(tournament)
    kept, _dup = _merged(cast, source=" QMA公式  全国大会結果 ")  # spacing is no difference
    assert Achievement.objects.count() == 2  # nothing deleted
    record = player_record(player=kept)
    assert [a.title for a in record.achievements] == ["賢帝"]
    assert record.history is not None
    assert record.history.copies == {record.achievements[0].pk: 2}
    entrant = register(tournament, cast["desk"], name="鈴木", card="スズキ", q=70, player=kept)
    assert in_force_of(entrant).duties.titles == 1
    duties = entrant_duties(entrant=entrant)
    assert duties is not None and duties.owed is not None and duties.owed.genre_lots == 1
    assert registry_rows(players=[kept]).players[0]["achievements"] == 1


def test_two_different_facts_stay_two(tournament: Tournament, cast: dict[str, Any]) -> None:
    kept, _dup = _merged(cast, held_on=datetime.date(2017, 3, 1))
    assert len(player_record(player=kept).achievements) == 2


def test_withdrawing_the_fact_withdraws_both_records(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    kept, _dup = _merged(cast)
    shown = player_record(player=kept).achievements[0]
    rows = achievement_withdraw(player=kept, achievement_id=shown.pk, reason="称号は別人",
                                by=cast["organiser"])
    assert len(rows) == 2 and AchievementCorrection.objects.count() == 2
    assert player_record(player=kept).achievements == []


def test_correcting_the_fact_supersedes_both_records(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    kept, _dup = _merged(cast)
    shown = player_record(player=kept).achievements[0]
    new = achievement_correct(player=kept, achievement_id=shown.pk,
                              data={**TITLE, "title": "賢王"}, reason="称号名の誤り",
                              by=cast["organiser"])
    assert set(AchievementCorrection.objects.values_list("replacement_id", flat=True)) == {new.pk}
    assert [a.title for a in player_record(player=kept).achievements] == ["賢王"]


def test_the_page_lists_the_fact_once_with_its_two_records(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    kept, _dup = _merged(cast)
    text = client_for(cast["desk"]).get(
        reverse("registry_player", args=[tournament.slug, kept.pk])).content.decode()
    table = text.split('id="achievements"')[1].split("</table>")[0]
    assert table.count("<strong>賢帝</strong>") == 1
    assert "同じ実績の記録 2件（1件として数えます）" in table
