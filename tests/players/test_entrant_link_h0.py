"""Linking an existing entrant to a registry player runs the desk's entry rule: at a
qualifier H0 (a berth holder, a card other than the first appearance's) refuses the link
with the reason and changes nothing, unless an organiser records a reason, kept with the
refusal's words; at the main event a player without a berth is refused likewise."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from brackets.models import BerthOverride, Entrant, EntrantPlayerChange, Tournament
from brackets.services.entrants import entrant_register
from brackets.services.players import achievement_add, player_create
from brackets.services.registry_corrections import entrant_link
from brackets.services.series import tournament_series_set
from tests.conftest import client_for
from tests.players.test_h0_berth_holders import in_kansai5
from tests.series.helpers import kansai5
from tests.states import use_katata

H0 = "本戦の出場権を持っている選手は出場できません"


def _berth_holder_walked_in(tournament: Tournament, cast: dict[str, Any]) -> tuple[Any, Entrant]:
    use_katata(tournament)
    in_kansai5(tournament)
    player = player_create(name="本戦組", reading="", card_name="ホンセン", q_level=60, by=None)
    achievement_add(player=player, by=cast["desk"], data={
        "kind": "main_berth", "title": "本戦出場権", "game_version": "we",
        "held_on": datetime.date(2019, 2, 1), "source": "関西杯5 草津予選 優勝"})
    entrant = entrant_register(tournament=tournament, by=cast["desk"],
                               data={"name": "本戦組", "reading": "", "card_name": "ホンセン"})
    return player, entrant


def test_link_of_a_berth_holder_at_a_qualifier_is_refused_with_the_h0_reason(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player, entrant = _berth_holder_walked_in(tournament, cast)
    response = client_for(cast["organiser"]).post(
        reverse("registry_entrant_link", args=[tournament.slug, player.pk]),
        {"entrant": entrant.pk, "reason": ""})
    assert response.status_code == 422
    page = response.content.decode()
    assert "この大会に出場できません（H0）" in page and H0 in page
    entrant.refresh_from_db()
    assert entrant.player is None
    assert not EntrantPlayerChange.objects.exists()


def test_organiser_links_a_berth_holder_with_a_recorded_reason(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player, entrant = _berth_holder_walked_in(tournament, cast)
    with pytest.raises(ValidationError) as refused:  # only an organiser decides
        entrant_link(tournament=tournament, entrant_id=entrant.pk, player=player, reason="",
                     override="主催者判断", by=cast["desk"])
    assert "主催者だけ" in " ".join(refused.value.messages)
    row = entrant_link(tournament=tournament, entrant_id=entrant.pk, player=player, reason="",
                       override="出場権を辞退済み（本人確認）", by=cast["organiser"])
    assert H0 in row.overridden
    assert (row.override_reason, row.by) == ("出場権を辞退済み（本人確認）", cast["organiser"])
    page = client_for(cast["organiser"]).get(
        reverse("registry_player", args=[tournament.slug, player.pk])).content.decode()
    assert "主催者の判断で結び付け" in page and "出場権を辞退済み（本人確認）" in page


def test_link_at_the_main_event_needs_a_berth_or_an_override(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    use_katata(tournament)
    tournament_series_set(tournament=tournament, series=kansai5(cast), role="main")
    player = player_create(name="一般人", reading="", card_name="イッパン", q_level=40, by=None)
    # Registered without the registry (the plain service): linking is checked now.
    entrant = entrant_register(tournament=tournament, by=cast["desk"],
                               data={"name": "一般人", "reading": "", "card_name": "イッパン"})
    with pytest.raises(ValidationError) as refused:
        entrant_link(tournament=tournament, entrant_id=entrant.pk, player=player, reason="",
                     by=cast["organiser"])
    assert "本戦出場権を持っていない" in " ".join(refused.value.messages)
    assert not BerthOverride.objects.exists()
    entrant_link(tournament=tournament, entrant_id=entrant.pk, player=player, reason="",
                 override="招待選手", by=cast["organiser"])
    assert BerthOverride.objects.get(entrant=entrant).reason == "招待選手"
