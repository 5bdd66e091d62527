"""Rendered fragments of a page, each cached under a digest of what it shows.

A page cached whole (brackets/perf/page_cache.py) is built again after every save in the
tournament, and most of what it holds did not change: at a venue four saves in five are
selections, which leave the round's 惜敗率 table as it was, and each save touches one
group of the round. So a page is assembled from fragments, each kept under the values it
is rendered from (its rows, its language, its links) rather than under a counter that
something may forget to move: a fragment whose inputs are equal is the same HTML, and
one whose inputs changed is never found.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

# A fragment not shown again is dropped after this; changed inputs never hit it anyway.
FRAGMENT_SECONDS = 600


def digest(value: Any) -> str:
    """A short, stable name for ``value`` (plain data whose repr names it fully)."""
    return hashlib.blake2b(repr(value).encode(), digest_size=16).hexdigest()


def cached_fragment(kind: str, shown: Any, build: Callable[[], str]) -> SafeString:
    """``build()``'s HTML, kept under ``shown`` and the language (a fragment holds
    translated text): ``shown`` must name everything the HTML is rendered from."""
    key = f"brackets:frag:{kind}:{digest((shown, get_language()))}"
    html = cache.get(key)
    if html is None:
        html = build()
        cache.set(key, html, FRAGMENT_SECONDS)
    return mark_safe(html)


def cached_fragments(kind: str, shown: dict[Any, Any],
                     build: Callable[[list[Any]], dict[Any, Any]]) -> dict[Any, Any]:
    """Many fragments at once, by id: ``shown[id]`` names everything fragment ``id`` is
    rendered from (as for :func:`cached_fragment`, with the language added), and
    ``build(ids)`` renders those not kept, by id. One cache read and at most one write
    for all of them: a round page has 256 cards. A fragment is any picklable value (a
    card keeps its HTML and the status its page counts)."""
    language = get_language()
    keys = {i: f"brackets:frag:{kind}:{digest((value, language))}" for i, value in shown.items()}
    found = cache.get_many(list(keys.values()))
    missing = [i for i, key in keys.items() if key not in found]
    if missing:
        built = build(missing)
        cache.set_many({keys[i]: built[i] for i in missing}, FRAGMENT_SECONDS)
        found.update({keys[i]: built[i] for i in missing})
    return {i: found[key] for i, key in keys.items()}


# Letters only, so rendering leaves them as they are.
PARITY_HOLE = "parityHoleQx7w"


def _hole(name: str) -> str:
    return f"{name}HoleQx7w"


def cached_rows(table: Any, row_template: str, *, per_row: tuple[str, ...] = ()) -> SafeString:
    """The ``<tr>`` of every row of a django-tables2 ``table``, each kept under its
    record and the table's shape (class, columns, attributes, row colours, links): after
    one group's result only its rows are rendered again, not a round's 72 (or 1,024).

    A row's even/odd class and the columns named in ``per_row`` (a rank, which moves for
    every row below a changed one) are holes in the kept row, filled per row, so a row
    that only moved is not rendered again. The records must be dataclasses of plain
    values whose repr names all a row shows."""
    rows = list(table.paginated_rows)
    link = table.player_url("0") if getattr(table, "player_url", None) else None
    shape = (type(table).__name__, [c.name for c in table.columns], repr(table.attrs),
             sorted(table.row_classes.items()), link, get_language())
    holed = [dataclasses.replace(row.record, **{name: _hole(name) for name in per_row})
             for row in rows]
    keys = [f"brackets:row:{digest((shape, record))}" for record in holed]
    found = cache.get_many(keys)
    built = {}
    for key, record in zip(keys, holed):
        if key not in found and key not in built:
            row = type(rows[0])(record, table=table)
            row.get_even_odd_css_class = lambda: PARITY_HOLE
            built[key] = render_to_string(row_template, {"row": row})
    if built:
        cache.set_many(built, FRAGMENT_SECONDS)
        found.update(built)
    out = []
    for key, row in zip(keys, rows):
        html = found[key].replace(PARITY_HOLE, row.get_even_odd_css_class())
        for name in per_row:
            value = getattr(row.record, name)
            html = html.replace(_hole(name), "" if value is None else escape(value))
        out.append(html)
    return mark_safe("".join(out))
