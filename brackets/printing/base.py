"""The one base class every printed document is built on (pretix ``ReportlabExportMixin``).

A document says its page size and margins in millimetres, builds its flowables in
:meth:`PdfDocument.get_story` from selector data (never from the request), and inherits the
page header (tournament name, document title, "page x / y"). Page numbers need the total
page count, which is only known at the end: :class:`NumberedCanvas` keeps each page's state
and draws the numbers when the document is saved, so one layout pass suffices.

The Japanese font (IPAex Gothic, shipped in ``fonts/`` under the IPA Font License) is
registered once per process; reportlab embeds only the glyphs a document uses (a subset),
so any viewer or printer shows the text without having the font installed.

A document is worded in the active language (the language of whoever prints it: the
download view runs under the request's language); players' names and the catalogue's
genres stay as entered, set in the same Japanese font, so an English sheet still shows them.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from django.utils.translation import gettext
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A3, A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate

from brackets.engine import bounds
from brackets.models import Tournament
from brackets.printing.registry import Document, Rendered

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_FILE = FONT_DIR / "ipaexg.ttf"
#: The name the PDF lists for the embedded font (pdffonts shows it with a subset prefix).
FONT = "IPAexGothic"

# Streams are zlib-compressed; reportlab's default also wraps them in ASCII85, which its
# pure-Python encoder makes the slowest step of a large batch for no benefit to printers.
rl_config.useA85 = 0

PDF = "application/pdf"
PAGE_A4 = A4
PAGE_A3_LANDSCAPE = landscape(A3)


@cache
def register_fonts() -> str:
    """Register the Japanese TTF with reportlab once per process; returns its font name.

    ``subfontIndex``-free TTFont embeds a subset of the glyphs used, which keeps a 72-page
    batch a few hundred kilobytes instead of carrying the 6 MB font each time.
    """
    pdfmetrics.registerFont(TTFont(FONT, str(FONT_FILE)))
    return FONT


def text_width(text: str, size: float) -> float:
    """Width in points of ``text`` set in the document font at ``size``."""
    return pdfmetrics.stringWidth(text, register_fonts(), size)


def fit_size(text: str, width: float, largest: float, smallest: float) -> float:
    """The largest font size (≤ ``largest``, ≥ ``smallest``) at which ``text`` fits ``width``.

    Names on tags and cards vary from two kanji to eight full-width kana; shrinking to fit
    keeps long names on one line instead of overflowing the box.
    """
    if not text:
        return largest
    natural = text_width(text, 1.0)
    if natural <= 0:
        return largest
    return max(smallest, min(largest, width / natural))


def truncate(text: str, width: float, size: float) -> str:
    """``text`` cut with an ellipsis so that it fits ``width`` at ``size`` (last resort).

    The cut is found by halving, so a 10,000-character name costs a handful of width
    measurements, not one per character.
    """
    if text_width(text, size) <= width:
        return text
    low, high = 0, len(text)  # text[:low] + "…" fits; text[:high] + "…" does not
    if text_width("…", size) > width:
        return "…"
    while high - low > 1:
        middle = (low + high) // 2
        if text_width(text[:middle] + "…", size) <= width:
            low = middle
        else:
            high = middle
    return text[:low] + "…"


#: The most of one text a document prints (a name and its card name, a reason …): what
#: staff can enter is shorter (``brackets.engine.bounds``), but a value stored before the
#: bounds still prints, clipped, instead of a table row taller than the page.
PRINT_TEXT_MAX = bounds.NAME.max_length + bounds.CARD_NAME.max_length + bounds.REASON.max_length


def clip(text: str, limit: int = bounds.NAME.max_length) -> str:
    """``text`` of at most ``limit`` characters, the last one an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@cache
