"""One refusal base class in the web layer: every refusal shown to staff is a ``Refused``.

The engine's kinds (``RuleRefusal``, ``EngineBug``) live in ``brackets.engine.errors``; the
app's services, exporters and documents refuse through subclasses of
``brackets.errors.Refused``. A new exception class straight off ``Exception`` in brackets/
fails here unless it is named below as no refusal.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from brackets.adapters.entrant_files import ImportRefused
from brackets.errors import Refused
from brackets.exporters.tournament_file import TournamentFileError
from brackets.printing.registry import DocumentError
from brackets.services.buzzer import BuzzerRefused
from brackets.services.entrants import StaleEntrantError
from brackets.services.preset_settings import SettingsError
from brackets.services.replay import ReplayError
from brackets.services.rounds import RoundError, StaleVersion

APP = Path(__file__).resolve().parent.parent / "brackets"

# Exceptions that are control flow, not refusals shown to staff.
NOT_REFUSALS = {
    "brackets/services/rounds/_write.py": {"Duplicate"},  # a repeated submit: the first one counts
    "brackets/management/commands/replay.py": {"_Rollback"},  # undoes a replay that is not kept
    "brackets/exporters/tournament_file/importer.py": {"_BadValue"},  # turned into a file error
    "brackets/hosted/pusher.py": {"PushFailed"},  # the copy's answer: retried, shown on the status line
}


@pytest.mark.parametrize("cls", [ReplayError, StaleEntrantError, RoundError, StaleVersion,
                                 BuzzerRefused, SettingsError, TournamentFileError,
                                 ImportRefused, DocumentError])
def test_every_refusal_class_is_a_refused(cls: type[Exception]) -> None:
    assert issubclass(cls, Refused)


def test_a_refusal_carries_its_message() -> None:
    refused = DocumentError("この回戦はまだ組分けしていません")
    assert isinstance(refused, Refused)
    assert refused.message == str(refused) == "この回戦はまだ組分けしていません"
    assert RoundError("サテを確認してください", field="seat").message == "サテを確認してください"


def test_no_other_exception_class_outside_the_engine() -> None:
    found: dict[str, set[str]] = {}
    for path in sorted(APP.rglob("*.py")):
        rel = str(path.relative_to(APP.parent))
        if rel.startswith("brackets/engine/") or "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(b, ast.Name) and b.id == "Exception" for b in node.bases):
                found.setdefault(rel, set()).add(node.name)
    assert found.pop("brackets/errors.py") == {"Refused"}
    assert found == NOT_REFUSALS
