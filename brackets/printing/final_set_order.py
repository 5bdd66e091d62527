"""The final's set-order sheet (K10): per game, the order in which the four sets are asked.

The question order (単純 / 交互) is the finalists' recorded decision; the engine's
``set_order`` gives the seats per game (odd games the base order, even games reversed), so
the sheet and the app can never disagree. Contenders sit at サテ 1 and 4, partners at 2 and 3.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from brackets.labels import QUESTION_ORDER_LABELS
from brackets.models import Tournament
from brackets.printing._rounds import RoundPdf, p
from brackets.printing.base import table_style
from brackets.printing.registry import DocumentError, register
from brackets.selectors.round_documents import RoundDoc

GREY = colors.Color(0.92, 0.92, 0.92)


@register
class FinalSetOrder(RoundPdf):
    """決勝 出題順シート: one block per game."""

    slug = "final-set-order"
    order = 90
    title = gettext_noop("出題順シート")
    description = gettext_noop("試合ごとの出題順（サテ順）と各セットの記入欄")
    kinds = ("partner_series",)

    def get_data(self, tournament: Tournament, **options: Any) -> tuple[RoundDoc, str]:
        from brackets.models import Round, SpecialFact

        data = super().get_data(tournament, **options)
        rnd = Round.objects.get(tournament=tournament, number=data.number)
        setup = (SpecialFact.objects.filter(tournament=tournament, round=rnd,
                                            kind="final_setup").order_by("-id").first())
        if setup is None:
            raise DocumentError(gettext("ダイスの結果と出題順序（単純／交互）がまだ記録されていません。"))
        return data, str(setup.data.get("question_order", "simple"))

    def get_story(self, data: tuple[RoundDoc, str], *, tournament: Tournament,
                  **options: Any) -> list[Flowable]:
        from brackets.engine import set_order

        doc, question_order = data
        width = self.frame_width
        story: list[Flowable] = [
            p(f"{doc.name}　{gettext(self.title)}", "title"),
            p(gettext("出題順序：{order}").format(
                order=gettext(QUESTION_ORDER_LABELS.get(question_order, question_order)))
              + gettext("　（サテ1・4が対戦者、2・3がパートナー。同じペアの2セットはジャンルも"
                        "形式群も別にする）"),
              "small"),
            Spacer(0, 3 * mm),
        ]
        widths_mm = [12, 14, 56, 20, 30, 30, 20]
        scale = width / (sum(widths_mm) * mm)
        # K10: a game after the series is decided is not played (the engine's gate marks it
        # unneeded), so its block would only invite a set to be asked for nothing.
        skipped = [group.game for group in doc.groups if group.unneeded]
        if skipped:
            story.append(p(gettext("第{games}試合は行いません（決着済み）。").format(
                games="・".join(str(game) for game in skipped)), "small"))
            story.append(Spacer(0, 2 * mm))
        for group in (g for g in doc.groups if not g.unneeded):
            seats = {s.number: s for s in group.seats}
            rows: list[list[Any]] = [[p(h, "cell_center") for h in
                                      [gettext("順"), gettext("サテ"), gettext("選手"),
                                       gettext("役割"), gettext("ジャンル"), gettext("出題形式"),
                                       gettext("難易度")]]]
            commands: list[tuple[Any, ...]] = [("ALIGN", (0, 1), (1, -1), "CENTER"),
                                               ("FONTSIZE", (0, 1), (1, -1), 13)]
            for order, seat_no in enumerate(set_order(question_order, group.game), start=1):  # type: ignore[arg-type]
                seat = seats.get(seat_no)
                role = gettext("対戦者") if seat_no in (1, 4) else gettext("パートナー")
                sel = seat.selection if seat is not None and seat.selection else ("", "", "")
                rows.append([str(order), str(seat_no),
                             p(f"{seat.name}（{seat.card_name}）" if seat else "", "cell"),
                             p(role, "cell_small"), p(sel[0], "cell_small"),
                             p(sel[1], "cell_small"), p(sel[2], "cell_small")])
                if seat_no in (1, 4):
                    commands.append(("BACKGROUND", (3, order), (3, order), GREY))
            table = Table(rows, colWidths=[w * mm * scale for w in widths_mm],
                          rowHeights=[7 * mm] + [13 * mm] * 4)
            table.setStyle(TableStyle(table_style(*commands)))
            winner = Table([[p(gettext("この試合の勝者"), "cell_small"), "",
                             p(gettext("確認者"), "cell_small"), ""]],
                           colWidths=[30 * mm, 70 * mm, 18 * mm, width - 118 * mm],
                           rowHeights=[11 * mm])
            winner.setStyle(TableStyle(table_style(header=False)))
            story.append(KeepTogether([p(gettext("第{game}試合").format(game=group.game),
                                         "heading"), table,
                                       Spacer(0, 2 * mm), winner, Spacer(0, 5 * mm)]))
        return story
