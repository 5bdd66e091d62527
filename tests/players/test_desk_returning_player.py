"""The desk recognises a returning player by any card name or by name/reading as it types,
fills the entry from the registry (2-d: the highest card's Q level) and links it; a new
face becomes a new registry player."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from brackets.models import Entrant, Player, PlayerCard, Tournament
from brackets.selectors.registry import player_lookup
from brackets.services.players import player_card_record, player_create
from tests.conftest import client_for


def _returning(cast: dict[str, Any]) -> Player:
    player = player_create(name="堅田太郎", reading="かただたろう", card_name="カタタ",
                           q_level=62, by=cast["desk"])
    player_card_record(player=player, card_name="サブカタ", q_level=85, by=cast["desk"])
    return player


def test_lookup_by_any_card_name_folded_for_kana_and_width(db: Any, cast: dict[str, Any]) -> None:
    player = _returning(cast)
    for typed in ("さぶかた", "ｻﾌﾞｶﾀ", "カタ"):
        found = player_lookup(card_name=typed)
        assert [m.player.pk for m in found] == [player.pk], typed
    match = player_lookup(card_name="さぶ")[0]
    assert match.fill()["card_name"] == "サブカタ"


def test_lookup_by_reading_fills_the_highest_cards_q_level(db: Any, cast: dict[str, Any]) -> None:
    player = _returning(cast)
    fill = player_lookup(reading="カタダ")[0].fill()
    assert fill == {"player": player.pk, "name": "堅田太郎", "reading": "かただたろう",
                    "card_name": "サブカタ", "q_level": 85}


def test_lookup_page_shows_the_player_and_a_fill_button(tournament: Tournament,
                                                        cast: dict[str, Any]) -> None:
    _returning(cast)
    url = reverse("desk_player_lookup", args=[tournament.slug])
    page = client_for(cast["desk"]).get(url, {"reading": "かただ", "prefix": "walkin"})
    text = page.content.decode()
    assert page.status_code == 200
    assert "堅田太郎" in text and "この選手で入力" in text and "サブカタ Q85" in text


def test_walk_in_linked_to_the_chosen_player_records_no_new_player(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player = _returning(cast)
    response = client_for(cast["desk"]).post(reverse("desk", args=[tournament.slug]), {
        "walkin-name": "堅田太郎", "walkin-reading": "かただたろう", "walkin-card_name": "カタタ",
        "walkin-q_level": "85", "walkin-player": str(player.pk)})
    assert response.status_code == 302
    entrant = Entrant.objects.get(tournament=tournament)
    assert entrant.player_id == player.pk
    assert Player.objects.count() == 1


def test_a_new_face_becomes_a_registry_player_with_their_card(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client_for(cast["desk"]).post(reverse("desk", args=[tournament.slug]), {
        "walkin-name": "新人", "walkin-card_name": "ニュー", "walkin-q_level": "30"})
    entrant = Entrant.objects.get(tournament=tournament)
    assert entrant.player is not None and entrant.player.name == "新人"
    assert list(PlayerCard.objects.values_list("card_name", "q_level")) == [("ニュー", 30)]


def test_a_higher_q_level_at_the_desk_supersedes_the_cards_row(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player = _returning(cast)
    client_for(cast["desk"]).post(reverse("desk", args=[tournament.slug]), {
        "walkin-name": "堅田太郎", "walkin-card_name": "サブカタ", "walkin-q_level": "90",
        "walkin-player": str(player.pk)})
    rows = PlayerCard.objects.filter(card_name="サブカタ").order_by("id")
    assert [r.q_level for r in rows] == [85, 90]
    assert rows[1].supersedes_id == rows[0].pk


def test_the_same_player_twice_in_one_tournament_is_refused(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player = _returning(cast)
    client = client_for(cast["desk"])
    url = reverse("desk", args=[tournament.slug])
    client.post(url, {"walkin-name": "堅田太郎", "walkin-card_name": "カタタ",
                      "walkin-player": str(player.pk)})
    again = client.post(url, {"walkin-name": "堅田太郎", "walkin-card_name": "サブカタ",
                              "walkin-player": str(player.pk)})
    assert again.status_code == 422
    assert "既に登録されています" in again.content.decode()
    assert Entrant.objects.filter(tournament=tournament).count() == 1
