"""The buzzer engine is a pure package: standard library and the engine only."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "brackets" / "engine" / "buzzer"


def test_buzzer_engine_imports_only_the_standard_library_and_the_engine() -> None:
    allowed_local = "brackets.engine"
    bad: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if name.startswith(allowed_local) or top in sys.stdlib_module_names or top == "__future__":
                    continue
                bad.append(f"{path.relative_to(PACKAGE)}: {name}")
    assert bad == []
    assert len(list(PACKAGE.glob("*.py"))) >= 10
