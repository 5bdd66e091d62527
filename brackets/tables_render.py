"""Fast HTML and spreadsheet rows of any django-tables2 table.

django-tables2 resolves each cell's render_/value_ arguments with inspect.signature, about
100 µs a cell: 1,024 rows of a round's cross table took over a second. These functions run
the same pipeline (accessor, empty values and default, the table's own render_FOO /
value_FOO, row_attrs) with the signatures looked up once per column, so a public page
rebuilt after every save stays cheap; tests/rounds/test_round_tables.py holds them equal to
BoundRow cells and as_values().
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape as html_escape
from typing import Any

import django_tables2 as tables
from django.utils.encoding import force_str
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django_tables2.data import TableQuerysetData
from django_tables2.utils import A, signature


@dataclass(frozen=True)
class _Cell:
    name: str
    accessor: str
    simple: bool
    empty_values: tuple[Any, ...]
    default: Any
    render: Callable[..., Any]
    render_args: tuple[str, ...]
    value: Callable[..., Any]
    value_args: tuple[str, ...]
    td_attrs: str


def _arguments(func: Callable[..., Any]) -> tuple[str, ...]:
    args, kwargs_name = signature(func)
    if kwargs_name:
        return ("value", "record", "column", "bound_column", "bound_row", "table")
    return tuple(args)


def _cells(table: tables.Table, *, exported: bool) -> list[_Cell]:
    out = []
    columns = table.columns.iterall() if exported else table.columns
    for bc in columns:
        if exported and bc.column.exclude_from_export:
            continue
        if bc.link:  # a LinkColumn needs the bound row: not used by these tables
            raise ValueError(f"table_html cannot render link column {bc.name}")
        accessor = str(bc.accessor)
        out.append(_Cell(bc.name, accessor, "." not in accessor and "__" not in accessor,
                         tuple(bc.column.empty_values),
                         bc.default, bc.render, _arguments(bc.render), bc.value,
                         _arguments(bc.value), _attrs(bc.attrs.get("td", {}))))
    return out


def _call(func: Callable[..., Any], names: tuple[str, ...], value: Any, record: Any,
          table: tables.Table, bc: Any) -> Any:
    if names == ("value",):
        return func(value=value)
    if names == ("record",):
        return func(record=record)
    given = {"value": value, "record": record, "table": table, "bound_column": bc,
             "column": bc.column, "bound_row": None}
    return func(**{n: given[n] for n in names if n in given})


def _resolve(cell: _Cell, record: Any) -> Any:
    if cell.simple and not isinstance(record, Mapping):
        # A plain attribute of a row record: what Accessor.resolve finds, without its
        # per-call parsing (a dict record still goes through it: items come first there).
        value = getattr(record, cell.accessor, _MISSING)
        if value is not _MISSING:
            return value() if callable(value) else value
    try:
        return A(cell.accessor).resolve(record)
    except Exception:  # noqa: BLE001 - a computed column (no attribute), as django-tables2
        return None


_MISSING = object()


def _escape(content: Any) -> str:
    """conditional_escape without the lazy-string wrapper (a hot loop at 1,024 rows)."""
    if hasattr(content, "__html__"):
        return str(content.__html__())
    return html_escape(str(content))


def table_values(table: tables.Table) -> list[list[Any]]:
    """What ``table.as_values()`` yields (header first), fast: the spreadsheet rows."""
    cells = _cells(table, exported=True)
    bound = {c.name: table.columns[c.name] for c in cells}
    out: list[list[Any]] = [[force_str(bound[c.name].header, strings_only=True)
                             for c in cells]]
    if isinstance(table.data, TableQuerysetData):  # model rows: get_FOO_display and all
        return [list(row) for row in table.as_values()]
    for record in table.data:
        line: list[Any] = []
        for c in cells:
            value = _resolve(c, record)
            if value in c.empty_values:
                line.append(None)
                continue
            line.append(force_str(_call(c.value, c.value_args, value, record, table,
                                        bound[c.name]), strings_only=True))
        out.append(line)
    return out


def _attrs(attrs: Mapping[str, Any]) -> str:
    return "".join(f' {k}="{conditional_escape(v)}"' for k, v in attrs.items() if v)


def table_html(table: tables.Table) -> SafeString:
    """The table as HTML with the cells ``{% render_table %}`` would show (the table's
    own ``render_*``, row_attrs with even/odd), without a template per cell."""
    cells = _cells(table, exported=False)
    row_attrs = [(k, v, _arguments(v) if callable(v) else ()) for k, v in
                 table.row_attrs.items()]
    bound = {c.name: table.columns[c.name] for c in cells}
    out = [f"<table{_attrs(table.attrs)}><thead><tr>"]
    for c in cells:
        out.append(f"<th{_attrs(bound[c.name].attrs.get('th', {}))}>"
                   f"{conditional_escape(bound[c.name].header)}</th>")
    out.append("</tr></thead><tbody>")
    for index, record in enumerate(table.data):
        given = {"table": table, "record": record}
        attrs = {k: v(**{n: given[n] for n in names if n in given}) if callable(v) else v
                 for k, v, names in row_attrs}
        parity = "even" if index % 2 == 0 else "odd"
        attrs["class"] = f"{attrs['class']} {parity}" if attrs.get("class") else parity
        out.append(f"<tr{_attrs(attrs)}>")
        for c in cells:
            value = _resolve(c, record)
            if value in c.empty_values:
                content = c.default
            else:
                content = _call(c.render, c.render_args, value, record, table, bound[c.name])
            out.append(f"<td{c.td_attrs}>{_escape(content)}</td>")
        out.append("</tr>")
    if not len(table.data) and table.empty_text:
        out.append(f'<tr><td colspan="{len(cells)}" class="text-muted">'
                   f"{conditional_escape(table.empty_text)}</td></tr>")
    out.append("</tbody></table>")
    return mark_safe("".join(out))
