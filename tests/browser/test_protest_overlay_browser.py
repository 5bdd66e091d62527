"""A protest and the stream overlays in real Chromium.

The overlays (OBS browser source, 1920×1080, transparent) are opened once and never
reloaded; the operator taps on the console (1024×768), then changes the judgement through
the protest page, and both overlays follow through the stage's server-sent events. The
screenshots go to /tmp/shots/buzzer/: the console after the protest, each overlay over a
checkerboard, and each overlay with no background at all (its corners must be clear).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from PIL import Image

from brackets.models import BuzzerEvent, Membership, Role, Tournament
from tests.browser.conftest import login
from tests.buzzer_web.factories import make_round, nomx

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "protest-browser-pass"
SHOTS = Path("/tmp/shots/buzzer")
CHECKERBOARD = (
    "document.documentElement.style.setProperty('background',"
    " 'repeating-conic-gradient(#9a9a9a 0 25%, #e8e8e8 0 50%) 0 0 / 60px 60px', 'important')"
)


def main_of(page: Any, seat: int) -> str:
    return str(page.locator(f'.bzo-row[data-player="s{seat}"] .bzo-main').inner_text())


def wait_main(page: Any, seat: int, value: str) -> None:
    page.wait_for_function(
        f"() => (document.querySelector('.bzo-row[data-player=\"s{seat}\"] .bzo-main') || {{}})"
        f".textContent === '{value}'",
        timeout=8000,
    )


@override_settings(BUZZER_STREAM_SECONDS=8, BUZZER_POLL_SECONDS=0.1)
def test_console_taps_and_a_protest_reach_both_overlays(
    live_server: Any, tournament: Tournament, browser: Any
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    operator = get_user_model().objects.create_user("operator", password=PASSWORD)
    Membership.objects.create(tournament=tournament, user=operator, role=Role.BRACKET)
    round_ = make_round(tournament, players=6, config=nomx(5, 2, slots=2, question_limit=35),
                        name="2nd Round", group="A組")

    frame = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="ja-JP")
    overlays = {}
    for variant in ("lower", "side"):
        page = frame.new_page()
        page.goto(f"{live_server.url}/p/{tournament.slug}/buzzer/{round_.pk}/overlay/{variant}/")
        page.wait_for_selector('.bzo-row[data-player="s1"]')
        page.evaluate("window.__notReloaded = true")
        overlays[variant] = page
    desk = browser.new_context(viewport={"width": 1024, "height": 768}, locale="ja-JP")
    console = desk.new_page()
    console.set_default_timeout(10_000)
    login(console, live_server.url, "operator", PASSWORD)
    console.goto(f"{live_server.url}/t/{tournament.slug}/buzzer/{round_.pk}/")

    console.click('button[aria-label="1番 ×"]')
    console.wait_for_selector("#bz-flash.bz-flash-ok")
    console.click('button[aria-label="2番 ○"]')
    for page in overlays.values():
        wait_main(page, 2, "1")
        assert "×1" in page.locator('.bzo-row[data-player="s1"] .bzo-wrong').inner_text()
    console.click('button[aria-label="3番 ○"]')
    for page in overlays.values():
        wait_main(page, 3, "1")

    # 審議: seat 1's answer on question 1 was right after all.
    console.click("#bz-protest")
    console.check('input[name="kind"][value="rejudge"]')
    console.fill('input[name="question"]', "1")
    console.select_option('select[name="player"]', "s1")
    console.check('input[name="correct"][value="1"]')
    console.click("#protest-form button")
    console.wait_for_selector("#protest-preview")
    preview = console.locator("#protest-preview").inner_text()
    assert "選手1" in preview and "選手2" in preview
    console.screenshot(path=str(SHOTS / "protest-preview-1024.png"), full_page=True)
    console.click("#protest-apply")
    console.wait_for_selector("#bz-seats")
    for page in overlays.values():
        wait_main(page, 1, "1")
        wait_main(page, 2, "0")
        assert page.evaluate("window.__notReloaded") is True
    console.click(".bz-log summary")
    assert "判定を×→○に変更" in console.locator("#bz-log").inner_text()
    assert "審議で変更（#4）" in console.locator("#bz-log").inner_text()
    console.screenshot(path=str(SHOTS / "console-after-protest-1024.png"), full_page=False)
    console.screenshot(path=str(SHOTS / "console-after-protest-history.png"), full_page=True)
    kinds = list(BuzzerEvent.objects.filter(round=round_).values_list("kind", "by__username"))
    assert kinds[-1] == ("rejudge", "operator")

    for variant, page in overlays.items():
        clear = SHOTS / f"overlay-{variant}-alpha.png"
        page.screenshot(path=str(clear), omit_background=True)
        with Image.open(clear) as image:
            rgba = image.convert("RGBA")
            assert rgba.size == (1920, 1080)
            assert rgba.getpixel((5, 5))[3] == 0, "the frame outside the panel is transparent"
        page.evaluate(CHECKERBOARD)
        page.screenshot(path=str(SHOTS / f"overlay-{variant}-1920.png"))
    frame.close()
    desk.close()
