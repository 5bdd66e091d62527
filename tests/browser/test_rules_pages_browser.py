"""The rule page on a phone (390 wide) and the rehearsal at laptop size (1280): both read
without sideways scrolling, and the rehearsal highlights its 下関 round. Screenshots go to
/tmp/shots/rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from brackets.models import Tournament
from tests.browser.conftest import login
from tests.conftest import PASSWORD

SHOTS = Path("/tmp/shots/rules")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


def _fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_rule_page_on_a_phone_and_a_rehearsal_on_a_laptop(
        live_server: Any, browser: Any, tournament: Tournament, cast: dict[str, Any]) -> None:
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone = browser.new_context(viewport=PHONE, locale="ja-JP").new_page()
    phone.goto(f"{live_server.url}/p/{tournament.slug}/rules/")
    assert "【各ラウンド・ルール＆勝ち抜け条件】" in phone.inner_text("#rule-page")
    assert _fits(phone)
    phone.screenshot(path=str(SHOTS / "rule-page-390.png"), full_page=True)
    phone.context.close()

    laptop = browser.new_context(viewport=LAPTOP, locale="ja-JP").new_page()
    login(laptop, live_server.url, "org", PASSWORD)
    laptop.goto(f"{live_server.url}/t/{tournament.slug}/rules/rehearsal/")
    laptop.fill("#id_entrants", "58")
    laptop.fill("#id_seeds", "7")
    laptop.fill("#id_runs", "3")
    laptop.click("#rehearsal-run")
    laptop.wait_for_selector("#rehearsal-table")
    assert laptop.locator("tr.table-danger[data-round=r4]").count() == 1
    assert _fits(laptop)
    laptop.screenshot(path=str(SHOTS / "rehearsal-1280.png"), full_page=True)
    laptop.fill("#id_entrants", "1000")
    laptop.fill("#id_runs", "20")
    laptop.click("#rehearsal-run")
    assert "4096" in laptop.inner_text("#rehearsal-form")
    laptop.screenshot(path=str(SHOTS / "rehearsal-1280-refused.png"))
    laptop.context.close()
