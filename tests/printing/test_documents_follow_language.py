"""A printed document follows the language of whoever prints it (the active request
language), and an English PDF still embeds the Japanese font for the players' names."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from brackets.models import Round, Tournament
from tests.printing.pdfcheck import fonts, pdf_text

pytestmark = pytest.mark.django_db


def _download(client: Client, t: Tournament, slug: str, **query: Any) -> str:
    url = reverse("document_download", kwargs={"slug": t.slug, "doc_slug": slug})
    response = client.get(url, query)
    assert response.status_code == 200, response.content[:300]
    # Every font embedded: the Japanese TTF sets names whatever the labels' language.
    used = fonts(response.content)
    assert used and all(f["emb"] == "yes" for f in used)
    return re.sub(r"\s+", "", pdf_text(response.content))


def test_set_order_sheet_prints_in_the_language_of_whoever_prints_it(
        final_won_2_0: Tournament, clients: dict[str, Client]) -> None:
    t = final_won_2_0
    final = Round.objects.get(tournament=t, kind="partner_series")
    client = clients["organiser"]
    japanese = _download(client, t, "final-set-order", round=final.number)
    assert "出題順シート" in japanese and "パートナー" in japanese
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = _download(client, t, "final-set-order", round=final.number)
    with translation.override("en"):
        title = translation.gettext("出題順シート")
        partner = translation.gettext("パートナー")
    assert title != "出題順シート" and partner != "パートナー"  # the catalogue has them
    assert re.sub(r"\s+", "", title) in english and "出題順シート" not in english
    # The role column: two partners a game, two games played.
    assert english.count(partner) >= 4
    # Names stay as entered, in the embedded Japanese font.
    from brackets.models import Seat

    name = Seat.objects.filter(group__round=final, entrant__isnull=False).first().entrant.name
    assert name in english


def test_group_table_title_follows_the_printers_language(
        final_won_2_0: Tournament, clients: dict[str, Client]) -> None:
    client = clients["organiser"]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = _download(client, final_won_2_0, "group-table", round=1)
    with translation.override("en"):
        title = re.sub(r"\s+", "", translation.gettext("組分け表"))
    assert title in english and "組分け表" not in english
