"""A live buzzer round in real Chromium: taps on the console reach the stage scoreboard.

The operator (tablet) taps ○ for seat 1, then uses the laptop keys 2 → x and u (undo); the
projector page, opened once and never reloaded, follows every tap through its
server-sent-events stream.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from brackets.models import BuzzerEvent, Membership, Role, Tournament
from tests.browser.conftest import login
from tests.buzzer_web.factories import make_round, nomx

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "buzzer-browser-pass"


def card_text(page: Any, seat: int) -> str:
    return str(page.locator(f'.bzb-card[data-player="s{seat}"]').inner_text())


@override_settings(BUZZER_STREAM_SECONDS=8, BUZZER_POLL_SECONDS=0.1)
def test_console_taps_appear_on_the_scoreboard_without_reload(
    live_server: Any, tournament: Tournament, tablet_page: Any, projector_page: Any
) -> None:
    operator = get_user_model().objects.create_user("operator", password=PASSWORD)
    Membership.objects.create(tournament=tournament, user=operator, role=Role.BRACKET)
    round_ = make_round(tournament, players=4, config=nomx(5, 2, slots=2, question_limit=35))

    board = projector_page
    board.goto(f"{live_server.url}/p/{tournament.slug}/buzzer/{round_.pk}/")
    board.wait_for_selector('.bzb-card[data-player="s1"]')
    board.evaluate("window.__notReloaded = true")
    assert card_text(board, 1).startswith("1\n0")  # seat number, then 0 ○

    console = tablet_page
    login(console, live_server.url, "operator", PASSWORD)
    console.goto(f"{live_server.url}/t/{tournament.slug}/buzzer/{round_.pk}/")
    console.click('button[aria-label="1番 ○"]')
    console.wait_for_selector("#bz-flash.bz-flash-ok")
    board.wait_for_function(
        "() => document.querySelector('.bzb-card[data-player=\"s1\"] .bzb-main').textContent === '1'",
        timeout=5000,
    )
    assert "第2問" in board.locator("#bzb-question").inner_text()

    # Laptop keys: seat 2, then × ; the seat's buttons are disabled for the rest of the question.
    console.keyboard.press("2")
    console.keyboard.press("x")
    board.wait_for_function(
        "() => document.querySelector('.bzb-card[data-player=\"s2\"] .bzb-wrong').textContent === '×1'",
        timeout=5000,
    )
    console.wait_for_function(
        "() => document.querySelector('button[aria-label=\"2番 ○\"]').disabled"
    )
    # A refused tap shows the engine's reason in Japanese and records nothing.
    console.keyboard.press("2")
    console.keyboard.press("o")
    console.wait_for_selector("#bz-flash.bz-flash-error")
    assert "誤答" in console.locator("#bz-flash").inner_text()
    assert BuzzerEvent.objects.filter(round=round_).count() == 2

    # Undo (u) takes the × back on both screens.
    console.keyboard.press("u")
    board.wait_for_function(
        "() => document.querySelector('.bzb-card[data-player=\"s2\"] .bzb-wrong').textContent === ''",
        timeout=5000,
    )
    assert board.evaluate("window.__notReloaded") is True
    kinds = list(BuzzerEvent.objects.filter(round=round_).values_list("kind", "by__username"))
    assert kinds == [("correct", "operator"), ("wrong", "operator"), ("undo", "operator")]
