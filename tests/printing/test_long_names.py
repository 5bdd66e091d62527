"""Issue 19, defect 4 (file side): a 10,000-character name broke the final-standings PDF
(a table row taller than the page). Names are bounded at entry now
(``bounds.NAME``), but a name stored before still prints: every document clips what it
prints of a name to the bound, with an ellipsis."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection

from brackets.engine import bounds
from brackets.models import Entrant, Tournament
from brackets.printing.registry import get_document
from tests.printing.pdfcheck import pdf_text
from tests.printing.test_documents import render_everything
from tests.rounds.test_full_events import run_katata

pytestmark = pytest.mark.django_db



def _long() -> int:
    """10,000 where the database kept such a name (SQLite ignores ``max_length``); on
    PostgreSQL the column never held more than the bound, so the longest it holds."""
    return 10_000 if connection.vendor == "sqlite" else bounds.NAME.max_length


@pytest.fixture
def long_named(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    """片田 played to its champion; then one entrant's stored name is 10,000 characters
    (as an older version let the tournament file store it)."""
    run_katata(tournament, cast["organiser"], random.Random(3))
    champion = Entrant.objects.filter(tournament=tournament).order_by("id").first()
    assert champion is not None
    Entrant.objects.filter(id=champion.id).update(name="長" * _long(), reading="な" * _long(),
                                                  home_store="店" * _long())
    tournament.refresh_from_db()
    return tournament


def test_final_standings_prints_a_10000_character_name_clipped(long_named: Tournament
                                                              ) -> None:
    _name, content_type, content = get_document("final-standings").render(long_named)
    assert content_type == "application/pdf" and content.startswith(b"%PDF")
    text = "".join(pdf_text(content).split())
    assert "長" * 50 in text and "長" * (bounds.NAME.max_length + 1) not in text
    assert ("…" in text) == (_long() > bounds.NAME.max_length)


def test_every_document_prints_with_a_10000_character_name(long_named: Tournament) -> None:
    rendered = render_everything(long_named)
    assert rendered
    for (slug, _opts), (_f, content_type, content) in rendered.items():
        if content_type == "application/pdf":
            assert content.startswith(b"%PDF"), slug
