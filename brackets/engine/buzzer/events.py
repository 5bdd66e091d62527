"""The facts an operator records during a live round, one event per click.

A round's state is never stored: it is the replay of an append-only list of these events
(:func:`brackets.engine.buzzer.engine.replay`). That is what makes every click undoable and
every scoreboard reproducible. Each event is a frozen dataclass that turns into a plain
JSON-able dict (``to_dict``) and back (:func:`event_from_dict`), so the web layer can keep
the log in a JSON column without knowing the classes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from brackets.engine.errors import RuleRefusal


@dataclass(frozen=True)
class Event:
    """Base of every event; ``kind`` is the stable tag stored in the log."""

    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict; ``event_from_dict`` reverses it."""
        data: dict[str, Any] = {"kind": self.kind}
        data.update(self._payload())
        return data

    def _payload(self) -> dict[str, Any]:
        return {}


def _opt_int(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleRefusal("bad_event", f"{name} must be an integer", field=name, value=value)
    return value


def _req_str(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value:
        raise RuleRefusal("bad_event", f"{name} must be a non-empty string", field=name)
    return value


def _str_tuple(data: Mapping[str, Any], name: str) -> tuple[str, ...]:
    value = data.get(name, [])
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise RuleRefusal("bad_event", f"{name} must be a list of player ids", field=name)
    return tuple(value)


@dataclass(frozen=True)
class Correct(Event):
    """A buzz answered correctly. ``question`` (1-based), when given, guards double clicks."""

    kind: ClassVar[str] = "correct"
    player: str
    question: int | None = None
    clock_ms: int | None = None

    def _payload(self) -> dict[str, Any]:
        return {"player": self.player, "question": self.question, "clock_ms": self.clock_ms}


@dataclass(frozen=True)
class Wrong(Event):
    """A buzz answered wrongly (or not answered in time)."""

    kind: ClassVar[str] = "wrong"
    player: str
    question: int | None = None
    clock_ms: int | None = None

    def _payload(self) -> dict[str, Any]:
        return {"player": self.player, "question": self.question, "clock_ms": self.clock_ms}


@dataclass(frozen=True)
class Thru(Event):
    """Nobody answered the question correctly; it is closed and counts toward the limit."""

    kind: ClassVar[str] = "thru"
    question: int | None = None
    clock_ms: int | None = None

    def _payload(self) -> dict[str, Any]:
        return {"question": self.question, "clock_ms": self.clock_ms}


@dataclass(frozen=True)
class BoardResults(Event):
    """One board question: who wrote a correct answer, and optionally who buzzed.

    Players in play who are not in ``correct`` wrote a wrong or blank board. ``buzzer`` is
    the player who pressed the button (L6), judged by ``buzzer_correct``.
    """

    kind: ClassVar[str] = "board"
    correct: frozenset[str]
    buzzer: str | None = None
    buzzer_correct: bool = False
    question: int | None = None
    clock_ms: int | None = None

    def _payload(self) -> dict[str, Any]:
        return {
            "correct": sorted(self.correct),
            "buzzer": self.buzzer,
            "buzzer_correct": self.buzzer_correct,
            "question": self.question,
            "clock_ms": self.clock_ms,
        }


@dataclass(frozen=True)
class WrittenResults(Event):
    """One written (paper) question: per-player marks, True = correct.

    Standing players without a mark wrote nothing, which the rules treat as wrong.
    """

    kind: ClassVar[str] = "written"
    marks: tuple[tuple[str, bool], ...]
    question: int | None = None

    @staticmethod
    def of(marks: Mapping[str, bool], question: int | None = None) -> WrittenResults:
        """Build from a mapping (sorted, so equal marks give equal events)."""
        return WrittenResults(tuple(sorted(marks.items())), question)

    def _payload(self) -> dict[str, Any]:
        return {"marks": {p: ok for p, ok in self.marks}, "question": self.question}


@dataclass(frozen=True)
class ClockStart(Event):
    """The round clock starts or resumes; ``elapsed_ms`` is the reading at that moment."""

    kind: ClassVar[str] = "clock_start"
    elapsed_ms: int = 0

    def _payload(self) -> dict[str, Any]:
        return {"elapsed_ms": self.elapsed_ms}


@dataclass(frozen=True)
class ClockStop(Event):
    """The round clock is paused (host talk, a win or an out)."""

    kind: ClassVar[str] = "clock_stop"
    elapsed_ms: int = 0

    def _payload(self) -> dict[str, Any]:
        return {"elapsed_ms": self.elapsed_ms}


@dataclass(frozen=True)
class ClockExpire(Event):
    """Time is up. With ``question_in_play`` the question being read still counts (M3, M5)."""

    kind: ClassVar[str] = "clock_expire"
    elapsed_ms: int | None = None
    question_in_play: bool = True

    def _payload(self) -> dict[str, Any]:
        return {"elapsed_ms": self.elapsed_ms, "question_in_play": self.question_in_play}


@dataclass(frozen=True)
class TieBreak(Event):
    """Result of a sudden death or playoff: the tied players of one decision, best first.

    ``side`` names the pending decision (``"win"``, ``"loss"`` or ``"both"``).
    """

    kind: ClassVar[str] = "tiebreak"
    side: str
    order: tuple[str, ...]

    def _payload(self) -> dict[str, Any]:
        return {"side": self.side, "order": list(self.order)}


@dataclass(frozen=True)
class Undo(Event):
    """Take back the most recent event that is still in effect."""

    kind: ClassVar[str] = "undo"


@dataclass(frozen=True)
class Rejudge(Event):
    """A protest upheld: ``player``'s answer to ``question`` is now ``correct`` (or wrong).

    The earlier tap stays in the log; this event supersedes it and the round is recomputed
    (:mod:`brackets.engine.buzzer.protests`). ``overrule`` says the organiser allowed a
    protest the window does not (late, or on a finished round).
    """

    kind: ClassVar[str] = "rejudge"
    question: int
    player: str
    correct: bool
    overrule: bool = False

    def _payload(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "player": self.player,
            "correct": self.correct,
            "overrule": self.overrule,
        }


@dataclass(frozen=True)
class ThrowOut(Event):
    """A question thrown out: none of its judgements stand and it does not count toward the
    limit, so the next question read replaces it. ``overrule`` as for :class:`Rejudge`."""

    kind: ClassVar[str] = "throw_out"
    question: int
    overrule: bool = False

    def _payload(self) -> dict[str, Any]:
        return {"question": self.question, "overrule": self.overrule}


#: The events that supersede earlier ones instead of recording a new fact of play.
Protest = Rejudge | ThrowOut


def _req_int(data: Mapping[str, Any], name: str) -> int:
    value = _opt_int(data.get(name), name)
    if value is None or value < 1:
        raise RuleRefusal("bad_event", f"{name} must be a positive integer", field=name)
    return value


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Rebuild an event from ``Event.to_dict`` output; unknown kinds raise ``bad_event``."""
    kind = data.get("kind")
    if kind == "correct":
        return Correct(
            _req_str(data, "player"),
            _opt_int(data.get("question"), "question"),
            _opt_int(data.get("clock_ms"), "clock_ms"),
        )
    if kind == "wrong":
        return Wrong(
            _req_str(data, "player"),
            _opt_int(data.get("question"), "question"),
            _opt_int(data.get("clock_ms"), "clock_ms"),
        )
    if kind == "thru":
        return Thru(
            _opt_int(data.get("question"), "question"), _opt_int(data.get("clock_ms"), "clock_ms")
        )
    if kind == "board":
        buzzer = data.get("buzzer")
        if buzzer is not None and not isinstance(buzzer, str):
            raise RuleRefusal("bad_event", "buzzer must be a player id", field="buzzer")
        return BoardResults(
            frozenset(_str_tuple(data, "correct")),
            buzzer,
            bool(data.get("buzzer_correct", False)),
            _opt_int(data.get("question"), "question"),
            _opt_int(data.get("clock_ms"), "clock_ms"),
        )
    if kind == "written":
        marks = data.get("marks")
        if not isinstance(marks, Mapping) or not all(
            isinstance(k, str) and isinstance(v, bool) for k, v in marks.items()
        ):
            raise RuleRefusal("bad_event", "marks must map player ids to booleans", field="marks")
        return WrittenResults.of(marks, _opt_int(data.get("question"), "question"))
    if kind in ("clock_start", "clock_stop"):
        elapsed = _opt_int(data.get("elapsed_ms", 0), "elapsed_ms") or 0
        return ClockStart(elapsed) if kind == "clock_start" else ClockStop(elapsed)
    if kind == "clock_expire":
        return ClockExpire(
            _opt_int(data.get("elapsed_ms"), "elapsed_ms"), bool(data.get("question_in_play", True))
        )
    if kind == "tiebreak":
        return TieBreak(_req_str(data, "side"), _str_tuple(data, "order"))
    if kind == "undo":
        return Undo()
    if kind == "rejudge":
        correct = data.get("correct")
        if not isinstance(correct, bool):
            raise RuleRefusal("bad_event", "correct must be true or false", field="correct")
        return Rejudge(
            _req_int(data, "question"), _req_str(data, "player"), correct,
            bool(data.get("overrule", False)),
        )
    if kind == "throw_out":
        return ThrowOut(_req_int(data, "question"), bool(data.get("overrule", False)))
    raise RuleRefusal("bad_event", f"unknown event kind {kind!r}", kind=kind)
