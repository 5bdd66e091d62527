"""The entrant list as an .xlsx workbook, written from the desk's own table.

Follows the document contract ``render(...) -> (filename, content_type, bytes)``. Rows come
from ``EntrantTable.as_values()``, the table the desk screen shows, so the file and the
screen cannot drift apart; the export imports back through the desk's import.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from django.utils import timezone

from brackets.models import Tournament
from brackets.selectors.entrants import entrant_list, rank_namer
from brackets.tables import EntrantTable

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
MAX_WIDTH = 60


def display_width(text: str) -> int:
    """Columns a text needs: full-width (Japanese) characters count two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def workbook_bytes(rows: Iterable[Sequence[Any]], *, title: str) -> bytes:
    """Write rows (the first is the header) to a one-sheet workbook with a frozen header."""
    from openpyxl import Workbook
    from openpyxl.styles import Font, PatternFill
    from openpyxl.utils import get_column_letter

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = title[:31]
    widths: dict[int, int] = {}
    for row in rows:
        sheet.append(list(row))
        for index, value in enumerate(row, start=1):
            text = "" if value is None else str(value)
            longest = max((display_width(line) for line in text.splitlines()), default=0)
            widths[index] = max(widths.get(index, 0), longest)
    header_font = Font(bold=True)
    header_fill = PatternFill("solid", fgColor="DDEBF7")
    for cell in sheet[1]:
        cell.font = header_font
        cell.fill = header_fill
    for index, width in widths.items():
        sheet.column_dimensions[get_column_letter(index)].width = min(MAX_WIDTH, width + 2)
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = sheet.dimensions
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def render(*, tournament: Tournament, query: str = "") -> tuple[str, str, bytes]:
    """Every entrant of ``tournament`` (or those matching ``query``) as .xlsx."""
    table = EntrantTable(
        entrant_list(tournament=tournament, query=query),
        slug=tournament.slug,
        rank_name=rank_namer(tournament=tournament),
    )
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    filename = f"{tournament.slug}-entrants-{stamp}.xlsx"
    return filename, CONTENT_TYPE, workbook_bytes(table.as_values(), title="参加者")
