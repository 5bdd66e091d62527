"""Excel (.xlsx) downloads: each round's groups and results, the cross-group 惜敗率 table,
the final ranking, and the desk's entrant list, all through the document contract.

Rows come from the same selector data the printed result sheets and the round pages use
(:func:`brackets.selectors.documents.round_document`, :func:`final_ranking`), so a file
cannot disagree with paper or screen. Scores and 惜敗率 are numbers (not text), so the
organiser can sort and compute in Excel; column widths count full-width characters double.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar

from brackets.models import Role, Tournament
from brackets.printing.registry import Choice, Document, DocumentError, Option, register
from brackets.selectors.documents import (
    RULE_LABELS,
    final_ranking,
    round_choices,
    round_document,
)

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
MAX_WIDTH = 50

Sheet = tuple[str, Sequence[str], Iterable[Sequence[Any]]]


def display_width(text: str) -> int:
    """Columns a text needs in Excel: full-width (Japanese) characters count two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WFA" else 1 for ch in text)


def as_number(text: str) -> Decimal | str:
    """A score or 惜敗率 as a number when it is one ("—" for an undefined ratio stays)."""
    if text in ("", None):
        return ""
    try:
        return Decimal(text)
    except (InvalidOperation, TypeError):
        return text


def workbook(sheets: Sequence[Sheet]) -> bytes:
    """Sheets with a bold shaded frozen header row, filters, fitted widths, 0.00 numbers."""
    from openpyxl import Workbook
    from openpyxl.styles import Font, PatternFill
    from openpyxl.utils import get_column_letter

    book = Workbook()
    book.remove(book.active)
    for title, header, rows in sheets:
        sheet = book.create_sheet(title[:31])
        sheet.append(list(header))
        widths = {i: display_width(str(h)) for i, h in enumerate(header, start=1)}
        for row in rows:
            sheet.append([float(v) if isinstance(v, Decimal) else v for v in row])
            for i, value in enumerate(row, start=1):
                widths[i] = max(widths.get(i, 0), display_width("" if value is None
                                                               else str(value)))
        for cell in sheet[1]:
            cell.font = Font(bold=True)
            cell.fill = PatternFill("solid", fgColor="DDEBF7")
        for column in sheet.iter_cols(min_row=2):
            for cell in column:
                if isinstance(cell.value, float):
                    cell.number_format = "0.00"
        for i, width in widths.items():
            sheet.column_dimensions[get_column_letter(i)].width = min(MAX_WIDTH, width + 3)
        sheet.freeze_panes = "A2"
        sheet.auto_filter.ref = sheet.dimensions
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


@register
class RoundWorkbook(Document):
    """回戦の結果（Excel）: groups with every seat's set and result, and the 惜敗率 table."""

    slug = "round-xlsx"
    order = 45
    title = "組分けと結果（Excel）"
    role = Role.BRACKET
    category = "回戦"
    content_type = XLSX
    extension = "xlsx"
    description = "シート1：組・サテ・出題・得点・順位・惜敗率　シート2：全体の惜敗率順"
    options: ClassVar[Mapping[str, Option]] = {"round": Option("回戦")}

    def choices(self, tournament: Tournament) -> list[Choice]:
        return [Choice(name, {"round": n}) for n, name in round_choices(tournament, drawn=True)]

    def rows(self, tournament: Tournament, number: int) -> list[Sheet]:
        doc = round_document(tournament, number)
        if not doc.drawn:
            raise DocumentError(f"{doc.name}はまだ組分けの抽選をしていません。")
        groups = []
        for group in doc.groups:
            for seat in group.seats:
                genre, fmt, diff = seat.selection or ("", "", "")
                groups.append([
                    group.label, RULE_LABELS.get(group.rule, group.rule), seat.number,
                    seat.name, seat.card_name, seat.seed or "", genre, fmt, diff,
                    as_number(seat.screen_score), as_number(seat.penalty), as_number(seat.score),
                    seat.place or "", as_number(seat.ratio),
                    "失格" if seat.disqualified else seat.advanced])
        sheets: list[Sheet] = [(
            "組分けと結果",
            ["組", "ルール", "サテ", "選手", "カードネーム", "シード", "ジャンル", "出題形式",
             "難易度", "画面の得点", "減点", "得点", "順位", "惜敗率", "勝ち抜け"],
            groups)]
        if doc.table:
            sheets.append((
                "惜敗率順",
                ["順", "組", "組内順位", "選手", "カードネーム", "得点", "惜敗率", "勝ち抜け"],
                [[r.order, r.group, r.place, r.name, r.card_name, as_number(r.score),
                  as_number(r.ratio), r.advanced] for r in doc.table]))
        return sheets

    def render(self, tournament: Tournament, **options: Any) -> tuple[str, str, bytes]:
        opts = self.clean_options(tournament, options)
        return (self.filename(tournament, **opts), XLSX,
                workbook(self.rows(tournament, opts["round"])))


@register
class RankingWorkbook(Document):
    """最終順位（Excel）."""

    slug = "ranking-xlsx"
    order = 105
    title = "最終順位（Excel）"
    role = Role.BRACKET
    category = "回戦"
    content_type = XLSX
    extension = "xlsx"
    description = "優勝から順に全員"

    def choices(self, tournament: Tournament) -> list[Choice]:
        return [Choice(self.title, {})] if round_choices(tournament) else []

    def render(self, tournament: Tournament, **options: Any) -> tuple[str, str, bytes]:
        rows = final_ranking(tournament)
        if not rows:
            raise DocumentError("まだ順位の決まった選手はいません。")
        sheet: Sheet = ("最終順位", ["順位", "選手", "カードネーム", "回戦", "成績"],
                        [[r.place, r.name, r.card_name, r.round_name, r.detail] for r in rows])
        return self.filename(tournament), XLSX, workbook([sheet])


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
        title = "参加者一覧（Excel）"
        role = Role.DESK
        category = "受付"
        content_type = XLSX
        extension = "xlsx"
        description = "受付画面の一覧と同じ列"

        def render(self, tournament: Tournament, **options: Any) -> tuple[str, str, bytes]:
            return entrants_xlsx.render(tournament=tournament)

    register(EntrantWorkbook)


_register_entrant_list()
