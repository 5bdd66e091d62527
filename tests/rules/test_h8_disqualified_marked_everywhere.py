"""H8: a disqualified player shows no 惜敗率 and is marked 失格 wherever the match shows.

The tablet, the staff round card, the public round page and the round's PDF showed a
disqualified winner's 惜敗率 against the player moved up (107.07 here), and the round card
did not mark him. Every one of them now reads 「失格」 from the engine's verdict.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache

from brackets.models import Group, Tournament
from brackets.selectors.round_documents import round_document
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.conftest import running_round_one

pytestmark = pytest.mark.django_db

GOOD = {1: ("310.50", 1), 2: ("290.00", 2), 3: ("250.00", 3), 4: ("180.00", 4)}


@pytest.fixture
def disqualified_winner(tournament: Tournament, cast: dict[str, Any]) -> Group:
    rnd = running_round_one(tournament, 16, cast["organiser"])
    group = Group.objects.filter(round=rnd).order_by("number").first()
    svc.results_save(group=group, by=cast["bracket"], rows=GOOD)
    svc.disqualification_add(group=Group.objects.get(id=group.id), by=cast["bracket"],
                             seat_number=1, reason="覗き見")
    cache.clear()
    return Group.objects.get(id=group.id)


def _name_of_seat_1(group: Group) -> str:
    return group.seats.get(number=1).entrant.name


def test_h8_tablet_shows_shikkaku_not_a_ratio(disqualified_winner: Group,
                                              cast: dict[str, Any]) -> None:
    g = disqualified_winner
    html = client_for(cast["bracket"]).get(
        f"/t/{g.round.tournament.slug}/match/{g.id}/").content.decode()
    cells = re.findall(r'<td class="num fs-5 ratio-cell">(.*?)</td>', html)
    assert "失格" in cells and "107.07" not in html


def test_h8_round_card_marks_shikkaku_without_a_ratio(disqualified_winner: Group,
                                                      cast: dict[str, Any]) -> None:
    g = disqualified_winner
    html = client_for(cast["organiser"]).get(
        f"/t/{g.round.tournament.slug}/rounds/1/").content.decode()
    name = _name_of_seat_1(g)
    assert re.search(rf"4\. {re.escape(name)} <span class=\"badge [^\"]*dq-badge\">失格</span>",
                     html)
    assert "107.07" not in html


def test_h8_public_round_page_marks_shikkaku_without_a_ratio(
        disqualified_winner: Group) -> None:
    g = disqualified_winner
    html = client_for(None).get(f"/p/{g.round.tournament.slug}/r/1/").content.decode()
    row = next(r for r in re.findall(r"<tr[^>]*>.*?</tr>", html, re.DOTALL)
               if _name_of_seat_1(g) in r and "失格" in r)
    assert "107.07" not in row
    assert "107.07" not in html


def test_h8_round_document_prints_shikkaku_in_the_ratio_column(
        disqualified_winner: Group) -> None:
    g = disqualified_winner
    doc = round_document(g.round.tournament, 1)
    seat = next(s for grp in doc.groups if grp.label == g.label for s in grp.seats
                if s.number == 1)
    assert seat.disqualified and seat.ratio == "失格"
    # The cross-group 惜敗率 table leaves him out (he cannot advance); no number anywhere.
    assert seat.entrant_id not in {row.entrant_id for row in doc.table}
