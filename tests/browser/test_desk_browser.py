"""The entry desk in real Chromium at an upright tablet's size (768x1024).

Desk staff register a walk-in on the demo desk, find them again by their reading (typed in
the other kana), check them in with one tap, and watch the counts change.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from brackets.models import Entrant, EntrantRevision
from tests.browser.conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "desk-browser-pass"


def count(page: Any, name: str) -> int:
    return int(page.locator(f'#desk-counts [data-count="{name}"] .n').inner_text().split("/")[0])


def test_walk_in_search_by_reading_and_one_tap_check_in(live_server: Any, tablet_page: Any) -> None:
    call_command("demo", stdout=io.StringIO())
    desk_user = get_user_model().objects.get(username="desk")
    desk_user.set_password(PASSWORD)
    desk_user.save()
    page = tablet_page
    login(page, live_server.url, "desk", PASSWORD)
    page.goto(f"{live_server.url}/t/demo/desk/")
    registered, checked_in = count(page, "registered"), count(page, "checked_in")
    assert registered == 72

    # Walk-in: the fast form on the desk page.
    page.click("#walkin > summary")
    page.fill("#id_walkin-name", "新顔太郎")
    page.fill("#id_walkin-reading", "しんがお たろう")
    page.fill("#id_walkin-card_name", "シンガオ")
    page.fill("#id_walkin-q_level", "42")
    page.click("#walkin-form button[type=submit]")
    page.wait_for_selector(".alert-success")
    assert count(page, "registered") == registered + 1
    assert count(page, "checked_in") == checked_in

    # Search as you type, by reading, in katakana although it was typed in hiragana.
    page.fill("#desk-q", "シンガオタ")
    page.wait_for_selector('#desk-results [data-result-count="1"]')
    row = page.locator("#entrant-list tbody tr", has_text="新顔太郎")
    assert page.locator("#entrant-list tbody tr").count() == 1
    assert "q=" in page.url  # the search is in the address, so a reload keeps it

    # One tap checks in; the counts bar updates without a reload.
    button = row.locator('button[data-flag="checked_in"]')
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44
    search_box = page.locator("#desk-q").bounding_box()
    assert search_box is not None and search_box["height"] >= 44
    button.click()
    page.wait_for_selector('#entrant-list button[data-flag="checked_in"][data-state="on"]')
    page.wait_for_function(
        "n => document.querySelector('#desk-counts [data-count=checked_in] .n').textContent.trim() == String(n)",
        arg=checked_in + 1,
    )
    entrant = Entrant.objects.get(card_name="シンガオ")
    assert entrant.checked_in
    assert EntrantRevision.objects.filter(entrant=entrant, action="checked_in:on").count() == 1

    # Nothing overflows the tablet's width: the table fits without sideways scrolling.
    overflow = page.evaluate(
        "() => { const t = document.querySelector('.table-responsive'); return t.scrollWidth - t.clientWidth; }"
    )
    assert overflow <= 1
