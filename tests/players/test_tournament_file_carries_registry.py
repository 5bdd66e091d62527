"""#14 item 6: the tournament file (version 2) carries the registry facts of the
tournament's entrants: their players, cards with the rows they superseded, achievements,
merges, and their 修羅 overrides; a version-1 file still imports; a malformed registry
section refuses the whole import and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from brackets.exporters.tournament_file import (
    TournamentFileError,
    checksum,
    tournament_file_export,
    tournament_file_import,
)
from brackets.hosted.payload import public_file
from brackets.models import Entrant, Player, PlayerCard, PlayerLink, PlayerMerge, Tournament
from brackets.services.players import duty_override_record
from tests.players.filehelpers import registry_counts, travel, venue_tournament


def _stamped(data: dict[str, Any]) -> str:
    data.pop("checksum", None)
    data["checksum"] = checksum(data)
    return json.dumps(data, ensure_ascii=False)


def test_the_file_names_each_entrants_player_and_carries_their_registry(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    players = venue_tournament(tournament, cast)
    yamada = Entrant.objects.get(tournament=tournament, card_name="ヤマダ")
    duty_override_record(tournament=tournament, entrant_id=yamada.pk, ground="national_title",
                         value=0, reason="称号は同名の別人のもの", by=cast["organiser"])
    data = json.loads(tournament_file_export(tournament=tournament))
    assert data["version"] == 4  # 3 adds the series section, 4 the corrections
    registry = data["registry"]
    assert [p["name"] for p in registry["player"]] == ["山田太郎", "鈴木一郎", "鈴木一郎", "佐藤花子"]
    # The card's history travels: Q70 superseded by Q85, who and when on each row.
    q70, q85 = registry["playercard"][:2]
    assert (q70["q_level"], q85["q_level"], q85["supersedes"]) == (70, 85, q70["id"])
    assert q85["by"] == "desk" and q85["at"].endswith("+00:00")
    assert registry["achievement"][0]["title"] == "賢帝"
    # The duplicate merged into 鈴木 comes with the merge, so its card スズキ2 is 鈴木's.
    merge = registry["playermerge"][0]
    assert (merge["kept"], merge["merged"], merge["reason"], merge["by"]) == (
        2, 3, "同じ人（本人に確認）", "org")
    by_card = {e["card_name"]: e["player"] for e in data["records"]["entrant"]}
    assert by_card == {"ヤマダ": 1, "スズキ": 2, "サトウ": 4}
    assert data["records"]["dutyoverride"][0]["reason"] == "称号は同名の別人のもの"
    assert players


def test_a_server_that_never_saw_the_players_gets_them_as_the_venue_had_them(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """Imported into a registry without them, exported again: the same file."""
    venue_tournament(tournament, cast)
    first = travel(tournament)
    imported = tournament_file_import(data=json.dumps(first, ensure_ascii=False))
    again = json.loads(tournament_file_export(tournament=imported))
    first.pop("exported_at")
    again.pop("exported_at")
    assert again == first
    assert set(PlayerLink.objects.values_list("match", flat=True)) == {"new"}
    suzuki = Entrant.objects.get(tournament=imported, card_name="スズキ").player
    assert PlayerMerge.objects.get(kept=suzuki).merged.cards.get().card_name == "スズキ2"


def test_a_file_of_version_1_still_imports(tournament: Tournament,
                                           cast: dict[str, Any]) -> None:
    """A file written before this change: no registry section, no entrant ``player``."""
    venue_tournament(tournament, cast)
    older = travel(tournament)
    older["version"] = 1
    older.pop("registry")
    for row in older["records"]["entrant"]:
        row.pop("player")
    imported = tournament_file_import(data=_stamped(older))
    assert Entrant.objects.filter(tournament=imported).count() == 3
    assert not Entrant.objects.filter(tournament=imported, player__isnull=False).exists()
    assert not Player.objects.exists()


@pytest.mark.parametrize(("edit", "where"), [
    (lambda r: r["achievement"][0].update(source=""), "registry.achievement[0].source"),
    (lambda r: r["achievement"][0].pop("held_on"), "registry.achievement[0].held_on"),
    (lambda r: r["playercard"][0].update(card_name="ながすぎるカードネームです"),
     "registry.playercard[0].card_name"),
    (lambda r: r["playercard"][0].update(q_level=-3), "registry.playercard[0].q_level"),
    (lambda r: r["playercard"][1].update(supersedes=99), "registry.playercard[1].supersedes"),
    (lambda r: r["player"][0].update(name=""), "registry.player[0].name"),
    (lambda r: r["playermerge"][0].update(merged=2), "registry.playermerge[0].merged"),
    (lambda r: r["player"][0].update(favourite_colour="青"), "registry.player[0]"),
    (lambda r: r.update(laserbeam=[]), "registry"),
])
def test_a_malformed_registry_section_refuses_the_whole_import_and_changes_nothing(
        tournament: Tournament, cast: dict[str, Any], edit: Any, where: str) -> None:
    venue_tournament(tournament, cast)
    data = travel(tournament)
    edit(data["registry"])
    before = registry_counts()
    with pytest.raises(TournamentFileError) as refused:
        tournament_file_import(data=_stamped(data))
    assert refused.value.where == where
    assert "ファイルが壊れています" in refused.value.message
    assert registry_counts() == before


def test_an_entrant_naming_a_player_the_file_does_not_carry_is_refused(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    venue_tournament(tournament, cast)
    data = travel(tournament)
    data["records"]["entrant"][0]["player"] = 42
    before = registry_counts()
    with pytest.raises(TournamentFileError, match="player の id 42 がありません"):
        tournament_file_import(data=_stamped(data))
    assert registry_counts() == before


def test_a_file_newer_than_this_app_is_refused_in_japanese_and_changes_nothing(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    venue_tournament(tournament, cast)
    data = travel(tournament)
    data["version"] = 5
    before = registry_counts()
    with pytest.raises(TournamentFileError, match="新しい版（version 5）"):
        tournament_file_import(data=_stamped(data))
    assert registry_counts() == before


def test_the_public_copy_leaves_the_registry_at_the_venue(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    venue_tournament(tournament, cast)
    from brackets.exporters.tournament_file import tournament_file_data

    public = public_file(tournament_file_data(tournament=tournament))
    assert "registry" not in public
    assert {e["player"] for e in public["records"]["entrant"]} == {None}
    assert PlayerCard.objects.exists()
