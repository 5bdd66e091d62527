"""The one .xlsx writer every spreadsheet export shares.

Exports hand it the rows of a screen table (``Table.as_values()``: the header first), so
the file has exactly the screen's columns and rows; this module only decides how a sheet
looks: a bold shaded frozen header with filters, numbers kept as numbers (0.00 for
decimals, so scores and 惜敗率 sort and sum in Excel), text that looks like a formula kept
as text (``cells.keep_as_text``), and column widths that fit Japanese text (full-width
characters count two columns).
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from brackets.exporters.cells import keep_as_text

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
MAX_WIDTH = 60

#: Characters Excel refuses in a sheet title (a translated title may carry one).
BAD_TITLE = re.compile(r"[\[\]:*?/\\]")

#: (sheet title, rows with the header row first)
Sheet = tuple[str, Iterable[Sequence[Any]]]


def display_width(text: str) -> int:
    """Columns a text needs: full-width (Japanese) and ambiguous-width characters count
    two, as a Japanese Excel font draws them."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WFA" else 1 for ch in text)


def _cell(value: Any) -> Any:
    """What openpyxl stores: decimals as floats (Excel has no decimal type), None blank."""
    if isinstance(value, Decimal):
        return float(value)
    return value


def _fill_sheet(sheet: Any, rows: Iterable[Sequence[Any]]) -> None:
    from openpyxl.styles import Font, PatternFill
    from openpyxl.utils import get_column_letter

    widths: dict[int, int] = {}
    for row in rows:
        sheet.append([_cell(v) for v in row])
        for index, value in enumerate(row, start=1):
            text = "" if value is None else str(value)
            longest = max((display_width(line) for line in text.splitlines()), default=0)
            widths[index] = max(widths.get(index, 0), longest)
    if sheet.max_row >= 1:
        for cell in sheet[1]:
            cell.font = Font(bold=True)
            cell.fill = PatternFill("solid", fgColor="DDEBF7")
    for row in sheet.iter_rows(min_row=1):
        for cell in row:
            keep_as_text(cell)
            if cell.row > 1 and isinstance(cell.value, float):
                cell.number_format = "0.00"
    for index, width in widths.items():
        sheet.column_dimensions[get_column_letter(index)].width = min(MAX_WIDTH, width + 3)
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = sheet.dimensions


def workbook_bytes(sheets: Sequence[Sheet]) -> bytes:
    """A workbook with one sheet per ``(title, rows)``; each sheet's first row is its
    header (frozen, bold, filtered)."""
    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.active)
    for title, rows in sheets:
        _fill_sheet(book.create_sheet(BAD_TITLE.sub(" ", title)[:31]), rows)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def table_sheet(title: str, table: Any) -> Sheet:
    """A sheet holding exactly what a django-tables2 table shows: its ``as_values()``."""
    return title, [list(row) for row in table.as_values()]
