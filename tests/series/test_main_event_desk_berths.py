"""0-a at the series' main event: its desk admits berth holders (derived by the engine from
the qualifiers' results and the hand grants) and refuses anyone else with the reason, unless
an organiser records a reason to admit them; a berth holder's desk shows the berth."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from brackets.models import BerthOverride, Entrant, Player, Series, Tournament
from brackets.services.players import entrant_register_linked, player_create
from brackets.services.series import berth_grant, tournament_series_set
from tests.conftest import client_for
from tests.series.helpers import kansai5
from tests.states import use_katata

REFUSAL = "関西杯5の本戦出場権を持っていないため、本戦には登録できません"


def _main_event(tournament: Tournament, cast: dict[str, Any]) -> tuple[Series, Player, Player]:
    """The tournament as 関西杯5's main event; one player won a berth at a qualifier run
    elsewhere (granted by hand), another holds none."""
    use_katata(tournament)
    series = kansai5(cast)
    tournament_series_set(tournament=tournament, series=series, role="main")
    holder = player_create(name="出場権者", reading="しゅつじょうけんしゃ", card_name="ケンリ",
                           q_level=70, by=cast["desk"])
    berth_grant(series=series, player=holder, qualifier="堅田大会（他会場）",
                held_on=datetime.date(2019, 1, 13), place=1, source="他会場の結果ページ",
                by=cast["organiser"])
    other = player_create(name="一般人", reading="いっぱんじん", card_name="イッパン",
                          q_level=40, by=cast["desk"])
    return series, holder, other


def _walk_in(player: Player, card: str, **extra: str) -> dict[str, str]:
    return {"walkin-name": player.name, "walkin-card_name": card, "walkin-q_level": "50",
            "walkin-player": str(player.pk), **extra}


def test_main_event_desk_refuses_a_player_without_a_berth_and_changes_nothing(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    _series, _holder, other = _main_event(tournament, cast)
    response = client_for(cast["desk"]).post(reverse("desk", args=[tournament.slug]),
                                             _walk_in(other, "イッパン"))
    assert response.status_code == 422
    assert REFUSAL in response.content.decode()
    assert not Entrant.objects.filter(tournament=tournament).exists()
    # A name the registry does not know holds no berth either.
    with pytest.raises(ValidationError) as refused:
        entrant_register_linked(tournament=tournament, by=cast["desk"],
                                data={"name": "飛び入り", "card_name": "トビイリ", "q_level": 30})
    assert REFUSAL in " ".join(refused.value.messages)
    assert not Entrant.objects.filter(tournament=tournament).exists()
    assert not Player.objects.filter(name="飛び入り").exists()


def test_main_event_desk_admits_a_berth_holder_and_shows_the_berth(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    _series, holder, _other = _main_event(tournament, cast)
    client = client_for(cast["desk"])
    lookup = client.get(reverse("desk_player_lookup", args=[tournament.slug]),
                        {"card_name": "ケンリ"}).content.decode()
    assert "関西杯5 本戦出場権あり：堅田大会（他会場） 1位" in lookup
    response = client.post(reverse("desk", args=[tournament.slug]), _walk_in(holder, "ケンリ"))
    assert response.status_code == 302
    entrant = Entrant.objects.get(tournament=tournament)
    assert entrant.player_id == holder.pk
    assert not BerthOverride.objects.exists()
    page = client.get(reverse("desk_entrant_edit", args=[tournament.slug, entrant.pk]))
    assert "関西杯5 本戦出場権あり：堅田大会（他会場） 1位" in page.content.decode()


def test_organiser_admits_a_player_without_a_berth_with_a_recorded_reason(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    _series, _holder, other = _main_event(tournament, cast)
    desk_form = client_for(cast["desk"]).get(reverse("desk", args=[tournament.slug]))
    assert "walkin-berth_override" not in desk_form.content.decode()  # organisers only
    client = client_for(cast["organiser"])
    assert "walkin-berth_override" in client.get(
        reverse("desk", args=[tournament.slug])).content.decode()
    response = client.post(reverse("desk", args=[tournament.slug]), _walk_in(
        other, "イッパン", **{"walkin-berth_override": "前回本戦の優勝者（招待）"}))
    assert response.status_code == 302
    entrant = Entrant.objects.get(tournament=tournament)
    row = BerthOverride.objects.get()
    assert (row.entrant, row.reason, row.by) == (entrant, "前回本戦の優勝者（招待）",
                                                 cast["organiser"])
    page = client.get(reverse("desk_entrant_edit", args=[tournament.slug, entrant.pk]))
    text = page.content.decode()
    assert "関西杯5 の本戦出場権なし。主催者の判断で登録" in text and "前回本戦の優勝者（招待）" in text


def test_a_desk_reason_without_the_organiser_role_is_refused(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    _series, _holder, other = _main_event(tournament, cast)
    with pytest.raises(ValidationError) as refused:
        entrant_register_linked(tournament=tournament, by=cast["desk"], player_id=other.pk,
                                data={"name": other.name, "card_name": "イッパン", "q_level": 40},
                                berth_override="知り合いなので")
    assert "主催者だけが記録できます" in " ".join(refused.value.messages)
    assert not Entrant.objects.filter(tournament=tournament).exists()
    assert not BerthOverride.objects.exists()


def test_a_qualifier_desk_is_not_asked_for_a_main_event_berth(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    use_katata(tournament)
    series = kansai5(cast)
    tournament_series_set(tournament=tournament, series=series, role="qualifier")
    entrant = entrant_register_linked(tournament=tournament, by=cast["desk"],
                                      data={"name": "予選参加", "card_name": "ヨセン",
                                            "q_level": 30})
    assert entrant.player_id is not None
