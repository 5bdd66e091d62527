"""The rule-settings page on a tablet: reorder the tie-break chain with ↑↓ and save."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from brackets.models import Tournament
from tests.browser.conftest import login
from tests.conftest import PASSWORD

SHOTS = Path("/tmp/shots/preset_settings")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_tie_break_chain_reorders_on_a_tablet(live_server: Any, tablet_page: Any,
                                              projector_page: Any, tournament: Tournament,
                                              cast: dict[str, Any]) -> None:
    tournament.preset = "kyushu-cup-ix"
    tournament.preset_settings = {"r2_size": 36}
    tournament.save()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = tablet_page
    login(page, live_server.url, "org", PASSWORD)
    page.goto(f"{live_server.url}/t/{tournament.slug}/settings/rules/")
    page.screenshot(path=str(SHOTS / "settings-768.png"), full_page=True)
    chain = page.locator("#id_wildcard_chain")
    # Move 得点 (second) above 惜敗率 (first), then save.
    chain.locator(".chain-item").nth(1).locator(".chain-up").click()
    page.locator("button[name=action][value=save]").click()
    page.wait_for_url("**/settings/rules/")
    tournament.refresh_from_db()
    assert tournament.preset_settings == {"r2_size": 36,
                                          "wildcard_chain": ["score", "ratio", "lottery"]}
    page.screenshot(path=str(SHOTS / "settings-768-saved.png"), full_page=True)
    # A bad value: refused beside its field, nothing saved.
    page.fill("#id_penalty", "-5")
    page.locator("button[name=action][value=save]").click()
    error = page.locator("#setting-penalty .setting-error")
    assert "0以上" in error.inner_text()
    error.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "settings-768-error.png"))
    tournament.refresh_from_db()
    assert "penalty" not in tournament.preset_settings
    login(projector_page, live_server.url, "org", PASSWORD)
    projector_page.goto(f"{live_server.url}/t/{tournament.slug}/settings/rules/")
    projector_page.screenshot(path=str(SHOTS / "settings-1920.png"))
