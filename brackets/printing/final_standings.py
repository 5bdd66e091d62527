"""Final standings: everyone ranked, from the champion down (engine outcomes only)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from brackets.models import Role, Tournament
from brackets.printing._rounds import p, player_text
from brackets.printing.base import PdfDocument, table_style
from brackets.printing.registry import Choice, DocumentError, register
from brackets.selectors.round_documents import RankingRow, final_ranking, round_choices

PODIUM = colors.Color(0.98, 0.93, 0.75)


@register
class FinalStandings(PdfDocument):
    """最終順位: the podium from the last rounds, then each round's eliminated players in
    that round's order (group winners by score, then 惜敗率)."""

    slug = "final-standings"
    order = 100
    title = gettext_noop("最終順位")
    role = Role.BRACKET
    category = gettext_noop("回戦")
    description = gettext_noop("優勝から順に全員（敗退した回戦の成績順）")

    def choices(self, tournament: Tournament) -> list[Choice]:
        return [Choice(gettext(self.title), {})] if round_choices(tournament) else []

    def get_data(self, tournament: Tournament, **options: Any) -> list[RankingRow]:
        # The detail column in the language of whoever prints (the file export keeps Japanese).
        rows = final_ranking(tournament, translate=True)
        if not rows:
            raise DocumentError(gettext("まだ順位の決まった選手はいません。"))
        return rows

    def get_story(self, data: list[RankingRow], *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        # 成績 wide enough for one line in English ("Group A, place 3 · 97.40 pts · …").
        widths_mm = [14, 58, 24, 90]
        scale = self.frame_width / (sum(widths_mm) * mm)
        rows: list[list[Any]] = [[p(h, "cell_center") for h in [gettext("順位"), gettext("選手"),
                                                              gettext("回戦"), gettext("成績")]]]
        commands: list[tuple[Any, ...]] = [("ALIGN", (0, 1), (0, -1), "CENTER")]
        for row in data:
            rows.append([f"{row.place}", p(player_text(row.name, row.card_name), "cell"),
                         p(row.round_name, "cell_small"), p(row.detail, "cell_small")])
            if row.place <= 3:
                commands.append(("BACKGROUND", (0, len(rows) - 1), (-1, len(rows) - 1), PODIUM))
        table = Table(rows, colWidths=[w * mm * scale for w in widths_mm], repeatRows=1)
        table.setStyle(TableStyle(table_style(*commands)))
        return [p(f"{tournament.name}　{gettext(self.title)}", "title"), Spacer(0, 2 * mm), table]
