"""H5 format lots: a past champion draws *up to* k format lots, as many as they declare.

「…いずれか低い本数以下の出題形式くじを引き、該当するジャンル・形式を大会中使用不可とする
ことができる」: k = min(L_past − 3, 5 − M) is a maximum. The desk records the number the
player declares (0…k); the app's own draw draws that many, and a box draw with fewer than
k format lots is recorded as it was drawn.
"""

from __future__ import annotations

from typing import Any

import pytest

from brackets.engine import EngineError, format_lots_declared
from brackets.models import Entrant, SpecialFact, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from brackets.services.entrants import entrant_register
from tests.conftest import client_for
from tests.states import register_entrants, use_katata


def test_h5_declared_format_lots_may_be_any_number_up_to_k() -> None:
    assert [format_lots_declared(n, allowed=2) for n in (0, 1, 2)] == [0, 1, 2]
    with pytest.raises(EngineError) as err:
        format_lots_declared(3, allowed=2)
    assert err.value.code == "too_many_format_lots"
    assert err.value.params == {"lots": 3, "allowed": 2}
    with pytest.raises(EngineError) as err:
        format_lots_declared(-1, allowed=2)
    assert err.value.code == "bad_lot_count"


def _past_champion(tournament: Tournament, cast: dict[str, Any]) -> tuple[Entrant, int]:
    """A 堅田 field with a past champion (6 lots at that win, Q60, 4 genre lots now)."""
    use_katata(tournament)
    champion = entrant_register(tournament=tournament, by=cast["desk"], data={
        "name": "近江太郎", "card_name": "タロウ", "q_level": 60, "shura_voluntary": True,
        "shura_extra_lots": 3, "past_win_lots": 6, "checked_in": True})
    register_entrants(tournament, cast["desk"], 6, check_in_later=False)
    svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    champion = Entrant.objects.get(id=champion.id)
    k = svc.shura_format_lots_allowed(tournament=tournament, entrant=champion, genre_lots=4)
    assert k >= 2  # the field is small, so M is small and L_past − 3 = 3 is near the bound
    return champion, k


def _lots(tournament: Tournament, champion: Entrant) -> dict[str, Any]:
    return sel.lots_of(tournament, [champion.id])[champion.id]


@pytest.mark.django_db
def test_h5_app_draw_draws_the_declared_number_of_format_lots(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    champion, _k = _past_champion(tournament, cast)
    svc.shura_lots_draw(tournament=tournament, entrant=champion, by=cast["desk"],
                        format_lots=1)
    lots = _lots(tournament, champion)
    assert len(lots["genres"]) == 4 and len(lots["formats"]) == 1 and lots["method"] == "app"


@pytest.mark.django_db
def test_h5_app_draw_with_none_declared_draws_no_format_lot(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    champion, _k = _past_champion(tournament, cast)
    svc.shura_lots_draw(tournament=tournament, entrant=champion, by=cast["desk"],
                        format_lots=0)
    assert _lots(tournament, champion)["formats"] == []


@pytest.mark.django_db
def test_h5_more_than_k_declared_is_refused_and_nothing_recorded(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    champion, k = _past_champion(tournament, cast)
    with pytest.raises(svc.RoundError) as err:
        svc.shura_lots_draw(tournament=tournament, entrant=champion, by=cast["desk"],
                            format_lots=k + 1)
    assert f"形式くじは{k}本まで" in err.value.message
    assert not SpecialFact.objects.filter(kind=SpecialFact.Kind.SHURA_LOTS).exists()


@pytest.mark.django_db
def test_h5_box_draw_with_fewer_than_k_format_lots_is_recorded(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    champion, _k = _past_champion(tournament, cast)
    pool = svc.shura_format_lot_pool(tournament=tournament)
    svc.shura_lots_draw(tournament=tournament, entrant=champion, by=cast["desk"],
                        genres=["芸能", "社会", "スポーツ", "理系学問"], formats=[pool[0]])
    lots = _lots(tournament, champion)
    assert lots["formats"] == [pool[0]] and lots["method"] == "physical"


@pytest.mark.django_db
def test_h5_shura_desk_asks_how_many_format_lots_and_draws_that_many(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    champion, k = _past_champion(tournament, cast)
    desk = client_for(cast["desk"])
    page = desk.get(f"/t/{tournament.slug}/shura/").content.decode()
    assert 'name="format_lots"' in page and f"{k}本まで" in page
    assert page.count('name="format"') == k  # one select per format lot the box may give
    response = desk.post(f"/t/{tournament.slug}/shura/",
                         {"entrant": champion.id, "method": "app", "format_lots": "1"})
    assert response.status_code == 302
    assert len(_lots(tournament, champion)["formats"]) == 1


@pytest.mark.django_db
def test_h5_shura_desk_records_a_box_draw_with_fewer_format_lots(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    champion, k = _past_champion(tournament, cast)
    pool = svc.shura_format_lot_pool(tournament=tournament)
    response = client_for(cast["desk"]).post(f"/t/{tournament.slug}/shura/", {
        "entrant": champion.id, "method": "physical", "format_lots": str(k),
        "genre": ["芸能", "社会", "スポーツ", "理系学問"], "format": [pool[1], "", ""]})
    assert response.status_code == 302
    assert _lots(tournament, champion)["formats"] == [pool[1]]
