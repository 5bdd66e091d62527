"""Excel (.xlsx) downloads: each round's groups and results, the cross-group 惜敗率 table,
the final ranking, and the desk's entrant list, all through the document contract.

Every sheet is a screen table's ``as_values()`` (:mod:`brackets.tables_rounds`): the
results per seat and the 惜敗率 tables are the tables the staff advancement check and the
public round page render, built by the same functions from the same selector data, so a
file cannot disagree with the screen. Scores and 惜敗率 stay numbers (0.00) so the organiser
can sort and compute in Excel; the sheet layout is the shared :mod:`brackets.exporters.xlsx`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext, gettext_noop

from brackets.exporters.xlsx import CONTENT_TYPE as XLSX
from brackets.exporters.xlsx import Sheet, table_sheet, workbook_bytes
from brackets.models import Role, Tournament
from brackets.printing.registry import Choice, Document, DocumentError, Option, register
from brackets.selectors.round_documents import final_ranking, round_choices
from brackets.tables_rounds import (
    advance_marks,
    cross_table,
    ranking_table,
    results_table,
    round_outcomes,
    wildcard_tables,
)


def round_sheets(tournament: Tournament, number: int) -> list[Sheet]:
    """A round's sheets: results per seat (組分けと結果), the cross-group order (惜敗率順,
    as the public round page shows it) and the wildcard table with its cut line per rule
    (追加勝ち抜け, as the staff advancement check shows it)."""
    from brackets.models import Round
    from brackets.selectors import rounds as sel

    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        raise DocumentError(gettext("{number}回目の回戦はありません。").format(number=number))
    rnd.tournament = tournament
    rv = sel.round_view(rnd)
    if not rv.groups:
        raise DocumentError(gettext("{round}はまだ組分けの抽選をしていません。").format(round=rnd.name))
    outcomes = round_outcomes(rv)
    advancers, wildcards = advance_marks(rnd, outcomes)
    sheets = [table_sheet("組分けと結果", results_table(rv, advancers=advancers,
                                                     wildcards=wildcards))]
    cross = cross_table(rv, outcomes)
    if cross is not None and len(cross.data):
        sheets.append(table_sheet("惜敗率順", cross))
    for rule, _outcome, table in wildcard_tables(rv, outcomes):
        if len(table.data):
            sheets.append(table_sheet(f"追加勝ち抜け{f'（ルール{rule}）' if rule else ''}",
                                      table))
    return sheets


@register
class RoundWorkbook(Document):
    """回戦の結果（Excel）: groups with every seat's set and result, and the 惜敗率 table."""

    slug = "round-xlsx"
    order = 45
    title = gettext_noop("組分けと結果（Excel）")
    role = Role.BRACKET
    category = gettext_noop("回戦")
    content_type = XLSX
    extension = "xlsx"
    description = gettext_noop("組・サテ・出題・得点・順位・惜敗率、全体の惜敗率順、追加勝ち抜けの表")
    options: ClassVar[Mapping[str, Option]] = {"round": Option("回戦")}

    def choices(self, tournament: Tournament) -> list[Choice]:
        return [Choice(name, {"round": n}) for n, name in round_choices(tournament, drawn=True)]

    def render(self, tournament: Tournament, **options: Any) -> tuple[str, str, bytes]:
        opts = self.clean_options(tournament, options)
        return (self.filename(tournament, **opts), XLSX,
                workbook_bytes(round_sheets(tournament, opts["round"])))


@register
class RankingWorkbook(Document):
    """最終順位（Excel）."""

    slug = "ranking-xlsx"
    order = 105
    title = gettext_noop("最終順位（Excel）")
    role = Role.BRACKET
    category = gettext_noop("回戦")
    content_type = XLSX
    extension = "xlsx"
    description = gettext_noop("優勝から順に全員")

    def choices(self, tournament: Tournament) -> list[Choice]:
        return [Choice(self.title, {})] if round_choices(tournament) else []

    def render(self, tournament: Tournament, **options: Any) -> tuple[str, str, bytes]:
        rows = final_ranking(tournament)
        if not rows:
            raise DocumentError(gettext("まだ順位の決まった選手はいません。"))
        return (self.filename(tournament), XLSX,
                workbook_bytes([table_sheet("最終順位", ranking_table(rows))]))


def _register_entrant_list() -> None:
    """The desk's entrant list export (``entrants_xlsx.render``, built from the desk's own
    table) served by the same view, unless the desk module registers itself."""
    from brackets.printing import registry

    if "entrants-xlsx" in registry._REGISTRY:
        return
    try:
        from brackets.exporters import entrants_xlsx
    except ImportError:
        return

    class EntrantWorkbook(Document):
        """参加者一覧（Excel）: the desk screen's table as a file."""

        slug = "entrants-xlsx"
        order = 50
        title = gettext_noop("参加者一覧（Excel）")
        role = Role.DESK
        category = gettext_noop("受付")
        content_type = XLSX
        extension = "xlsx"
        description = gettext_noop("受付画面の一覧と同じ列")

        def render(self, tournament: Tournament, **options: Any) -> tuple[str, str, bytes]:
            return entrants_xlsx.render(tournament=tournament)

    register(EntrantWorkbook)


_register_entrant_list()
