"""The bracket chart for the wall (A3 landscape): rounds as columns, groups as boxes,
advancers' paths drawn from their row in one round to their row in the next.

The final and the third-place match share the last column. A path is drawn for a player who
sits as a player of the later box (contenders only in partner matches: a partner picked from
eliminated players did not advance). Sizes adapt to the field: rows shrink down to a
readable minimum, and a field too large for one sheet continues on further sheets (a path is
drawn when both of its ends are on the same sheet).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, gettext_noop
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak

from brackets.models import Role, Tournament
from brackets.printing.base import PAGE_A3_LANDSCAPE, PdfDocument, register_fonts, truncate
from brackets.printing.registry import Choice, DocumentError, register
from brackets.selectors.round_documents import RoundDoc, round_choices, round_document

MAX_ROW = 6 * mm
MIN_ROW = 2.9 * mm
MAX_COLUMN = 80 * mm
BOX_GAP_ROWS = 0.6
ADVANCED = colors.Color(0.86, 0.94, 0.86)
# The web bracket's wildcard colours (rounds.css: .bb-row.wild, path.wild).
WILDCARD = colors.Color(1.0, 0.9, 0.71)
WILD_PATH = colors.Color(0.9, 0.49, 0.0)
CHAMPION = colors.Color(1.0, 0.85, 0.35)
PATH = colors.Color(0.15, 0.45, 0.15)
WC = "WC"


@dataclass
class Box:
    title: str
    rows: list[tuple[str, str, str, bool, int | None, bool]]  # (mark, name, score, adv, id, player)
    column: int
    y_top: float = 0.0
    page: int = 0
    #: Rows drawn as the champion's (gold, framed): the final's winner (K10).
    gold: frozenset[int] = frozenset()
    #: Rows of wildcards (追加勝ち抜け): orange, tagged WC, their path dashed, as on the web.
    wild: frozenset[int] = frozenset()


def _series_box(doc: RoundDoc, index: int) -> Box:
    """The final (K10) as one box: both finalists with their game wins, 優勝 / 準優勝 once
    decided (the champion in gold), their partners, then every game's winner and the two
    finalists' scores; a game not needed after the series was decided says so."""
    games = [g for g in doc.groups if not g.unneeded]
    first = doc.groups[0]
    seats = {s.number: s for s in first.seats}
    contenders = [seats[n] for n in (1, 4) if n in seats and not seats[n].is_dummy]
    champion = gettext("優勝")
    labels = dict(zip(doc.final_order, (champion, gettext("準優勝"))))
    rows: list[tuple[str, str, str, bool, int | None, bool]] = []
    gold: set[int] = set()
    for seat in contenders:
        wins = sum(1 for g in games if g.winner_id is not None and g.winner_id == seat.entrant_id)
        label = labels.get(seat.entrant_id or 0, "")
        if label == champion:
            gold.add(len(rows))
        rows.append((str(seat.number), f"{seat.name}　{label}" if label else seat.name,
                     gettext("{n}勝").format(n=wins), False, seat.entrant_id, True))
    for n in (2, 3):
        if n in seats and not seats[n].is_dummy:
            rows.append((str(n), f"（P）{seats[n].name}", "", False, seats[n].entrant_id, False))
    for g in doc.groups:
        by_seat = {s.number: s for s in g.seats}
        if g.unneeded:
            rows.append(("", gettext("第{game}試合　行わない（決着済み）").format(game=g.game), "",
                         False, None, False))
            continue
        score = ""
        if g.has_result and 1 in by_seat and 4 in by_seat:
            score = f"{by_seat[1].score}–{by_seat[4].score}"
        # Two lines a game: the finalists' scores (seat 1–seat 4) would crowd out the
        # winner's name in a narrow column.
        rows.append(("", gettext("第{game}試合（サテ1–4）").format(game=g.game), score, False,
                     None, False))
        rows.append(("", f"　{g.outcome or gettext('未入力')}", "", False, None, False))
    return Box(gettext("{round}（3本勝負）").format(round=doc.name), rows, index,
               gold=frozenset(gold))


@dataclass
class Column:
    title: str
    boxes: list[Box] = field(default_factory=list)


