"""How setting up a live event looks in Chromium: the seed 004 layout and a round's seating
preview at 1280×800, the round settings form at 1280×800 and the console of a round the
organiser created, run by bracket staff at 1024×768. Screenshots go to $SHOTS (if set)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from brackets.models import BuzzerRound, Membership, Role, Tournament
from tests.browser.conftest import login

DESKTOP = {"width": 1280, "height": 800}
OPERATOR = {"width": 1024, "height": 768}


def _shot(page: Any, name: str, full_page: bool = False) -> None:
    folder = os.environ.get("SHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=full_page)


def _fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_seed_004_set_up_from_forms_and_run_by_bracket_staff(
    live_server: Any, tournament: Tournament, browser: Any
) -> None:
    users = get_user_model().objects
    org = users.create_user("qa-org", password="qa-org-pass")
    staff = users.create_user("qa-staff", password="qa-staff-pass")
    Membership.objects.create(tournament=tournament, user=org, role=Role.ORGANISER)
    Membership.objects.create(tournament=tournament, user=staff, role=Role.BRACKET)
    base = f"{live_server.url}/t/{tournament.slug}/buzzer"

    context = browser.new_context(viewport=DESKTOP, locale="ja-JP")
    page = context.new_page()
    login(page, live_server.url, "qa-org", "qa-org-pass")
    page.goto(f"{base}/event/abc-the25th-004/")
    assert page.get_by_text("決勝 トリプルセブン").is_visible()
    assert _fits(page)
    _shot(page, "event_layout_1280")

    page.goto(f"{base}/event/abc-the25th-004/2r/")
    page.fill("#id_first_round", "\n".join(f"選手{n:02d}" for n in range(1, 49)))
    page.click("text=席順を確認")
    page.wait_for_load_state()
    assert page.get_by_text("席順のプレビュー").is_visible()
    assert _fits(page)
    _shot(page, "event_round_preview_1280")
    page.click("summary:has-text('このラウンドの設定')")
    _shot(page, "event_round_preview_settings_1280")
    page.click("text=この席順で作成")
    page.wait_for_load_state()
    assert BuzzerRound.objects.filter(round_slug="2r").count() == 4
    _shot(page, "event_layout_after_2r_1280")


    page.goto(f"{base}/new/?template=abc-the25th-004:final")
    assert page.locator("#id_name").input_value() == "決勝 トリプルセブン"
    assert _fits(page)
    _shot(page, "round_settings_form_1280", full_page=True)
    page.fill("#id_slots", "-1")
    page.fill("#id_name", "x")
    page.fill("#id_players", "甲\n乙")
    page.click("button:has-text('作成')")
    page.wait_for_load_state()
    assert page.locator(".alert-danger").get_by_text("勝ち抜け人数は 0 以上で入力してください").is_visible()
    _shot(page, "round_settings_form_refused_1280")
    context.close()

    context = browser.new_context(viewport=OPERATOR, locale="ja-JP")
    page = context.new_page()
    login(page, live_server.url, "qa-staff", "qa-staff-pass")
    page.goto(f"{base}/event/abc-the25th-004/")
    assert page.get_by_text("ラウンドの作成・設定の変更は主催者が行います").is_visible()
    page.click("a:has-text('操作画面 A組')")
    page.wait_for_load_state()
    page.click('button[aria-label="1番 ○"]')
    page.wait_for_timeout(500)
    assert page.get_by_text("2nd Round 連答つき5○2×").first.is_visible()
    _shot(page, "console_2r_a_1024")
    context.close()

    context = browser.new_context(viewport=DESKTOP, locale="ja-JP")
    page = context.new_page()
    login(page, live_server.url, "qa-org", "qa-org-pass")
    from tests.buzzer_web.test_event_layout_from_preset import _finish_2r_by_seven_outs

    _finish_2r_by_seven_outs(tournament)
    page.goto(f"{base}/event/abc-the25th-004/3r-updown/")
    page.fill("#id_raised-3r-freeze", "選手01\n選手02\n選手03\n選手04\n選手05\n選手06")
    page.click("text=席順を確認")
    page.wait_for_load_state()
    assert page.get_by_text("席順のプレビュー").is_visible()
    assert _fits(page)
    _shot(page, "event_courses_preview_1280", full_page=True)
    context.close()
