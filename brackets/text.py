"""Text as people see it: what every name typed or imported is cleaned to.

A name can carry characters nobody sees: a zero-width space pasted from a web form, a
byte-order mark from a spreadsheet, bidi controls, a soft hyphen. Two card names that look
the same would then differ, and a name that looks empty would not be. Every name field is
cleaned with :func:`visible_text` where it enters the app (the entrant data rules, the
staff form).

A text can also be read by a spreadsheet program as a formula (:func:`looks_like_formula`):
the import shows such cells before confirming, and every export keeps them text
(``brackets.exporters.cells``).
"""

from __future__ import annotations

import unicodedata
from typing import Any

#: The first characters that make a spreadsheet program read a text as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _invisible(ch: str, *, keep: str) -> bool:
    # Cf: format characters (U+200B..U+200F, U+2060, U+FEFF, U+00AD, bidi controls);
    # Cc: control characters, except the line breaks a multi-line field keeps.
    return unicodedata.category(ch) in ("Cf", "Cc") and ch not in keep


def visible_text(text: str, *, multiline: bool = False) -> str:
    """``text`` without invisible characters and without surrounding white space (a
    multi-line field such as notes keeps its line breaks and tabs)."""
    keep = "\n\t" if multiline else ""
    if multiline:
        text = text.replace("\r\n", "\n")
    return "".join(ch for ch in text if not _invisible(ch, keep=keep)).strip()


def looks_like_formula(value: Any) -> bool:
    """Whether a spreadsheet program would take this text for a formula."""
    return isinstance(value, str) and value.startswith(FORMULA_STARTS)
