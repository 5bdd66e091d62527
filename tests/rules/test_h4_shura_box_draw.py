"""Issue 13 item 11 (H4): a box draw recorded with the same lot twice gets an error naming
that lot and which selects hold it, beside the entrant's row; after any refusal every
select keeps what was chosen (the desk changes one select, not all of them)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from brackets.models import Entrant, SpecialFact, Tournament
from brackets.services import rounds as svc
from brackets.services.entrants import entrant_register
from tests.conftest import client_for
from tests.states import register_entrants, use_katata

pytestmark = pytest.mark.django_db


def _shura_player(tournament: Tournament, cast: dict[str, Any]) -> Entrant:
    """A 堅田 field with one player owing three genre lots (a title, a Shiga win, one extra)."""
    use_katata(tournament)
    player = entrant_register(tournament=tournament, by=cast["desk"], data={
        "name": "修羅太郎", "card_name": "シュラ", "q_level": 90, "shura_titles": 1,
        "shura_local_wins": 1, "shura_extra_lots": 1, "checked_in": True})
    register_entrants(tournament, cast["desk"], 6, check_in_later=False)
    svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    return Entrant.objects.get(id=player.id)


def _selected(html: str) -> list[str]:
    form = html[html.index('class="d-flex flex-wrap align-items-center gap-2 shura-draw"'):]
    form = form[:form.index("</form>")]
    return [re.search(r"<option selected>([^<]*)</option>", select).group(1)
            if "<option selected>" in select else ""
            for select in re.findall(r'<select [^>]*name="genre".*?</select>', form, re.DOTALL)]


def test_repeated_box_lot_is_named_and_the_selects_are_kept(tournament: Tournament,
                                                            cast: dict[str, Any]) -> None:
    player = _shura_player(tournament, cast)
    desk = client_for(cast["desk"])
    url = f"/t/{tournament.slug}/shura/"
    assert _selected(desk.get(url).content.decode()) == ["", "", ""]
    response = desk.post(url, {"entrant": player.id, "method": "physical",
                               "genre": ["芸能", "社会", "芸能"]})
    html = response.content.decode()
    assert response.status_code == 400
    row_error = re.search(rf'data-lot-error="{player.id}">([^<]*)<', html)
    assert row_error is not None
    assert "ジャンルくじ「芸能」が1本目と3本目の両方で選ばれています" in row_error.group(1)
    assert _selected(html) == ["芸能", "社会", "芸能"]
    assert not SpecialFact.objects.filter(kind=SpecialFact.Kind.SHURA_LOTS).exists()


def test_box_draw_with_a_blank_lot_keeps_the_selects(tournament: Tournament,
                                                     cast: dict[str, Any]) -> None:
    player = _shura_player(tournament, cast)
    response = client_for(cast["desk"]).post(f"/t/{tournament.slug}/shura/", {
        "entrant": player.id, "method": "physical", "genre": ["芸能", "", "社会"]})
    html = response.content.decode()
    assert response.status_code == 400
    assert "3本のジャンルくじ" in re.search(rf'data-lot-error="{player.id}">([^<]*)<', html).group(1)
    assert _selected(html) == ["芸能", "", "社会"]


def test_box_draw_of_distinct_lots_is_recorded(tournament: Tournament,
                                               cast: dict[str, Any]) -> None:
    player = _shura_player(tournament, cast)
    response = client_for(cast["desk"]).post(f"/t/{tournament.slug}/shura/", {
        "entrant": player.id, "method": "physical", "genre": ["芸能", "社会", "スポーツ"]})
    assert response.status_code == 302
    fact = SpecialFact.objects.get(kind=SpecialFact.Kind.SHURA_LOTS, entrant=player)
    assert fact.data["genres"] == ["芸能", "社会", "スポーツ"]
