"""Issue 13 item 11 (K9/K10): the partner select refuses the same partner for both
contenders at once (not only when the round is drawn), greys the one already taken, and
lists the players present in 五十音 order of their reading."""

from __future__ import annotations

import re
from typing import Any

import pytest

from brackets.models import Entrant, Round, SpecialFact, Tournament
from brackets.services.entrants import entrant_update
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def _contenders(html: str) -> list[int]:
    return [int(i) for i in re.findall(r'name="contender" value="(\d+)"', html)]


def test_partner_chosen_twice_is_refused_at_once(semi_final_done: Tournament,
                                                 cast: dict[str, Any]) -> None:
    tournament = semi_final_done
    url = f"/t/{tournament.slug}/rounds/6/special/"
    client = client_for(cast["organiser"])
    first, second = _contenders(client.get(url).content.decode())
    partner = Entrant.objects.filter(tournament=tournament, checked_in=True).exclude(
        id__in=(first, second)).first()
    assert client.post(url, {"action": "partner", "contender": first,
                             "partner": partner.id}).status_code == 302
    response = client.post(url, {"action": "partner", "contender": second, "partner": partner.id})
    first_name = Entrant.objects.get(id=first).name
    assert response.status_code == 400
    assert f"{partner.name} さんは既に {first_name} さんのパートナーです。" in response.content.decode()
    third = Round.objects.get(tournament=tournament, number=6)
    assert list(SpecialFact.objects.filter(round=third, kind="partner")
                .values_list("entrant_id", flat=True)) == [first]
    # The second contender's select greys the partner already taken, and says by whom.
    html = client.get(url).content.decode()
    second_form = html[html.index(f'name="contender" value="{second}"'):]
    option = re.search(rf'<option value="{partner.id}"[^>]*>[^<]*', second_form).group(0)
    assert "disabled" in option and f"（{first_name} さんのパートナー）" in option
    # The first contender may keep (re-record) the same partner.
    assert client.post(url, {"action": "partner", "contender": first,
                             "partner": partner.id}).status_code == 302


def test_partner_select_lists_players_by_reading(semi_final_done: Tournament,
                                                 cast: dict[str, Any]) -> None:
    tournament = semi_final_done
    url = f"/t/{tournament.slug}/rounds/6/special/"
    client = client_for(cast["organiser"])
    html = client.get(url).content.decode()
    contenders = _contenders(html)
    # Readings in the reverse order of the names' code points: a name sort would differ.
    present = list(Entrant.objects.filter(tournament=tournament, checked_in=True)
                   .exclude(id__in=contenders).order_by("name"))
    for i, entrant in enumerate(present):
        reading = "あいうえおかきくけこさしすせそたちつてとなにぬねの"[len(present) - 1 - i]
        entrant_update(tournament=tournament, entrant_id=entrant.id, by=cast["desk"],
                       base_revision=entrant.revision, data={"reading": reading})
    html = client.get(url).content.decode()
    select = re.search(r'<select class="form-select" name="partner".*?</select>', html, re.DOTALL).group(0)
    shown = [int(i) for i in re.findall(r'<option value="(\d+)"', select)]
    assert shown == [e.id for e in reversed(present)]
