"""Name tags: ten per A4 sheet (2 × 5, 90 × 52 mm, fits common name-tag holders), cut marks.

The name is set as large as the tag allows (shrunk to fit, never overflowing); the card name
is what other players see on the cabinet screen, so it is printed large too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext, gettext_noop
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from brackets.models import Role, Tournament
from brackets.printing.base import (
    PdfDocument,
    card_sheets,
    fit_size,
    register_fonts,
    truncate,
)
from brackets.printing.registry import BASE_URL_OPTION, Option, register
from brackets.selectors.documents import EntrantDoc, EntrantDocs, entrant_documents

TAG_W_MM, TAG_H_MM = 90, 52
COLUMNS, ROWS = 2, 5


def draw_name_tag(canvas: Canvas, entrant: EntrantDoc, width: float, height: float,
                  tournament_name: str) -> None:
    """One tag, origin at its lower-left corner."""
    font = register_fonts()
    pad = 4 * mm
    inner = width - 2 * pad
    canvas.setFillColor(colors.black)
    canvas.setFont(font, 8)
    canvas.drawString(pad, height - pad - 6, truncate(tournament_name, inner * 0.7, 8))
    number = f"No.{entrant.number}"
    if entrant.seed:
        number = gettext("シード{n}").format(n=entrant.seed) + "　" + number
    canvas.drawRightString(width - pad, height - pad - 6, number)
    canvas.setFont(font, 9)
    if entrant.reading:
        canvas.drawCentredString(width / 2, height - 15 * mm,
                                 truncate(entrant.reading, inner, 9))
    size = fit_size(entrant.name, inner, 26, 11)
    canvas.setFont(font, size)
    canvas.drawCentredString(width / 2, height - 15 * mm - 4 - size,
                             truncate(entrant.name, inner, size))
    card = f"CN　{entrant.card_name}"
    card_size = fit_size(card, inner, 15, 9)
    canvas.setFont(font, card_size)
    canvas.drawCentredString(width / 2, 11 * mm, card)
    canvas.setFont(font, 8)
    footer = " ・ ".join(x for x in (entrant.rank, f"Q{entrant.q_level}" if entrant.q_level else "",
                                      entrant.home_store) if x)
    canvas.drawCentredString(width / 2, pad, truncate(footer, inner, 8))


@register
class NameTags(PdfDocument):
    """名札: every entrant, in entry order."""

    slug = "name-tags"
    order = 10
    title = gettext_noop("名札")
    role = Role.DESK
    category = gettext_noop("受付")
    description = gettext_noop("A4に10枚（90×52mm）、切り取り線つき")
    options: ClassVar[Mapping[str, Option]] = {"base_url": BASE_URL_OPTION}
    margin_top_mm = 20
    margin_bottom_mm = 10

    def get_data(self, tournament: Tournament, **options: Any) -> EntrantDocs:
        return entrant_documents(tournament, base_url=options.get("base_url", ""))

    def get_story(self, data: EntrantDocs, *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        def draw(canvas: Canvas, entrant: EntrantDoc, w: float, h: float) -> None:
            draw_name_tag(canvas, entrant, w, h, data.tournament_name)

        return card_sheets(data.entrants, columns=COLUMNS, rows=ROWS, card_w_mm=TAG_W_MM,
                           card_h_mm=TAG_H_MM, draw_card=draw)
