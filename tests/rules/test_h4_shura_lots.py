"""H4 修羅 lotteries: the desk's lot page, its reasons, and round 1 waiting for the lots."""

from __future__ import annotations

import re
from typing import Any

import pytest

from brackets.models import Entrant, Tournament
from brackets.services import rounds as svc
from brackets.services.entrants import entrant_register
from tests.conftest import client_for
from tests.states import register_entrants, use_katata

pytestmark = pytest.mark.django_db


@pytest.mark.django_db
def test_desk_menu_leads_to_the_shura_lots_when_the_preset_has_them(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """The desk draws 修羅 lots before round 1, but only the dashboard linked that page."""
    desk = client_for(cast["desk"])
    page = desk.get(f"/t/{tournament.slug}/desk/").content.decode()
    assert f"/t/{tournament.slug}/shura/" not in page  # shop-top2: no 修羅
    use_katata(tournament)
    for url in ("desk/", "desk/new/", "desk/import/"):
        page = desk.get(f"/t/{tournament.slug}/{url}").content.decode()
        assert f'href="/t/{tournament.slug}/shura/"' in page, url


@pytest.mark.django_db
def test_shura_desk_at_tablet_width_reads_as_the_desk_needs(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """The draw form shared the row with name, count and reason: at 768 px the headers
    broke into one character a line. It now has a row of its own, says what the selects
    are for, the volunteer's extra lot reads as the form's field does, and the desk is led
    back to its list (not to the rounds page, which refuses desk staff)."""
    use_katata(tournament)
    entrant_register(tournament=tournament, by=cast["desk"], data={
        "name": "近江五郎", "card_name": "ゴロウ", "q_level": 65, "shura_voluntary": True,
        "shura_extra_lots": 1, "checked_in": True})
    register_entrants(tournament, cast["desk"], 6, check_in_later=False)
    svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    page = client_for(cast["desk"]).get(f"/t/{tournament.slug}/shura/").content.decode()
    assert re.search(r'<tr class="shura-owed">.*?</tr>\s*<tr><td colspan="4"[^>]*>\s*'
                     r'<form[^>]*shura-draw', page, re.S)
    assert "または実物の箱から引いた結果" in page
    assert "修羅の道、追加くじ（自己申告）" in page
    assert f'href="/t/{tournament.slug}/desk/"' in page
    assert f'href="/t/{tournament.slug}/rounds/"' not in page
    assert client_for(cast["desk"]).get(f"/t/{tournament.slug}/rounds/").status_code == 403
    page = client_for(cast["organiser"]).get(f"/t/{tournament.slug}/shura/").content.decode()
    assert f'href="/t/{tournament.slug}/rounds/"' in page


@pytest.mark.django_db
def test_round_one_waits_for_the_shura_lots(tournament: Tournament,
                                            cast: dict[str, Any]) -> None:
    """Round 1 could be drawn while 修羅 players had no lots; after that draw the lots can
    no longer be drawn, and those players chose as if they had none (H4 silently lost).
    The round page names them, links the 修羅くじ page and holds the draw button back."""
    use_katata(tournament)
    entrants = register_entrants(
        tournament, cast["desk"], 7, q_levels=[90, 60, 40, 20, 85, 55, 30],
        check_in_later=False, declarations={
            0: {"shura_voluntary": True},
            1: {"shura_titles": 1},
            # Not checked in: not in round 1, so not waited for.
            2: {"shura_voluntary": True, "checked_in": False},
            3: {"opt_up": "bomber"},  # no lots: プチ修羅
        })
    svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    org = client_for(cast["organiser"])
    url = f"/t/{tournament.slug}/rounds/1/"
    page = org.get(url).content.decode()
    warning = re.search(r'id="shura-pending">(.*?)</div>', page, re.S)
    assert warning is not None
    assert "（2名）：選手P0001、選手P0002" in warning.group(1)
    assert f'href="/t/{tournament.slug}/shura/"' in warning.group(1)
    assert re.search(r'<button class="btn btn-primary" disabled>抽選する</button>', page)
    bracket_page = client_for(cast["bracket"]).get(url).content.decode()
    assert "shura-pending" in bracket_page and f"/t/{tournament.slug}/shura/" not in bracket_page
    for e in entrants[:2]:
        svc.shura_lots_draw(tournament=tournament, entrant=Entrant.objects.get(id=e.id),
                            by=cast["desk"])
    page = org.get(url).content.decode()
    assert "shura-pending" not in page
    assert re.search(r'<button class="btn btn-primary">抽選する</button>', page)


def test_shura_desk_names_lot_reasons_in_japanese(tournament: Tournament, cast: dict[str, Any]) -> None:
    """The 修羅くじ page showed engine codes (national_title, shiga_winner) as the reason."""
    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    entrant_register(tournament=tournament, by=cast["desk"], data={
        "name": "山田 太郎", "card_name": "ヤマダ", "q_level": 90, "shura_titles": 1,
        "shura_extra_lots": 1, "checked_in": True})
    page = client_for(cast["desk"]).get(f"/t/{tournament.slug}/shura/").content.decode()
    assert "全国大会タイトル" in page
    assert "追加" in page
    assert "national_title" not in page


def test_shura_desk_says_rounds_come_first(tournament: Tournament, cast: dict[str, Any]) -> None:
    """The desk learned only after pressing a draw button that rounds had to exist first."""
    page = client_for(cast["desk"]).get(f"/t/{tournament.slug}/shura/").content.decode()
    assert "くじを引く前に" in page
