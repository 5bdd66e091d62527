"""One group on a tablet in real Chromium: an illegal set shown with the engine's reason and
refused, legal sets, the result screen, 惜敗率, closing and advancing; the public page
updates without a reload. Screenshots go to /tmp/shots/rounds/."""

from __future__ import annotations

import os
from typing import Any

import pytest

from brackets.models import Entrant, Group, Round, Seat, SelectionFact, Tournament
from brackets.services import rounds as svc
from tests.browser.conftest import PROJECTOR, login
from tests.conftest import PASSWORD
from tests.rounds.helpers import add_entrants

SHOTS = "/tmp/shots/rounds"


def shot(page: Any, name: str) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_one_group_on_a_tablet(live_server: Any, tournament: Tournament, cast: dict[str, Any],
                               tablet_page: Any, browser: Any) -> None:
    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    # 7 entrants: two groups (one with a dummy) and a final. Everyone walks 修羅の道 and
    # drew 芸能, so 芸能 is illegal for whoever sits in the group we drive.
    entrants = add_entrants(tournament, 7, q_levels=[90, 60, 40, 20, 85, 55, 30])
    Entrant.objects.filter(tournament=tournament).update(shura_voluntary=True)
    rounds = svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    assert [r.name for r in rounds] == ["準決勝", "決勝"]
    for e in entrants:
        svc.shura_lots_draw(tournament=tournament, entrant=Entrant.objects.get(id=e.id),
                            by=cast["desk"], genres=["芸能"])
    svc.round_draw(round=rounds[0], by=cast["organiser"])
    svc.round_start(round=rounds[0], by=cast["organiser"])
    group = next(g for g in Group.objects.filter(round=rounds[0])
                 if Seat.objects.filter(group=g, entrant__isnull=True).exists())
    other = Group.objects.filter(round=rounds[0]).exclude(id=group.id).get()
    import random

    from tests.rounds.helpers import play_group

    play_group(other, cast["bracket"], random.Random(1))
    seat_of = {s.entrant_id: s.number for s in Seat.objects.filter(group=group)}
    shura = Entrant.objects.get(id=next(k for k in seat_of if k is not None))

    public = browser.new_context(viewport=PROJECTOR, locale="ja-JP").new_page()
    public.goto(f"{live_server.url}/p/{tournament.slug}/r/1/")
    public.wait_for_selector("#pg-B, #pg-A")
    shot(public, "public-round-before-1920")

    page = tablet_page
    login(page, live_server.url, "bracket", PASSWORD)
    page.goto(f"{live_server.url}/t/{tournament.slug}/match/{group.id}/")
    n = seat_of[shura.id]
    card = page.locator(f"#seat-{n}")
    card.locator("select[name=set]").select_option("芸能|四択")
    reason = card.locator(".illegal-reason")
    assert "修羅くじ" in reason.inner_text()
    assert card.locator(".confirm-illegal").is_visible()
    shot(page, "match-illegal-768")
    card.locator("button", has_text="出題を登録").click()
    page.wait_for_load_state()
    assert "規定違反" in page.locator("#match-error").inner_text()
    assert "芸能 は修羅くじで使用不可" in page.locator("#match-error").inner_text()
    assert not SelectionFact.objects.filter(group=group).exists()

    legal = {1: "スポーツ|野球", 2: "アニメ&ゲーム|四択", 3: "理系学問|タイピング",
             4: "文系学問|線結び"}
    dummy = seat_of.pop(None)
    for number in sorted(seat_of.values()):
        card = page.locator(f"#seat-{number}")
        card.locator("select[name=set]").select_option(legal[number])
        card.locator("button", has_text="出題を登録").click()
        page.wait_for_load_state()
    assert SelectionFact.objects.filter(group=group).count() == 3
    shot(page, "match-selected-768")

    # K2/K3's example: the dummy tops the screen and never counts.
    players = sorted(seat_of.values())
    scores = {dummy: ("310.50", 1)}
    for number, value in zip(players, [("290.00", 2), ("250.00", 3), ("180.00", 4)]):
        scores[number] = value
    for number, (score, place) in scores.items():
        page.fill(f"input[name=score_{number}]", score)
        page.select_option(f"select[name=place_{number}]", str(place))
    page.click("#results-form button")
    page.wait_for_load_state()
    cells = page.locator(".ratio-cell").all_inner_texts()
    assert "100.00" in cells and "86.21" in cells and "62.07" in cells  # K3 example
    shot(page, "match-results-768")

    public.wait_for_function("document.body.innerText.includes('290.00')", timeout=10_000)
    shot(public, "public-round-after-1920")

    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/")
    shot(page, "round-768")
    page.click("text=締め切る")
    page.wait_for_load_state()
    page.click("text=勝ち抜けを確認")
    page.wait_for_load_state()
    assert page.locator(".ratio-table").count() == 1
    shot(page, "advance-768")
    page.click("text=この内容で勝ち抜けを確定")
    page.wait_for_load_state()
    assert Round.objects.get(id=rounds[0].id).status == Round.Status.ADVANCED
    by_seat = {v: k for k, v in seat_of.items()}
    from brackets.selectors.rounds import advancers_of

    advancers = advancers_of(rounds[0])
    assert advancers is not None and len(advancers) == 4
    assert {by_seat[players[0]], by_seat[players[1]]} <= set(advancers)
    public.wait_for_function("document.body.innerText.includes('勝ち抜け（4）')",
                             timeout=10_000)
    public.goto(f"{live_server.url}/p/{tournament.slug}/bracket/")
    shot(public, "bracket-1920")
    public.goto(f"{live_server.url}/p/{tournament.slug}/r/1/projector/?view=table")
    shot(public, "projector-table-1920")
    public.goto(f"{live_server.url}/p/{tournament.slug}/players/{shura.id}/")
    shot(public, "player-1920")
    page.goto(f"{live_server.url}/p/{tournament.slug}/players/{shura.id}/")
    shot(page, "player-768")
    page.goto(f"{live_server.url}/t/{tournament.slug}/match/{group.id}/history/")
    shot(page, "history-768")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_full_event_pages_render(live_server: Any, tournament: Tournament,
                                 cast: dict[str, Any], projector_page: Any,
                                 tablet_page: Any) -> None:
    """A whole 九州杯IX run through the services, then its pages at both sizes."""
    import random

    from tests.rounds.test_full_events import run_kyushu

    run_kyushu(tournament, cast["organiser"], random.Random(9))
    page = projector_page
    page.goto(f"{live_server.url}/p/{tournament.slug}/bracket/")
    assert page.locator(".bracket-col").count() == 7
    assert page.locator(".bracket-svg path").count() == 33 + 20 + 8 + 4  # R1..R4 advancers
    assert page.locator(".bb-row.wild").count() == 3  # K4's three wildcards
    shot(page, "full-bracket-1920")
    page.goto(f"{live_server.url}/p/{tournament.slug}/r/1/")
    assert page.locator(".wildcard-table .cut-line").count() == 1
    shot(page, "full-public-r1-1920")
    page.goto(f"{live_server.url}/p/{tournament.slug}/r/1/projector/")
    shot(page, "full-projector-groups-1920")
    page.goto(f"{live_server.url}/p/{tournament.slug}/r/1/projector/?view=table")
    shot(page, "full-projector-table-1920")
    login(page, live_server.url, "organiser" if False else "org", PASSWORD)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/")
    shot(page, "full-round-1920")
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/3/special/")
    shot(page, "full-rule-select-1920")
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/7/special/")
    shot(page, "full-final-special-1920")
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/advance/")
    shot(page, "full-advance-1920")
    tab = tablet_page
    login(tab, live_server.url, "org", PASSWORD)
    g4 = Group.objects.filter(round__tournament=tournament, round__number=4).first()
    tab.goto(f"{live_server.url}/t/{tournament.slug}/match/{g4.id}/")
    shot(tab, "full-match-r4-cards-768")
    sf = Group.objects.filter(round__tournament=tournament, round__number=5).first()
    tab.goto(f"{live_server.url}/t/{tournament.slug}/match/{sf.id}/")
    shot(tab, "full-match-sf-bans-768")
    tab.goto(f"{live_server.url}/t/{tournament.slug}/rounds/2/")
    shot(tab, "full-round2-768")
    tab.goto(f"{live_server.url}/p/{tournament.slug}/r/2/")
    shot(tab, "full-public-r2-768")
