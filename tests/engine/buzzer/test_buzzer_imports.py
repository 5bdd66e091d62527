"""The buzzer engine's import graph: no cycle, values at the bottom, one registration point.

Read from the source with ``ast`` (imports inside functions included), so a lazy import
cannot hide a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "brackets" / "engine" / "buzzer"
NAME = "brackets.engine.buzzer"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([NAME, *parts])


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(module: str) -> set[str]:
    """The modules of this package that ``module`` imports, anywhere in its source."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in MODULES)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module not in MODULES:
                continue
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in MODULES else node.module)
    found.discard(module)
    return found


GRAPH = {m: _imports(m) for m in MODULES}


def _reaches(start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(GRAPH[start])
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(GRAPH[m])
    return seen


def test_no_module_of_the_buzzer_engine_imports_itself_back() -> None:
    cycles = sorted(m for m in GRAPH if m in _reaches(m))
    assert cycles == []


def test_only_the_package_init_imports_the_package_init() -> None:
    """Engine modules import each other directly; the public API is for the other layers."""
    assert sorted(m for m, deps in GRAPH.items() if NAME in deps) == []


def test_state_is_values_only() -> None:
    """``state.py`` builds on the configuration alone, so every module may import it."""
    assert GRAPH[f"{NAME}.state"] == {f"{NAME}.config"}


def test_the_scoreboard_payload_lives_in_scoreboard_not_in_state() -> None:
    source = MODULES[f"{NAME}.state"].read_text(encoding="utf-8")
    assert "def to_dict" not in source
    assert f"{NAME}.ranking" in GRAPH[f"{NAME}.scoreboard"]
    assert f"{NAME}.engine" not in GRAPH[f"{NAME}.scoreboard"]


def test_formats_are_registered_in_one_place() -> None:
    """Only ``formats/__init__.py`` fills FORMATS; no module is imported for a side effect."""
    registering = sorted(
        m for m, path in MODULES.items() if "FORMATS.register(" in path.read_text(encoding="utf-8")
    )
    assert registering == [f"{NAME}.formats"]
    assert {f"{NAME}.formats.buzz", f"{NAME}.formats.written"} <= GRAPH[f"{NAME}.formats"]
    for module, path in MODULES.items():
        assert "noqa: F401" not in path.read_text(encoding="utf-8"), module


def test_presets_are_registered_in_one_place() -> None:
    """Each event's module builds its TournamentPreset; ``presets/__init__.py`` files them."""
    registering = sorted(
        m for m, path in MODULES.items() if "PRESETS.register(" in path.read_text(encoding="utf-8")
    )
    assert registering == [f"{NAME}.presets"]
    events = {f"{NAME}.presets.quiz_003", f"{NAME}.presets.abc_004"}
    assert events <= GRAPH[f"{NAME}.presets"]
    for event in events:
        assert f"{NAME}.presets" not in GRAPH[event]


def test_other_layers_import_only_the_public_api() -> None:
    """Outside the package, only ``from brackets.engine.buzzer import <name in __all__>``."""
    import brackets.engine.buzzer as api

    root = PACKAGE.parents[2]
    bad: list[str] = []
    for folder in ("brackets", "tests"):
        for path in sorted((root / folder).rglob("*.py")):
            if PACKAGE in path.parents:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
                if isinstance(node, ast.Import):
                    bad += [where for a in node.names if a.name.startswith(f"{NAME}.")]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    if node.module.startswith(f"{NAME}."):
                        bad.append(where)
                    elif node.module == NAME:
                        bad += [f"{where} {a.name}" for a in node.names if a.name not in api.__all__]
    assert bad == []
