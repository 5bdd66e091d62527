"""The two kinds of failure the engine reports.

An *expected rule violation* (a player chose a genre they already used, a selection that
breaks the pair constraint ...) is a value: :class:`Violation`, carrying a stable ``code``
and parameters from which the web layer builds a translated message for staff.

*Impossible input* (an unknown genre, a seat used twice, placements that are not 1..n) is a
bug in the caller or bad data: it raises :class:`EngineError` (or a subclass) naming the
problem, never a silent wrong answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class EngineError(Exception):
    """Impossible input. ``code`` is stable; ``params`` name the offending values."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Violation:
    """An expected rule violation, shown to staff as a translated message.

    ``code`` is stable (e.g. ``"genre_used"``), ``params`` fill the message
    (e.g. ``{"genre": "芸能", "round": "1回戦"}``).
    """

    code: str
    params: dict[str, Any] = field(default_factory=dict)
