"""An organiser changes a player's name and reading: the change is recorded with who, when
and the values it replaced (superseding, never lost), and the registry's searches find the
new name. Refusals say why and change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from brackets.messages import ERROR_TEXT
from brackets.models import Player, PlayerRename, Tournament
from brackets.selectors.registry import player_list, player_lookup
from brackets.services.players import player_create
from brackets.services.registry_corrections import player_rename
from tests.conftest import client_for


def _player(cast: dict[str, Any]) -> Player:
    return player_create(name="山田太朗", reading="やまだたろう", card_name="ヤマダ",
                         q_level=60, by=cast["desk"])


def test_a_rename_is_recorded_and_the_search_finds_the_new_name(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player = _player(cast)
    row = player_rename(player=player, name="山田太郎", reading="やまだたろう",
                        reason="漢字の誤り", by=cast["organiser"])
    assert (row.was_name, row.name, row.reason, row.by) == ("山田太朗", "山田太郎", "漢字の誤り",
                                                            cast["organiser"])
    player.refresh_from_db()
    assert player.name == "山田太郎"
    assert [p.pk for p in player_list(query="山田太郎")] == [player.pk]
    assert [m.player.pk for m in player_lookup(name="山田太郎")] == [player.pk]
    player_rename(player=player, name="山田太郎", reading="ヤマダ タロウ", reason="",
                  by=cast["organiser"])
    assert [m.player.pk for m in player_lookup(reading="やまだ たろう")] == [player.pk]
    assert list(PlayerRename.objects.values_list("was_name", "name").order_by("id")) == [
        ("山田太朗", "山田太郎"), ("山田太郎", "山田太郎")]


@pytest.mark.parametrize("name,reading,code", [
    ("", "やまだ", "rename_no_name"),
    ("山田太朗", "やまだたろう", "rename_unchanged"),
    ("長" * 101, "", "rename_too_long"),
])
def test_a_refused_rename_says_why_and_changes_nothing(
        tournament: Tournament, cast: dict[str, Any], name: str, reading: str,
        code: str) -> None:
    player = _player(cast)
    with pytest.raises(ValidationError) as refused:
        player_rename(player=player, name=name, reading=reading, reason="", by=cast["organiser"])
    assert refused.value.messages == [str(ERROR_TEXT[code]).format(max=100)]
    player.refresh_from_db()
    assert (player.name, player.reading) == ("山田太朗", "やまだたろう")
    assert not PlayerRename.objects.exists()


def test_the_page_renames_and_shows_the_history(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player = _player(cast)
    client = client_for(cast["organiser"])
    url = reverse("registry_player_rename", args=[tournament.slug, player.pk])
    refused = client.post(url, {"name": "", "reading": ""})
    assert refused.status_code == 422
    assert str(ERROR_TEXT["rename_no_name"]) in refused.content.decode()
    assert client.post(url, {"name": "山田太郎", "reading": "やまだたろう",
                             "reason": "本人の申し出"}).status_code == 302
    text = client.get(reverse("registry_player", args=[tournament.slug, player.pk])
                      ).content.decode()
    assert 'id="rename-history"' in text and "山田太朗" in text and "本人の申し出" in text
    listing = client.get(reverse("registry_list", args=[tournament.slug]), {"q": "山田太郎"})
    assert "山田太郎" in listing.content.decode()


def test_desk_staff_cannot_rename(tournament: Tournament, cast: dict[str, Any]) -> None:
    player = _player(cast)
    url = reverse("registry_player_rename", args=[tournament.slug, player.pk])
    assert client_for(cast["desk"]).post(url, {"name": "別名"}).status_code == 403
    assert not PlayerRename.objects.exists()