def styles() -> dict[str, ParagraphStyle]:
    """Paragraph styles in the Japanese font; ``wordWrap="CJK"`` breaks lines between any
    two Japanese characters (Japanese text has no spaces to break at)."""
    font = register_fonts()
    base = ParagraphStyle("base", fontName=font, fontSize=10.5, leading=14, wordWrap="CJK")
    return {
        "base": base,
        "small": ParagraphStyle("small", parent=base, fontSize=8.5, leading=11),
        "tiny": ParagraphStyle("tiny", parent=base, fontSize=7.5, leading=9.5),
        "cell": ParagraphStyle("cell", parent=base, fontSize=10, leading=12.5),
        "cell_small": ParagraphStyle("cell_small", parent=base, fontSize=8.5, leading=10.5),
        "cell_center": ParagraphStyle("cell_center", parent=base, fontSize=10, leading=12.5,
                                      alignment=TA_CENTER),
        "title": ParagraphStyle("title", parent=base, fontSize=18, leading=24,
                                alignment=TA_LEFT, spaceAfter=4 * mm),
        "heading": ParagraphStyle("heading", parent=base, fontSize=13.5, leading=18,
                                  spaceBefore=2 * mm, spaceAfter=2 * mm),
        "big": ParagraphStyle("big", parent=base, fontSize=24, leading=30),
    }


class NumberedCanvas(Canvas):
    """A canvas that draws "page x / y" on every page once the page count is known.

    Each finished page's state is kept instead of being written; :meth:`save` replays them
    with the total. ``page_number_at`` is set by the document before building.
    """

    page_number_at: Callable[[Canvas, int, int], None] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._saved_pages: list[dict[str, Any]] = []

    def showPage(self) -> None:
        self._saved_pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._saved_pages)
        for number, state in enumerate(self._saved_pages, start=1):
            self.__dict__.update(state)
            if self.page_number_at is not None:
                self.page_number_at(self, number, total)
            super().showPage()
        super().save()


def numbered_canvas(draw: Callable[[Canvas, int, int], None]) -> type[NumberedCanvas]:
    """A :class:`NumberedCanvas` subclass bound to one document's page-number drawer."""
    return type("BoundNumberedCanvas", (NumberedCanvas,), {"page_number_at": staticmethod(draw)})