def _box_rows(doc: RoundDoc, index: int) -> list[Box]:
    boxes = []
    spec = doc.rules.spec
    if spec.is_series and doc.groups:
        return [_series_box(doc, index)]
    for group in doc.groups:
        rows = []
        if spec.is_pair:
            # Contenders first (seats 1 and 4), then their partners: placements of one
            # game say little about a pair match.
            ordered = sorted((s for s in group.seats if not s.is_dummy),
                             key=lambda s: (s.number not in (1, 4), s.number))
        elif group.has_result:
            ordered = group.placed()
        else:
            ordered = [s for s in group.seats if not s.is_dummy]
        wild: set[int] = set()
        for seat in ordered:
            if seat.wildcard:
                wild.add(len(rows))
            contender = not spec.is_pair or seat.number in (1, 4)
            mark = (f"{seat.place}" if seat.place and group.has_result
                    and not spec.is_pair else f"{seat.number}")
            name = seat.name if contender else f"（P）{seat.name}"
            if spec.is_partner_match and doc.final_order and contender:
                name += "　" + (gettext("3位") if seat.entrant_id == doc.final_order[0]
                                else gettext("4位"))
            rows.append((mark, name, seat.score if not spec.is_series else "",
                         bool(seat.advanced), seat.entrant_id, contender))
        title = gettext("{group}組").format(group=group.label) if not spec.is_pair else doc.name
        if group.rule:
            title += f"（{group.rule}）"
        boxes.append(Box(title, rows, index, wild=frozenset(wild)))
    return boxes


def chart_columns(docs: list[RoundDoc]) -> list[Column]:
    columns: list[Column] = []
    finals = [d for d in docs if d.rules.spec.is_pair]
    for doc in docs:
        if doc in finals:
            continue
        columns.append(Column(doc.name, _box_rows(doc, len(columns))))
    if finals:
        finals.sort(key=lambda d: not d.rules.spec.is_series)  # the final first, then 3位
        column = Column("・".join(d.name for d in finals))
        for doc in finals:
            column.boxes += _box_rows(doc, len(columns))
        columns.append(column)
    return columns


class ChartPage(Flowable):
    """One sheet of the chart: draws the given boxes and the paths between them."""

    def __init__(self, columns: list[Column], page: int, row_h: float, title: str) -> None:
        super().__init__()
        self.columns = columns
        self.page = page
        self.row_h = row_h
        self.title = title

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width, self.height = avail_width, avail_height
        return avail_width, avail_height

    def draw(self) -> None:
        c = self.canv
        font = register_fonts()
        n = len(self.columns)
        gap = 10 * mm
        # Columns no wider than a name and a score need: with few rounds drawn the chart
        # stays a chart (centred) instead of boxes stretched across the sheet.
        col_w = min(MAX_COLUMN, (self.width - gap * (n - 1)) / max(n, 1))
        left = (self.width - (col_w * n + gap * (n - 1))) / 2
        size = max(5.5, min(10.0, self.row_h / mm * 2.0))
        positions: dict[tuple[int, int], tuple[float, float, float]] = {}
        wild_paths: set[tuple[int, int]] = set()
        self.draw_legend(font)
        for i, column in enumerate(self.columns):
            x = left + i * (col_w + gap)
            c.setFillColor(colors.black)
            c.setFont(font, 11)
            c.drawCentredString(x + col_w / 2, self.height - 5 * mm, column.title)
            for box in column.boxes:
                if box.page != self.page:
                    continue
                top = box.y_top
                height = self.row_h * (len(box.rows) + 1)
                c.setStrokeColor(colors.black)
                c.setLineWidth(0.6)
                c.setFillColor(colors.Color(0.9, 0.9, 0.9))
                c.rect(x, top - self.row_h, col_w, self.row_h, stroke=1, fill=1)
                c.setFillColor(colors.black)
                c.setFont(font, size)
                c.drawString(x + 1.5 * mm, top - self.row_h + self.row_h * 0.28, box.title)
                for r, (mark, name, score, advanced, entrant_id, player) in enumerate(box.rows):
                    y = top - self.row_h * (r + 2)
                    if r in box.gold:
                        c.setFillColor(CHAMPION)
                        c.setStrokeColor(colors.Color(0.6, 0.45, 0.0))
                        c.setLineWidth(1.4)
                        c.rect(x, y, col_w, self.row_h, stroke=1, fill=1)
                        c.setLineWidth(0.6)
                    elif advanced:
                        c.setFillColor(WILDCARD if r in box.wild else ADVANCED)
                        c.rect(x, y, col_w, self.row_h, stroke=0, fill=1)
                    c.setFillColor(colors.black)
                    c.setFont(font, size)
                    base = y + self.row_h * 0.28
                    c.drawString(x + 1.2 * mm, base, mark)
                    score_w = c.stringWidth(score, font, size) if score else 0
                    tag_w = c.stringWidth(f"{WC} ", font, size) if r in box.wild else 0
                    c.drawString(x + 1.2 * mm + size * 1.3, base,
                                 truncate(name, col_w - size * 1.3 - score_w - tag_w - 4 * mm,
                                          size))
                    if score:
                        c.drawRightString(x + col_w - 1.2 * mm, base, score)
                    if tag_w:
                        c.setFillColor(WILD_PATH)
                        c.drawRightString(x + col_w - 1.2 * mm - score_w - (1 * mm if score else 0),
                                          base, WC)
                        c.setFillColor(colors.black)
                    if entrant_id is not None and player:
                        positions[(i, entrant_id)] = (x, x + col_w, y + self.row_h / 2)
                        if r in box.wild:
                            wild_paths.add((i, entrant_id))
                c.setStrokeColor(colors.black)
                c.rect(x, top - height, col_w, height, stroke=1, fill=0)
        c.setLineWidth(0.9)
        for i in range(n - 1):
            for (col, entrant_id), (_x0, x1, y0) in positions.items():
                if col != i:
                    continue
                target = positions.get((i + 1, entrant_id))
                if target is None:
                    continue
                wildcard = (col, entrant_id) in wild_paths
                c.setStrokeColor(WILD_PATH if wildcard else PATH)
                if wildcard:
                    c.setDash(4, 3)
                else:
                    c.setDash()
                x2, _x3, y2 = target
                mid = (x1 + x2) / 2
                path = c.beginPath()
                path.moveTo(x1, y0)
                path.lineTo(mid, y0)
                path.lineTo(mid, y2)
                path.lineTo(x2, y2)
                c.drawPath(path, stroke=1, fill=0)
        c.setDash()

    def draw_legend(self, font: str) -> None:
        """What the colours mean, top right: the wall is read by players, not staff."""
        c = self.canv
        size = 8
        entries = [(ADVANCED, gettext("勝ち抜け")), (WILDCARD, gettext("WC＝追加勝ち抜け"))]
        x = self.width
        y = self.height + 2 * mm
        c.setFont(font, size)
        for fill, label in reversed(entries):
            x -= c.stringWidth(label, font, size) + 1.5 * mm
            c.setFillColor(colors.black)
            c.drawString(x, y, label)
            x -= 5 * mm
            c.setFillColor(fill)
            c.setStrokeColor(colors.black)
            c.setLineWidth(0.4)
            c.rect(x, y - 0.5 * mm, 4 * mm, 3 * mm, stroke=1, fill=1)
            x -= 4 * mm


