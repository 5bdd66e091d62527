"""An organiser withdraws a player's achievement from the player's page in real Chromium:
the 取り下げ・訂正 panel under the achievement takes the reason, the achievement leaves the
table and the history shows it struck through with who, when and why; the 3-a lot it gave
the player's entrant is gone. Screenshots of the page with the withdrawn achievement at a
laptop's width (1280) and a phone's (390) go to /work/shots/reg-corrections/ (falling
back to /tmp/shots/reg-corrections/)."""

from __future__ import annotations

import datetime
import os
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from brackets.models import AchievementCorrection, Membership, QmaVersion, Role, Tournament
from brackets.selectors.duties import in_force_of
from brackets.services.catalog import catalog_load_builtin
from brackets.services.players import achievement_add, player_card_record, player_create
from tests.browser.conftest import login
from tests.players.helpers import register
from tests.states import KATATA

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "corrections-browser-pass"
SHOTS = Path(os.environ.get("SHOTS_DIR", "/work/shots/reg-corrections"))


def _shots() -> Path:
    try:
        SHOTS.mkdir(parents=True, exist_ok=True)
        return SHOTS
    except OSError:
        fallback = Path("/tmp/shots/reg-corrections")
        fallback.mkdir(parents=True, exist_ok=True)
        return fallback


def _world() -> tuple[Tournament, Any]:
    catalog_load_builtin()
    version = QmaVersion.objects.get(slug="qma-2016")
    organiser = get_user_model().objects.create_user(username="organiser", password=PASSWORD)
    t = Tournament.objects.create(slug="katata-mar", name="堅田大会 3月", version=version,
                                  date=datetime.date(2019, 3, 10), preset=KATATA)
    Membership.objects.create(tournament=t, user=organiser, role=Role.ORGANISER)
    player = player_create(name="堅田太郎", reading="かただたろう", card_name="カタタ",
                           q_level=62, by=organiser)
    player_card_record(player=player, card_name="サブカタ", q_level=85, by=organiser)
    for data in (
        {"kind": "national_title", "title": "賢帝", "game_version": "we",
         "held_on": datetime.date(2016, 11, 20), "source": "QMA公式 全国大会結果"},
        {"kind": "seed_right", "title": "関西杯 シード権", "game_version": "tg",
         "held_on": datetime.date(2016, 8, 1), "source": "関西杯 告知ページ"}):
        achievement_add(player=player, by=organiser, data=data)
    register(t, organiser, name="堅田太郎", card="カタタ", q=62, player=player)
    return t, player


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_organiser_withdraws_an_achievement_on_the_player_page(
        live_server: Any, browser: Any, width: int, height: int) -> None:
    tournament, player = _world()
    context = browser.new_context(viewport={"width": width, "height": height}, locale="ja-JP")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        login(page, live_server.url, "organiser", PASSWORD)
        page.goto(f"{live_server.url}/t/{tournament.slug}/players/{player.pk}/")
        row = page.locator('#achievements tr.correction[data-title="賢帝"]')
        row.locator("summary").click()
        row.locator("input[name=reason]").first.fill("全国大会の称号は同名の別人のもの（本人確認）")
        row.screenshot(path=str(_shots() / f"player-correction-panel-{width}.png"))
        row.get_by_role("button", name="取り下げる").click()
        page.wait_for_selector(".alert-success")
        history = page.locator("#achievement-history").inner_text()
        assert "賢帝" in history and "取り下げ" in history and "同名の別人" in history
        assert "organiser" in history
        assert "<strong>賢帝</strong>" not in page.locator("#achievements").inner_html()
        assert AchievementCorrection.objects.get().achievement.title == "賢帝"
        # The entrant's duties are derived when read: the title's lot is gone, the seed
        # right's stays.
        duties = in_force_of(tournament.entrants.get()).duties
        assert duties.titles == 0 and duties.invited
        page.locator("#achievement-history").scroll_into_view_if_needed()
        page.screenshot(path=str(_shots() / f"player-withdrawn-achievement-{width}.png"),
                        full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        assert not overflow, "the page scrolls sideways"
    finally:
        context.close()
