"""A series of three 堅田 qualifiers played through the services, then its main event: each
qualifier's champion wins the berth (derived from the results, never stored), a berth holder
is refused at the next qualifier's desk (0-a), a returning player on a new card is refused
(0-b), and the series lists the berths and who is still eligible."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from brackets.models import Entrant, QmaVersion, SeriesBerthGrant
from brackets.selectors.series import series_view
from brackets.services.players import entrant_register_linked, player_card_record
from brackets.services.series import tournament_series_set
from tests.conftest import client_for
from tests.series.helpers import kansai5, play, pool, qualifier
from tests.states import use_katata


def test_three_qualifiers_then_the_main_event(tournament: Any, cast: dict[str, Any],
                                              catalog: QmaVersion) -> None:
    series = kansai5(cast)
    players = pool(13)
    q1 = qualifier(series, "katata-1", datetime.date(2019, 1, 13), catalog, cast)
    first = play(q1, players, cast)

    q2 = qualifier(series, "katata-2", datetime.date(2019, 2, 10), catalog, cast)
    # 0-a at the desk: the first qualifier's champion holds a berth now.
    refused = client_for(cast["desk"]).post(reverse("desk", args=[q2.slug]), {
        "walkin-name": first.name, "walkin-card_name": first.cards.first().card_name,
        "walkin-q_level": "60", "walkin-player": str(first.pk)})
    assert refused.status_code == 422
    assert "本戦の出場権を持っている選手は出場できません" in refused.content.decode()
    assert not Entrant.objects.filter(tournament=q2).exists()
    second = play(q2, [p for p in players if p != first], cast, seed=6)

    q3 = qualifier(series, "katata-3", datetime.date(2019, 3, 10), catalog, cast)
    # 0-b: a player of the earlier qualifiers brings another card: refused, nothing saved.
    returning = next(p for p in players if p not in (first, second))
    player_card_record(player=returning, card_name="ニマイメ", q_level=90, by=None)
    with pytest.raises(ValidationError) as no_new_card:
        entrant_register_linked(tournament=q3, by=cast["desk"], player_id=returning.pk, data={
            "name": returning.name, "card_name": "ニマイメ", "q_level": 90})
    assert "初出場時（堅田大会 01/13）の「C" in " ".join(no_new_card.value.messages)
    assert not Entrant.objects.filter(tournament=q3).exists()
    third = play(q3, [p for p in players if p not in (first, second)], cast, seed=7)

    use_katata(tournament)
    tournament_series_set(tournament=tournament, series=series, role="main")
    view = series_view(series=series)
    assert [(line.title, [b.name for b in line.berths]) for line in view.qualifiers] == [
        (q1.name, [first.name]), (q2.name, [second.name]), (q3.name, [third.name])]
    assert all(line.status == "終了" for line in view.qualifiers)
    assert view.main_events == [tournament]
    assert {p.pk for p in view.eligible} == {p.pk for p in players} - {
        first.pk, second.pk, third.pk}
    assert not SeriesBerthGrant.objects.exists()  # derived from the results, never stored

    # The main event's desk does not apply the qualifiers' 0-a: berth holders enter it.
    entrant = entrant_register_linked(tournament=tournament, by=cast["desk"],
                                      player_id=first.pk, data={
                                          "name": first.name, "card_name": first.cards.first().card_name,
                                          "q_level": 95})
    assert entrant.player_id == first.pk
