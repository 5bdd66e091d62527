"""List Japanese text in templates and Python code that is not marked for translation.

Why: an unwrapped string never reaches django.po, so English users see Japanese and no test
of the catalogue notices. This is a heuristic report for humans (it cannot tell user-facing
text from data such as catalogue genres or printed Japanese documents), not a test.

Usage (from the repository root)::

    python3 locale/tools/find_unwrapped.py [PATH ...]   # default: templates brackets

Docstrings, comments, ``{# #}``/``{% comment %}``, ``{% trans %}``/``{% blocktrans %}`` and
arguments of gettext-family calls are skipped; migrations and tests are not scanned.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
WRAPPERS = {
    "_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy",
    "npgettext", "npgettext_lazy", "gettext_noop",
}
TEMPLATE_SKIPS = [
    r"(?s)\{%\s*blocktrans(?:late)?\b.*?\{%\s*endblocktrans(?:late)?\s*%\}",
    r"(?s)\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}",
    r"(?s)\{#.*?#\}",
    r"(?s)<!--.*?-->",
    r"\{%\s*trans(?:late)?\s+(?:\"[^\"]*\"|'[^']*')[^%]*%\}",
    r"_\((?:\"[^\"]*\"|'[^']*')\)",
]


def template_hits(path: Path) -> Iterator[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    for pattern in TEMPLATE_SKIPS:
        # Blank the skipped region but keep its newlines so line numbers stay right.
        text = re.sub(pattern, lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    for number, line in enumerate(text.splitlines(), 1):
        if JAPANESE.search(line):
            yield number, " ".join(line.split())[:120]


def python_hits(path: Path) -> Iterator[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parent: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parent[child] = node
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        if not JAPANESE.search(node.value):
            continue
        up = parent.get(node)
        while isinstance(up, (ast.JoinedStr, ast.FormattedValue)):
            up = parent.get(up)
        if isinstance(up, ast.Expr):
            continue  # docstring or bare string statement
        if isinstance(up, ast.Call):
            func = up.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in WRAPPERS:
                continue
        yield node.lineno, repr(node.value[:80])


def main(argv: list[str]) -> int:
    roots = [Path(a) for a in argv] or [Path("templates"), Path("brackets")]
    count = 0
    for root in roots:
        files = [root] if root.is_file() else sorted(root.rglob("*"))
        for path in files:
            if "migrations" in path.parts or "tests" in path.parts:
                continue
            if path.suffix == ".html":
                hits = template_hits(path)
            elif path.suffix == ".py":
                hits = python_hits(path)
            else:
                continue
            for number, text in hits:
                print(f"{path}:{number}: {text}")
                count += 1
    print(f"{count} unwrapped Japanese strings", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
