"""K4: 「全体の成績」's heading, its order and the result sheet agree with the cut line.

The heading said 「2位以下は惜敗率順」 while the list sorted by in-group place first; the
wildcard table above it sorted the non-advancers by 惜敗率 together. The list now orders
them as the wildcard table does, and the heading (screen and PDF) says so.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.core.cache import cache

from brackets.models import Group, Round, Tournament
from brackets.selectors import rounds as sel
from brackets.selectors.round_documents import round_document
from tests.conftest import client_for
from tests.rounds.conftest import running_round_one
from tests.rounds.helpers import play_group

pytestmark = pytest.mark.django_db

HEADING = "各組1位は得点順、2位は惜敗率順、3位以下はまとめて惜敗率順（追加勝ち抜けの順）"


@pytest.fixture
def played(tournament: Tournament, cast: dict[str, Any]) -> Round:
    rnd = running_round_one(tournament, 16, cast["organiser"])
    rng = random.Random(13)
    for group in Group.objects.filter(round=rnd).order_by("number"):
        play_group(group, cast["bracket"], rng)
    cache.clear()
    return Round.objects.get(id=rnd.id)


def test_k4_overall_list_orders_non_advancers_as_the_wildcard_table(played: Round) -> None:
    rv = sel.round_view(played)
    below = [row.player for row in sel.round_table(rv) if row.place > 2]
    ((_rule, outcome),) = sel.advancement_preview(played, rv)
    assert below == [row.standing.player for row in outcome.table]
    ratios = [row.ratio.sort_key() for row in sel.round_table(rv) if row.place > 2]
    assert ratios == sorted(ratios)  # 3rd and 4th places together, best 惜敗率 first


def test_k4_heading_says_the_order_on_the_public_page_and_the_result_sheet(
        played: Round) -> None:
    t = played.tournament
    html = client_for(None).get(f"/p/{t.slug}/r/1/").content.decode()
    assert f"全体の成績（{HEADING}）" in html
    assert "2位以下は惜敗率順）" not in html
    assert round_document(t, 1).order_note == HEADING


def test_k4_heading_on_the_advancement_page(played: Round, cast: dict[str, Any]) -> None:
    from brackets.services import rounds as svc

    svc.round_close(round=played, by=cast["organiser"])
    html = client_for(cast["organiser"]).get(
        f"/t/{played.tournament.slug}/rounds/1/advance/").content.decode()
    assert re.search(rf"全体の成績（{re.escape(HEADING)}）", html)
