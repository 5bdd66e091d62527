"""Desk pages through the test client: walk-in, search, one-tap check-in, edit, export."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from brackets.models import Entrant, EntrantRevision, Tournament
from tests.desk.conftest import bulk_entrants

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def desk_url(tournament: Tournament) -> str:
    return reverse("desk", args=[tournament.slug])


def walk_in(client: Client, tournament: Tournament, **data: Any) -> Any:
    fields = {"name": "博多一郎", "reading": "はかたいちろう", "card_name": "ハカタ", "q_level": "40", **data}
    return client.post(desk_url(tournament), {f"walkin-{k}": v for k, v in fields.items()})


def test_desk_page_shows_counts_search_and_walk_in_form(clients: dict[str, Client], tournament: Tournament) -> None:
    bulk_entrants(tournament, 3)
    response = clients["desk"].get(desk_url(tournament))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="desk-counts"' in html and 'id="desk-q"' in html and 'id="walkin-form"' in html
    assert "参加者0" in html
    assert 'data-count="registered"><span class="n">3<' in html


def test_walk_in_registers_and_records_who(clients: dict[str, Client], tournament: Tournament, cast: Any) -> None:
    response = walk_in(clients["desk"], tournament, fee_paid="on")
    assert response.status_code == 302
    entrant = Entrant.objects.get(card_name="ハカタ")
    assert entrant.fee_paid and not entrant.checked_in
    revision = EntrantRevision.objects.get(entrant=entrant)
    assert revision.by == cast["desk"] and revision.action == "walk_in"


def test_walk_in_duplicate_card_name_shows_error_beside_field(
    clients: dict[str, Client], tournament: Tournament
) -> None:
    walk_in(clients["desk"], tournament)
    response = walk_in(clients["desk"], tournament, name="別人")
    html = response.content.decode()
    assert response.status_code == 422
    assert "カードネーム「ハカタ」は既に" in html
    assert 'value="別人"' in html  # what was typed is kept
    assert Entrant.objects.count() == 1


def test_walk_in_q_level_out_of_range(clients: dict[str, Client], tournament: Tournament) -> None:
    response = walk_in(clients["desk"], tournament, q_level="1000")
    assert response.status_code == 422
    assert "Qレベルは0〜999" in response.content.decode()
    assert not Entrant.objects.exists()


def test_walk_in_refused_when_full(clients: dict[str, Client], tournament: Tournament) -> None:
    tournament.capacity = 2
    tournament.save()
    bulk_entrants(tournament, 2)
    response = walk_in(clients["desk"], tournament)
    assert response.status_code == 422
    assert "定員（一般2名）に達している" in response.content.decode()


def test_htmx_search_returns_only_results(clients: dict[str, Client], tournament: Tournament) -> None:
    bulk_entrants(tournament, 20)
    response = clients["desk"].get(desk_url(tournament), {"q": "スズキ"}, **HTMX)
    html = response.content.decode()
    assert html.startswith('<div id="desk-results">')
    assert "<nav" not in html.split("desk-results")[0]
    names = {e.name for e in Entrant.objects.filter(reading__startswith="すずき")}
    assert names and all(name in html for name in names)
    assert "参加者0<" not in html


def test_check_in_one_tap_is_idempotent_and_updates_counts(
    clients: dict[str, Client], tournament: Tournament
) -> None:
    entrant = bulk_entrants(tournament, 1, start=1)[0]
    url = reverse("desk_check_in", args=[tournament.slug, entrant.pk])
    first = clients["desk"].post(url, {"checked_in": "1"}, **HTMX)
    second = clients["desk"].post(url, {"checked_in": "1"}, **HTMX)
    html = second.content.decode()
    assert first.status_code == second.status_code == 200
    assert 'data-state="on"' in html and 'hx-swap-oob="true"' in html
    assert 'data-count="checked_in"><span class="n">1<' in html
    assert EntrantRevision.objects.filter(entrant=entrant, action="checked_in:on").count() == 1


def test_check_in_without_javascript_redirects(clients: dict[str, Client], tournament: Tournament) -> None:
    entrant = bulk_entrants(tournament, 1, start=1)[0]
    response = clients["desk"].post(reverse("desk_check_in", args=[tournament.slug, entrant.pk]), {"checked_in": "1"})
    assert response.status_code == 302
    entrant.refresh_from_db()
    assert entrant.checked_in


def test_check_in_of_another_tournaments_entrant_is_404(
    clients: dict[str, Client], tournament: Tournament, other_tournament: Tournament
) -> None:
    stranger = bulk_entrants(other_tournament, 1)[0]
    response = clients["desk"].post(reverse("desk_check_in", args=[tournament.slug, stranger.pk]))
    assert response.status_code == 404


def test_bracket_staff_cannot_check_in(clients: dict[str, Client], tournament: Tournament) -> None:
    entrant = bulk_entrants(tournament, 1, start=1)[0]
    response = clients["bracket"].post(reverse("desk_check_in", args=[tournament.slug, entrant.pk]))
    assert response.status_code == 403
    entrant.refresh_from_db()
    assert not entrant.checked_in


def edit_data(entrant: Entrant, **changes: Any) -> dict[str, Any]:
    data = {
        "name": entrant.name, "reading": entrant.reading, "card_name": entrant.card_name,
        "home_store": entrant.home_store, "q_level": entrant.q_level, "seed": entrant.seed or "",
        "notes": entrant.notes, "revision": entrant.revision, "opt_up": entrant.opt_up,
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not False}


def test_edit_saves_and_shows_history(clients: dict[str, Client], tournament: Tournament, register: Any) -> None:
    entrant = register(q_level=12)
    url = reverse("desk_entrant_edit", args=[tournament.slug, entrant.pk])
    page = clients["desk"].get(url).content.decode()
    assert "魔術士" in page and 'name="revision"' in page
    response = clients["desk"].post(url, edit_data(entrant, q_level=55, shura_voluntary="on"))
    assert response.status_code == 302
    entrant.refresh_from_db()
    assert entrant.q_level == 55 and entrant.shura_voluntary and entrant.revision == 2
    history = clients["desk"].get(url).content.decode()
    assert "最高Qレベル: 12 → 55" in history


def test_stale_edit_is_refused_with_changes_and_keeps_typing(
    clients: dict[str, Client], tournament: Tournament, register: Any
) -> None:
    entrant = register()
    url = reverse("desk_entrant_edit", args=[tournament.slug, entrant.pk])
    # Another tablet saves first.
    clients["organiser"].post(url, edit_data(entrant, home_store="タイトーステーション博多"))
    # This desk's form was loaded at revision 1.
    response = clients["desk"].post(url, edit_data(entrant, notes="眼鏡の人"))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="conflict"' in html
    assert "タイトーステーション博多" in html  # what changed is shown (and merged into the form)
    assert "眼鏡の人" in html  # what this desk typed is kept
    assert 'name="revision" value="2"' in html
    entrant.refresh_from_db()
    assert entrant.notes == "" and entrant.revision == 2
    # Saving again on top of the current revision works and keeps both edits.
    again = clients["desk"].post(
        url, edit_data(entrant, notes="眼鏡の人", home_store="タイトーステーション博多", revision=2)
    )
    assert again.status_code == 302
    entrant.refresh_from_db()
    assert (entrant.notes, entrant.home_store) == ("眼鏡の人", "タイトーステーション博多")


def test_full_registration_with_seed_and_shura(clients: dict[str, Client], tournament: Tournament) -> None:
    response = clients["desk"].post(
        reverse("desk_entrant_new", args=[tournament.slug]),
        {"name": "前回王者", "reading": "ぜんかいおうじゃ", "card_name": "チャンプ", "q_level": "95",
         "seed": "1", "shura_titles": "1", "past_win_lots": "6", "opt_up": "bomber"},
    )
    assert response.status_code == 302
    entrant = Entrant.objects.get(card_name="チャンプ")
    assert (entrant.seed, entrant.shura_titles, entrant.past_win_lots, entrant.opt_up) == (1, 1, 6, "bomber")


def test_seed_outside_slots_shows_error(clients: dict[str, Client], tournament: Tournament) -> None:
    response = clients["desk"].post(
        reverse("desk_entrant_new", args=[tournament.slug]),
        {"name": "九", "card_name": "キュウ", "seed": "9"},
    )
    assert "シード番号は1〜8" in response.content.decode()
    assert not Entrant.objects.exists()


@pytest.mark.parametrize("query", ["", "たなか"])
def test_query_count_does_not_grow_with_entrants(
    clients: dict[str, Client], tournament: Tournament, query: str
) -> None:
    client = clients["desk"]
    url = desk_url(tournament)

    def count() -> int:
        client.get(url, {"q": query})  # warm caches (session, content types)
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url, {"q": query})
        assert response.status_code == 200
        return len(ctx.captured_queries)

    bulk_entrants(tournament, 10)
    small = count()
    bulk_entrants(tournament, 990, start=10)
    assert Entrant.objects.filter(tournament=tournament).count() == 1000
    assert count() == small


def test_htmx_search_query_count_does_not_grow(clients: dict[str, Client], tournament: Tournament) -> None:
    client = clients["desk"]
    url = desk_url(tournament)

    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            client.get(url, {"q": "た"}, **HTMX)
        return len(ctx.captured_queries)

    bulk_entrants(tournament, 10)
    client.get(url, **HTMX)
    small = count()
    bulk_entrants(tournament, 990, start=10)
    assert count() == small


def test_dashboard_links_to_the_desk(clients: dict[str, Client], tournament: Tournament) -> None:
    html = clients["desk"].get(reverse("tournament_dashboard", args=[tournament.slug])).content.decode()
    assert desk_url(tournament) in html


def test_fee_button_is_one_tap_and_idempotent(clients: dict[str, Client], tournament: Tournament) -> None:
    entrant = bulk_entrants(tournament, 1, start=1)[0]  # odd numbers are unpaid
    url = reverse("desk_fee", args=[tournament.slug, entrant.pk])
    clients["desk"].post(url, {"fee_paid": "1"}, **HTMX)
    response = clients["desk"].post(url, {"fee_paid": "1"}, **HTMX)
    html = response.content.decode()
    assert 'data-flag="fee_paid" data-state="on"' in html
    assert 'data-count="paid"><span class="n">1<' in html
    assert EntrantRevision.objects.filter(entrant=entrant, action="fee_paid:on").count() == 1


def test_undo_check_in_asks_for_confirmation(clients: dict[str, Client], tournament: Tournament) -> None:
    entrant = bulk_entrants(tournament, 1, start=1)[0]
    url = reverse("desk_check_in", args=[tournament.slug, entrant.pk])
    html = clients["desk"].post(url, {"checked_in": "1"}, **HTMX).content.decode()
    assert "hx-confirm=" in html and 'name="checked_in" value="0"' in html
    clients["desk"].post(url, {"checked_in": "0"}, **HTMX)
    entrant.refresh_from_db()
    assert not entrant.checked_in
