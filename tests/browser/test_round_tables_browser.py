"""The round tables in real Chromium at tablet and projector sizes: the staff advancement
check (wildcard table with its cut line, the cross-group order and results per seat) and
the public round page's 惜敗率 tables. Screenshots go to /tmp/shots/tables/."""

from __future__ import annotations

import os
from typing import Any

import pytest

from brackets.models import Tournament
from tests.browser.conftest import login
from tests.conftest import PASSWORD
from tests.printing.world import build_kyushu

SHOTS = "/tmp/shots/tables"


def shot(page: Any, name: str) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_round_tables_at_both_sizes(live_server: Any, tournament: Tournament,
                                    cast: dict[str, Any], tablet_page: Any,
                                    projector_page: Any) -> None:
    build_kyushu(tournament, cast["organiser"], upto=1)
    slug = tournament.slug
    for page, size in ((tablet_page, "768"), (projector_page, "1920")):
        page.goto(f"{live_server.url}/p/{slug}/r/1/")
        assert page.locator(".cross-table tbody tr").count() > 40
        assert page.locator(".wildcard-table .cut-line").count() == 1
        assert page.locator(".wildcard-table tr.table-warning").count() == 3
        # Numbers right-aligned, 惜敗率 with two decimals.
        cell = page.locator(".cross-table tbody tr").first.locator("td.num").last
        assert cell.evaluate("e => getComputedStyle(e).textAlign") in ("right", "end")
        assert len(cell.inner_text().split(".")[-1]) == 2
        shot(page, f"public-round-{size}")
        page.goto(f"{live_server.url}/p/{slug}/r/1/projector/?view=table")
        assert page.locator(".wildcard-table tr.wild").count() == 3
        assert page.locator(".wildcard-table .cut-line").count() == 1
        # The table comes in columns (brackets/views/projector.py): no header says 判定.
        heads = page.locator(".wildcard-table thead").all_inner_texts()
        assert heads and not any("判定" in head for head in heads)
        shot(page, f"projector-table-{size}")
        login(page, live_server.url, "org", PASSWORD)
        page.goto(f"{live_server.url}/t/{slug}/rounds/1/advance/")
        assert page.locator(".ratio-table").count() == 1
        assert page.locator(".wildcard-table .cut-line").count() == 1
        page.click("#cross-table summary")
        page.click("#results-table summary")
        assert page.locator(".results-table tbody tr").count() == 60  # 58 players, 2 dummies
        assert page.locator(".results-table tr.dummy-row").count() >= 1
        shot(page, f"advance-{size}")
        page.context.clear_cookies()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_final_ranking_on_the_bracket_page(live_server: Any, tournament: Tournament,
                                          cast: dict[str, Any], tablet_page: Any,
                                          projector_page: Any) -> None:
    from brackets.selectors.round_documents import final_ranking

    build_kyushu(tournament, cast["organiser"], upto=7)
    for page, size in ((tablet_page, "768"), (projector_page, "1920")):
        page.goto(f"{live_server.url}/p/{tournament.slug}/bracket/")
        ranking = page.locator("#final-ranking .ranking-table tbody tr")
        assert ranking.count() == len(final_ranking(tournament)) > 50
        assert "優勝" in ranking.first.inner_text()
        page.locator("#final-ranking").scroll_into_view_if_needed()
        shot(page, f"bracket-ranking-{size}")
