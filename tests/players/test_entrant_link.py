"""An organiser links an entrant of this tournament to a registry player, or unlinks it;
each change is recorded with who and when. Linking a player who already has another
entrant in the tournament is refused with the reason (two entries are two people)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from brackets.messages import ERROR_TEXT
from brackets.models import Entrant, EntrantPlayerChange, Tournament
from brackets.selectors.registry import player_record
from brackets.services.entrants import entrant_register
from brackets.services.players import player_create
from brackets.services.registry_corrections import entrant_link, entrant_unlink
from tests.conftest import client_for
from tests.players.helpers import register


def _walk_in(tournament: Tournament, cast: dict[str, Any], name: str, card: str) -> Entrant:
    """An entrant registered without the registry (as before it existed)."""
    return entrant_register(tournament=tournament, by=cast["desk"],
                            data={"name": name, "reading": "", "card_name": card})


def test_link_and_unlink_are_recorded_with_who_and_when(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player = player_create(name="佐藤", reading="さとう", card_name="サトウ", q_level=60,
                           by=cast["desk"])
    entrant = _walk_in(tournament, cast, "佐藤", "サトウ")
    row = entrant_link(tournament=tournament, entrant_id=entrant.pk, player=player,
                       reason="受付で登録簿を使わなかった", by=cast["organiser"])
    entrant.refresh_from_db()
    assert entrant.player == player
    assert (row.player, row.was_player, row.by) == (player, None, cast["organiser"])
    assert [r.tournament for r in player_record(player=player).results] == [tournament]
    row = entrant_unlink(tournament=tournament, entrant_id=entrant.pk, reason="別人",
                         by=cast["organiser"])
    entrant.refresh_from_db()
    assert entrant.player is None
    assert (row.player, row.was_player, row.reason) == (None, player, "別人")
    assert player_record(player=player).results == []
    assert EntrantPlayerChange.objects.count() == 2


def test_linking_a_player_who_already_has_an_entrant_here_is_refused(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player = player_create(name="佐藤", reading="さとう", card_name="サトウ", q_level=60,
                           by=cast["desk"])
    register(tournament, cast["desk"], name="佐藤", card="サトウ", q=60, player=player)
    other = _walk_in(tournament, cast, "佐藤（別）", "サトウ2")
    with pytest.raises(ValidationError) as refused:
        entrant_link(tournament=tournament, entrant_id=other.pk, player=player, reason="",
                     by=cast["organiser"])
    assert refused.value.message_dict == {"entrant": [
        str(ERROR_TEXT["link_player_entered"]).format(entrant="佐藤")]}
    other.refresh_from_db()
    assert other.player is None and not EntrantPlayerChange.objects.exists()


@pytest.mark.parametrize("code", ["link_unchanged", "unlink_not_linked"])
def test_a_link_that_changes_nothing_is_refused(
        tournament: Tournament, cast: dict[str, Any], code: str) -> None:
    player = player_create(name="佐藤", reading="", card_name="サトウ", q_level=60, by=None)
    entrant = _walk_in(tournament, cast, "佐藤", "サトウ")
    if code == "link_unchanged":
        entrant_link(tournament=tournament, entrant_id=entrant.pk, player=player, reason="",
                     by=cast["organiser"])
    with pytest.raises(ValidationError) as refused:
        if code == "link_unchanged":
            entrant_link(tournament=tournament, entrant_id=entrant.pk, player=player,
                         reason="", by=cast["organiser"])
        else:
            entrant_unlink(tournament=tournament, entrant_id=entrant.pk, reason="",
                           by=cast["organiser"])
    assert refused.value.messages == [str(ERROR_TEXT[code])]
    assert EntrantPlayerChange.objects.count() == (1 if code == "link_unchanged" else 0)


def test_the_page_links_refuses_and_unlinks(tournament: Tournament,
                                            cast: dict[str, Any]) -> None:
    player = player_create(name="佐藤", reading="さとう", card_name="サトウ", q_level=60, by=None)
    register(tournament, cast["desk"], name="佐藤", card="サトウ", q=60, player=player)
    other = _walk_in(tournament, cast, "佐藤（別）", "サトウ2")
    client = client_for(cast["organiser"])
    refused = client.post(reverse("registry_entrant_link", args=[tournament.slug, player.pk]),
                          {"entrant": str(other.pk)})
    assert refused.status_code == 422
    assert "別の参加者（佐藤）として登録されています" in refused.content.decode()
    mine = Entrant.objects.get(tournament=tournament, player=player)
    assert client.post(reverse("registry_entrant_unlink", args=[tournament.slug, player.pk]),
                       {"entrant": str(mine.pk), "reason": "取り違え"}).status_code == 302
    assert client.post(reverse("registry_entrant_link", args=[tournament.slug, player.pk]),
                       {"entrant": str(other.pk)}).status_code == 302
    text = client.get(reverse("registry_player", args=[tournament.slug, player.pk])
                      ).content.decode()
    assert 'id="link-history"' in text and "取り違え" in text
    assert "佐藤（別）（サトウ2）" in text


def test_an_entrant_of_another_tournament_cannot_be_linked_here(
        tournament: Tournament, other_tournament: Tournament, cast: dict[str, Any]) -> None:
    player = player_create(name="佐藤", reading="", card_name="サトウ", q_level=60, by=None)
    elsewhere = _walk_in(other_tournament, cast, "佐藤", "サトウ")
    response = client_for(cast["organiser"]).post(
        reverse("registry_entrant_link", args=[tournament.slug, player.pk]),
        {"entrant": str(elsewhere.pk)})
    assert response.status_code == 422
    elsewhere.refresh_from_db()
    assert elsewhere.player is None


def test_desk_staff_cannot_link(tournament: Tournament, cast: dict[str, Any]) -> None:
    player = player_create(name="佐藤", reading="", card_name="サトウ", q_level=60, by=None)
    entrant = _walk_in(tournament, cast, "佐藤", "サトウ")
    response = client_for(cast["desk"]).post(
        reverse("registry_entrant_link", args=[tournament.slug, player.pk]),
        {"entrant": str(entrant.pk)})
    assert response.status_code == 403
    assert not EntrantPlayerChange.objects.exists()
