"""The documents page follows the reader's language, and so do the printed documents
(tests/printing/test_documents_follow_language.py).

Titles, descriptions and sections are ``gettext_noop`` class attributes: the page translates
them with ``{% trans var %}`` and a PDF's header with ``gettext`` when it is printed, so the
attributes themselves stay the Japanese msgids.
"""

from __future__ import annotations

from html import escape

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from brackets.models import Tournament
from brackets.printing.registry import all_documents

pytestmark = pytest.mark.django_db


def test_documents_page_is_japanese_by_default(tournament: Tournament,
                                               clients: dict[str, Client]) -> None:
    body = clients["organiser"].get(
        reverse("document_list", kwargs={"slug": tournament.slug})).content.decode()
    assert "名札" in body and "受付" in body


def test_documents_page_translates_titles_descriptions_and_sections(
        tournament: Tournament, clients: dict[str, Client]) -> None:
    from tests.buzzer_web.factories import make_round

    # A buzzer round, so the buzzer files (left off a page without one) are listed too.
    make_round(tournament)
    client = clients["organiser"]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    body = client.get(reverse("document_list", kwargs={"slug": tournament.slug})).content.decode()
    with translation.override("en"):
        for doc in all_documents():
            assert escape(translation.gettext(doc.title)) in body
            if doc.description:
                assert escape(translation.gettext(doc.description)) in body
        assert f">{escape(translation.gettext('受付'))}</h2>" in body


def test_class_attributes_stay_japanese_for_print() -> None:
    """Under English the attributes themselves are still the Japanese print titles."""
    with translation.override("en"):
        titles = {doc.slug: doc.title for doc in all_documents()}
    assert titles["name-tags"] == "名札"
