"""The floor in real Chromium: a set's tablet (768 px) follows its calls from the waiting
screen to the called group's match page and back, and the projector (1920×1080) shows
「次: C組 → A台」 with the four names and chimes. Screenshots go to /tmp/shots/floor/."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from brackets.models import Group, Round, Tournament
from brackets.services import floor as floor_svc
from tests.browser.conftest import PROJECTOR, login
from tests.conftest import PASSWORD
from tests.rounds.helpers import play_group
from tests.states import kyushu_state

SHOTS = "/tmp/shots/floor"


def shot(page: Any, name: str) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def _round_1_on_two_sets(tournament: Tournament, cast: dict[str, Any]) -> tuple[Round, Any, Any]:
    kyushu_state(tournament, cast["desk"], "round_1_running", count=58, seeds=0)
    rnd = Round.objects.get(tournament=tournament, number=1)
    a = floor_svc.cabinet_set_add(tournament=tournament, name="A台（1〜4番サテ）",
                                  by=cast["organiser"])
    b = floor_svc.cabinet_set_add(tournament=tournament, name="B台（5〜8番サテ）",
                                  by=cast["organiser"])
    return rnd, a, b


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_sets_tablet_follows_its_calls(live_server: Any, tournament: Tournament,
                                           cast: dict[str, Any], tablet_page: Any) -> None:
    rnd, a, _b = _round_1_on_two_sets(tournament, cast)
    page = tablet_page
    login(page, live_server.url, "bracket", PASSWORD)
    page.goto(f"{live_server.url}/t/{tournament.slug}/floor/sets/{a.id}/tablet/")
    page.wait_for_selector("#tablet-status")
    assert "呼び出しを待っています" in page.inner_text("#tablet-status")
    shot(page, "tablet-waiting-768")

    first = Group.objects.filter(round=rnd).order_by("number").first()
    floor_svc.floor_call(group=first, cabinet_set=a, by=cast["organiser"])
    page.wait_for_url(f"**/match/{first.id}/?set={a.id}", timeout=15_000)
    page.wait_for_load_state()
    shot(page, "tablet-called-match-768")

    # The group plays; the organiser calls the next group to A台: the tablet opens it.
    play_group(Group.objects.get(id=first.id), cast["bracket"], random.Random(4))
    second = Group.objects.filter(round=rnd).order_by("number")[1]
    floor_svc.floor_call(group=second, cabinet_set=a, by=cast["organiser"])
    page.wait_for_url(f"**/match/{second.id}/?set={a.id}", timeout=15_000)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_projector_shows_the_call_and_chimes(live_server: Any, tournament: Tournament,
                                                 cast: dict[str, Any], browser: Any) -> None:
    rnd, _a, _b = _round_1_on_two_sets(tournament, cast)
    context = browser.new_context(viewport=PROJECTOR, locale="ja-JP")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/p/{tournament.slug}/r/1/projector/")
    page.wait_for_selector("#floor-call-slot .floor-call-none", state="attached")
    calls = floor_svc.floor_call_next(round=rnd, by=cast["organiser"])
    newest = calls[-1]
    page.wait_for_selector(f".floor-call[data-call='{newest.id}']")
    head = page.inner_text(".floor-call-head")
    assert head == f"次: {newest.group.label}組 → {newest.cabinet_set.name}"
    names = page.locator(".floor-call-names li").all_inner_texts()
    seated = [s.entrant.name for s in newest.group.seats.filter(superseded_by__isnull=True)
              .order_by("number") if s.entrant]
    assert [n.split(" ", 1)[1] for n in names] == seated
    assert page.get_attribute("#floor-call-slot", "data-chimes") == "1"
    shot(page, "projector-call-1920")

    repeat = floor_svc.floor_call_repeat(group=calls[0].group, by=cast["organiser"])
    page.wait_for_selector(f".floor-call[data-call='{repeat.id}']")
    assert "再呼び出し" in page.inner_text(".floor-call-head")
    assert page.get_attribute("#floor-call-slot", "data-chimes") == "2"

    public = context.new_page()
    public.set_viewport_size({"width": 390, "height": 844})
    public.goto(f"{live_server.url}/p/{tournament.slug}/r/1/")
    assert "あなたの出番" in public.inner_text(".your-turn-list")
    shot(public, "public-round-calls-390")
    player = repeat.group.seats.filter(entrant__isnull=False).order_by("number").first()
    public.goto(f"{live_server.url}/p/{tournament.slug}/players/{player.entrant_id}/")
    assert public.inner_text(".your-turn") == (
        f"あなたの出番: {repeat.group.label}組 {repeat.cabinet_set.name} サテ{player.number}")
    shot(public, "public-player-call-390")
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_floor_page_calls_and_refuses_with_the_reason(
        live_server: Any, tournament: Tournament, cast: dict[str, Any], browser: Any) -> None:
    rnd, a, _b = _round_1_on_two_sets(tournament, cast)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    page = context.new_page()
    page.set_default_timeout(15_000)
    login(page, live_server.url, "org", PASSWORD)
    page.goto(f"{live_server.url}/t/{tournament.slug}/floor/")
    page.click("#call-next")
    page.wait_for_selector(".alert-success")
    first = Group.objects.filter(round=rnd).order_by("number").first()
    play_group(Group.objects.get(id=first.id), cast["bracket"], random.Random(2))
    floor_svc.round_planned_start(round=rnd, planned=first.round.steps.first().at,
                                  by=cast["organiser"])
    page.goto(f"{live_server.url}/t/{tournament.slug}/floor/")
    shot(page, "floor-page-1280")
    # A group called to a set in use is refused, with the reason, and nothing changes.
    row = page.locator("#floor-queue tbody tr").nth(1)
    row.locator("select[name=cabinet_set]").select_option(str(
        next(s for s in rnd.tournament.cabinet_sets.all() if s.id != a.id).id))
    row.locator("button").click()
    page.wait_for_selector(".alert-danger")
    assert "対戦中です" in page.inner_text(".alert-danger")
    # Two sets with one name: refused, and what was typed stays in the field.
    page.fill("#floor-add-set input[name=name]", "A台（1〜4番サテ）")
    page.click("#floor-add-set button")
    page.wait_for_selector(".invalid-feedback")
    assert "既にあります" in page.inner_text(".invalid-feedback")
    assert page.input_value("#floor-add-set input[name=name]") == "A台（1〜4番サテ）"
    page.set_viewport_size({"width": 768, "height": 1024})
    page.goto(f"{live_server.url}/t/{tournament.slug}/floor/")
    shot(page, "floor-page-768")
    page.goto(f"{live_server.url}/t/{tournament.slug}/")
    shot(page, "dashboard-768")
    context.close()
