"""Issue 13 item 9: a card name over QMA's limit (``bounds.CARD_NAME``) is refused with a
message at the desk, as the import refuses it; the browser never cuts it (no maxlength),
so the name tag cannot print a silently cut name."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from brackets.engine import bounds
from brackets.models import Entrant, Tournament

pytestmark = pytest.mark.django_db
TOO_LONG = "ア" * (bounds.CARD_NAME.max_length + 1)


def _inputs(html: str) -> list[str]:
    return re.findall(r"<input [^>]*>|<textarea [^>]*>", html)


@pytest.mark.parametrize("url_name", ["desk", "desk_entrant_new"])
def test_desk_text_inputs_carry_no_maxlength(clients: dict[str, Client], tournament: Tournament,
                                             url_name: str) -> None:
    html = clients["desk"].get(reverse(url_name, args=[tournament.slug])).content.decode()
    card = next(tag for tag in _inputs(html) if 'card_name"' in tag)
    assert f'data-max-chars="{bounds.CARD_NAME.max_length}"' in card
    assert not [tag for tag in _inputs(html) if "maxlength" in tag]


def test_walk_in_card_name_over_the_limit_is_refused_and_kept(clients: dict[str, Client],
                                                              tournament: Tournament) -> None:
    response = clients["desk"].post(reverse("desk", args=[tournament.slug]), {
        "walkin-name": "長井", "walkin-card_name": TOO_LONG, "walkin-q_level": "10"})
    html = response.content.decode()
    assert response.status_code == 422
    assert (f"カードネームは{bounds.CARD_NAME.max_length}文字以内です（QMAの上限）。"
            f"いまは{len(TOO_LONG)}文字です。") in html
    assert f'value="{TOO_LONG}"' in html  # what was typed stays whole, to be shortened
    assert not Entrant.objects.exists()


def test_full_form_card_name_over_the_limit_is_refused(clients: dict[str, Client],
                                                       tournament: Tournament) -> None:
    response = clients["desk"].post(reverse("desk_entrant_new", args=[tournament.slug]),
                                    {"name": "長井", "card_name": TOO_LONG})
    assert f"いまは{len(TOO_LONG)}文字です" in response.content.decode()
    assert not Entrant.objects.exists()
