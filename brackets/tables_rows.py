"""django-tables2 rows that work out each column's render call once per table, not per cell.

django-tables2 reads the signature of a column's ``render_<name>`` method (``inspect.
signature``) for every cell it renders, and builds each cell's ``<td>`` attributes again
per cell. At 72 entrants the public round page's cross-group 惜敗率 table is ~500 cells:
that introspection was two thirds of the page's rebuild after a save (48 of 69 ms,
measured with bench/pages.py). A table's columns and their render methods do not change
while it renders, so :class:`PlannedRows` asks once per table which arguments each render
method takes, and each column's static ``<td>`` attributes are rendered once.

Everything else is django-tables2's own path: the accessor, ``empty_values`` and
``default``, ``render_<name>`` (or the column's ``render``), ``linkify``, row attributes,
and ``as_values()`` for the spreadsheets, which still calls ``value_<name>`` per cell
(exports are rare). A ``<td>`` attribute that is a callable (it may read the cell's value
or record) is still computed per cell.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.templatetags.l10n import localize, unlocalize
from django_tables2.rows import BoundRow, BoundRows
from django_tables2.utils import AttributeDict, computed_values, signature


class RenderPlan:
    """Per visible column of one table: its render method, the arguments it takes, and its
    ``<td>`` attributes when they are the same for every cell (else None); per row
    attribute, the arguments a callable one takes."""

    def __init__(self, table: Any) -> None:
        self.calls: dict[str, tuple[Any, tuple[str, ...] | None]] = {}
        self.cells: list[tuple[Any, str | None]] = []
        for column in table.columns:
            # None: a catch-all (**kwargs) takes every argument django-tables2 offers.
            self.calls[column.name] = (column.render, _wanted(column.render))
            attrs = dict(table.attrs, **column.column.attrs)
            td = attrs.get("td", attrs.get("cell")) or {}  # as BoundColumn.attrs reads them
            static = not any(callable(v) for v in td.values())
            self.cells.append((column, column.attrs["td"].as_html() if static else None))
        self.row_attrs = [(name, value, _wanted(value) if callable(value) else ())
                          for name, value in table.row_attrs.items()]


def _wanted(function: Any) -> tuple[str, ...] | None:
    args, catch_all = signature(function)
    return None if catch_all else tuple(args)


def _called(function: Any, wanted: tuple[str, ...] | None, offered: dict[str, Any]) -> Any:
    """``function`` called with the arguments it takes, as django-tables2 calls it (None
    when it wants one that is not offered)."""
    if wanted is None:
        return function(**offered)
    if any(arg not in offered for arg in wanted):
        return None
    return function(**{arg: offered[arg] for arg in wanted})


class PlannedRow(BoundRow):  # type: ignore[misc]
    """A row whose cells call their column's render method as the table's plan says."""

    def _call_render(self, bound_column: Any, value: Any = None) -> Any:
        render, wanted = self.table.render_plan.calls[bound_column.name]
        offered = self._optional_cell_arguments(bound_column, value)
        content = _called(render, wanted, offered)
        return bound_column.link(content, **offered) if bound_column.link else content

    @property
    def attrs(self) -> AttributeDict:
        """The row's attributes (``Meta.row_attrs``) and its even/odd class, as
        ``BoundRow.attrs`` gives them."""
        offered = {"table": self.table, "record": self.record}
        found = {}
        for name, value, wanted in self.table.render_plan.row_attrs:
            if callable(value):
                value = _called(value, wanted, offered)
            found[name] = computed_values(value, offered) if isinstance(value, dict) else value
        parity = self.get_even_odd_css_class()
        found["class"] = f"{found['class']} {parity}" if found.get("class") else parity
        return AttributeDict(found)

    def shown_cells(self) -> Iterator[tuple[str, Any]]:
        """(``<td>`` attributes as HTML, cell) per visible column, for the row template."""
        for column, td in self.table.render_plan.cells:
            cell = self.get_cell(column.name)
            if td is None:
                column.current_value, column.current_record = cell, self.record
                td = column.attrs["td"].as_html()
            if column.localize is not None:
                cell = localize(cell) if column.localize else unlocalize(cell)
            yield td, cell


class PlannedRows(BoundRows):  # type: ignore[misc]
    """The table's rows as :class:`PlannedRow` (pinned rows, if any, stay as they are)."""

    def __iter__(self) -> Iterator[BoundRow]:
        yield from self.generator_pinned_row(self.pinned_data.get("top"))
        for record in self.data:
            yield PlannedRow(record, table=self.table)
        yield from self.generator_pinned_row(self.pinned_data.get("bottom"))

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            return PlannedRows(data=self.data[key], table=self.table,
                               pinned_data=self.pinned_data)
        return PlannedRow(self.data[key], table=self.table)


class PlannedTable:
    """Mixin for a ``tables.Table``: its rows follow a :class:`RenderPlan`, worked out on
    first use (the columns are final by then: ``exclude`` and visibility applied)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rows = PlannedRows(data=self.data, table=self, pinned_data=self.pinned_data)
        self._plan: RenderPlan | None = None

    @property
    def render_plan(self) -> RenderPlan:
        if self._plan is None:
            self._plan = RenderPlan(self)
        return self._plan
