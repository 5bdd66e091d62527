"""Batch printing for the desk: every name tag and every entry sheet in one PDF."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext_noop

from brackets.models import Role, Tournament
from brackets.printing.base import CompositePdf
from brackets.printing.registry import BASE_URL_OPTION, Option, register
from brackets.selectors.documents import entrant_documents


@register
class DeskBatch(CompositePdf):
    """名札とエントリーシート（一括）: one file to send to the printer before the doors open."""

    slug = "desk-batch"
    order = 30
    title = gettext_noop("名札とエントリーシート（一括）")
    role = Role.DESK
    category = gettext_noop("受付")
    description = gettext_noop("名札の後に全員のエントリーシート")
    options: ClassVar[Mapping[str, Option]] = {"base_url": BASE_URL_OPTION}
    parts = ("name-tags", "entry-sheets")

    def get_data(self, tournament: Tournament, **options: Any) -> Any:
        return None

    def get_story(self, data: Any, *, tournament: Tournament, **options: Any) -> list[Any]:
        # Both parts print the same rows: read them once instead of once per part.
        from reportlab.platypus import PageBreak

        rows = entrant_documents(tournament, base_url=options.get("base_url", ""))
        story: list[Any] = []
        for doc in self.part_documents():
            part = doc.get_story(rows, tournament=tournament, **options)
            if story and part:
                story.append(PageBreak())
            story.extend(part)
        return story