class PdfDocument(Document):
    """Base of every PDF document: page set-up, header, page numbers, one render path.

    Subclasses set ``slug``, ``title``, ``role`` (and ``pagesize`` / margins when not A4 with
    the defaults) and implement :meth:`get_data` (selector reads) and :meth:`get_story`.
    """

    content_type: ClassVar[str] = PDF
    extension: ClassVar[str] = "pdf"
    pagesize: ClassVar[tuple[float, float]] = PAGE_A4
    margin_top_mm: ClassVar[float] = 18
    margin_bottom_mm: ClassVar[float] = 12
    margin_left_mm: ClassVar[float] = 12
    margin_right_mm: ClassVar[float] = 12
    #: The header band sits inside the top margin, this far below the paper edge.
    header_offset_mm: ClassVar[float] = 9
    show_header: ClassVar[bool] = True

    # -- the contract ---------------------------------------------------------------

    def render(self, tournament: Tournament, **options: Any) -> Rendered:
        opts = self.clean_options(tournament, options)
        data = self.get_data(tournament, **opts)
        story = self.get_story(data, tournament=tournament, **opts)
        return self.filename(tournament, **opts), self.content_type, self.build(
            story, tournament=tournament, subtitle=self.header_title(tournament, **opts))

    # -- for subclasses -------------------------------------------------------------

    def get_data(self, tournament: Tournament, **options: Any) -> Any:
        """Read what the document prints (selectors); the default is the tournament."""
        return tournament

    def get_story(self, data: Any, *, tournament: Tournament, **options: Any) -> list[Flowable]:
        """The flowables of the document, built from :meth:`get_data`'s result."""
        raise NotImplementedError

    def header_title(self, tournament: Tournament, **options: Any) -> str:
        """What the header prints after the tournament name (the document's title)."""
        return self.label(tournament, **options)

    # -- machinery ------------------------------------------------------------------

    @property
    def frame_width(self) -> float:
        return self.pagesize[0] - (self.margin_left_mm + self.margin_right_mm) * mm

    @property
    def frame_height(self) -> float:
        return self.pagesize[1] - (self.margin_top_mm + self.margin_bottom_mm) * mm

    def build(self, story: list[Flowable], *, tournament: Tournament, subtitle: str) -> bytes:
        """Lay ``story`` out on pages with this document's header and page numbers."""
        font = register_fonts()
        buffer = io.BytesIO()
        doc = BaseDocTemplate(
            buffer,
            pagesize=self.pagesize,
            leftMargin=self.margin_left_mm * mm,
            rightMargin=self.margin_right_mm * mm,
            topMargin=self.margin_top_mm * mm,
            bottomMargin=self.margin_bottom_mm * mm,
            title=f"{tournament.name} {subtitle}",
            author=tournament.name,
            creator="kyushu brackets",
            # Keeps the bytes of two renders of the same data identical (tests, caches).
            invariant=1,
            # Without this every page starts in Helvetica, which the PDF then lists as an
            # (unembedded) font although no text uses it.
            initialFontName=font,
            pageCompression=1,
        )
        frame = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height,
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0, id="body")

        def on_page(canvas: Canvas, _doc: BaseDocTemplate) -> None:
            if self.show_header:
                self.on_page(canvas, tournament=tournament, subtitle=subtitle, font=font)

        doc.addPageTemplates([PageTemplate(id="all", frames=[frame], onPage=on_page,
                                           pagesize=self.pagesize)])
        doc.build(story, canvasmaker=numbered_canvas(self.draw_page_number))
        return buffer.getvalue()

    def on_page(self, canvas: Canvas, *, tournament: Tournament, subtitle: str,
                font: str) -> None:
        """The header: tournament name and the document title, with a rule under them."""
        width, height = self.pagesize
        y = height - self.header_offset_mm * mm
        left = self.margin_left_mm * mm
        right = width - self.margin_right_mm * mm
        canvas.saveState()
        canvas.setFont(font, 9)
        canvas.setFillColor(colors.black)
        name = truncate(tournament.name, (right - left) * 0.55, 9)
        canvas.drawString(left, y, name)
        canvas.setFont(font, 9)
        canvas.drawString(left + text_width(name, 9) + 4 * mm, y,
                          truncate(subtitle, (right - left) * 0.3, 9))
        canvas.setLineWidth(0.4)
        canvas.setStrokeColor(colors.grey)
        canvas.line(left, y - 2 * mm, right, y - 2 * mm)
        canvas.restoreState()

    def draw_page_number(self, canvas: Canvas, number: int, total: int) -> None:
        if not self.show_header:
            return
        width, height = self.pagesize
        canvas.saveState()
        canvas.setFont(register_fonts(), 9)
        canvas.drawRightString(width - self.margin_right_mm * mm,
                               height - self.header_offset_mm * mm, f"{number} / {total}")
        canvas.restoreState()


class CompositePdf(PdfDocument):
    """Several PDF documents in one file (batch printing): their stories, each starting on a
    new page, under one header and one page count.

    ``parts`` are registered document slugs; a part that does not apply to the tournament
    (its ``available`` says no) is left out rather than failing the whole batch.
    """

    parts: ClassVar[tuple[str, ...]] = ()

    def part_documents(self) -> list[PdfDocument]:
        from brackets.printing.registry import get_document

        docs = [get_document(slug) for slug in self.parts]
        return [doc for doc in docs if isinstance(doc, PdfDocument)]

    def get_story(self, data: Any, *, tournament: Tournament, **options: Any) -> list[Flowable]:
        from reportlab.platypus import PageBreak

        from brackets.printing.registry import DocumentError

        story: list[Flowable] = []
        refusals: list[str] = []
        for doc in self.part_documents():
            part_options = {k: v for k, v in options.items() if k in doc.option_names()}
            try:
                part_options = doc.clean_options(tournament, part_options)
                part = doc.get_story(doc.get_data(tournament, **part_options),
                                     tournament=tournament, **part_options)
            except DocumentError as exc:  # e.g. no results yet: print the rest
                refusals.append(exc.message)
                continue
            if not part:
                continue
            if story:
                story.append(PageBreak())
            story.extend(part)
        if not story:
            raise DocumentError("　".join(dict.fromkeys(refusals)) or gettext("印刷するものがありません。"))
        return story


