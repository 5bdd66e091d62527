"""The judge's score sheet of a buzzer round (A4 landscape): a paper backup of the console.

Players in seat order down the side, one box per question across (as many as the round's
question limit, in blocks that fit the page width; a round without a limit gets a sensible
count), and the round's rules above every block so a loose page still says what it is.
Blank to fill by hand, or pre-filled with the decided version so far (protests applied,
thrown-out questions replaced) for a judge taking over mid-round.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext, gettext_noop
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from brackets.exporters.buzzer_xlsx import ROUND_OPTION, BuzzerRoundDocument
from brackets.models import Tournament
from brackets.printing._rounds import p
from brackets.printing.base import PdfDocument, register_fonts, table_style, text_width, truncate
from brackets.printing.registry import Choice, Option, Rendered, register
from brackets.selectors.buzzer_documents import (
    BuzzerRoundDoc,
    buzzer_round_choices,
    buzzer_round_doc,
    buzzer_round_of,
)

SEAT_W = 11 * mm
NAME_W = 42 * mm
QUESTION_W = 7.4 * mm
#: The widest a question box grows when few questions share a block.
QUESTION_MAX_W = 11 * mm
NUMBERS_W = 30 * mm
PLACE_W = 12 * mm
ROW_H = 9 * mm
#: Blocks printed for a round that no question limit bounds (blank sheets).
UNLIMITED_BLOCKS = 2
#: Blank questions left after the last one played on a pre-filled sheet without a limit.
SPARE = 5
SHADE = colors.Color(0.93, 0.93, 0.93)


def per_block(width: float) -> int:
    """Question boxes that fit beside the seat, name, numbers and place columns."""
    return max(5, int((width - SEAT_W - NAME_W - NUMBERS_W - PLACE_W) // QUESTION_W))


def question_count(doc: BuzzerRoundDoc, block: int, filled: bool) -> int:
    """How many question boxes the sheet has: the limit, else whole blocks (with room after
    the questions already played on a pre-filled sheet)."""
    played = len(doc.questions) if filled else 0
    if doc.question_limit:
        return max(doc.question_limit, played)
    blocks = max(UNLIMITED_BLOCKS, math.ceil((played + SPARE) / block))
    return blocks * block


def _block_table(doc: BuzzerRoundDoc, first: int, last: int, *, final: bool,
                 filled: bool, width: float) -> Table:
    """Questions ``first``..``last`` for every seat, then each player's numbers after the
    block (the final block: the totals and the place)."""
    numbers = list(range(first, last + 1))
    head: list[Any] = [p(gettext("席"), "cell_center"), p(gettext("選手"), "cell_center")]
    head += [str(n) for n in numbers]
    after = gettext("成績") if final else gettext("第{n}問後").format(n=last)
    head.append(p(after, "cell_center"))
    fixed = SEAT_W + NAME_W + NUMBERS_W + (PLACE_W if final else 0)
    box = min(QUESTION_MAX_W, (width - fixed) / len(numbers))
    widths = [SEAT_W, NAME_W] + [box] * len(numbers) + [NUMBERS_W]
    if final:
        head.append(p(gettext("順位"), "cell_center"))
        widths.append(PLACE_W)
    lines = {line.number: line for line in doc.questions} if filled else {}
    rows: list[list[Any]] = [head]
    for index, player in enumerate(doc.players):
        row: list[Any] = [str(player.seat), p(player.name, "cell_small")]
        row += [lines[n].marks[index] if n in lines else "" for n in numbers]
        reached = lines.get(last) or (doc.questions[-1] if final and lines else None)
        row.append(p(reached.cells[index], "cell_small") if reached is not None else "")
        if final:
            row.append(str(doc.places[index]) if filled and doc.over and doc.places else "")
        rows.append(row)
    # The last line: a question nobody answered (—) or one read again after a throw-out.
    foot: list[Any] = ["", p(gettext("正解なし・没問"), "tiny")]
    for n in numbers:
        line = lines.get(n)
        mark = ""
        if line is not None and "○" not in line.marks:
            mark = "—"
        if line is not None and line.replaced:
            mark = gettext("差")
        foot.append(mark)
    foot += ["", ""] if final else [""]
    rows.append(foot)
    table = Table(rows, colWidths=widths,
                  rowHeights=[6 * mm] + [ROW_H] * len(doc.players) + [6 * mm], repeatRows=1,
                  hAlign="LEFT")
    commands: list[tuple[Any, ...]] = [
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("ALIGN", (2, 0), (-1, -1), "CENTER"),
        ("ALIGN", (len(numbers) + 2, 1), (len(numbers) + 2, -1), "LEFT"),
        ("FONTSIZE", (2, 0), (len(numbers) + 1, 0), 8),
        ("FONTSIZE", (2, 1), (len(numbers) + 1, -1), 13),
        ("FONTSIZE", (0, 1), (0, -1), 11),
        ("LEFTPADDING", (2, 0), (-1, -1), 1),
        ("RIGHTPADDING", (2, 0), (-1, -1), 1),
        ("BACKGROUND", (0, -1), (-1, -1), SHADE),
    ]
    # A heavier line every five questions helps the eye keep its place across the row.
    for offset, n in enumerate(numbers):
        if n % 5 == 0 and n != last:
            commands.append(("LINEAFTER", (offset + 2, 0), (offset + 2, -1), 1.2,
                             colors.black))
    table.setStyle(TableStyle(table_style(*commands)))
    return table


def _staff_box(width: float) -> Table:
    box = Table([[p(gettext("記入者"), "cell_small"), "", p(gettext("確認者"), "cell_small"), "",
                  p(gettext("メモ"), "cell_small"), ""]],
                colWidths=[22 * mm, 32 * mm, 22 * mm, 32 * mm, 14 * mm, width - 122 * mm],
                rowHeights=[11 * mm], hAlign="LEFT")
    box.setStyle(TableStyle(table_style(header=False)))
    return box


def scoresheet_story(doc: BuzzerRoundDoc, width: float, *, filled: bool) -> list[Flowable]:
    """The sheet: per block a caption (round, rules, questions) and the table of boxes."""
    fits = per_block(width)
    total = question_count(doc, fits, filled)
    # Equal blocks (35 questions: 18 + 17, not 24 + 11) so no page is mostly empty boxes.
    block = math.ceil(total / math.ceil(total / fits))
    marks = gettext("○ 正解　× 誤答　— 正解なし（スルー）　差 没問の差し替え")
    story: list[Flowable] = []
    starts = list(range(1, total + 1, block))
    for index, first in enumerate(starts):
        last = min(first + block - 1, total)
        final = index == len(starts) - 1
        caption = gettext("{round}　第{first}問〜第{last}問").format(
            round=doc.title, first=first, last=last)
        if filled:
            caption += "　" + gettext("（{n}問目まで記入済み）").format(n=len(doc.questions))
        parts: list[Flowable] = [p(caption, "heading"), Spacer(0, 1 * mm),
                                 _block_table(doc, first, last, final=final, filled=filled,
                                              width=width)]
        if final:
            parts += [Spacer(0, 2 * mm), p(marks, "tiny"), Spacer(0, 3 * mm), _staff_box(width)]
        story.append(KeepTogether(parts))
        story.append(Spacer(0, 6 * mm))
    return story


@register
class BuzzerScoresheet(BuzzerRoundDocument, PdfDocument):
    """早押しラウンドの記録用紙: one box per player and question, blank or filled so far."""

    slug = "buzzer-scoresheet"
    order = 50
    title = gettext_noop("早押し記録用紙")
    description = gettext_noop("審判の手書き控え（席順の選手 × 問題、ルールの要約つき）。記入済みは進行中の内容を印刷")
    pagesize: ClassVar[tuple[float, float]] = landscape(A4)
    margin_top_mm: ClassVar[float] = 20
    margin_bottom_mm: ClassVar[float] = 10
    #: The round's rules printed under the header of every page (set per render on a copy).
    rules: str = ""
    options: ClassVar[Mapping[str, Option]] = {
        **ROUND_OPTION,
        "filled": Option(gettext_noop("記入済み"), required=False),
    }

    def choices(self, tournament: Tournament) -> list[Choice]:
        out = []
        for pk, label in buzzer_round_choices(tournament):
            out.append(Choice(label, {"round": pk}))
            out.append(Choice(gettext("{round}（記入済み）").format(round=label),
                              {"round": pk, "filled": 1}))
        return out

    def render(self, tournament: Tournament, **options: Any) -> Rendered:
        """As every PDF, with the round's rules in each page's header: a loose page of a
        long round still says what it is. The registered instance is shared, so the rules
        go on a copy."""
        opts = self.clean_options(tournament, options)
        data = self.get_data(tournament, **opts)
        sheet = copy.copy(self)
        sheet.rules = "・".join(data.rules)
        story = sheet.get_story(data, tournament=tournament, **opts)
        return self.filename(tournament, **opts), self.content_type, sheet.build(
            story, tournament=tournament, subtitle=self.header_title(tournament, **opts))

    def on_page(self, canvas: Canvas, *, tournament: Tournament, subtitle: str,
                font: str) -> None:
        """Tournament, round and document on the first line, the round's rules under it."""
        width, height = self.pagesize
        left = self.margin_left_mm * mm
        right = width - self.margin_right_mm * mm
        y = height - 8 * mm
        canvas.saveState()
        canvas.setFont(font, 9)
        name = truncate(tournament.name, (right - left) * 0.35, 9)
        canvas.drawString(left, y, name)
        canvas.drawString(left + text_width(name, 9) + 4 * mm, y,
                          truncate(subtitle, (right - left) * 0.55, 9))
        canvas.setFont(font, 8)
        canvas.drawString(left, y - 4.5 * mm, truncate(self.rules, right - left, 8))
        canvas.setLineWidth(0.4)
        canvas.setStrokeColor(colors.grey)
        canvas.line(left, y - 6.5 * mm, right, y - 6.5 * mm)
        canvas.restoreState()

    def draw_page_number(self, canvas: Canvas, number: int, total: int) -> None:
        width, height = self.pagesize
        canvas.saveState()
        canvas.setFont(register_fonts(), 9)
        canvas.drawRightString(width - self.margin_right_mm * mm, height - 8 * mm,
                               f"{number} / {total}")
        canvas.restoreState()

    def get_data(self, tournament: Tournament, **options: Any) -> BuzzerRoundDoc:
        return buzzer_round_doc(buzzer_round_of(tournament, options["round"]))

    def get_story(self, data: BuzzerRoundDoc, *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        return scoresheet_story(data, self.frame_width, filled=bool(options.get("filled")))
