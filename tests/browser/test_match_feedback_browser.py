"""The match page's feedback in real Chromium: 保存しました after a save, and a refused
save that keeps the typed values while a reload is a harmless GET."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Group, ResultFact, Tournament
from tests.browser.conftest import login
from tests.conftest import PASSWORD
from tests.rounds.conftest import running_round_one


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_refused_results_reload_does_not_repost(live_server: Any, tournament: Tournament,
                                                cast: dict[str, Any], tablet_page: Any) -> None:
    rnd = running_round_one(tournament, 16, cast["organiser"])
    group = Group.objects.filter(round=rnd).order_by("number").first()
    page = tablet_page
    login(page, live_server.url, "bracket", PASSWORD)
    url = f"{live_server.url}/t/{tournament.slug}/match/{group.id}/"
    page.goto(url)
    for n in range(1, 5):
        page.fill(f"input[name=score_{n}]", str(300 - n))
        page.select_option(f"select[name=place_{n}]", "2")  # no 1位: refused
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.locator("input[name=score_1]").press("Enter")
    page.wait_for_selector("#match-error")
    assert page.url == url  # the address bar shows the match page, not the POST endpoint
    assert page.input_value("input[name=score_2]") == "298"
    sent = len(posts)
    page.reload()
    page.wait_for_load_state()
    assert len(posts) == sent  # reload was a GET
    assert page.locator("#match-error").count() == 0
    for n in range(1, 5):
        page.fill(f"input[name=score_{n}]", str(300 - n))
        page.select_option(f"select[name=place_{n}]", str(n))
    page.locator("input[name=score_1]").press("Enter")
    page.wait_for_load_state()
    assert page.url == url
    assert "保存しました" in page.content()
    assert ResultFact.objects.filter(group=group).count() == 4
