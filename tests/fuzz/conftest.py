"""The fuzz tests' figures, printed once at the end of the run."""

from __future__ import annotations

from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from tests.fuzz.test_forms_fuzz import FIGURES

    if FIGURES:
        terminalreporter.write_line(
            f"forms fuzz: {FIGURES['inputs']} inputs, {FIGURES['refused']} refused with the "
            f"tournament unchanged, {FIGURES['accepted']} accepted, "
            f"{FIGURES['server errors']} server errors")
