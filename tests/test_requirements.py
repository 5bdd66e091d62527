"""Everything the benchmarks import is installed by the README's commands (issue 19,
defect 11): a third-party module imported anywhere in bench/ is named in
requirements.txt or requirements-dev.txt."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Import names that differ from their distribution's name.
DISTRIBUTION = {"yaml": "pyyaml", "psycopg": "psycopg"}
OWN = {"brackets", "kyushu", "tests", "bench"}


def _required() -> set[str]:
    names = set()
    for file in ("requirements.txt", "requirements-dev.txt"):
        for line in (ROOT / file).read_text().splitlines():
            match = re.match(r"([A-Za-z0-9_.-]+)", line.strip())
            if match and not line.startswith(("#", "-")):
                names.add(match.group(1).lower().replace("_", "-"))
    return names


def _bench_imports() -> set[str]:
    found = set()
    for path in (ROOT / "bench").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module.split(".")[0])
    return {name for name in found
            if name not in sys.stdlib_module_names and name not in OWN and name != "__future__"}


def test_every_third_party_module_bench_imports_is_in_the_requirements() -> None:
    required = _required()
    missing = sorted(name for name in _bench_imports()
                     if DISTRIBUTION.get(name, name).lower().replace("_", "-") not in required)
    assert not missing, f"add these to requirements-dev.txt: {missing}"
