"""The organiser's rehearsal page (#17 item 3): a bounded form, a table per round, nothing
written."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import CabinetSet, Tournament
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def _url(t: Tournament) -> str:
    return f"/t/{t.slug}/rules/rehearsal/"


def _post(t: Tournament, cast: dict[str, Any], **values: Any) -> Any:
    data = {"entrants": "40", "seeds": "0", "runs": "2", "minutes": "12", "seed": "x", **values}
    return client_for(cast["organiser"]).post(_url(t), data)


def test_rehearsal_of_the_shop_event_shows_every_round(tournament: Tournament,
                                                       cast: dict[str, Any]) -> None:
    response = _post(tournament, cast)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="rehearsal-table"' in html and 'id="rehearsal-clear"' in html
    for name in ("1回戦", "準決勝", "決勝", "残りジャンル数"):
        assert name in html


def test_a_kyushu_rehearsal_highlights_the_shimonoseki_round(tournament: Tournament,
                                                             cast: dict[str, Any]) -> None:
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    CabinetSet.objects.create(tournament=tournament, name="A台")
    response = _post(tournament, cast, entrants="58", seeds="7", runs="3")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="rehearsal-flagged"' in html and 'class="table-danger" data-round="r4"' in html
    assert 'id="shortfalls-r4"' in html and "筐体セット1台" in html


@pytest.mark.parametrize(("values", "words"), [
    ({"entrants": "1025"}, "参加人数は2〜1024人"),
    ({"entrants": "x"}, "参加人数は2〜1024人"),
    ({"runs": "21"}, "試行回数は1〜20回"),
    ({"minutes": "0"}, "1試合の時間は1〜120分"),
    ({"entrants": "1000", "runs": "20"}, "人数×回数は4096まで"),
    ({"entrants": "5"}, "5人を4人ずつの組に分けられません"),
])
def test_bad_rehearsal_input_is_refused_in_japanese(tournament: Tournament,
                                                    cast: dict[str, Any], values: dict[str, str],
                                                    words: str) -> None:
    before = Tournament.objects.filter(pk=tournament.pk).values().get()
    response = _post(tournament, cast, **values)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert Tournament.objects.filter(pk=tournament.pk).values().get() == before


def test_only_organisers_rehearse(tournament: Tournament, cast: dict[str, Any]) -> None:
    assert client_for(cast["desk"]).get(_url(tournament)).status_code == 403
    assert client_for(cast["organiser"]).get(_url(tournament)).status_code == 200
