"""A seat's set in two taps on a 768 px tablet: a genre cell, then a format cell of that
genre; greyed cells carry the engine's reason; the form still posts the one list, and the
list alone works without JavaScript (issue 13, item 12). Screenshots go to
/tmp/shots/seat_picker/."""

from __future__ import annotations

import os
from typing import Any

import pytest

from brackets.models import Entrant, Group, Seat, SelectionFact, Tournament
from brackets.services import rounds as svc
from tests.browser.conftest import TABLET, login
from tests.conftest import PASSWORD
from tests.rounds.helpers import add_entrants

SHOTS = "/tmp/shots/seat_picker"


def shot(page: Any, name: str) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def _shura_group(tournament: Tournament, cast: dict[str, Any]) -> tuple[Group, dict[int, int]]:
    """堅田: every player walks 修羅の道 with 芸能 drawn, so 芸能 is greyed for everyone."""
    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    entrants = add_entrants(tournament, 8, q_levels=[90, 60, 40, 20, 85, 55, 30, 70])
    Entrant.objects.filter(tournament=tournament).update(shura_voluntary=True)
    rounds = svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    for e in entrants:
        svc.shura_lots_draw(tournament=tournament, entrant=Entrant.objects.get(id=e.id),
                            by=cast["desk"], genres=["芸能"])
    svc.round_draw(round=rounds[0], by=cast["organiser"])
    group = Group.objects.filter(round=rounds[0]).order_by("number").first()
    seats = {s.number: s.entrant_id for s in Seat.objects.filter(group=group)
             if s.entrant_id is not None}
    return group, seats


def _visible_cells_at_least_44px(card: Any) -> None:
    boxes = [c.bounding_box() for c in card.locator(".set-cell:visible").all()]
    assert boxes
    assert all(b["height"] >= 44 and b["width"] >= 44 for b in boxes), boxes


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_seat_is_chosen_in_two_taps_at_768px(live_server: Any, tournament: Tournament,
                                               cast: dict[str, Any], tablet_page: Any,
                                               browser: Any) -> None:
    group, seats = _shura_group(tournament, cast)
    page = tablet_page
    login(page, live_server.url, "bracket", PASSWORD)
    page.goto(f"{live_server.url}/t/{tournament.slug}/match/{group.id}/")
    number = min(seats)
    card = page.locator(f"#seat-{number}")
    grid = card.locator(".set-grid")
    assert grid.is_visible()
    assert card.locator(".set-genres").is_visible()
    _visible_cells_at_least_44px(card)
    closed = card.locator(".set-genre", has_text="芸能")
    assert "is-illegal" in (closed.get_attribute("class") or "")
    assert "修羅くじ" in closed.locator(".cell-reason").inner_text()
    shot(page, "genres-768")

    # Tap 1: the genre; its formats come up by column, the genre grid goes.
    card.locator(".set-genre", has_text="スポーツ").click()
    formats = card.locator('.set-formats[data-genre="スポーツ"]')
    assert formats.is_visible() and not card.locator(".set-genres").is_visible()
    _visible_cells_at_least_44px(card)
    shot(page, "formats-768")
    # Tap 2: the format. The list now holds it; the grid folds to the choice.
    formats.locator('.set-format[data-value="スポーツ|野球"]').click()
    assert card.locator("select[name=set]").input_value() == "スポーツ|野球"
    assert card.locator(".set-chosen").is_visible()
    assert "スポーツ / 野球" in card.locator(".set-chosen").inner_text()
    assert card.locator(".illegal-reason").inner_text() == ""
    card.locator("button", has_text="出題を登録").click()
    page.wait_for_load_state()
    saved = SelectionFact.objects.get(group=group, seat__number=number)
    assert (saved.genre, saved.format) == ("スポーツ", "野球")
    assert "保存しました" in page.content()

    # A greyed cell still answers a tap with the engine's reason and the confirmation.
    card = page.locator(f"#seat-{number}")
    assert "スポーツ / 野球" in card.locator(".set-chosen").inner_text()
    card.locator(".set-change").click()
    card.locator(".set-genre", has_text="芸能").click()
    card.locator('.set-format[data-value="芸能|四択"]').click()
    assert "修羅くじ" in card.locator(".illegal-reason").inner_text()
    assert card.locator(".confirm-illegal").is_visible()
    shot(page, "illegal-768")
    # Back to the genres without choosing: one tap.
    card.locator(".set-change").click()
    card.locator(".set-genre", has_text="ノンジャンル").click()
    card.locator(".set-back:visible").click()
    assert card.locator(".set-genres").is_visible()

    # Without JavaScript the grid stays hidden and the list alone records the set.
    context = browser.new_context(viewport=TABLET, locale="ja-JP", java_script_enabled=False)
    plain = context.new_page()
    login(plain, live_server.url, "bracket", PASSWORD)
    plain.goto(f"{live_server.url}/t/{tournament.slug}/match/{group.id}/")
    other = max(seats)
    card = plain.locator(f"#seat-{other}")
    assert not card.locator(".set-grid").is_visible()
    card.locator("select[name=set]").select_option("理系学問|タイピング")
    card.locator("button", has_text="出題を登録").click()
    plain.wait_for_load_state()
    saved = SelectionFact.objects.get(group=group, seat__number=other)
    assert (saved.genre, saved.format) == ("理系学問", "タイピング")
    context.close()
