"""One entrant's name tag and entry sheet, printed from the desk row (a walk-in's papers
at the counter, without the whole desk batch of every entrant).

A thin view: the rows are the desk documents' own (``selectors.documents``), narrowed to
one entrant, and the pages are the name-tag and entry-sheet documents' own stories under
the desk batch's header, so the single print matches the batch page for page.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from reportlab.platypus import PageBreak

from brackets.models import Role, Tournament
from brackets.permissions import role_required
from brackets.printing.base import CompositePdf
from brackets.printing.registry import get_document
from brackets.selectors.documents import entrant_documents
from brackets.views.documents import _printed_base_url

DESK_BATCH = "desk-batch"


@require_GET
@role_required(Role.ORGANISER, Role.DESK)
def desk_entrant_print(request: HttpRequest, tournament: Tournament, entrant_id: int) -> HttpResponse:
    """The PDF of one entrant's name tag (page 1) and entry sheet (page 2)."""
    docs = entrant_documents(tournament, base_url=_printed_base_url(request))
    entrant = next((e for e in docs.entrants if e.id == entrant_id), None)
    if entrant is None:
        raise Http404
    one = replace(docs, entrants=[entrant])
    batch = get_document(DESK_BATCH)
    assert isinstance(batch, CompositePdf)
    story: list[Any] = []
    for part in batch.part_documents():
        if story:
            story.append(PageBreak())
        story.extend(part.get_story(one, tournament=tournament))
    # The header is short (the name is printed large on both pages).
    subtitle = _("名札とエントリーシート")
    response = HttpResponse(batch.build(story, tournament=tournament, subtitle=subtitle),
                            content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="{tournament.slug}-entrant-{entrant.number}.pdf"')
    response["Cache-Control"] = "no-store"
    return response
