"""#17 Done-when, in real Chromium at laptop size (1280x800): an organiser composes a five-round
event from empty (1回戦 groups of 4, top 2, 惜敗率 wildcards; 2回戦; 準々決勝; 準決勝; a ranked
決勝), saves it with no problem (使用可), applies it to the tournament, rehearses it at 40 and
at 100 entrants and reads the round names on the printed rule page (PDF), both opened from
the rule set's page; the event is then run through the services to a champion. The
composer reads without sideways scrolling at 1280 and 768. Screenshots go to /tmp/shots/rulesets/."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from brackets import engine_adapter as ea
from brackets.models import Membership, QmaVersion, Role, Round, RuleSetVersion, Tournament
from brackets.services import rounds as svc
from brackets.services.catalog import catalog_load_builtin
from tests.browser.conftest import browser, login  # noqa: F401 - the browser fixture
from tests.floor.helpers import draw_released
from tests.rounds.helpers import play_round
from tests.states import register_entrants

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "five-rounds-pass"
SHOTS = Path("/tmp/shots/rulesets")
NAMES = ["1回戦", "2回戦", "準々決勝", "準決勝", "決勝"]
#: What the organiser types into each round (selects by value, boxes ticked).
ROUNDS: list[dict[str, Any]] = [
    {"advance_per_group": "2", "target": "24"},
    {"advance_per_group": "1", "target": "16"},
    {"size": "16"},
    {"size": "8"},
    {"kind": "final_group", "size": "4", "draw": "fixed", "ranks_all": True},
]


def _fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def _type_round(page: Any, i: int, fields: dict[str, Any]) -> None:
    page.fill(f"#id_r-{i}-name", NAMES[i])
    for name, value in fields.items():
        selector = f"#id_r-{i}-{name}"
        if value is True:
            page.check(selector)
        elif name in ("kind", "draw"):
            page.select_option(selector, value)
        else:
            page.fill(selector, value)


def _rehearse(page: Any, entrants: int) -> str:
    page.fill("#id_entrants", str(entrants))
    page.fill("#id_seeds", "0")
    page.fill("#id_runs", "3")
    page.click("#rehearsal-run")
    page.wait_for_selector("#rehearsal-table")
    page.screenshot(path=str(SHOTS / f"five-rounds-rehearsal-{entrants}.png"), full_page=True)
    return str(page.inner_text("#rehearsal-table"))


def test_a_five_round_event_composed_from_empty_runs_to_a_champion(
        live_server: Any, browser: Any) -> None:  # noqa: F811 - the imported fixture
    catalog_load_builtin()
    t = Tournament.objects.create(slug="five", name="五回戦カップ", capacity=100,
                                  version=QmaVersion.objects.get(slug="qma-2016"))
    user = get_user_model().objects.create_user(username="organiser", password=PASSWORD)
    Membership.objects.create(tournament=t, user=user, role=Role.ORGANISER)
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ja-JP")
    page = context.new_page()
    page.set_default_timeout(15_000)
    login(page, live_server.url, "organiser", PASSWORD)
    page.goto(f"{live_server.url}/t/{t.slug}/rulesets/")
    page.screenshot(path=str(SHOTS / "five-rounds-list-1280.png"), full_page=True)
    page.fill("#ruleset-empty #id_name", "五回戦カップ")
    page.select_option("#ruleset-empty #id_shape", "rounds")
    page.click("#ruleset-empty button")
    page.wait_for_selector("#ruleset-form")

    page.fill("#id_p-capacity", "100")
    for i, fields in enumerate(ROUNDS):
        if i:
            page.click("#ruleset-add-round")
            page.wait_for_selector(f"#id_r-{i}-name")
            # Nothing typed before the press is lost.
            assert page.input_value("#id_p-capacity") == "100"
            assert page.input_value(f"#id_r-{i - 1}-name") == NAMES[i - 1]
        _type_round(page, i, fields)
    for width, height in ((1280, 800), (768, 1024)):
        page.set_viewport_size({"width": width, "height": height})
        assert _fits(page)
        page.screenshot(path=str(SHOTS / f"five-rounds-composer-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click("#ruleset-form button.btn-primary")
    page.wait_for_selector("h1 .badge")
    assert "使用可" in page.inner_text("h1"), page.inner_text("#ruleset-form")[:2000]
    assert RuleSetVersion.objects.count() == 2
    titles = page.locator(".ruleset-round-title").all_inner_texts()
    assert [text.split(" ")[1] for text in titles] == NAMES
    page.screenshot(path=str(SHOTS / "five-rounds-saved-1280.png"), full_page=True)

    page.click("text=このルールをこの大会に使う")
    page.wait_for_selector("#ruleset-in-use")
    t.refresh_from_db()
    assert t.preset == ea.RULESET_PRESET
    page.screenshot(path=str(SHOTS / "five-rounds-in-use-1280.png"))
    pdf_url = live_server.url + str(page.get_attribute("#ruleset-rule-page", "href"))

    page.click("#ruleset-rehearsal")
    page.wait_for_selector("#rehearsal-form")
    for entrants in (40, 100):
        table = _rehearse(page, entrants)
        assert all(name in table for name in NAMES)
        assert _fits(page)

    pdf = page.request.get(pdf_url)
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
    path = SHOTS / "five-rounds-rule-page.pdf"
    path.write_bytes(pdf.body())
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout
    assert all(name in text for name in NAMES)
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(path),
                    str(SHOTS / "five-rounds-rule-page")], check=True)
    context.close()

    register_entrants(t, user, 40, check_in_later=False)
    rounds = svc.rounds_configure(tournament=t, by=user)
    assert [r.name for r in rounds] == NAMES
    rng = random.Random(17)
    champion: list[Any] = []
    for rnd in rounds:
        rnd = draw_released(Round.objects.get(pk=rnd.pk), user)
        play_round(rnd, user, rng)
        champion = svc.round_advance(round=rnd, by=user)
    assert len(champion) == 1
