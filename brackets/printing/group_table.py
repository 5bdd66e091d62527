"""Group table (組分け表) of a round, for the wall: group, サテ 1–4, players, dummies."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Table, TableStyle

from brackets.labels import RULE_LABELS
from brackets.models import Tournament
from brackets.printing._rounds import RoundPdf, p
from brackets.printing.base import table_style
from brackets.printing.registry import register
from brackets.selectors.round_documents import RoundDoc

GREY = colors.Color(0.9, 0.9, 0.9)


def group_table(data: RoundDoc, width: float) -> Table:
    with_rule = any(g.rule for g in data.groups)
    head = ([gettext("組")] + ([gettext("ルール")] if with_rule else [])
            + [gettext("サテ{n}").format(n=n) for n in range(1, 5)])
    fixed = 14 * mm + (18 * mm if with_rule else 0)
    seat_w = (width - fixed) / 4
    rows: list[list[Any]] = [[p(h, "cell_center") for h in head]]
    commands: list[tuple[Any, ...]] = []
    for r, group in enumerate(data.groups, start=1):
        row: list[Any] = [p(group.label, "cell_center")]
        if with_rule:
            row.append(p(RULE_LABELS.get(group.rule, group.rule), "cell_center"))
        seats = {s.number: s for s in group.seats}
        for n in range(1, 5):
            seat = seats.get(n)
            if seat is None:
                row.append("")
            elif seat.is_dummy:
                row.append(p(gettext("ダミー"), "cell_center"))
                commands.append(("BACKGROUND", (len(row) - 1, r), (len(row) - 1, r), GREY))
            else:
                seed = gettext("［シード{n}］").format(n=seat.seed) if seat.seed else ""
                row.append([p(seat.name + seed, "cell"), p(seat.card_name, "cell_small")])
        rows.append(row)
    table = Table(rows, colWidths=[14 * mm] + ([18 * mm] if with_rule else []) + [seat_w] * 4,
                  repeatRows=1)
    table.setStyle(TableStyle(table_style(*commands, ("FONTSIZE", (0, 1), (0, -1), 14))))
    return table


@register
class GroupTable(RoundPdf):
    """組分け表: post it on the wall and hand it to the bracket staff."""

    slug = "group-table"
    order = 10
    title = gettext_noop("組分け表")
    description = gettext_noop("組・サテ・選手・ダミー")
    kinds = ("groups", "rule_selection", "final_group", "partner_match", "partner_series")

    def get_story(self, data: RoundDoc, *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        return [p(f"{data.name}　{gettext(self.title)}", "title"),
                group_table(data, self.frame_width)]
