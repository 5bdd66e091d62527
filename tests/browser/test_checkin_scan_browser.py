"""Check-in by QR in real Chromium at an upright tablet's size (768x1024): a USB scanner
types the code and Enter into the scan field (or into the search field, by habit), and a
photo of the entry sheet's QR is read by the vendored jsQR, offline."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
import segno
from django.contrib.auth import get_user_model
from django.core.management import call_command

from brackets.models import Entrant, Tournament
from brackets.selectors.checkin_codes import checkin_url
from tests.browser.conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "scan-browser-pass"
SHOTS = Path("/tmp/r15")


def count(page: Any, name: str) -> int:
    return int(page.locator(f'#desk-counts [data-count="{name}"] .n').inner_text().split("/")[0])


def test_scanner_and_photo_check_in_at_the_desk(live_server: Any, tablet_page: Any,
                                                tmp_path: Path) -> None:
    call_command("demo", stdout=io.StringIO())
    user = get_user_model().objects.get(username="desk")
    user.set_password(PASSWORD)
    user.save()
    tournament = Tournament.objects.get(slug="demo")
    waiting = list(Entrant.objects.filter(tournament=tournament, checked_in=False)
                   .order_by("id")[:2])
    assert len(waiting) == 2
    first, second = waiting
    page = tablet_page
    blocked: list[str] = []
    # Offline: nothing may be fetched from outside the venue's server.
    page.route("**/*", lambda route: (route.continue_() if route.request.url.startswith(
        live_server.url) else (blocked.append(route.request.url), route.abort())))
    login(page, live_server.url, "desk", PASSWORD)
    page.goto(f"{live_server.url}/t/demo/desk/")
    before = count(page, "checked_in")

    # A USB scanner: the address typed fast, then Enter, into the scan field.
    code = checkin_url(first, "demo", live_server.url)
    page.click("#desk-scan")
    page.keyboard.type(code, delay=2)
    page.keyboard.press("Enter")
    page.wait_for_selector("#scan-result.alert-success")
    assert first.name in page.inner_text("#scan-result")
    assert count(page, "checked_in") == before + 1
    assert page.evaluate("document.activeElement.id") == "desk-scan"  # ready for the next
    assert page.input_value("#desk-scan") == ""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "desk-scan-768.png"), full_page=False)

    # The same sheet again, scanned into the search field: moved to the scan, not searched.
    page.click("#desk-q")
    page.keyboard.type(code, delay=2)
    page.keyboard.press("Enter")
    page.wait_for_selector("#scan-result.alert-info")
    assert "受付済み" in page.inner_text("#scan-result")
    assert count(page, "checked_in") == before + 1

    # A photo of the QR (the camera app on a plain-http LAN), read by jsQR in the page.
    photo = tmp_path / "sheet.png"
    segno.make(checkin_url(second, "demo", live_server.url), error="m").save(
        str(photo), scale=8, border=4)
    assert page.is_visible("#scan-camera")
    page.set_input_files("#scan-photo", str(photo))
    page.wait_for_selector(f'#scan-result.alert-success[data-entrant="{second.pk}"]')
    assert count(page, "checked_in") == before + 2
    assert Entrant.objects.get(pk=second.pk).checked_in

    # A forged code is refused in the page, and nobody is checked in.
    page.fill("#desk-scan", code[:-4] + "AAAA")
    page.keyboard.press("Enter")
    page.wait_for_selector("#scan-result.alert-danger")
    assert count(page, "checked_in") == before + 2
    page.screenshot(path=str(SHOTS / "desk-scan-refused-768.png"), full_page=False)
    assert blocked == []