def layout(columns: list[Column], height: float) -> tuple[int, float]:
    """Assign boxes to pages and heights; returns (page count, row height)."""
    usable = height - 10 * mm

    def rows_of(column: Column) -> float:
        return sum(len(b.rows) + 1 + BOX_GAP_ROWS for b in column.boxes)

    biggest = max((rows_of(c) for c in columns), default=1)
    row_h = max(MIN_ROW, min(MAX_ROW, usable / max(biggest, 1)))
    per_page = usable / row_h
    pages = 1
    for column in columns:
        chunks: list[list[Box]] = [[]]
        used = 0.0
        for box in column.boxes:
            need = len(box.rows) + 1 + BOX_GAP_ROWS
            if used + need > per_page and chunks[-1]:
                chunks.append([])
                used = 0.0
            chunks[-1].append(box)
            used += need
        pages = max(pages, len(chunks))
        for page, chunk in enumerate(chunks):
            total = sum(len(b.rows) + 1 for b in chunk) * row_h
            spare = (usable - total) / max(len(chunk), 1)
            y = usable - spare / 2
            for box in chunk:
                box.page = page
                box.y_top = y
                y -= (len(box.rows) + 1) * row_h + spare
    return pages, row_h


@register
class BracketChart(PdfDocument):
    """トーナメント表（壁貼り、A3横）."""

    slug = "bracket-chart"
    order = 110
    title = gettext_noop("トーナメント表（A3横）")
    role = Role.BRACKET
    category = gettext_noop("回戦")
    description = gettext_noop("回戦を列、組を箱に、勝ち抜けた選手の道筋を線で（A3横）")
    pagesize = PAGE_A3_LANDSCAPE
    margin_top_mm = 16
    margin_bottom_mm = 10

    def choices(self, tournament: Tournament) -> list[Choice]:
        return [Choice(gettext(self.title), {})] if round_choices(tournament) else []

    def get_data(self, tournament: Tournament, **options: Any) -> list[RoundDoc]:
        docs = [round_document(tournament, n) for n, _name in round_choices(tournament)]
        docs = [d for d in docs if d.drawn]
        if not docs:
            raise DocumentError(gettext("まだ組分けの抽選をした回戦がありません。"))
        return docs

    def get_story(self, data: list[RoundDoc], *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        columns = chart_columns(data)
        pages, row_h = layout(columns, self.frame_height)
        story: list[Flowable] = []
        for page in range(pages):
            if story:
                story.append(PageBreak())
            story.append(ChartPage(columns, page, row_h, tournament.name))
        return story
