"""The staff round page is assembled from group cards, each kept under what it shows (as
the public round page's are): after a save only the saved group's card is read and
rendered again, the page so assembled is the page built from nothing, and a card is kept
apart per language and per viewer's roles."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import caches
from django.urls import reverse

from brackets.models import Entrant, Group, Tournament
from brackets.services import rounds as svc
from brackets.services.entrants import entrant_update, snapshot
from brackets.views.rounds import index
from tests.conftest import client_for
from tests.views.conftest import ROWS

pytestmark = pytest.mark.django_db


@pytest.fixture
def rendered_cards(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The group ids whose staff card is rendered, in order."""
    seen: list[int] = []
    real = index._staff_card

    def recording(base: str, view: Any, *args: Any) -> Any:
        seen.append(view.group.id)
        return real(base, view, *args)

    monkeypatch.setattr(index, "_staff_card", recording)
    return seen


def _page(tournament: Tournament, user: Any, language: str = "") -> str:
    client = client_for(user)
    if language:
        client.cookies["django_language"] = language
    response = client.get(reverse("round_detail", args=[tournament.slug, 1]))
    assert response.status_code == 200
    return response.content.decode()


def _card(html: str, tournament: Tournament, group: Group) -> str:
    href = reverse("match_page", args=[tournament.slug, group.id])
    return html.split(f'href="{href}"')[1].split('<div class="col">')[0]


def _select(group: Group, user: Any, seat: int = 1) -> None:
    svc.selection_save(group=Group.objects.get(id=group.id), by=user, seat_number=seat,
                       genre="芸能", format="四択", difficulty="HARD")


def _without_holes(html: str) -> str:
    """The page less what differs per response (a form's token, an idempotency key)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    html = re.sub(r'"X-CSRFToken": "[^"]*"', "", html)
    return re.sub(r'name="key" value="[^"]*"', "", html)


def test_a_result_save_renders_only_that_groups_staff_card_again(
        tournament: Tournament, cast: dict[str, Any], groups: list[Group],
        rendered_cards: list[int]) -> None:
    _page(tournament, cast["organiser"])
    assert sorted(rendered_cards) == sorted(g.id for g in groups)
    rendered_cards.clear()
    svc.results_save(group=groups[2], by=cast["organiser"], rows=ROWS)
    html = _page(tournament, cast["organiser"])
    assert rendered_cards == [groups[2].id]
    assert "432.10" in _card(html, tournament, groups[2])


def test_a_selection_save_renders_only_that_groups_staff_card_again(
        tournament: Tournament, cast: dict[str, Any], groups: list[Group],
        rendered_cards: list[int]) -> None:
    before = _page(tournament, cast["organiser"])
    rendered_cards.clear()
    _select(groups[3], cast["organiser"])
    after = _page(tournament, cast["organiser"])
    assert rendered_cards == [groups[3].id]
    # The group moved from waiting to selecting: its card and the page's counts say so.
    assert _card(after, tournament, groups[3]) != _card(before, tournament, groups[3])
    assert "status-badge-selecting" in _card(after, tournament, groups[3])


def test_a_save_reads_the_facts_of_the_saved_group_only(
        tournament: Tournament, cast: dict[str, Any], groups: list[Group],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from brackets.selectors import rounds as sel

    _page(tournament, cast["organiser"])
    read: list[list[int]] = []
    real = sel.group_views

    def recording(views: list[Group], *args: Any, **kwargs: Any) -> Any:
        read.append([g.id for g in views])
        return real(views, *args, **kwargs)

    def whole_round(*args: Any) -> Any:
        raise AssertionError("the whole round was read")

    monkeypatch.setattr(sel, "group_views", recording)
    monkeypatch.setattr(sel, "round_view", whole_round)
    _select(groups[3], cast["organiser"])
    _page(tournament, cast["organiser"])
    svc.results_save(group=groups[2], by=cast["organiser"], rows=ROWS)
    _page(tournament, cast["organiser"])
    assert read == [[groups[3].id], [groups[2].id]]


def test_the_staff_page_after_saves_is_the_page_built_from_nothing(
        tournament: Tournament, cast: dict[str, Any], groups: list[Group]) -> None:
    organiser = cast["organiser"]
    _page(tournament, organiser)
    _select(groups[3], organiser)
    _page(tournament, organiser)
    svc.results_save(group=groups[2], by=organiser, rows={**ROWS, 1: ("401.00", 1)})
    svc.results_save(group=groups[0], by=organiser, rows={**ROWS, 1: ("399.00", 1)})
    svc.withdrawal_record(tournament=tournament, entrant=groups[1].seats.first().entrant,
                          by=organiser, reason="体調不良")
    assembled = _page(tournament, organiser)
    for cache in caches.all():
        cache.clear()
    assert _without_holes(assembled) == _without_holes(_page(tournament, organiser))
    assert "withdrawn-badge" in _card(assembled, tournament, groups[1])


def test_a_renamed_entrant_shows_on_their_card_though_no_group_moved(
        tournament: Tournament, cast: dict[str, Any], groups: list[Group]) -> None:
    _page(tournament, cast["organiser"])
    entrant = Entrant.objects.get(id=groups[0].seats.filter(entrant__isnull=False)
                                  .first().entrant_id)
    entrant_update(tournament=tournament, entrant_id=entrant.id, by=cast["organiser"],
                   base_revision=entrant.revision,
                   data={**snapshot(entrant), "name": "改名した人"})
    assert "改名した人" in _card(_page(tournament, cast["organiser"]), tournament, groups[0])


def test_staff_cards_are_kept_apart_by_the_viewers_roles(
        tournament: Tournament, cast: dict[str, Any], groups: list[Group],
        rendered_cards: list[int]) -> None:
    organisers = _page(tournament, cast["organiser"])
    rendered_cards.clear()
    brackets_staff = _page(tournament, cast["bracket"])
    # Nothing the organiser's page was built from reaches a viewer with fewer roles.
    assert sorted(rendered_cards) == sorted(g.id for g in groups)
    for g in groups:
        assert _card(brackets_staff, tournament, g) == _card(organisers, tournament, g)


def test_staff_cards_are_kept_apart_by_language(
        tournament: Tournament, cast: dict[str, Any], groups: list[Group]) -> None:
    ja = _page(tournament, cast["organiser"])
    en = _page(tournament, cast["organiser"], "en")
    ja_again = _page(tournament, cast["organiser"])
    assert "終了" in _card(ja, tournament, groups[0])
    assert "Finished" in _card(en, tournament, groups[0])
    assert "終了" not in _card(en, tournament, groups[0])
    assert _without_holes(ja_again) == _without_holes(ja)
