"""The entrant list as an .xlsx workbook, written from the desk's own table.

Follows the document contract ``render(...) -> (filename, content_type, bytes)``. Rows come
from ``EntrantTable.as_values()``, the table the desk screen shows, so the file and the
screen cannot drift apart; the export imports back through the desk's import.
"""

from __future__ import annotations

from django.utils import timezone

from brackets.exporters.xlsx import CONTENT_TYPE, display_width, table_sheet, workbook_bytes
from brackets.models import Tournament
from brackets.selectors.entrants import entrant_list, rank_namer
from brackets.tables import EntrantTable

__all__ = ["CONTENT_TYPE", "display_width", "render"]


def render(*, tournament: Tournament, query: str = "") -> tuple[str, str, bytes]:
    """Every entrant of ``tournament`` (or those matching ``query``) as .xlsx."""
    table = EntrantTable(
        entrant_list(tournament=tournament, query=query),
        slug=tournament.slug,
        rank_name=rank_namer(tournament=tournament),
    )
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    filename = f"{tournament.slug}-entrants-{stamp}.xlsx"
    return filename, CONTENT_TYPE, workbook_bytes([table_sheet("参加者", table)])
