"""The projector's 惜敗率 table fits a 1920×1080 screen: it comes in screens of columns,
shown in turn, never a table that runs off the bottom. Screenshots go to /tmp/shots/projector/."""

from __future__ import annotations

import os
from typing import Any

import pytest

from brackets.models import Tournament
from tests.states import kyushu_state

SHOTS = "/tmp/shots/projector"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_projector_ratio_table_at_72_entrants_fits_1080_in_turning_screens(
        live_server: Any, tournament: Tournament, cast: dict[str, Any],
        projector_page: Any) -> None:
    kyushu_state(tournament, cast["organiser"], "after_round_1", count=72)
    page = projector_page
    page.goto(f"{live_server.url}/p/{tournament.slug}/r/1/projector/?view=table")
    screens = page.locator(".proj-screen")
    count = screens.count()
    rows = page.locator(".proj-screen tbody tr").count()
    assert rows > 21, "72 entrants leave more rows than one column holds"
    assert page.locator(".proj-screen:not([hidden])").count() == 1
    os.makedirs(SHOTS, exist_ok=True)
    for index in range(count):
        # Show each screen as projector.js would, and measure it against the viewport.
        page.evaluate("i => document.querySelectorAll('.proj-screen').forEach("
                      "(s, n) => { s.hidden = n !== i; })", index)
        assert page.evaluate("document.documentElement.scrollHeight") <= 1080
        bottom = page.evaluate("Math.max(...[...document.querySelectorAll("
                               "'.proj-screen:not([hidden]) tbody tr')].map("
                               "r => r.getBoundingClientRect().bottom))")
        assert bottom <= 1080
        # Columns side by side: no cell spills over its column into the next.
        assert page.evaluate("[...document.querySelectorAll('.proj-screen:not([hidden]) table')]"
                             ".every(t => t.scrollWidth <= t.parentElement.clientWidth + 1)")
        page.screenshot(path=f"{SHOTS}/table-72-screen-{index + 1}.png")
    # Every wildcard is on one of the screens, marked as on the unpaged table.
    from brackets.models import RoundStep

    step = RoundStep.objects.get(round__tournament=tournament, round__number=1, action="advance",
                                 undone_by__isnull=True)
    assert page.locator(".wildcard-table tr.wild").count() == len(step.data["wildcards"]) > 0


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_projector_turns_to_the_next_screen_and_keeps_it_across_a_live_update(
        live_server: Any, tournament: Tournament, cast: dict[str, Any],
        projector_page: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from brackets.views import projector

    # Short columns and a quick turn, so 72 entrants need several screens and the test
    # does not wait the venue's 10 s.
    monkeypatch.setattr(projector, "ROWS_PER_COLUMN", 5)
    monkeypatch.setattr(projector, "SCREEN_SECONDS", 1)
    kyushu_state(tournament, cast["organiser"], "after_round_1", count=72)
    page = projector_page
    page.goto(f"{live_server.url}/p/{tournament.slug}/r/1/projector/?view=table")
    count = page.locator(".proj-screen").count()
    assert count > 2
    shown = "[...document.querySelectorAll('.proj-screen')].findIndex(s => !s.hidden)"
    assert page.evaluate(shown) == 0
    page.wait_for_function(f"{shown} === 1", timeout=5000)
    # A live update swaps the whole table in: the screen shown stays the second one.
    kept = page.evaluate(f"(() => {{ const before = {shown}; "
                         f"htmx.trigger('#live', 'htmx:afterSwap'); "
                         f"return before > 0 && {shown} === before; }})()")
    assert kept
