"""The round page's steps each mean something (issue 13, item 13): a drawn round takes
input at once, so there is no 開始 to press; 締め切る says why it is greyed (which groups
still lack a result) and closes the round straight from 抽選済."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from brackets.models import Group, Round, Tournament
from tests.conftest import client_for
from tests.rounds.helpers import add_entrants, play_group
from tests.states import use_katata

pytestmark = pytest.mark.django_db


def _close_button(html: str) -> str:
    return re.search(r'<form[^>]*/close/"[^>]*>.*?</form>', html, re.DOTALL).group(0)


def test_a_drawn_round_takes_results_and_closes_without_a_start_step(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    from brackets.services import rounds as svc

    use_katata(tournament)
    add_entrants(tournament, 8)
    rnd = svc.rounds_configure(tournament=tournament, by=cast["organiser"])[0]
    svc.round_draw(round=rnd, by=cast["organiser"])
    org = client_for(cast["organiser"])
    url = f"/t/{tournament.slug}/rounds/{rnd.number}/"
    html = org.get(url).content.decode()
    assert "/do/start/" not in html and ">開始<" not in html
    groups = list(Group.objects.filter(round=rnd).order_by("number"))
    button = _close_button(html)
    assert " disabled" in button and 'aria-describedby="close-why"' in button
    why = re.search(r'id="close-why">(.*?)</span>', html).group(1)
    assert f"あと{len(groups)}組" in why and all(g.label in why for g in groups)

    rng = random.Random(5)
    play_group(groups[0], cast["bracket"], rng)  # entered while the round says 抽選済
    assert Round.objects.get(id=rnd.id).status == Round.Status.DRAWN
    why = re.search(r'id="close-why">(.*?)</span>', org.get(url).content.decode()).group(1)
    assert groups[0].label not in why.split("（")[1] and groups[1].label in why
    for group in groups[1:]:
        play_group(group, cast["bracket"], rng)
    html = org.get(url).content.decode()
    assert " disabled" not in _close_button(html) and 'id="close-why"' not in html
    closed = org.post(f"{url}do/close/")
    assert closed.status_code == 302
    assert Round.objects.get(id=rnd.id).status == Round.Status.CLOSED
