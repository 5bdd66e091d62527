"""#14 item 6, version 4: a berth withdrawn at the venue is withdrawn where the file is
read. A server holding the grant in force withdraws it with the file's who, when and
why, never twice; a place granted again after the withdrawal follows it there too; an
admission to the main event without a berth (``BerthOverride``) rides in ``records``."""

from __future__ import annotations

import datetime
import json
from typing import Any

from brackets.exporters.tournament_file import tournament_file_export, tournament_file_import
from brackets.models import BerthOverride, BerthWithdrawal, Player, SeriesBerthGrant, Tournament
from brackets.services.players import entrant_register_linked, player_create
from brackets.services.series import berth_grant, berth_withdraw
from tests.series.helpers import forget_everything
from tests.series.test_series_in_tournament_file import OTSU, berth_lists, small_series, stamped

__all__ = ["small_series"]


def test_a_withdrawn_berth_is_withdrawn_on_the_server_that_holds_it(
        small_series: dict[str, Any], cast: dict[str, Any]) -> None:
    series, q1 = small_series["series"], small_series["q1"]
    before = json.loads(tournament_file_export(tournament=q1))
    grant = SeriesBerthGrant.objects.get()
    withdrawal = berth_withdraw(series=series, grant_id=grant.pk, reason="順位の入力誤り",
                                by=cast["organiser"])
    again = player_create(name="大津の二位", reading="おおつのにい", card_name="NII",
                          q_level=70, by=cast["desk"])
    berth_grant(series=series, player=again, by=cast["organiser"], **OTSU)
    after = json.loads(tournament_file_export(tournament=q1))
    assert after["series"]["withdrawals"] == [
        {"id": 1, "grant": 1, "reason": "順位の入力誤り", "by": "org",
         "at": withdrawal.at.astimezone(datetime.UTC).isoformat()}]
    assert [g["follows"] for g in after["series"]["grants"]] == [None, 1]
    venue_page = berth_lists(series.slug)
    assert "大津の二位" in venue_page and "大津の覇者" not in venue_page

    forget_everything()
    tournament_file_import(data=stamped(before))
    assert "大津の覇者" in berth_lists(series.slug)
    tournament_file_import(data=stamped(after), slug="katata-1-later")
    withdrawn = BerthWithdrawal.objects.get()
    assert (withdrawn.grant.player.name, withdrawn.reason, withdrawn.by.username,
            withdrawn.at) == ("大津の覇者", "順位の入力誤り", "org", withdrawal.at)
    assert SeriesBerthGrant.objects.get(follows=withdrawn).player.name == "大津の二位"
    assert "大津の二位" in berth_lists(series.slug) and "大津の覇者" not in berth_lists(series.slug)

    # Read again (and the older file once more): nothing withdrawn or granted twice.
    tournament_file_import(data=stamped(after), slug="katata-1-again")
    tournament_file_import(data=stamped(before), slug="katata-1-old")
    assert (BerthWithdrawal.objects.count(), SeriesBerthGrant.objects.count()) == (1, 2)


def test_an_admission_without_a_berth_travels_with_its_reason(
        small_series: dict[str, Any], cast: dict[str, Any]) -> None:
    main: Tournament = small_series["main"]
    entrant_register_linked(tournament=main, by=cast["organiser"],
                            data={"name": "招待選手", "card_name": "ショウタイ", "q_level": 40},
                            berth_override="主催者の招待")
    data = json.loads(tournament_file_export(tournament=main))
    assert [o["reason"] for o in data["records"]["berthoverride"]] == ["主催者の招待"]
    forget_everything()
    imported = tournament_file_import(data=stamped(data))
    override = BerthOverride.objects.get(entrant__tournament=imported)
    assert (override.reason, override.by.username) == ("主催者の招待", "org")
    assert override.entrant.player == Player.objects.get(name="招待選手")
