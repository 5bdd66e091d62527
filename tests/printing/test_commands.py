"""manage.py tournament_export / tournament_import: the same file as the download."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from brackets.models import Tournament
from tests.printing.world import add_named_entrants

pytestmark = pytest.mark.django_db


def test_export_then_import_under_another_slug(tournament: Tournament, cast: dict[str, Any],
                                               tmp_path: Path) -> None:
    add_named_entrants(tournament, 3, user=cast["desk"])
    target = tmp_path / "t.json"
    call_command("tournament_export", tournament.slug, "-o", str(target))
    assert json.loads(target.read_text(encoding="utf-8"))["format"] == "kyushu-tournament"
    call_command("tournament_import", str(target), "--slug", "copy")
    assert Tournament.objects.get(slug="copy").entrants.count() == 3
    with pytest.raises(CommandError, match="既にあります"):
        call_command("tournament_import", str(target))
    with pytest.raises(CommandError, match="ありません"):
        call_command("tournament_export", "nope")


def test_every_document_of_the_demo_tournament(cast: dict[str, Any]) -> None:
    """``manage.py demo`` (72 entrants, seeds, 修羅 declarations), round 1 drawn: every
    document offered for it renders."""
    from brackets.printing.registry import DocumentError, all_documents
    from brackets.services.rounds import round_draw, rounds_configure

    call_command("demo")
    demo = Tournament.objects.get(slug="demo")
    rounds = rounds_configure(tournament=demo, by=cast["admin"])
    round_draw(round=rounds[0], by=cast["admin"])
    rendered = 0
    for doc in all_documents():
        for choice in doc.choices(demo):
            try:
                filename, _type, content = doc.render(demo, **choice.options)
            except DocumentError:
                continue
            assert filename.startswith("demo") and content
            rendered += 1
    assert rendered >= 10
