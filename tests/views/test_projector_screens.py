"""The projector's 惜敗率 table is cut into screens that fit 1920×1080 at any field size
(brackets/views/projector.py): at 1,024 entrants hundreds of rows, never one long table."""

from __future__ import annotations

import django_tables2 as tables

from brackets.views.projector import COLUMNS_PER_SCREEN, ROWS_PER_COLUMN, table_screens


class RatioTable(tables.Table):
    order = tables.Column()


def _rows(table: RatioTable) -> list[int]:
    return [row.record["order"] for row in table.paginated_rows]


def test_512_rows_below_the_cut_at_1024_entrants_fill_screens_of_columns_in_order() -> None:
    table = RatioTable([{"order": n} for n in range(1, 513)])
    screens = table_screens([("", None, table)])
    per_screen = ROWS_PER_COLUMN * COLUMNS_PER_SCREEN
    assert len(screens) == -(-512 // per_screen)
    seen = []
    for screen in screens:
        assert 1 <= len(screen.columns) <= COLUMNS_PER_SCREEN
        for column in screen.columns:
            rows = _rows(column.table)
            assert 1 <= len(rows) <= ROWS_PER_COLUMN
            seen += rows
    assert seen == list(range(1, 513))


def test_each_rules_table_starts_its_own_column_and_says_when_it_continues() -> None:
    first = RatioTable([{"order": n} for n in range(ROWS_PER_COLUMN + 3)])
    second = RatioTable([{"order": n} for n in range(4)])
    columns = [c for s in table_screens([("A", None, first), ("B", None, second)])
               for c in s.columns]
    assert [(c.rule, c.first, len(_rows(c.table))) for c in columns] == [
        ("A", True, ROWS_PER_COLUMN), ("A", False, 3), ("B", True, 4)]


def test_a_short_table_is_one_screen_of_one_column() -> None:
    table = RatioTable([{"order": n} for n in range(5)])
    screens = table_screens([("", None, table)])
    assert len(screens) == 1 and len(screens[0].columns) == 1
