"""The series pages in real Chromium: the public series page on a phone (390x844) with a
finished qualifier's berth winner, a berth granted by hand and the players still eligible,
fitting the screen's width; the organiser's series page at 1280x800. Screenshots go to
/tmp/shots/series/."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from brackets.models import Membership, QmaVersion, Role, Tournament
from brackets.services.catalog import catalog_load_builtin
from brackets.services.series import berth_grant, tournament_series_set
from tests.browser.conftest import login
from tests.series.helpers import kansai5, play, pool, qualifier

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "series-browser-pass"
SHOTS = Path("/tmp/shots/series")


def _world() -> tuple[Any, Tournament, Any]:
    catalog_load_builtin()
    version = QmaVersion.objects.get(slug="qma-2016")
    users = {name: get_user_model().objects.create_user(username=name, password=PASSWORD)
             for name in ("organiser", "desk", "bracket")}
    series = kansai5(users)
    players = pool(13)
    q1 = qualifier(series, "katata-1", datetime.date(2019, 1, 13), version, users)
    champion = play(q1, players, users)
    qualifier(series, "katata-2", datetime.date(2019, 2, 10), version, users)
    main = Tournament.objects.create(slug="kansai5", name="関西杯5 本戦", version=version,
                                     date=datetime.date(2019, 5, 3))
    Membership.objects.create(tournament=main, user=users["organiser"], role=Role.ORGANISER)
    tournament_series_set(tournament=main, series=series, role="main")
    berth_grant(series=series, player=players[5] if players[5] != champion else players[6],
                qualifier="大津予選（他会場）", held_on=datetime.date(2019, 1, 27), place=1,
                source="大津予選 結果ツイート", by=users["organiser"])
    return series, q1, champion


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_public_series_page_on_a_phone_and_organiser_page(live_server: Any,
                                                          browser: Any) -> None:
    series, q1, champion = _world()
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="ja-JP")
    page = phone.new_page()
    page.goto(f"{live_server.url}/s/{series.slug}/")
    qualifiers = page.locator("#series-qualifiers").inner_text()
    assert champion.name in qualifiers and "終了" in qualifiers
    assert "大津予選（他会場）" in qualifiers and "大会終了後に決まります" in qualifiers
    assert page.locator("#series-eligible li").count() == 11
    _no_sideways_scroll(page)
    page.screenshot(path=str(SHOTS / "public-series-390.png"), full_page=True)
    phone.close()

    desk = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ja-JP")
    page = desk.new_page()
    login(page, live_server.url, "organiser", PASSWORD)
    page.goto(f"{live_server.url}/t/{q1.slug}/series/{series.slug}/")
    assert champion.name in page.locator("#series-qualifiers").inner_text()
    assert "大津予選 結果ツイート" in page.content()
    _no_sideways_scroll(page)
    page.screenshot(path=str(SHOTS / "organiser-series-1280.png"), full_page=True)
    desk.close()
