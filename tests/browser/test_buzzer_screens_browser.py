"""How the buzzer console and stage look in Chromium.

A hovered ○/× keeps its colour, two-digit counts fit a 14-seat stage, the 10by10 stage
shows both factors, and a pending M5 playoff reads 「n問 終了 ・ プレーオフ待ち」 with the
768 px console head on one row. In this folder so they share its one Playwright session (a
second session started from another folder fails inside the first one's event loop).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from brackets.engine.buzzer import PRESETS
from brackets.models import Membership, Role, Tournament
from tests.browser.conftest import login
from tests.buzzer_web.factories import make_round, tap

ABC = PRESETS.get("abc-the25th-004")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_hovered_buttons_keep_their_colour_and_numbers_fit(
    live_server: Any, tournament: Tournament, tablet_page: Any, projector_page: Any
) -> None:
    user = get_user_model().objects.create_user("qa-operator", password="qa-operator-pass")
    Membership.objects.create(tournament=tournament, user=user, role=Role.BRACKET)
    round_ = make_round(tournament, players=14, config=ABC.round("extra-2").config)
    login(tablet_page, live_server.url, "qa-operator", "qa-operator-pass")
    tablet_page.goto(f"{live_server.url}/t/{tournament.slug}/buzzer/{round_.pk}/")
    for label in ("1番 ○", "1番 ×"):
        button = tablet_page.locator(f'button[aria-label="{label}"]')
        before = button.evaluate("e => getComputedStyle(e).backgroundColor")
        button.hover()
        tablet_page.wait_for_timeout(400)  # past Bootstrap's background transition
        after = button.evaluate("e => getComputedStyle(e).backgroundColor")
        assert after == before != "rgba(0, 0, 0, 0)"

    # A 14-seat stage with two-digit counts (M4 first step: 14 standing after Q10 and
    # more): every number stays inside its card.
    board = projector_page
    board.goto(f"{live_server.url}/p/{tournament.slug}/buzzer/{round_.pk}/")
    board.wait_for_selector('.bzb-card[data-player="s14"]')
    board.evaluate(
        "() => document.querySelectorAll('.bzb-main').forEach(e => { e.textContent = '11';"
        " e.style.setProperty('--len', '2'); })"
    )
    overflow = board.evaluate(
        "() => [...document.querySelectorAll('.bzb-card')].filter(c => {"
        " const m = c.querySelector('.bzb-main').getBoundingClientRect();"
        " const r = c.getBoundingClientRect();"
        " return m.width > r.width * 0.9 || m.left < r.left || m.right > r.right; }).length"
    )
    assert overflow == 0


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_10by10_stage_shows_both_factors(
    live_server: Any, tournament: Tournament, projector_page: Any
) -> None:
    """M3 10by10: 総合ポイント = 正解ポイント × 誤答ポイント; the stage shows 3 × 9 under 27."""
    round_ = make_round(tournament, players=3, config=ABC.round("3r-10by10").config)
    user = get_user_model().objects.create_user("qa-by", password="qa-by-pass")
    Membership.objects.create(tournament=tournament, user=user, role=Role.BRACKET)
    c = Client()
    c.force_login(user)
    tap(c, round_, kind="clock_start")
    for _ in range(3):
        tap(c, round_, kind="correct", player="s1")
    tap(c, round_, kind="wrong", player="s1")
    projector_page.goto(f"{live_server.url}/p/{tournament.slug}/buzzer/{round_.pk}/")
    card = projector_page.locator('.bzb-card[data-player="s1"]')
    assert card.locator(".bzb-main").inner_text() == "27"
    assert card.locator(".bzb-wrong").inner_text() == "3 × 9"
    assert projector_page.locator('.bzb-card[data-player="s2"] .bzb-wrong').inner_text() == "0 × 10"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_pending_playoff_header_and_one_line_console_head(
    live_server: Any, tournament: Tournament, tablet_page: Any, projector_page: Any
) -> None:
    """M5 after time: 「n問 終了 ・ プレーオフ待ち」, not 「第n問」; the 768 px head is one row."""
    user = get_user_model().objects.create_user("qa-nine", password="qa-nine-pass")
    Membership.objects.create(tournament=tournament, user=user, role=Role.BRACKET)
    round_ = make_round(
        tournament, players=9, config=ABC.round("sf-2").config,
        name="Semi Final Nine Hundred set 2 (+1/−2)",
    )
    c = Client()
    c.force_login(user)
    tap(c, round_, kind="clock_start")
    login(tablet_page, live_server.url, "qa-nine", "qa-nine-pass")
    tablet_page.goto(f"{live_server.url}/t/{tournament.slug}/buzzer/{round_.pk}/")
    tablet_page.wait_for_selector(".bz-seat")
    head = tablet_page.evaluate(
        "() => ['#bz-question', '#bz-clock', '#bz-clock-toggle', '#bz-clock-expire']"
        ".map(s => Math.round(document.querySelector(s).getBoundingClientRect().top))"
    )
    link = tablet_page.locator(".bz-head a.btn", has_text="スコアボード").bounding_box()
    title = tablet_page.locator(".bz-title").bounding_box()
    assert max(head) - min(head) < 20, head  # question, clock and its buttons on one row
    assert link["y"] + link["height"] <= title["y"] + title["height"] + 1  # link inside title

    tap(c, round_, kind="correct", player="s1")
    tap(c, round_, kind="correct", player="s2")
    body = tap(c, round_, kind="clock_expire", question_in_play="0")
    assert body["phase"] == "deciding"
    tablet_page.reload()
    tablet_page.wait_for_selector(".bz-seat")
    assert tablet_page.inner_text("#bz-question") == "2問 終了 ・ プレーオフ待ち"
    projector_page.goto(f"{live_server.url}/p/{tournament.slug}/buzzer/{round_.pk}/")
    projector_page.wait_for_selector(".bzb-card")
    assert projector_page.inner_text("#bzb-question") == "2問 終了 ・ プレーオフ待ち"
    q = projector_page.locator("#bzb-question").bounding_box()
    assert q["height"] < 1080 * 0.11  # one line inside the header