def table_style(*extra: tuple[Any, ...], header: bool = True) -> list[tuple[Any, ...]]:
    """The grid style every table shares: thin lines, Japanese font, a shaded header row."""
    font = register_fonts()
    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), font),
        ("FONTSIZE", (0, 0), (-1, -1), 10),
        ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]
    if header:
        commands += [("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.88, 0.88, 0.88)),
                     ("ALIGN", (0, 0), (-1, 0), "CENTER")]
    commands.extend(extra)
    return commands


def draw_cut_marks(canvas: Canvas, xs: list[float], ys: list[float], length: float = 4 * mm,
                   gap: float = 1.5 * mm) -> None:
    """Crop marks outside a grid whose column edges are ``xs`` and row edges ``ys``.

    Marks stop short of the grid so a cut along them leaves no line on the cards.
    """
    canvas.saveState()
    canvas.setLineWidth(0.3)
    canvas.setStrokeColor(colors.black)
    top, bottom = max(ys), min(ys)
    left, right = min(xs), max(xs)
    for x in xs:
        canvas.line(x, top + gap, x, top + gap + length)
        canvas.line(x, bottom - gap, x, bottom - gap - length)
    for y in ys:
        canvas.line(left - gap, y, left - gap - length, y)
        canvas.line(right + gap, y, right + gap + length, y)
    canvas.restoreState()


class CardSheet(Flowable):
    """One page of equal cards in a grid (name tags, 下関 cards, usage cards) with cut marks.

    ``draw_card(canvas, item, width, height)`` draws one card with its origin at the card's
    lower-left corner; the sheet translates to each cell. Faint guide lines between cards
    help when cutting with scissors instead of a guillotine.
    """

    def __init__(self, items: list[Any], *, columns: int, rows: int, card_w: float,
                 card_h: float, draw_card: Callable[[Canvas, Any, float, float], None],
                 guides: bool = True) -> None:
        super().__init__()
        self.items = items
        self.columns = columns
        self.rows = rows
        self.card_w = card_w
        self.card_h = card_h
        self.draw_card = draw_card
        self.guides = guides

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self._avail = (avail_width, avail_height)
        return avail_width, self.rows * self.card_h

    def draw(self) -> None:
        canvas = self.canv
        avail_width = self._avail[0]
        grid_w = self.columns * self.card_w
        x0 = (avail_width - grid_w) / 2
        top = self.rows * self.card_h
        for index, item in enumerate(self.items):
            row, col = divmod(index, self.columns)
            canvas.saveState()
            canvas.translate(x0 + col * self.card_w, top - (row + 1) * self.card_h)
            self.draw_card(canvas, item, self.card_w, self.card_h)
            canvas.restoreState()
        xs = [x0 + c * self.card_w for c in range(self.columns + 1)]
        used_rows = -(-len(self.items) // self.columns) if self.items else 0
        ys = [top - r * self.card_h for r in range(self.rows + 1)]
        draw_cut_marks(canvas, xs, ys)
        if self.guides and used_rows:
            canvas.saveState()
            canvas.setLineWidth(0.25)
            canvas.setStrokeColor(colors.Color(0.6, 0.6, 0.6))
            canvas.setDash(1, 2)
            for r in range(self.rows + 1):
                canvas.line(xs[0], ys[r], xs[-1], ys[r])
            for x in xs:
                canvas.line(x, ys[0], x, ys[-1])
            canvas.restoreState()


def card_sheets(items: list[Any], *, columns: int, rows: int, card_w_mm: float,
                card_h_mm: float, draw_card: Callable[[Canvas, Any, float, float], None]
                ) -> list[Flowable]:
    """Pages of cards: one :class:`CardSheet` per ``columns × rows`` items."""
    from reportlab.platypus import PageBreak

    per_page = columns * rows
    story: list[Flowable] = []
    for start in range(0, len(items), per_page):
        if story:
            story.append(PageBreak())
        story.append(CardSheet(items[start:start + per_page], columns=columns, rows=rows,
                               card_w=card_w_mm * mm, card_h=card_h_mm * mm,
                               draw_card=draw_card))
    return story


def labelled(mapping: Mapping[str, str], key: str, default: str = "") -> str:
    return mapping.get(key, default)
