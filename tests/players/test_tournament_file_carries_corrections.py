"""#14 item 6, version 4 of the tournament file: the registry's corrections travel. A
server that already holds an achievement withdraws it when a file says the venue withdrew
it (with the file's who, when and why, never twice); a rename renames the player there;
an entrant's relink (with an organiser's override) and an admission without a berth ride
in ``records``. Files of version 3 and before still import."""

from __future__ import annotations

import json
from typing import Any

import pytest

from brackets.exporters.tournament_file import (
    TournamentFileError,
    tournament_file_export,
    tournament_file_import,
)
from brackets.models import (
    Achievement,
    AchievementCorrection,
    Entrant,
    EntrantPlayerChange,
    Player,
    PlayerRename,
    Tournament,
)
from brackets.services.registry_corrections import (
    achievement_withdraw,
    entrant_link,
    entrant_unlink,
    player_rename,
)
from tests.players.filehelpers import travel, venue_tournament
from tests.players.test_tournament_file_carries_registry import _stamped


def file_of(tournament: Tournament) -> dict[str, Any]:
    return json.loads(tournament_file_export(tournament=tournament))


def test_a_withdrawal_and_a_rename_reach_a_server_that_holds_the_player(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    players = venue_tournament(tournament, cast)
    before = file_of(tournament)  # the title in force, 佐藤 under her first name
    title = Achievement.objects.get(player=players["yamada"])
    achievement_withdraw(player=players["yamada"], achievement_id=title.pk,
                         reason="同名の別人の称号だった", by=cast["organiser"])
    # The reading stays, so the server still knows her with certainty (card and reading).
    player_rename(player=players["sato"], name="佐藤華子", reading="さとうはなこ",
                  reason="漢字の誤り（本人に確認）", by=cast["organiser"])
    venue_at = AchievementCorrection.objects.get().at
    after = travel(tournament)
    assert after["version"] == 4
    assert [c["reason"] for c in after["registry"]["achievementcorrection"]] == ["同名の別人の称号だった"]
    assert after["registry"]["playerrename"][0]["was_name"] == "佐藤花子"

    tournament_file_import(data=_stamped(before), slug="server-earlier")
    yamada = Player.objects.get(name="山田太郎")
    assert Achievement.objects.filter(player=yamada, correction__isnull=True).count() == 1

    tournament_file_import(data=_stamped(after), slug="server-later")
    correction = AchievementCorrection.objects.get()
    assert correction.achievement.player == yamada and correction.withdrawn
    assert (correction.reason, correction.by.username, correction.at) == (
        "同名の別人の称号だった", "org", venue_at)
    assert not Achievement.objects.filter(player=yamada, correction__isnull=True).exists()
    sato = Player.objects.get(pk=Entrant.objects.get(tournament__slug="server-earlier",
                                                     card_name="サトウ").player_id)
    assert (sato.name, sato.reading) == ("佐藤華子", "さとうはなこ")
    rename = PlayerRename.objects.get(player=sato)
    assert (rename.was_name, rename.reason, rename.by.username) == (
        "佐藤花子", "漢字の誤り（本人に確認）", "org")

    # The same file again: nothing is withdrawn or renamed twice.
    tournament_file_import(data=_stamped(after), slug="server-again")
    assert AchievementCorrection.objects.count() == 1
    assert PlayerRename.objects.count() == 1


def test_a_relink_with_an_override_travels_in_the_records(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    players = venue_tournament(tournament, cast)
    sato = Entrant.objects.get(tournament=tournament, card_name="サトウ")
    entrant_unlink(tournament=tournament, entrant_id=sato.pk, reason="別人", by=cast["organiser"])
    entrant_link(tournament=tournament, entrant_id=sato.pk, player=players["sato"],
                 reason="やはり本人", by=cast["organiser"])
    data = travel(tournament)
    assert [c["reason"] for c in data["records"]["entrantplayerchange"]] == ["別人", "やはり本人"]
    imported = tournament_file_import(data=_stamped(data))
    entrant = Entrant.objects.get(tournament=imported, card_name="サトウ")
    unlink, link = EntrantPlayerChange.objects.filter(entrant=entrant).order_by("id")
    assert (unlink.player, unlink.was_player, link.player) == (None, entrant.player,
                                                               entrant.player)
    assert link.by.username == "org" and link.reason == "やはり本人"


def test_a_version_3_file_cannot_carry_corrections(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    players = venue_tournament(tournament, cast)
    player_rename(player=players["sato"], name="田中花子", reading="", reason="",
                  by=cast["organiser"])
    data = travel(tournament)
    data["version"] = 3
    with pytest.raises(TournamentFileError, match="registry"):
        tournament_file_import(data=_stamped(data))
    assert not Tournament.objects.filter(slug=data["tournament"]["slug"]).exists()
    data["registry"].pop("playerrename")
    assert tournament_file_import(data=_stamped(data)).slug == tournament.slug
