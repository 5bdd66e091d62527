"""The rule engine is a pure package: no module under brackets/engine imports Django."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "brackets" / "engine"


def _dynamic_import_target(node: ast.Call) -> str | None:
    """The constant module name of ``__import__("x")`` / ``importlib.import_module("x")``."""
    func = node.func
    is_import = (isinstance(func, ast.Name) and func.id == "__import__") or (
        isinstance(func, ast.Attribute) and func.attr == "import_module")
    if is_import and node.args and isinstance(node.args[0], ast.Constant):
        return str(node.args[0].value)
    return None


def _imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif isinstance(node, ast.Call) and (target := _dynamic_import_target(node)):
            names.append(target)
    return names


def test_engine_has_python_files() -> None:
    assert len(list(ENGINE.rglob("*.py"))) >= 3


def test_no_engine_module_imports_django() -> None:
    offenders = {
        str(path.relative_to(ENGINE)): name
        for path in sorted(ENGINE.rglob("*.py"))
        for name in _imported_modules(path)
        if name == "django" or name.startswith("django.")
    }
    assert offenders == {}


def test_no_engine_module_imports_the_web_app() -> None:
    web = ("brackets.models", "brackets.services", "brackets.selectors", "brackets.views")
    offenders = {
        str(path.relative_to(ENGINE)): name
        for path in sorted(ENGINE.rglob("*.py"))
        for name in _imported_modules(path)
        if name.startswith(web)
    }
    assert offenders == {}


def test_detector_sees_django_imports(tmp_path: Path) -> None:
    sample = tmp_path / "probe.py"
    sample.write_text("import os\nfrom django.db import models\nimport django\n"
                      "import importlib\nimportlib.import_module('django.conf')\n"
                      "__import__('django.urls')\n", encoding="utf-8")
    assert {"django.db", "django", "django.conf", "django.urls"} <= set(
        _imported_modules(sample))
