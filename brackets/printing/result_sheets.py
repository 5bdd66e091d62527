"""Result sheets of a round: the cross-group table (winners by score, then each place by
惜敗率, advancers marked) and every group's placements with scores and 惜敗率."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from brackets.labels import RULE_LABELS
from brackets.models import Tournament
from brackets.printing._rounds import RoundPdf, p
from brackets.printing.base import table_style
from brackets.printing.registry import DocumentError, register
from brackets.selectors.round_documents import RoundDoc

ADVANCED_BG = colors.Color(0.87, 0.94, 0.87)


def cross_table(data: RoundDoc, width: float) -> Table:
    head = [gettext("順"), gettext("組"), gettext("組内順位"), gettext("選手"), gettext("得点"),
            gettext("惜敗率"), gettext("勝ち抜け")]
    # 組 wide enough for "Group" when printed in English.
    widths_mm = [12, 15, 18, 67, 24, 22, 28]
    scale = width / (sum(widths_mm) * mm)
    rows: list[list[Any]] = [[p(h, "cell_center") for h in head]]
    commands: list[tuple[Any, ...]] = [("ALIGN", (0, 1), (2, -1), "CENTER"),
                                       ("ALIGN", (4, 1), (5, -1), "RIGHT")]
    for row in data.table:
        rows.append([str(row.order), row.group, gettext("{n}位").format(n=row.place),
                     p(f"{row.name}（{row.card_name}）", "cell_small"), row.score, row.ratio,
                     p(row.advanced, "cell_small")])
        if row.advanced:
            commands.append(("BACKGROUND", (0, len(rows) - 1), (-1, len(rows) - 1),
                             ADVANCED_BG))
    table = Table(rows, colWidths=[w * mm * scale for w in widths_mm], repeatRows=1)
    table.setStyle(TableStyle(table_style(*commands)))
    return table


def group_results(data: RoundDoc, width: float) -> list[Flowable]:
    head = [gettext("順位"), gettext("サテ"), gettext("選手"), gettext("画面の得点"),
            gettext("減点"), gettext("得点"), gettext("惜敗率"), gettext("勝ち抜け")]
    widths_mm = [14, 12, 60, 24, 16, 24, 20, 26]
    scale = width / (sum(widths_mm) * mm)
    story: list[Flowable] = []
    for group in data.groups:
        if group.unneeded:
            continue  # K10: a game after the series was decided was not played
        rows: list[list[Any]] = [[p(h, "cell_center") for h in head]]
        commands: list[tuple[Any, ...]] = [("ALIGN", (0, 1), (1, -1), "CENTER"),
                                           ("ALIGN", (3, 1), (6, -1), "RIGHT")]
        for seat in group.placed():
            name = f"{seat.name}（{seat.card_name}）"
            if seat.disqualified:
                name += "　" + gettext("失格")
            rows.append([gettext("{n}位").format(n=seat.place) if seat.place else "",
                         str(seat.number),
                         p(name, "cell_small"), seat.screen_score, seat.penalty, seat.score,
                         seat.ratio, p(seat.advanced, "cell_small")])
            if seat.advanced:
                commands.append(("BACKGROUND", (0, len(rows) - 1), (-1, len(rows) - 1),
                                 ADVANCED_BG))
        dummy = [s for s in group.seats if s.is_dummy]
        if dummy:
            rows.append(["—", str(dummy[0].number), p(gettext("ダミー（数えない）"), "cell_small"),
                         dummy[0].screen_score, "", "", "", ""])
        title = (gettext("{group}組").format(group=group.label)
                 if not data.rules.spec.is_series else group.label)
        if group.rule:
            title += f"（{RULE_LABELS.get(group.rule, group.rule)}）"
        if group.outcome:
            title += f"　{group.outcome}"
        elif not group.has_result:
            title += "　" + gettext("結果未入力")
        if group.problem:
            title += f"　※{group.problem}"
        table = Table(rows, colWidths=[w * mm * scale for w in widths_mm])
        table.setStyle(TableStyle(table_style(*commands)))
        story.append(KeepTogether([p(title, "heading"), table]))
    return story


@register
class ResultSheets(RoundPdf):
    """結果表: the whole round by 惜敗率, then each group."""

    slug = "result-sheets"
    order = 40
    title = gettext_noop("結果表")
    description = gettext_noop("全体順（各組1位は得点順、続いて惜敗率順）と組ごとの結果")
    kinds = ("groups", "rule_selection", "final_group", "partner_match", "partner_series")
    needs_play = True

    def get_data(self, tournament: Tournament, **options: Any) -> RoundDoc:
        data = super().get_data(tournament, **options)
        if not any(g.has_result for g in data.groups):
            raise DocumentError(gettext("{round}の結果はまだ入力されていません。").format(
                round=data.name))
        return data

    def get_story(self, data: RoundDoc, *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        story: list[Flowable] = [p(gettext("{round}　結果").format(round=data.name), "title")]
        if data.summary:
            story += [p(data.summary + gettext("（対戦者の順位で決まり、パートナーの順位は数えない）"),
                        "heading")]
        if data.table:
            note = gettext("（確定）") if data.advanced_confirmed else gettext("（勝ち抜け未確定）")
            story += [p(gettext("全体順：{order}").format(order=data.order_note) + note, "small"),
                      Spacer(0, 2 * mm), cross_table(data, self.frame_width),
                      Spacer(0, 6 * mm)]
            if data.ratio_note:
                story += [p(data.ratio_note, "small"), Spacer(0, 4 * mm)]
        story += group_results(data, self.frame_width)
        return story
