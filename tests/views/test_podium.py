"""Public pages name the champion, runner-up and third, and where each player finished."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from brackets.models import Entrant, Round, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.printing.world import build_kyushu

pytestmark = pytest.mark.django_db


def _podium(t: Tournament) -> dict[str, str]:
    return {row.label: row.name for row in sel.podium(t)}


def test_final_page_announces_champion_runner_up_and_third(tournament_finished: Tournament) -> None:
    """The final's public page listed two names in an <ol> and nothing said who won."""
    t = tournament_finished
    podium = _podium(t)
    assert set(podium) == {"優勝", "準優勝", "3位"}
    final = Round.objects.get(tournament=t, kind="partner_series")
    html = client_for(None).get(f"/p/{t.slug}/r/{final.number}/").content.decode()
    champion = re.search(r'podium-champion">\s*<span class="podium-label">(.*?)</span>\s*'
                         r'<a class="podium-name"[^>]*>(.*?)</a>', html, re.DOTALL)
    assert champion is not None
    assert champion.group(1).strip() == "優勝" and champion.group(2) == podium["優勝"]
    assert podium["準優勝"] in html and podium["3位"] in html
    bracket = client_for(None).get(f"/p/{t.slug}/bracket/").content.decode()
    assert 'id="podium"' in bracket and "podium-champion" in bracket
    assert podium["優勝"] in bracket.split('id="podium"')[1].split("</section>")[0]


def test_public_home_shows_the_podium_and_links_each_round(tournament_finished: Tournament) -> None:
    """Once the event was over, the public front page said only 終了 and one button; the
    champion was a tap away on the bracket and rounds two taps away."""
    t = tournament_finished
    assert t.status == Tournament.Status.FINISHED
    html = Client().get(f"/p/{t.slug}/").content.decode()
    podium = _podium(t)
    assert 'id="podium"' in html
    for label in ("優勝", "準優勝", "3位"):
        assert label in html and podium[label] in html
    for rnd in Round.objects.filter(tournament=t):
        assert f'href="/p/{t.slug}/r/{rnd.number}/"' in html


def test_public_home_before_the_draw_has_no_round_links(tournament: Tournament,
                                                        cast: dict[str, Any]) -> None:
    svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    html = Client().get(f"/p/{tournament.slug}/").content.decode()
    assert f"/p/{tournament.slug}/r/1/" not in html and 'id="podium"' not in html


def test_player_page_says_where_the_player_finished(tournament: Tournament,
                                                    cast: dict[str, Any]) -> None:
    """The champion's own page listed their games down to the final and never said 優勝
    (nor 準優勝 / 3位 for the others), and a seed's list began at round 2 unexplained."""

    build_kyushu(tournament, cast["organiser"], count=20, seeds=4)
    public = client_for(None)
    labels = {row.label: row.player for row in sel.podium(tournament)}
    assert set(labels) == {"優勝", "準優勝", "3位"}
    for label, player in labels.items():
        html = public.get(f"/p/{tournament.slug}/players/{player}/").content.decode()
        assert f'id="player-finish">{label}</span>' in html
    seed = Entrant.objects.filter(tournament=tournament, seed__isnull=False).order_by("seed")[0]
    html = public.get(f"/p/{tournament.slug}/players/{seed.id}/").content.decode()
    assert f"シード{seed.seed}</span>" in html
    fourth = [e for e in Entrant.objects.filter(tournament=tournament)
              if str(e.id) not in labels.values()][0]
    html = public.get(f"/p/{tournament.slug}/players/{fourth.id}/").content.decode()
    assert 'id="player-finish"' not in html
