"""The composer in real Chromium: an organiser starts from the built-in 九州杯IX on the
rule-set list, sets round 2 to a size round 1 cannot fill, saves, and reads the problem
beside the field, at laptop (1280x800) and tablet (768x1024) width, without sideways
scrolling. Screenshots go to /tmp/shots/rulesets/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from brackets.models import Membership, QmaVersion, Role, RuleSetVersion, Tournament
from brackets.services.catalog import catalog_load_builtin
from tests.browser.conftest import browser, login  # noqa: F401 - the browser fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "ruleset-browser-pass"
SHOTS = Path("/tmp/shots/rulesets")


def test_a_problem_shows_beside_its_field_at_laptop_and_tablet_width(
        live_server: Any, browser: Any) -> None:
    catalog_load_builtin()
    t = Tournament.objects.create(slug="kyushu10", name="九州杯X",
                                  version=QmaVersion.objects.get(slug="qma-2016"))
    user = get_user_model().objects.create_user(username="organiser", password=PASSWORD)
    Membership.objects.create(tournament=t, user=user, role=Role.ORGANISER)
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ja-JP")
    page = context.new_page()
    page.set_default_timeout(10_000)
    login(page, live_server.url, "organiser", PASSWORD)
    page.goto(f"{live_server.url}/t/{t.slug}/rulesets/")
    page.select_option("#ruleset-start select", "kyushu-cup-ix")
    page.click("#ruleset-start button")
    page.wait_for_selector("#ruleset-form")
    page.fill("#id_r-1-size", "44")
    page.click("#ruleset-form button.btn-primary")
    page.wait_for_selector("#ruleset-problems")
    assert RuleSetVersion.objects.count() == 2
    field = page.locator("#id_r-1-size").locator("xpath=..")
    assert "1回戦からは最大40名しか" in field.inner_text()
    assert "要修正" in page.locator("h1").inner_text()
    for width, height in ((1280, 800), (768, 1024)):
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#ruleset-round-2").scroll_into_view_if_needed()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(SHOTS / f"composer-problem-{width}.png"))
        page.screenshot(path=str(SHOTS / f"composer-problem-{width}-full.png"), full_page=True)
    context.close()
