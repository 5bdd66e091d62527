"""The engine's public API is the boundary: other layers import only the names in ``__all__``.

``brackets/engine/__init__.py`` and ``brackets/engine/buzzer/__init__.py`` name what the
rest of the app may import (``docs/engine.md``). Read from the source with ``ast``
(imports inside functions and relative imports included), so a lazy import cannot hide
a way around the boundary.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from brackets import engine
from brackets.engine import buzzer

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "brackets" / "engine"
DOCS = ROOT / "docs" / "engine.md"
BUZZER_README = ENGINE / "buzzer" / "README.md"
PACKAGES = {"brackets.engine": set(engine.__all__), "brackets.engine.buzzer": set(buzzer.__all__)}


def _module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, root: Path = ROOT) -> Iterator[tuple[int, str, str | None]]:
    """``(line, module, name)`` for every import in ``path``; ``name`` None for ``import m``.

    Relative imports are resolved against the file's package; ``import_module("m")`` with a
    constant argument counts as ``import m``.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = _module_name(path, root).split(".")
    if path.name != "__init__.py":
        package.pop()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                yield node.lineno, module, alias.name
        elif (isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))
              and getattr(node.func, "id", getattr(node.func, "attr", None))
              in ("import_module", "__import__")
              and node.args and isinstance(node.args[0], ast.Constant)):
            yield node.lineno, str(node.args[0].value), None


def _boundary_breaches(path: Path, root: Path = ROOT) -> list[str]:
    """Where ``path`` reaches past the public API of the engine or the buzzer engine."""
    where = path.relative_to(root)
    bad: list[str] = []
    for line, module, name in _imports(path, root):
        if module in PACKAGES:
            if name is not None and name not in PACKAGES[module]:
                bad.append(f"{where}:{line} {module} has no public name {name!r}")
        elif module.startswith("brackets.engine."):
            bad.append(f"{where}:{line} imports the private module {module}")
    return bad


def _app_files() -> list[Path]:
    return [p for p in sorted((ROOT / "brackets").rglob("*.py")) if ENGINE not in p.parents]


def test_other_layers_import_only_the_public_api() -> None:
    bad = [b for p in _app_files() for b in _boundary_breaches(p)]
    assert bad == []


def test_the_detector_sees_every_kind_of_import(tmp_path: Path) -> None:
    probe = tmp_path / "brackets" / "probe" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        "from brackets.engine import legal_choices, not_public\n"
        "import brackets.engine.catalog\n"
        "from ..engine.results import match_result\n"
        "def later():\n"
        "    from brackets.engine.buzzer.state import RoundState\n"
        "    from brackets.engine.buzzer import replay, not_public_either\n"
        "import importlib\n"
        "importlib.import_module('brackets.engine.shura')\n",
        encoding="utf-8")
    found = sorted(b.split(" ", 1)[1] for b in _boundary_breaches(probe, tmp_path))
    assert found == [
        "brackets.engine has no public name 'not_public'",
        "brackets.engine.buzzer has no public name 'not_public_either'",
        "imports the private module brackets.engine.buzzer.state",
        "imports the private module brackets.engine.catalog",
        "imports the private module brackets.engine.results",
        "imports the private module brackets.engine.shura",
    ]


def test_every_public_name_exists_once() -> None:
    for package in (engine, buzzer):
        names = list(package.__all__)
        assert len(names) == len(set(names)), package.__name__
        assert [n for n in names if not hasattr(package, n)] == [], package.__name__


def _names_used_outside_the_engine() -> set[str]:
    used: set[str] = set()
    for folder in ("brackets", "tests", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if ENGINE in path.parents:
                continue
            used.update(name for _, module, name in _imports(path)
                        if module in PACKAGES and name is not None)
    return used


def _documented(text: str) -> set[str]:
    return set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)", text))


def test_every_public_name_is_used_outside_the_engine_or_documented() -> None:
    used = _names_used_outside_the_engine()
    documented = _documented(DOCS.read_text(encoding="utf-8"))
    qma = sorted(set(engine.__all__) - used - documented)
    documented |= _documented(BUZZER_README.read_text(encoding="utf-8"))
    documented |= _documented(buzzer.__doc__ or "")
    live = sorted(set(buzzer.__all__) - used - documented)
    assert (qma, live) == ([], [])


def test_every_qma_public_name_is_in_the_docs() -> None:
    """docs/engine.md is the reference for the QMA engine: it names every public name."""
    documented = _documented(DOCS.read_text(encoding="utf-8"))
    assert sorted(set(engine.__all__) - documented) == []


def test_engine_modules_never_import_through_the_package() -> None:
    """Engine modules import each other directly. The package ``__init__`` imports them all,
    so a module taking a name from ``brackets.engine`` itself would be a cycle."""
    bad = []
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name == "__init__.py" and path.parent in (ENGINE, ENGINE / "buzzer"):
            continue
        for line, module, name in _imports(path):
            folder = ROOT.joinpath(*module.split("."))
            is_submodule = name is not None and (
                (folder / f"{name}.py").exists() or (folder / name).is_dir())
            if module in PACKAGES and not is_submodule:
                bad.append(f"{path.relative_to(ROOT)}:{line} {module} {name}")
    assert bad == []


def test_every_engine_module_imports_first_without_a_cycle() -> None:
    """Whichever engine module a process imports first, the package initialises."""
    modules = sorted(_module_name(p) for p in ENGINE.rglob("*.py"))
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    for loaded in [m for m in sys.modules if m.startswith('brackets')]:\n"
        "        del sys.modules[loaded]\n"
        "    importlib.import_module(name)\n"
        "    import brackets.engine as e, brackets.engine.buzzer as b\n"
        "    assert all(hasattr(e, n) for n in e.__all__), name\n"
        "    assert all(hasattr(b, n) for n in b.__all__), name\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
