"""Entry sheets: one A4 page per entrant, handed over at check-in.

Everything the player must know before round 1 is on it: how they are registered (name,
reading, card name, Q level and rank), the restriction they play under (computed by the rule
engine from the preset and their Q level / 修羅 declarations), their 修羅 lots, their
round-1 group and サテ once drawn, and a QR code to their public page for results on the phone.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer, Table, TableStyle

from brackets.models import Role, Tournament
from brackets.printing.base import PdfDocument, fit_size, register_fonts, styles, table_style
from brackets.printing.registry import BASE_URL_OPTION, register
from brackets.selectors.documents import EntrantDoc, EntrantDocs, entrant_documents

QR_MM = 38


class QrCode(Flowable):
    """A QR code drawn as vector squares (segno computes the modules).

    Vector, not an image: sharp on any printer, a few hundred bytes per sheet, and no
    graphics-library state (reportlab's widget renderer would switch the page to Helvetica,
    a font the PDF would then list without embedding).
    """

    def __init__(self, data: str, size: float) -> None:
        super().__init__()
        import segno

        self.matrix = segno.make(data, error="m", micro=False).matrix
        self.size = size

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.size, self.size

    def draw(self) -> None:
        quiet = 2
        count = len(self.matrix) + 2 * quiet
        module = self.size / count
        canvas = self.canv
        canvas.setFillColor(colors.black)
        for r, row in enumerate(self.matrix):
            y = self.size - (r + quiet + 1) * module
            start = None
            for c, dark in enumerate([*row, 0]):
                if dark and start is None:
                    start = c
                elif not dark and start is not None:
                    canvas.rect((start + quiet) * module, y, (c - start) * module, module,
                                stroke=0, fill=1)
                    start = None


def qr_drawing(url: str, size_mm: float = QR_MM) -> QrCode:
    """The QR code of ``url``, ``size_mm`` square including its quiet zone."""
    return QrCode(url, size_mm * mm)


def _p(text: str, style: str = "cell") -> Paragraph:
    from xml.sax.saxutils import escape

    return Paragraph(escape(text), styles()[style])


def entry_sheet(entrant: EntrantDoc, *, width: float) -> list[Flowable]:
    """The flowables of one entrant's sheet (one page)."""
    st = styles()
    name_size = fit_size(entrant.name, width - (QR_MM + 12) * mm, 26, 14)
    head_rows: list[list[Any]] = [
        [_p(entrant.reading or " ", "base"), qr_drawing(entrant.public_url)],
        [Paragraph(_escape(entrant.name),
                   st["big"].clone("name", fontSize=name_size, leading=name_size * 1.25)), None],
        [_p(f"受付番号 {entrant.number}" + (f"　シード{entrant.seed}" if entrant.seed else ""),
            "base"), None],
    ]
    head = Table(head_rows, colWidths=[width - (QR_MM + 6) * mm, (QR_MM + 6) * mm],
                 rowHeights=[None, None, None])
    head.setStyle(TableStyle([
        # Empty cells are still "drawn" in the table's font: keep it the embedded one.
        ("FONTNAME", (0, 0), (-1, -1), register_fonts()),
        ("SPAN", (1, 0), (1, 2)),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (1, 0), (1, 0), "RIGHT"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), 0),
    ]))
    if entrant.round1_group:
        round1 = f"{entrant.round1_group}　サテ{entrant.round1_seat}"
    else:
        round1 = "未抽選（会場の掲示で確認してください）"
    rank = f"Q{entrant.q_level}" + (f"（{entrant.rank}）" if entrant.rank else "")
    rows = [
        ["カードネーム", entrant.card_name],
        ["よみがな", entrant.reading],
        ["ホーム店舗", entrant.home_store],
        ["最高Qレベル・階級", rank],
        ["制限", entrant.mode],
        ["修羅くじ", entrant.lots_text],
        ["1回戦", round1],
    ]
    label_w = 42 * mm
    table = Table([[_p(k), _p(v)] for k, v in rows], colWidths=[label_w, width - label_w],
                  rowHeights=[11 * mm] * len(rows))
    table.setStyle(TableStyle(table_style(
        ("BACKGROUND", (0, 0), (0, -1), colors.Color(0.92, 0.92, 0.92)), header=False)))
    lots_box: list[Flowable] = []
    if entrant.lots_owed:
        lots_box = [Spacer(0, 5 * mm), _p("修羅くじ　抽選結果（抽選時に記入）", "heading"),
                    _boxes(["くじ1", "くじ2", "くじ3", "くじ4"][:max(entrant.lots_owed, 1)],
                           width, 14 * mm)]
    staff = _boxes(["参加費", "受付", "受付スタッフ"], width, 16 * mm)
    qr_note = _p(f"右上のQRコード：選手ページ（結果・組分け）　{entrant.public_url}", "tiny")
    return [
        Paragraph("エントリーシート", st["title"]),
        head,
        Spacer(0, 4 * mm),
        table,
        *lots_box,
        Spacer(0, 6 * mm),
        _p("受付記入欄", "heading"),
        staff,
        Spacer(0, 4 * mm),
        qr_note,
    ]


def _escape(text: str) -> str:
    from xml.sax.saxutils import escape

    return escape(text)


def _boxes(labels: list[str], width: float, height: float) -> Table:
    """Empty boxes with a small label on top, for staff to write or tick in."""
    cell_w = width / len(labels)
    table = Table([[_p(label, "cell_small") for label in labels], [""] * len(labels)],
                  colWidths=[cell_w] * len(labels), rowHeights=[6 * mm, height])
    table.setStyle(TableStyle(table_style()))
    return table


@register
class EntrySheets(PdfDocument):
    """エントリーシート: one page per entrant, in entry order."""

    slug = "entry-sheets"
    title = "エントリーシート"
    role = Role.DESK
    category = "受付"
    description = "1人1枚（名前・CN・Qレベル・制限・修羅くじ・1回戦の組とサテ・QRコード）"
    options = {"base_url": BASE_URL_OPTION}

    def get_data(self, tournament: Tournament, **options: Any) -> EntrantDocs:
        return entrant_documents(tournament, base_url=options.get("base_url", ""))

    def get_story(self, data: EntrantDocs, *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        story: list[Flowable] = []
        for entrant in data.entrants:
            if story:
                story.append(PageBreak())
            story.extend(entry_sheet(entrant, width=self.frame_width))
        return story
