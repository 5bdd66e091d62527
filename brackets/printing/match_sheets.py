"""Match sheets (対戦記録用紙): one per group, two per A4 sheet, filled in at the cabinet.

Boxes for each seat's selection (genre, format, difficulty), the on-screen score and
placement, and the initials of the staff who entered and who checked the result. What the
app already knows is printed in (seats, the dummy's fixed set, 下関 cards, revealed bans,
genres and format groups each player has used), so staff copy less and check more.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from brackets.labels import RULE_LABELS
from brackets.models import Tournament
from brackets.printing._forms import wrap_lines
from brackets.printing._rounds import RoundPdf, p
from brackets.printing.base import table_style
from brackets.printing.registry import register
from brackets.selectors.round_documents import GroupDoc, RoundDoc

GREY = colors.Color(0.9, 0.9, 0.9)
ROW_H = 15 * mm


class CutLine(Flowable):
    """A dashed line across the frame with a scissors mark: where to cut a half sheet."""

    def __init__(self, height: float = 8 * mm) -> None:
        super().__init__()
        self.height = height

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width = avail_width
        return avail_width, self.height

    def draw(self) -> None:
        c = self.canv
        c.saveState()
        c.setDash(3, 3)
        c.setLineWidth(0.4)
        c.setStrokeColor(colors.grey)
        c.line(0, self.height / 2, self.width, self.height / 2)
        c.restoreState()


def _context_line(data: RoundDoc, group: GroupDoc) -> str:
    parts = []
    if group.rule:
        parts.append(gettext(RULE_LABELS.get(group.rule, group.rule)))
    if data.rules.spec.is_series:
        parts.append(gettext("第{game}試合").format(game=group.game))
    if group.cards:
        parts.append(gettext("下関カード：") + "／".join(f"{g}×{grp}" for g, grp in group.cards))
    elif group.cards_pending:
        parts.append(gettext("下関カード：") + "＿＿＿＿×＿＿＿＿／＿＿＿＿×＿＿＿＿")
    if group.bans:
        parts.append(gettext("禁止ジャンル：") + "・".join(group.bans))
    elif group.bans_pending:
        parts.append(gettext("禁止ジャンル：") + "＿＿＿＿＿＿＿＿＿＿")
    return "　".join(parts)


def match_sheet(data: RoundDoc, group: GroupDoc, width: float) -> list[Flowable]:
    widths_mm = [12, 56, 30, 30, 18, 24, 14]
    scale = width / (sum(widths_mm) * mm)
    widths = [w * mm * scale for w in widths_mm]
    head = [gettext("サテ"), gettext("選手"), gettext("ジャンル"), gettext("出題形式"),
            gettext("難易度"), gettext("得点"), gettext("順位")]
    rows: list[list[Any]] = [[p(h, "cell_center") for h in head]]
    commands: list[tuple[Any, ...]] = [("ALIGN", (0, 1), (0, -1), "CENTER"),
                                       ("FONTSIZE", (0, 1), (0, -1), 14)]
    seats = {s.number: s for s in group.seats}
    # Rows are tall enough to write in, and taller when the used genres and formats printed
    # under a name need more lines (late rounds): never text spilling out of a box.
    heights = {n: 12.5 for n in range(1, 5)}
    for n in range(1, 5):
        seat = seats.get(n)
        r = len(rows)
        if seat is None:
            rows.append([str(n), "", "", "", "", "", ""])
            continue
        if seat.is_dummy:
            genre, fmt, diff = seat.selection or data.dummy_set
            rows.append([str(n), p(gettext("ダミー（結果は数えない）"), "cell_small"), p(genre, "cell_small"),
                         p(fmt, "cell_small"), p(diff, "cell_small"), seat.screen_score, "—"])
            commands.append(("BACKGROUND", (1, r), (-1, r), GREY))
            continue
        cell: list[Any] = [p(f"{seat.name}（{seat.card_name}）", "cell")]
        if data.restriction != "free":
            used = []
            if seat.used_genres:
                used.append(gettext("使用済ジャンル：") + "・".join(seat.used_genres))
            if seat.used_groups:
                used.append(gettext("使用済形式：") + "・".join(seat.used_groups))
            for line in used:
                cell.append(p(line, "tiny"))
                lines = len(wrap_lines(line, widths[1] - 6, 7.5))
                heights[n] += lines * 9.5
        genre, fmt, diff = seat.selection or ("", "", "")
        rows.append([str(n), cell, p(genre, "cell_small"), p(fmt, "cell_small"),
                     p(diff, "cell_small"), seat.screen_score,
                     str(seat.place) if seat.place else ""])
    table = Table(rows, colWidths=widths, rowHeights=[7 * mm] + [
        max(ROW_H, heights[n] + 8) for n in range(1, 5)])
    table.setStyle(TableStyle(table_style(*commands, ("ALIGN", (5, 1), (-1, -1), "RIGHT"))))
    title = (f"{data.name}　" + gettext("{group}組").format(group=group.label)
             if not data.rules.spec.is_series else f"{data.name}　{group.label}")
    staff = Table([[p(gettext("入力者"), "cell_small"), "", p(gettext("確認者"), "cell_small"), "",
                    p(gettext("メモ"), "cell_small"), ""]],
                  colWidths=[14 * mm, 24 * mm, 14 * mm, 24 * mm, 12 * mm,
                             width - 88 * mm], rowHeights=[12 * mm])
    staff.setStyle(TableStyle(table_style(header=False)))
    context = _context_line(data, group)
    return [KeepTogether([
        p(title, "heading"),
        *([p(context, "small")] if context else []),
        Spacer(0, 2 * mm),
        table,
        Spacer(0, 3 * mm),
        staff,
    ])]


def match_sheets_story(data: RoundDoc, width: float) -> list[Flowable]:
    story: list[Flowable] = []
    for index, group in enumerate(data.groups):
        if index % 2 == 1:
            story.append(CutLine(12 * mm))
        elif index:
            from reportlab.platypus import PageBreak

            story.append(PageBreak())
        story.extend(match_sheet(data, group, width))
    return story


@register
class MatchSheets(RoundPdf):
    """対戦記録用紙: one per group (two per A4, cut along the dashed line)."""

    slug = "match-sheets"
    order = 20
    title = gettext_noop("対戦記録用紙")
    description = gettext_noop("組ごとに出題・得点・順位・スタッフ確認欄（A4に2組）")
    kinds = ("groups", "rule_selection", "final_group", "partner_match", "partner_series")

    def get_story(self, data: RoundDoc, *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        return match_sheets_story(data, self.frame_width)
