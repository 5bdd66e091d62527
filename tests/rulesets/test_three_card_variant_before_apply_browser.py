"""#17 in real Chromium at 1280x800: an organiser turns 九州杯IX's 下関 cards into "three
cards, no redraw" in the composer's cards section, saves, rehearses the rule set at 40
entrants from its own page before applying it, and reads its rule page preview; the
tournament's rules stay as they were; one card with a redraw rule is refused for rehearsal
with the reason. The K6 round offers no advancers of its own.
Screenshots go to /tmp/shots/rulesets/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from brackets.engine import RuleSet
from brackets.models import Membership, QmaVersion, Role, Tournament
from brackets.services.catalog import catalog_load_builtin
from brackets.services.rulesets import current_version, ruleset_start
from tests.browser.conftest import browser, login  # noqa: F401 - the browser fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "three-cards-pass"
SHOTS = Path("/tmp/shots/rulesets")


def _fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_three_card_variant_is_rehearsed_before_it_is_applied(
        live_server: Any, browser: Any) -> None:  # noqa: F811 - the imported fixture
    catalog_load_builtin()
    t = Tournament.objects.create(slug="three", name="下関カップ", capacity=64,
                                  version=QmaVersion.objects.get(slug="qma-2016"))
    user = get_user_model().objects.create_user(username="organiser", password=PASSWORD)
    Membership.objects.create(tournament=t, user=user, role=Role.ORGANISER)
    ruleset = ruleset_start(by=user, preset="kyushu-cup-ix")
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ja-JP")
    page = context.new_page()
    page.set_default_timeout(20_000)
    login(page, live_server.url, "organiser", PASSWORD)
    page.goto(f"{live_server.url}/t/{t.slug}/rulesets/{ruleset.pk}/")
    assert _fits(page)
    page.fill("#id_p-k7_cards_per_draw", "3")
    page.select_option("#id_p-k7_extra_card", "never")
    page.locator("#ruleset-cards").screenshot(path=str(SHOTS / "cards-section-1280.png"))
    page.locator("#ruleset-round-3").screenshot(path=str(SHOTS / "k6-round-1280.png"))
    assert page.locator("#id_r-2-advance_per_group").get_attribute("type") == "hidden"
    page.click("button.btn-primary[name=save]")
    page.wait_for_selector("#ruleset-try")
    cards = RuleSet.from_dict(current_version(ruleset).document).cards
    assert (cards.cards_per_draw, cards.extra_card) == (3, "never")

    page.fill("#ruleset-try #id_entrants", "40")
    page.fill("#ruleset-try #id_runs", "3")
    page.locator("#ruleset-try").screenshot(path=str(SHOTS / "pre-apply-try-1280.png"))
    page.click("#ruleset-try #rehearsal-run")
    page.wait_for_selector("#rehearsal-table")
    assert _fits(page)
    page.screenshot(path=str(SHOTS / "pre-apply-rehearsal-40-1280.png"), full_page=True)
    table = page.inner_text("#rehearsal-table")
    assert "4回戦" in table and "準決勝" in table

    page.click("text=ルールページ（プレビュー）")
    page.wait_for_selector("#rule-page")
    page.screenshot(path=str(SHOTS / "pre-apply-rule-page-1280.png"), full_page=True)
    assert "カードを3枚引き" in page.inner_text("#rule-page")
    t.refresh_from_db()
    assert t.preset != "ruleset"

    # One card with a redraw rule: saved as 要修正, and its rehearsal is refused with why.
    page.goto(f"{live_server.url}/t/{t.slug}/rulesets/{ruleset.pk}/")
    page.fill("#id_p-k7_cards_per_draw", "1")
    page.select_option("#id_p-k7_extra_card", "share_genre_or_group")
    page.click("button.btn-primary[name=save]")
    page.wait_for_selector("#ruleset-try-blocked")
    page.screenshot(path=str(SHOTS / "composer-top-problem-1280.png"))
    page.click("#ruleset-try #rehearsal-run")
    page.wait_for_selector("#rehearsal-error")
    page.screenshot(path=str(SHOTS / "pre-apply-rehearsal-refused-1280.png"))
    assert "下関カードを1枚だけ" in page.inner_text("#rehearsal-problems")
    assert page.locator("#rehearsal-table").count() == 0
    context.close()
