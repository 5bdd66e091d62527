"""A big round's public page comes a page of groups at a time, each group card cached
under what it shows: after a save only that group's card is built again, and a cached
card is never older than the last write that changes it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from brackets import engine_adapter as ea
from brackets.models import Group, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from brackets.views import public
from tests.conftest import client_for
from tests.states import round_1_running

pytestmark = pytest.mark.django_db

ROWS = {1: ("432.10", 1), 2: ("250.00", 2), 3: ("200.00", 3), 4: ("150.00", 4)}


@pytest.fixture
def two_pages(tournament: Tournament, cast: dict[str, Any],
              monkeypatch: pytest.MonkeyPatch) -> list[Group]:
    """Round 1 running (4 groups) shown two groups a page."""
    monkeypatch.setattr(public, "PAGE_GROUPS", 2)
    round_1_running(tournament, cast["organiser"])
    return list(Group.objects.filter(round__tournament=tournament, round__number=1)
                .order_by("number"))


def _page(tournament: Tournament, query: str = "") -> str:
    response = client_for(None).get(f"/p/{tournament.slug}/r/1/{query}")
    assert response.status_code == 200
    return response.content.decode()


def _fresh(tournament: Tournament) -> None:
    """As once the second a visitor's page trusts the revision it read has passed."""
    from django.core.cache import caches

    caches["default"].delete(f"public-version:{tournament.slug}")


def test_each_page_shows_its_groups_and_links_every_page(tournament: Tournament,
                                                         two_pages: list[Group]) -> None:
    first, second = _page(tournament), _page(tournament, "?page=2")
    a, b, c, d = (g.label for g in two_pages)
    for html, shown, hidden in ((first, (a, b), (c, d)), (second, (c, d), (a, b))):
        for label in shown:
            assert f'id="pg-{label}"' in html
        for label in hidden:
            assert f'id="pg-{label}"' not in html
        assert f'href="?page=1">{a}–{b}</a>' in html
        assert f'href="?page=2">{c}–{d}</a>' in html
        assert 'href="?page=table"' in html
    assert "live/?v=" in second and "&page=2\"" in second  # the live poll keeps to its page
    assert client_for(None).get(f"/p/{tournament.slug}/r/1/?page=3").status_code == 404


def test_the_table_section_holds_the_round_wide_tables(tournament: Tournament,
                                                       cast: dict[str, Any],
                                                       two_pages: list[Group]) -> None:
    for g in two_pages:
        svc.results_save(group=g, by=cast["organiser"], rows=ROWS)
    _fresh(tournament)
    table = _page(tournament, "?page=table")
    assert "全体の成績" in table
    assert 'class="card h-100 public-group"' not in table
    assert "全体の成績" not in _page(tournament, "?page=1").split('aria-label="組"')[0]


def test_after_one_save_only_that_groups_card_is_built_again(
        tournament: Tournament, cast: dict[str, Any], two_pages: list[Group],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _page(tournament)
    built: list[list[int]] = []
    real = sel.group_views

    def recording(groups: list[Group], *args: Any, **kwargs: Any) -> Any:
        built.append([g.id for g in groups])
        return real(groups, *args, **kwargs)

    monkeypatch.setattr(sel, "group_views", recording)
    svc.results_save(group=two_pages[1], by=cast["organiser"], rows=ROWS)
    _fresh(tournament)
    html = _page(tournament)
    assert built == [[two_pages[1].id]]
    assert "432.10" in html
    assert f'id="pg-{two_pages[0].label}"' in html


def test_a_cached_card_shows_a_withdrawal_and_a_renamed_player(
        tournament: Tournament, cast: dict[str, Any], two_pages: list[Group]) -> None:
    seat = two_pages[0].seats.exclude(entrant=None).first()
    assert "棄権" not in _page(tournament).split(f'id="pg-{two_pages[0].label}"')[1][:2000]
    svc.withdrawal_record(tournament=tournament, entrant=seat.entrant, by=cast["organiser"],
                          reason="体調不良")
    _fresh(tournament)
    card = _page(tournament).split(f'id="pg-{two_pages[0].label}"')[1].split("</table>")[0]
    assert "withdrawn-badge" in card
    entrant = seat.entrant
    entrant.name = "改名した選手"
    entrant.save()
    _fresh(tournament)
    assert "改名した選手" in _page(tournament)
    assert ea.player_key(entrant.id) in sel.seated_names(
        sel.group_views([two_pages[0]], tournament))


def test_a_card_page_is_revalidated_by_its_own_groups_not_the_tournament(
        tournament: Tournament, cast: dict[str, Any], two_pages: list[Group],
        django_capture_on_commit_callbacks: Any) -> None:
    """A committed save on page 2 leaves page 1 as the phone has it (304, and 204 for its
    live poll); a committed save on page 1 shows on the next poll."""
    phone = client_for(None)
    url = f"/p/{tournament.slug}/r/1/"

    def save(group: Group, score: str) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            svc.results_save(group=group, by=cast["organiser"], rows={**ROWS, 1: (score, 1)})

    etag = phone.get(url)["ETag"]
    save(two_pages[3], "401.00")
    assert phone.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    save(two_pages[0], "432.10")
    fresh = phone.get(url, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200
    assert "432.10" in fresh.content.decode()
    shown = re.search(r'data-version="([^"]+)"', fresh.content.decode()).group(1)
    assert phone.get(f"/p/{tournament.slug}/r/1/live/?v={shown}").status_code == 204
    save(two_pages[2], "402.00")
    assert phone.get(f"/p/{tournament.slug}/r/1/live/?v={shown}").status_code == 204
    save(two_pages[1], "403.00")
    assert phone.get(f"/p/{tournament.slug}/r/1/live/?v={shown}").status_code == 200
