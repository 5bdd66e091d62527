"""brackets/tables_rows.py: a table whose render calls are worked out once per table shows
exactly the cells, <td> attributes and row attributes django-tables2's own rows show."""

from __future__ import annotations

from typing import Any, ClassVar

import django_tables2 as tables
from django.templatetags.l10n import localize, unlocalize
from django.utils.html import format_html

from brackets.tables_rows import PlannedTable


class StockTable(tables.Table):
    plain = tables.Column()
    both = tables.Column(attrs={"td": {"class": "num"}})
    record_only = tables.Column(empty_values=())
    catch_all = tables.Column()
    blank = tables.Column(default="—")
    linked = tables.Column(linkify=lambda record: f"/p/{record['plain']}/")
    per_cell = tables.Column(attrs={"td": {"data-v": lambda value: f"v{value}"}})
    cell_attrs = tables.Column(attrs={"cell": {"class": lambda record: record["plain"]}})
    localized = tables.Column(localize=False)
    hidden = tables.Column(visible=False)

    class Meta:
        orderable = False
        row_attrs: ClassVar[dict[str, Any]] = {
            "class": lambda record: "odd-one" if record["plain"] == "b" else "",
            "data-x": lambda table, record: f"{len(table.data)}-{record['plain']}",
            "data-fixed": "yes"}

    def render_both(self, value: Any, record: dict[str, Any]) -> str:
        return format_html("<b>{}</b>{}", value, record["plain"])

    def render_record_only(self, record: dict[str, Any]) -> str:
        return f"r:{record['plain']}"

    def render_catch_all(self, **kwargs: Any) -> str:
        return f"{kwargs['value']}/{sorted(kwargs)}"

    def render_hidden(self, value: Any) -> str:
        return f"exported only: {value}"


class Planned(PlannedTable, StockTable):
    class Meta(StockTable.Meta):
        pass


ROWS = [{"plain": name, "both": i, "catch_all": i * 2, "blank": None if i % 2 else i,
         "linked": f"L{i}", "per_cell": i, "cell_attrs": "c", "localized": 1234.5 + i,
         "hidden": "h"} for i, name in enumerate("abc")]


def stock_cells(row: Any) -> list[tuple[str, Any]]:
    """What django-tables2's Bootstrap 5 template puts in each <td>."""
    out = []
    for column, cell in row.items():
        if column.localize is not None:
            cell = localize(cell) if column.localize else unlocalize(cell)
        out.append((column.attrs["td"].as_html(), cell))
    return out


def test_planned_rows_show_what_django_tables2_rows_show() -> None:
    stock, planned = StockTable(ROWS), Planned(ROWS)
    for mine, theirs in zip(planned.rows, stock.rows, strict=True):
        shown = [(td, str(cell)) for td, cell in mine.shown_cells()]
        assert shown == [(td, str(cell)) for td, cell in stock_cells(theirs)]
        assert not any("exported only" in cell for _td, cell in shown)
        assert mine.attrs.as_html() == theirs.attrs.as_html()


def test_planned_rows_export_the_same_values() -> None:
    assert list(Planned(ROWS).as_values()) == list(StockTable(ROWS).as_values())


def test_render_methods_are_introspected_once_per_table_not_per_cell(monkeypatch: Any) -> None:
    import brackets.tables_rows as planned_rows

    calls = []
    real = planned_rows.signature

    def counted(function: Any) -> Any:
        calls.append(function)
        return real(function)

    monkeypatch.setattr(planned_rows, "signature", counted)
    table = Planned(ROWS * 20)
    for row in table.rows:
        list(row.shown_cells())
        row.attrs  # noqa: B018 - the row attributes are computed on access
    visible = len(list(table.columns))
    assert len(calls) == visible + 2  # each column's render, the two callable row attrs
