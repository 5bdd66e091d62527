"""A round shown on one public page is assembled from fragments, each cached under what
it shows: after a save only the saved group's card is rendered again, the round-wide
tables only when their rows change (a result, not a selection), and the page so
assembled is the page built from nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import caches
from django.urls import reverse

from brackets.models import Group, Tournament
from brackets.services import rounds as svc
from brackets.views import public, public_cards
from tests.conftest import client_for
from tests.views.conftest import ROWS

pytestmark = pytest.mark.django_db


def _page(tournament: Tournament, language: str = "") -> str:
    client = client_for(None)
    if language:
        client.cookies["django_language"] = language
    response = client.get(reverse("public_round", args=[tournament.slug, 1]))
    assert response.status_code == 200
    return response.content.decode()


def _fresh(tournament: Tournament) -> None:
    """As once the second a visitor's page trusts the revision it read has passed."""
    caches["default"].delete(f"public-version:{tournament.slug}")


def _select(group: Group, user: Any, genre_format: tuple[str, str] = ("芸能", "四択")) -> None:
    svc.selection_save(group=Group.objects.get(id=group.id), by=user, seat_number=1,
                       genre=genre_format[0], format=genre_format[1], difficulty="HARD")


@pytest.fixture
def rendered_cards(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The group ids whose public card is rendered, in order."""
    seen: list[int] = []
    real = public_cards.public_card

    def recording(view: Any, ctx: Any) -> Any:
        seen.append(view.group.id)
        return real(view, ctx)

    monkeypatch.setattr(public_cards, "public_card", recording)
    return seen


@pytest.fixture
def rendered_templates(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The templates the public round views render, in order."""
    seen: list[str] = []
    real = public.render_to_string

    def recording(name: str, *args: Any, **kwargs: Any) -> str:
        seen.append(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(public, "render_to_string", recording)
    return seen


def test_a_save_to_one_group_renders_only_that_groups_card_again(
        tournament: Tournament, cast: dict[str, Any], groups: list[Group],
        rendered_cards: list[int]) -> None:
    _page(tournament)
    assert sorted(rendered_cards) == sorted(g.id for g in groups)
    rendered_cards.clear()
    svc.results_save(group=groups[2], by=cast["organiser"], rows=ROWS)
    _fresh(tournament)
    html = _page(tournament)
    assert rendered_cards == [groups[2].id]
    card = html.split(f'id="pg-{groups[2].label}"')[1].split("</table>")[0]
    assert "432.10" in card


def test_a_selection_leaves_the_round_tables_as_rendered_and_a_result_renders_them(
        tournament: Tournament, cast: dict[str, Any], groups: list[Group],
        rendered_templates: list[str]) -> None:
    before = _page(tournament)
    assert rendered_templates.count("brackets/public/_round_tables.html") == 1
    rendered_templates.clear()
    _select(groups[3], cast["organiser"])
    _fresh(tournament)
    after_selection = _page(tournament)
    assert "brackets/public/_round_live.html" in rendered_templates  # the page was rebuilt
    assert "brackets/public/_round_tables.html" not in rendered_templates
    assert after_selection != before
    svc.results_save(group=groups[2], by=cast["organiser"],
                     rows={**ROWS, 1: ("401.00", 1)})
    _fresh(tournament)
    table = _page(tournament).split("全体の成績")[1]
    assert rendered_templates.count("brackets/public/_round_tables.html") == 1
    assert "401.00" in table


def _without_holes(html: str) -> str:
    """The page less what differs per response (a form's token, an idempotency key)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    return re.sub(r'name="key" value="[^"]*"', "", html)


def test_the_page_after_saves_is_the_page_built_from_nothing(
        tournament: Tournament, cast: dict[str, Any], groups: list[Group]) -> None:
    _page(tournament)
    _select(groups[3], cast["organiser"])
    _fresh(tournament)
    _page(tournament)
    svc.results_save(group=groups[2], by=cast["organiser"], rows={**ROWS, 1: ("401.00", 1)})
    svc.results_save(group=groups[0], by=cast["organiser"], rows={**ROWS, 1: ("399.00", 1)})
    _fresh(tournament)
    assembled = _page(tournament)
    for cache in caches.all():
        cache.clear()
    assert _without_holes(assembled) == _without_holes(_page(tournament))


def test_fragments_are_kept_apart_by_language(tournament: Tournament,
                                              groups: list[Group]) -> None:
    ja = _page(tournament)
    en = _page(tournament, "en")
    ja_again = _page(tournament)
    assert "全体の成績" in ja and "サテ" in ja
    main = en.split("<main", 1)[1]
    assert "Overall results" in main and "Cab." in main
    assert "全体の成績" not in main and "サテ" not in main
    assert ja_again == ja


def test_the_staff_and_public_cards_of_a_group_are_kept_apart(
        tournament: Tournament, cast: dict[str, Any], groups: list[Group]) -> None:
    staff = client_for(cast["organiser"])
    staff_url = reverse("round_detail", args=[tournament.slug, 1])
    match_url = reverse("match_page", args=[tournament.slug, groups[0].id])
    assert match_url in staff.get(staff_url).content.decode()
    public_html = _page(tournament)
    assert f'id="pg-{groups[0].label}"' in public_html
    assert match_url not in public_html
    # An organiser reading the public page sees the visitors' cards, not the staff's.
    own = staff.get(reverse("public_round", args=[tournament.slug, 1])).content.decode()
    assert f'id="pg-{groups[0].label}"' in own
    assert match_url not in own.split("<main", 1)[1]
    assert match_url in staff.get(staff_url).content.decode()


def test_table_rows_from_fragments_are_the_rows_django_tables2_renders(
        tournament: Tournament, groups: list[Group], monkeypatch: pytest.MonkeyPatch) -> None:
    from brackets.tables_rounds import CrossGroupTable

    kept = _page(tournament)
    again = _page(tournament)  # the rows now from the cache
    for cache in caches.all():
        cache.clear()
    monkeypatch.setattr(CrossGroupTable, "row_fragments", False)
    plain = _page(tournament)
    assert 'data-player="' in plain.split("全体の成績")[1]
    assert _without_holes(kept) == _without_holes(again) == _without_holes(plain)


def _rendered_rows(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The records of the 惜敗率 table rows rendered from now on, in order."""
    from brackets.perf import fragments

    rows: list[Any] = []
    real = fragments.render_to_string

    def counting(name: str, context: Any = None, *args: Any, **kwargs: Any) -> str:
        if name == "brackets/_round_table_row.html":
            rows.append(context["row"].record)
        return real(name, context, *args, **kwargs)

    monkeypatch.setattr(fragments, "render_to_string", counting)
    return rows


def test_a_corrected_result_renders_again_only_the_table_rows_it_changed(
        tournament: Tournament, cast: dict[str, Any], groups: list[Group],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Group C's players below A's and B's in every placement: the last row is C's 4th.
    low = {1: ("300.00", 1), 2: ("150.00", 2), 3: ("120.00", 3), 4: ("90.00", 4)}
    svc.results_save(group=groups[2], by=cast["organiser"], rows=low)
    _page(tournament)
    rows = _rendered_rows(monkeypatch)
    svc.results_save(group=groups[2], by=cast["organiser"], rows={**low, 4: ("80.00", 4)})
    _fresh(tournament)
    table = _page(tournament).split("全体の成績")[1]
    assert "80.00" in table and "90.00" not in table
    assert [(r.group, r.place, str(r.score)) for r in rows] == [(groups[2].label, 4, "80.00")]


def test_a_row_that_only_moved_is_not_rendered_again(
        tournament: Tournament, cast: dict[str, Any], groups: list[Group],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _page(tournament)
    rows = _rendered_rows(monkeypatch)
    # Group C's winner goes between A's and B's (equal) and the rest: every row after
    # the first two moves down one place, and only C's four rows are new.
    svc.results_save(group=groups[2], by=cast["organiser"],
                     rows={1: ("400.00", 1), 2: ("100.00", 2), 3: ("90.00", 3),
                           4: ("80.00", 4)})
    _fresh(tournament)
    table = _page(tournament).split("全体の成績")[1]
    assert "400.00" in table
    assert sorted((r.group, r.place) for r in rows) == [(groups[2].label, p) for p in range(1, 5)]
