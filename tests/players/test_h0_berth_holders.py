"""H0 at a 堅田 desk from the registry: a holder of a 関西杯5 main-event berth is refused
(0-a), and a player of an earlier qualifier of the series must bring the card of their
first appearance (0-b); each refusal says why and registers nobody. The series is the
tournament's series link (brackets/models/series.py); a berth entered as an achievement
before series existed still counts when its source names the series."""

from __future__ import annotations

import datetime
from typing import Any

from django.urls import reverse

from brackets.models import Entrant, QmaVersion, Tournament
from brackets.services.players import achievement_add, player_card_record, player_create
from tests.conftest import client_for
from tests.players.helpers import katata, register
from tests.states import use_katata


def in_kansai5(*tournaments: Tournament) -> None:
    from brackets.services.series import series_create, tournament_series_set

    series = series_create(name="関西杯5", slug="kansai-cup-5", game_version="we", by=None)
    for t in tournaments:
        tournament_series_set(tournament=t, series=series)


def _walk_in(tournament: Tournament, cast: dict[str, Any], player: Any, card: str) -> Any:
    return client_for(cast["desk"]).post(reverse("desk", args=[tournament.slug]), {
        "walkin-name": player.name, "walkin-card_name": card, "walkin-q_level": "60",
        "walkin-player": str(player.pk)})


def test_h0a_berth_holder_is_refused_with_the_reason(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    use_katata(tournament)
    in_kansai5(tournament)
    player = player_create(name="本戦組", reading="", card_name="ホンセン", q_level=60, by=None)
    achievement_add(player=player, by=cast["desk"], data={
        "kind": "main_berth", "title": "本戦出場権", "game_version": "we",
        "held_on": datetime.date(2019, 2, 1), "source": "関西杯5 草津予選 優勝"})
    response = _walk_in(tournament, cast, player, "ホンセン")
    assert response.status_code == 422
    assert "本戦の出場権を持っている選手は出場できません" in response.content.decode()
    assert not Entrant.objects.filter(tournament=tournament).exists()


def test_h0a_lookup_shows_the_refusal_before_the_desk_registers(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    use_katata(tournament)
    in_kansai5(tournament)
    player = player_create(name="本戦組", reading="ほんせんぐみ", card_name="ホンセン",
                           q_level=60, by=None)
    achievement_add(player=player, by=cast["desk"], data={
        "kind": "main_berth", "title": "本戦出場権", "game_version": "we",
        "held_on": datetime.date(2019, 2, 1), "source": "関西杯5 草津予選 優勝"})
    page = client_for(cast["desk"]).get(reverse("desk_player_lookup", args=[tournament.slug]),
                                        {"card_name": "ほんせん"})
    assert "出場できません（H0）" in page.content.decode()


def test_h0b_returning_player_on_a_new_card_is_refused_and_the_first_card_accepted(
        tournament: Tournament, cast: dict[str, Any], catalog: QmaVersion) -> None:
    earlier = katata("katata-jan", datetime.date(2019, 1, 13), catalog, cast)
    use_katata(tournament)  # 2019-03-21: a later qualifier of the same series
    in_kansai5(earlier, tournament)
    player = player_create(name="常連", reading="", card_name="ジョウレン", q_level=60, by=None)
    register(earlier, cast["desk"], name="常連", card="ジョウレン", q=60, player=player)
    player_card_record(player=player, card_name="ニマイメ", q_level=70, by=None)
    refused = _walk_in(tournament, cast, player, "ニマイメ")
    assert refused.status_code == 422
    assert "初出場時（堅田大会 01/13）の「ジョウレン」と違う" in refused.content.decode()
    assert not Entrant.objects.filter(tournament=tournament).exists()
    accepted = _walk_in(tournament, cast, player, "ジョウレン")
    assert accepted.status_code == 302
    assert Entrant.objects.get(tournament=tournament).player_id == player.pk


def test_h0_outside_any_series_checks_nothing(
        tournament: Tournament, cast: dict[str, Any], catalog: QmaVersion) -> None:
    """A 堅田 event the organiser put in no series has no earlier qualifier and no berth to
    check: the same preset alone no longer makes two events one series."""
    earlier = katata("katata-jan", datetime.date(2019, 1, 13), catalog, cast)
    use_katata(tournament)
    player = player_create(name="常連", reading="", card_name="ジョウレン", q_level=60, by=None)
    register(earlier, cast["desk"], name="常連", card="ジョウレン", q=60, player=player)
    player_card_record(player=player, card_name="ニマイメ", q_level=70, by=None)
    assert _walk_in(tournament, cast, player, "ニマイメ").status_code == 302
