"""Text that a spreadsheet program would run as a formula, and how every cell the app
writes keeps it text.

A cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return before
one) is read by Excel and LibreOffice as a formula (:func:`brackets.text.looks_like_formula`):
an entrant named ``=HYPERLINK("http://…","…")`` would become a live link in every export
opened at the desk (OWASP "CSV injection"). openpyxl itself stores any string starting
with ``=`` as a formula. Every .xlsx the app writes passes its cells through
:func:`keep_as_text`, which stores such a value as a plain string cell marked "quote
prefix", exactly what Excel records when someone types ``'=…``: the value reads back
unchanged (an export still imports back as the same names) but no program evaluates it.
"""

from __future__ import annotations

from typing import Any

from brackets.text import looks_like_formula


def keep_as_text(cell: Any) -> None:
    """Make an openpyxl cell that holds formula-like text a plain text cell."""
    if looks_like_formula(cell.value):
        cell.data_type = "s"
        cell.quotePrefix = True
