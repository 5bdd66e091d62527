"""Entry sheets: one A4 page per entrant, handed over at check-in.

Everything the player must know before round 1 is on it: how they are registered (name,
reading, card name, Q level and rank), the restriction they play under (computed by the rule
engine from the preset and their Q level / 修羅 declarations), their 修羅 lots, their
round-1 group and サテ once drawn, and a QR code to their public page for results on the phone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext, gettext_noop
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, PageBreak

from brackets.models import Role, Tournament
from brackets.printing._forms import wrap_lines
from brackets.printing.base import PdfDocument, fit_size, register_fonts, text_width, truncate
from brackets.printing.registry import BASE_URL_OPTION, Option, register
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

        # A fixed mask: choosing the "best" of eight costs most of the encoding time and
        # buys nothing a phone camera notices on a clean printout.
        self.matrix = segno.make(data, error="m", micro=False, mask=0).matrix
        self.size = size

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.size, self.size

    def draw(self) -> None:
        quiet = 2
        count = len(self.matrix) + 2 * quiet
        module = self.size / count
        canvas = self.canv
        canvas.saveState()
        canvas.setFillColor(colors.black)
        # In module units the squares have integer coordinates: written as raw "re"
        # operators they cost a fraction of reportlab's general float formatting.
        canvas.transform(module, 0, 0, module, 0, 0)
        ops = []
        size = len(self.matrix)
        for r, row in enumerate(self.matrix):
            y = size - r - 1 + quiet
            start = None
            for c, dark in enumerate([*row, 0]):
                if dark and start is None:
                    start = c
                elif not dark and start is not None:
                    ops.append(f"{start + quiet} {y} {c - start} 1 re")
                    start = None
        ops.append("f")
        canvas.addLiteral("\n".join(ops))
        canvas.restoreState()


def qr_drawing(url: str, size_mm: float = QR_MM) -> QrCode:
    """The QR code of ``url``, ``size_mm`` square including its quiet zone."""
    return QrCode(url, size_mm * mm)


class EntrySheet(Flowable):
    """One entrant's sheet, drawn straight onto the page (one page each).

    A fixed form, so it is drawn with canvas primitives rather than nested platypus tables:
    the desk prints a thousand of these before the doors open, and direct drawing is several
    times faster while giving the same boxes.
    """

    def __init__(self, entrant: EntrantDoc) -> None:
        super().__init__()
        self.entrant = entrant

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width, self.height = avail_width, avail_height - 1
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        e = self.entrant
        font = register_fonts()
        w, top = self.width, self.height
        c.setFillColor(colors.black)
        c.setFont(font, 18)
        c.drawString(0, top - 18, truncate(gettext("エントリーシート"), w - QR_MM * mm - 6 * mm, 18))
        qr = QR_MM * mm
        QrCode(e.checkin_url or e.public_url, qr).drawOn(c, w - qr, top - qr - 2 * mm)
        text_w = w - qr - 6 * mm
        c.setFont(font, 10.5)
        c.drawString(0, top - 16 * mm, truncate(e.reading, text_w, 10.5))
        size = fit_size(e.name, text_w, 26, 12)
        c.setFont(font, size)
        c.drawString(0, top - 17 * mm - size * 1.05, truncate(e.name, text_w, size))
        c.setFont(font, 10.5)
        number = gettext("受付番号 {number}").format(number=e.number)
        if e.seed:
            number += "　" + gettext("シード{seed}").format(seed=e.seed)
        c.drawString(0, top - 36 * mm, number)
        if e.round1_group:
            round1 = gettext("{group}　サテ{seat}").format(group=e.round1_group,
                                                          seat=e.round1_seat)
        elif e.round1_note:
            round1 = e.round1_note
        else:
            round1 = gettext("未抽選（会場の掲示で確認してください）")
        rank = f"Q{e.q_level}" + (f"（{e.rank}）" if e.rank else "")
        rows = [(gettext("カードネーム"), e.card_name), (gettext("よみがな"), e.reading),
                (gettext("ホーム店舗"), e.home_store), (gettext("最高Qレベル・階級"), rank),
                (gettext("制限"), e.mode), (gettext("修羅くじ"), e.lots_text),
                (gettext("1回戦"), round1)]
        y = top - 46 * mm
        row_h = 11 * mm
        label_w = 42 * mm
        c.setLineWidth(0.5)
        c.setFillColor(colors.Color(0.92, 0.92, 0.92))
        c.rect(0, y - row_h * len(rows), label_w, row_h * len(rows), stroke=0, fill=1)
        c.setFillColor(colors.black)
        for index, (label, value) in enumerate(rows):
            row_top = y - index * row_h
            c.rect(0, row_top - row_h, label_w, row_h, stroke=1, fill=0)
            c.rect(label_w, row_top - row_h, w - label_w, row_h, stroke=1, fill=0)
            c.setFont(font, 10)
            size = fit_size(label, label_w - 4 * mm, 10, 7)
            c.setFont(font, size)
            c.drawString(2 * mm, row_top - row_h / 2 - 3.5, truncate(label, label_w - 4 * mm, size))
            _cell_text(c, value, label_w + 2 * mm, row_top, w - label_w - 4 * mm, row_h)
        y -= row_h * len(rows) + 8 * mm
        if e.lots_owed and not e.lots_drawn:
            c.setFont(font, 13.5)
            c.drawString(0, y, truncate(gettext("修羅くじ　抽選結果（抽選時に記入）"), w, 13.5))
            y -= 4 * mm
            lots = [gettext("くじ{number}").format(number=n) for n in range(1, 5)]
            y = _boxes(c, lots[:max(e.lots_owed, 1)], y, w, 14 * mm) - 8 * mm
        c.setFont(font, 13.5)
        c.drawString(0, y, truncate(gettext("受付記入欄"), w, 13.5))
        y = _boxes(c, [gettext("参加費"), gettext("受付"), gettext("受付スタッフ")],
                   y - 4 * mm, w, 16 * mm)
        c.setFont(font, 7.5)
        c.drawString(0, y - 6 * mm, truncate(
            gettext("右上のQRコード：受付で読み取り・選手ページ（結果・組分け）") + "　"
            + e.public_url, w, 7.5))


def _cell_text(c: Canvas, text: str, x: float, row_top: float, width: float,
               row_h: float) -> None:
    """Text in a table cell: one line at 10pt, else two lines, shrunk as far as 7.5pt."""
    font = register_fonts()
    if text_width(text, 10) <= width:
        c.setFont(font, 10)
        c.drawString(x, row_top - row_h / 2 - 3.5, text)
        return
    size = max(7.5, min(10.0, 2 * width / max(text_width(text, 1.0), 1)))
    lines = wrap_lines(text, width, size)[:2]
    if len(lines) == 2 and len("".join(lines)) < len(text):
        lines[1] = truncate(lines[1] + text[len("".join(lines)):], width, size)
    c.setFont(font, size)
    first = row_top - row_h / 2 + (size * 0.15 if len(lines) == 1 else size * 0.55)
    for i, line in enumerate(lines):
        c.drawString(x, first - i * size * 1.2, line)


def _boxes(c: Canvas, labels: list[str], top: float, width: float, height: float) -> float:
    """Empty boxes with a small shaded label row, for staff to write in; returns the y
    below them."""
    font = register_fonts()
    cell_w = width / len(labels)
    label_h = 6 * mm
    c.setLineWidth(0.5)
    for i, label in enumerate(labels):
        x = i * cell_w
        c.setFillColor(colors.Color(0.88, 0.88, 0.88))
        c.rect(x, top - label_h, cell_w, label_h, stroke=1, fill=1)
        c.setFillColor(colors.black)
        c.rect(x, top - label_h - height, cell_w, height, stroke=1, fill=0)
        c.setFont(font, 8.5)
        c.drawString(x + 1.5 * mm, top - label_h + 2 * mm,
                     truncate(label, cell_w - 3 * mm, 8.5))
    return top - label_h - height


def entry_sheet(entrant: EntrantDoc, *, width: float = 0.0) -> list[Flowable]:
    """The flowables of one entrant's sheet (one page)."""
    return [EntrySheet(entrant)]


@register
class EntrySheets(PdfDocument):
    """エントリーシート: one page per entrant, in entry order."""

    slug = "entry-sheets"
    order = 20
    title = gettext_noop("エントリーシート")
    role = Role.DESK
    category = gettext_noop("受付")
    description = gettext_noop("1人1枚（名前・CN・Qレベル・制限・修羅くじ・1回戦の組とサテ・QRコード）")
    options: ClassVar[Mapping[str, Option]] = {"base_url": BASE_URL_OPTION}

    def get_data(self, tournament: Tournament, **options: Any) -> EntrantDocs:
        return entrant_documents(tournament, base_url=options.get("base_url", ""))

    def get_story(self, data: EntrantDocs, *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        story: list[Flowable] = []
        for entrant in data.entrants:
            if story:
                story.append(PageBreak())
            story.extend(entry_sheet(entrant))
        return story
