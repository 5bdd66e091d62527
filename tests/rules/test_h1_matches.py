"""H1 堅田大会 matches: two advance per group, and the final ranks all four."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from brackets.models import Entrant, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.helpers import add_entrants, play_round
from tests.states import katata_final_played, use_katata

pytestmark = pytest.mark.django_db


@pytest.mark.django_db
def test_advance_page_says_how_many_advance_and_what_the_table_is(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """The 惜敗率 table of the non-advancers had no heading: with no wildcards in a
    13-player 堅田大会 staff could not tell whether anyone below would still go through."""
    use_katata(tournament)
    add_entrants(tournament, 13, q_levels=[95, 85, 82, 70, 65, 60, 55, 45, 40, 33, 30, 20, 10])
    r1 = svc.rounds_configure(tournament=tournament, by=cast["organiser"])[0]
    svc.round_draw(round=r1, by=cast["organiser"])
    play_round(r1, cast["bracket"], random.Random(3))
    page = client_for(cast["organiser"]).get(
        f"/t/{tournament.slug}/rounds/1/advance/").content.decode()
    assert "勝ち抜け 8名（追加勝ち抜けなし）" in page
    assert "各組上位以外（惜敗率順・敗退）" in page


@pytest.mark.django_db
def test_ranked_final_reads_as_final_places_and_names_the_champion(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """The final that ranks all four said 「勝ち抜けの確認」 / 「勝ち抜けを確定しました」,
    listed names without places, and once confirmed no staff page named the champion; its
    「特別ルールの入力」 button led to an empty page."""
    rounds = katata_final_played(tournament, cast)
    final = rounds[-1]
    org = client_for(cast["organiser"])
    order = sel.final_order(sel.round_view(final))
    names = {str(e.id): e.name for e in Entrant.objects.filter(tournament=tournament)}
    page = org.get(f"/t/{tournament.slug}/rounds/{final.number}/advance/").content.decode()
    assert "最終順位" in page and "勝ち抜けの確認" not in page
    rows = re.findall(r"<tr[^>]*><th[^>]*>(.+?)</th><td>(.+?)</td></tr>", page)
    assert rows == [(label, names[p]) for label, p in zip(["優勝", "準優勝", "3位", "4位"], order)]
    body = org.get(f"/t/{tournament.slug}/rounds/{final.number}/").content.decode()
    assert "特別ルールの入力" not in body
    response = org.post(f"/t/{tournament.slug}/rounds/{final.number}/do/close/", follow=True)
    response = org.post(f"/t/{tournament.slug}/rounds/{final.number}/do/advance/", follow=True)
    page = response.content.decode()
    assert "最終順位を確定しました。" in page
    champion = re.search(r'podium-champion">.*?podium-name"[^>]*>(.+?)</a>', page, re.S)
    assert champion is not None and champion.group(1) == names[order[0]]
    # Group rounds keep their wording.
    page = org.get(f"/t/{tournament.slug}/rounds/1/advance/").content.decode()
    assert "勝ち抜けの確認" in page and "podium" not in page
