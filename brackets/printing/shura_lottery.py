"""The 修羅 lottery record (H4/H5): who owes how many lots, what they drew, who recorded it.

Printed before the draw it is the sheet the desk fills in (blank boxes per lot); printed
after, it is the signed record of the draw, with the app's facts (method, staff, time).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from brackets.models import Role, Tournament
from brackets.printing._rounds import p
from brackets.printing.base import PdfDocument, table_style
from brackets.printing.registry import Choice, DocumentError, register
from brackets.selectors.documents import ShuraRow, lots_apply, shura_records


@register
class ShuraLottery(PdfDocument):
    """修羅くじ記録: one row per 修羅 player, with a column for the witness's signature."""

    slug = "shura-lottery"
    order = 40
    title = gettext_noop("修羅くじ記録")
    role = Role.DESK
    category = gettext_noop("受付")
    description = gettext_noop("対象者・本数・引いたジャンル（と形式）・記録者・立会人")

    def choices(self, tournament: Tournament) -> list[Choice]:
        if not lots_apply(tournament):
            return []
        return [Choice(gettext(self.title), {})]

    def get_data(self, tournament: Tournament, **options: Any) -> list[ShuraRow]:
        rows = shura_records(tournament)
        if not rows:
            raise DocumentError(gettext("修羅くじの対象者はいません。"))
        return rows

    def get_story(self, data: list[ShuraRow], *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        head = ["No.", gettext("選手"), gettext("理由"), gettext("本数"), gettext("引いたジャンル"),
                gettext("形式くじ"), gettext("方法・記録"), gettext("立会人")]
        widths_mm = [10, 40, 30, 11, 40, 18, 22, 15]
        scale = self.frame_width / (sum(widths_mm) * mm)
        rows: list[list[Any]] = [[p(h, "cell_small") for h in head]]
        for row in data:
            if row.genres is None:
                drawn = "＿＿＿・" * row.lots_owed
                drawn = drawn.rstrip("・")
            else:
                drawn = "・".join(row.genres)
            record = "　".join(x for x in (row.method, row.by, row.at) if x)
            reasons = row.error or row.reasons
            rows.append([str(row.number), p(f"{row.name}（{row.card_name}）", "cell_small"),
                         p(reasons, "tiny"), gettext("{count}本").format(count=row.lots_owed), p(drawn, "cell_small"),
                         p("・".join(row.formats), "cell_small"), p(record, "tiny"), ""])
        table = Table(rows, colWidths=[w * mm * scale for w in widths_mm], repeatRows=1,
                      rowHeights=[8 * mm] + [13 * mm] * len(data))
        table.setStyle(TableStyle(table_style(("ALIGN", (0, 1), (0, -1), "CENTER"),
                                              ("ALIGN", (3, 1), (3, -1), "CENTER"))))
        return [p(gettext("修羅くじ記録"), "title"),
                p(gettext("くじは7ジャンル（ノンジャンルを除く）から重複なしで引きます。"
                          "引いたジャンルは大会を通して使えません。1人4本まで。"), "small"),
                Spacer(0, 3 * mm), table]
