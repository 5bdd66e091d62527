"""The kinds of failure the engine reports.

An *expected rule violation* inside a valid request (a player chose a genre they already
used, a selection that breaks the pair constraint ...) is a value: :class:`Violation`,
carrying a stable ``code`` and parameters from which the web layer builds a translated
message for staff.

A request the rules refuse (a score out of range, a seat used twice, a field too small for
the preset) raises :class:`RuleRefusal`: its ``code`` and ``params`` are worded for staff in
``brackets.messages``, and nothing is changed.

A call no staff action can produce (bad catalog data, a preset registered twice, a caller
passing a value its own code chose) raises :class:`EngineBug`: it is logged and shown as an
internal error, never as a rule.

Both derive from :class:`EngineError`, so code that only needs "the engine said no" can
catch the base; the web layer shows only :class:`RuleRefusal` as a message.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class EngineError(Exception):
    """Anything the engine raises. ``code`` is stable; ``params`` name the offending values.

    Raise one of the two subclasses; the base exists for ``except`` clauses.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class RuleRefusal(EngineError):
    """A request the rules refuse; staff see ``brackets.messages`` wording for ``code``."""


class EngineBug(EngineError):
    """A call no staff action can produce: logged, never shown to staff as a rule."""


@dataclass(frozen=True)
class Violation:
    """An expected rule violation, shown to staff as a translated message.

    ``code`` is stable (e.g. ``"genre_used"``), ``params`` fill the message
    (e.g. ``{"genre": "芸能", "round": "1回戦"}``).
    """

    code: str
    params: dict[str, Any] = field(default_factory=dict)
