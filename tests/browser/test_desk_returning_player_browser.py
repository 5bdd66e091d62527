"""The desk recognising a returning player, in real Chromium at an upright tablet's size
(768x1024): typing a reading shows the registry's player with what the registry gives them
at this 堅田 event (2-d from the highest card, a 3-a lot with the title behind it, their
past 堅田 appearance), one tap fills the walk-in form, and the entry is linked to them.
The screenshot goes to /tmp/shots/players/desk-returning-player-768.png."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from brackets.models import Entrant, Membership, Player, QmaVersion, Role, Tournament
from brackets.selectors.duties import in_force_of
from brackets.services.catalog import catalog_load_builtin
from brackets.services.players import achievement_add, player_card_record, player_create
from brackets.services.series import series_create, tournament_series_set
from tests.browser.conftest import login
from tests.players.helpers import register
from tests.states import KATATA

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "returning-browser-pass"
SHOTS = Path("/tmp/shots/players")


def _world() -> tuple[Tournament, Player]:
    catalog_load_builtin()
    version = QmaVersion.objects.get(slug="qma-2016")
    desk = get_user_model().objects.create_user(username="desk", password=PASSWORD)
    earlier = Tournament.objects.create(slug="katata-jan", name="堅田大会 1月", version=version,
                                        date=datetime.date(2019, 1, 13), preset=KATATA)
    today = Tournament.objects.create(slug="katata-mar", name="堅田大会 3月", version=version,
                                      date=datetime.date(2019, 3, 10), preset=KATATA)
    series = series_create(name="関西杯5", slug="kansai-cup-5", game_version="we", by=None)
    for t in (earlier, today):
        Membership.objects.create(tournament=t, user=desk, role=Role.DESK)
        tournament_series_set(tournament=t, series=series)  # H0-b reads the series
    player = player_create(name="堅田太郎", reading="かただたろう", card_name="カタタ",
                           q_level=62, by=desk)
    player_card_record(player=player, card_name="サブカタ", q_level=85, by=desk)
    achievement_add(player=player, by=desk, data={
        "kind": "national_title", "title": "賢帝", "game_version": "we",
        "held_on": datetime.date(2016, 11, 20), "source": "QMA公式 全国大会結果"})
    register(earlier, desk, name="堅田太郎", card="カタタ", q=62, player=player)
    return today, player


def test_desk_recognises_a_returning_player_and_fills_the_walk_in(
        live_server: Any, tablet_page: Any) -> None:
    today, player = _world()
    page = tablet_page
    login(page, live_server.url, "desk", PASSWORD)
    page.goto(f"{live_server.url}/t/{today.slug}/desk/")
    page.click("#walkin > summary")
    page.fill("#id_walkin-reading", "カタダ")  # katakana, although registered in hiragana
    match = page.locator(f'#walkin-registry .registry-match[data-player="{player.pk}"]')
    match.wait_for()
    text = match.inner_text()
    assert "堅田太郎" in text and "サブカタ Q85" in text and "ボンバーマン" in text
    assert "賢帝" in text and "QMA公式 全国大会結果" in text
    assert "初めて出場したカード「カタタ」" in text
    match.get_by_role("button", name="この選手で入力").click()
    assert page.input_value("#id_walkin-name") == "堅田太郎"
    assert page.input_value("#id_walkin-q_level") == "85"  # 2-d: the highest card
    assert page.input_value("#id_walkin-player") == str(player.pk)
    # H0-b: their first 堅田 appearance was on カタタ, so the desk fills that card.
    assert page.input_value("#id_walkin-card_name") == "カタタ"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "desk-returning-player-768.png"), full_page=False)
    page.click("#walkin-form button[type=submit]")
    page.wait_for_selector(".alert-success")
    entrant = Entrant.objects.get(tournament=today)
    assert entrant.player_id == player.pk
    # The title is derived from the registry when read (never copied into the entrant).
    assert (entrant.q_level, in_force_of(entrant).duties.titles) == (85, 1)
    assert Player.objects.count() == 1
