"""Ban forms (K8, 準決勝 禁止ジャンル用紙): each player names one genre, revealed together.

Named per seat once the round is drawn, blank before; the genres to choose from come from
the tournament's catalog (every genre except ノンジャンル, the fallback).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from django.utils.translation import gettext, gettext_noop
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from brackets.adapters.rounds import round_rules
from brackets.models import Role, Round, Tournament
from brackets.printing._forms import (
    FORM_H_MM,
    FORM_W_MM,
    checkbox,
    form_frame,
    wrap_lines,
    write_line,
)
from brackets.printing.base import PdfDocument, card_sheets, register_fonts, truncate
from brackets.printing.registry import Choice, DocumentError, Option, register
from brackets.selectors.round_documents import round_choices


@dataclass(frozen=True)
class BanFormData:
    round_name: str
    genres: list[str]
    forms: list[tuple[str, str, str]]  # (group, name, card name)


def ban_form_data(tournament: Tournament, number: int) -> BanFormData:
    from brackets import engine_adapter as ea
    from brackets.models import Group
    from brackets.selectors import rounds as sel

    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None or not round_rules(rnd).bans:
        raise DocumentError(gettext("この回戦には禁止ジャンルの指定がありません。"))
    catalog = ea.catalog_for(tournament.version_id)
    genres = list(catalog.lot_genres)
    groups = list(Group.objects.filter(round=rnd).order_by("number"))
    seats = sel.current_seats([g.id for g in groups])
    forms = [(g.label, s.entrant.name, s.entrant.card_name)
             for g in groups for s in seats.get(g.id, []) if s.entrant_id]
    if not forms:
        forms = [("", "", "")] * 8
    return BanFormData(rnd.name, genres, forms)


@register
class BanForms(PdfDocument):
    """禁止ジャンル用紙: four per A4, one per player of the round."""

    slug = "ban-forms"
    order = 60
    title = gettext_noop("禁止ジャンル用紙")
    role = Role.BRACKET
    category = gettext_noop("回戦")
    description = gettext_noop("禁止するジャンルを1つ（A4に4枚）。組分け後は名前と組入り")
    options: ClassVar[Mapping[str, Option]] = {"round": Option(gettext_noop("回戦"))}

    def choices(self, tournament: Tournament) -> list[Choice]:
        return [Choice(name, {"round": n}) for n, name in round_choices(tournament, flag="bans")]

    def get_data(self, tournament: Tournament, **options: Any) -> BanFormData:
        return ban_form_data(tournament, options["round"])

    def label(self, tournament: Tournament, **options: Any) -> str:
        return gettext(self.title)

    def get_story(self, data: BanFormData, *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        def draw(canvas: Canvas, form: tuple[str, str, str], w: float, h: float) -> None:
            pad = 6 * mm
            y = form_frame(canvas, w, h, f"{data.round_name} {gettext(self.title)}", tournament.name)
            write_line(canvas, pad, y - 4 * mm, 24 * mm, gettext("組"), form[0])
            write_line(canvas, pad + 28 * mm, y - 4 * mm, w - 2 * pad - 28 * mm, gettext("名前"),
                       form[1])
            write_line(canvas, pad, y - 13 * mm, w - 2 * pad, gettext("カードネーム"), form[2])
            y -= 24 * mm
            font = register_fonts()
            canvas.setFont(font, 9)
            canvas.drawString(pad, y, truncate(gettext("禁止するジャンルに1つだけ印をつけてください"),
                                               w - 2 * pad, 9))
            y -= 3 * mm
            for genre in data.genres:
                y -= 7.5 * mm
                checkbox(canvas, pad, y - 1 * mm, 5 * mm)
                canvas.setFont(font, 12)
                canvas.drawString(pad + 8 * mm, y, genre)
            canvas.setFont(font, 7.5)
            notes = [line for text in (gettext("全員の用紙がそろってから同時に公開します。"),
                                       gettext("書かれたジャンルはこの試合の全員が使えません。"))
                     for line in wrap_lines(text, w - 2 * pad, 7.5)]
            for i, line in enumerate(notes):
                canvas.drawString(pad, 8 * mm + (len(notes) - 1 - i) * 4 * mm, line)
        return card_sheets(data.forms, columns=2, rows=2, card_w_mm=FORM_W_MM,
                           card_h_mm=FORM_H_MM, draw_card=draw)
