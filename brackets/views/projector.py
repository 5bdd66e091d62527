"""The projector's 惜敗率 table in screens that fit 1920×1080.

A round of 72 entrants has dozens of rows below the cut and one of 1,024 has hundreds: one
long table runs off the screen and a projector cannot scroll. The rows are cut into columns
of at most :data:`ROWS_PER_COLUMN`, set side by side, :data:`COLUMNS_PER_SCREEN` to a screen;
the page shows one screen at a time and turns to the next every :data:`SCREEN_SECONDS`
(``brackets/static/brackets/projector.js``). Each column is the same django-tables2 table,
paginated, so every column keeps the table's header, colours and order.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: Rows in one column of the projector's table, in its screen type (rounds.css
#: body.projector .proj-screens): a full column with its header and the title fits 1080 px.
ROWS_PER_COLUMN = 21
COLUMNS_PER_SCREEN = 3
#: How long each screen stays up before the next (read from the page by projector.js).
SCREEN_SECONDS = 10


@dataclass(frozen=True)
class Column:
    """One column of a screen: a page of one table, under its rule heading."""

    rule: str
    table: Any
    #: The first rows of their table (its heading is printed above them).
    first: bool


@dataclass
class Screen:
    columns: list[Column] = field(default_factory=list)


def table_screens(tables: Iterable[tuple[str, Any, Any]], *,
                  rows_per_column: int | None = None,
                  columns_per_screen: int | None = None) -> list[Screen]:
    """``(rule, outcome, table)`` triples (the wildcard tables) cut into screens of columns.

    A table starts a new column, so a column never mixes two rules' tables; a table longer
    than a column continues in the next one, which repeats the header.
    """
    rows_per_column = rows_per_column or ROWS_PER_COLUMN
    columns_per_screen = columns_per_screen or COLUMNS_PER_SCREEN
    columns: list[Column] = []
    for rule, _outcome, table in tables:
        count = len(table.rows)
        pages = max(1, -(-count // rows_per_column))
        for page in range(1, pages + 1):
            part = copy.copy(table)
            part.paginate(per_page=rows_per_column, page=page)
            columns.append(Column(rule, part, first=page == 1))
    return [Screen(columns[i:i + columns_per_screen])
            for i in range(0, len(columns), columns_per_screen)]


def row_count(tables: Sequence[tuple[str, Any, Any]]) -> int:
    return sum(len(table.rows) for *_rest, table in tables)
