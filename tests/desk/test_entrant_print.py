"""Issue 13 item 10: one entrant's name tag and entry sheet print alone from the desk row
(and from the walk-in's confirmation and the edit page), not inside the whole batch."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from brackets.models import Entrant, Tournament
from tests.desk.conftest import bulk_entrants

pytestmark = pytest.mark.django_db


def _pdf_text(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def test_single_print_is_that_entrants_name_tag_and_entry_sheet(
        clients: dict[str, Client], tournament: Tournament, register: Any) -> None:
    bulk_entrants(tournament, 12)
    walk_in = register(name="当日太郎", reading="とうじつたろう", card_name="トウジツ", q_level=42)
    response = clients["desk"].get(reverse("desk_entrant_print", args=[tournament.slug, walk_in.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{tournament.slug}-entrant-13.pdf"'
    pages = _pdf_text(response.content)
    assert len(pages) == 2  # the name tag, then the entry sheet
    assert all("当日太郎" in page for page in pages)
    assert all("参加者0" not in page for page in pages)  # nobody else's papers
    assert "No.13" in pages[0]  # numbered as in the batch (entry order)


def test_single_print_of_another_tournaments_entrant_is_404(
        clients: dict[str, Client], tournament: Tournament, other_tournament: Tournament) -> None:
    other = bulk_entrants(other_tournament, 1)[0]
    response = clients["desk"].get(reverse("desk_entrant_print", args=[tournament.slug, other.pk]))
    assert response.status_code == 404


def test_desk_row_walk_in_message_and_edit_page_offer_the_print(
        clients: dict[str, Client], tournament: Tournament) -> None:
    client = clients["desk"]
    response = client.post(reverse("desk", args=[tournament.slug]), {
        "walkin-name": "当日花子", "walkin-card_name": "ハナコ", "walkin-q_level": "10"}, follow=True)
    entrant = Entrant.objects.get(card_name="ハナコ")
    url = reverse("desk_entrant_print", args=[tournament.slug, entrant.pk])
    html = response.content.decode()
    message = html[html.index('role="alert"'):]
    assert "当日花子 さん（ハナコ）を登録しました。" in message and f'href="{url}"' in message
    row = html[html.index(f'data-entrant="{entrant.pk}"'):]
    assert f'href="{url}"' in row[:row.index("</tr>")]
    edit = client.get(reverse("desk_entrant_edit", args=[tournament.slug, entrant.pk])).content.decode()
    assert f'href="{url}"' in edit
