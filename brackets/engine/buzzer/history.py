"""A round question by question: the decided version of its log, grouped by question.

Score sheets and spreadsheets print a round one question per line with everyone's numbers
after it. That is the replay of ``RoundState.played`` (the plain events in effect: undos
taken back, protests applied, thrown-out questions gone and later ones renumbered), cut
where the question counter moves. The states come from the engine's own ``apply``, so a
sheet shows exactly what the console showed after each question.
"""

from __future__ import annotations

from dataclasses import dataclass

from brackets.engine.buzzer.engine import apply
from brackets.engine.buzzer.events import (
    BoardResults,
    Correct,
    Event,
    Thru,
    WrittenResults,
    Wrong,
)
from brackets.engine.buzzer.state import RoundState

_JUDGING = (Correct, Wrong, Thru, BoardResults, WrittenResults)


@dataclass(frozen=True)
class QuestionRecord:
    """One question of the decided version.

    ``events`` are the judgements recorded on it, in order (buzzes, a thru, a board or a
    written question's marks); ``state`` is the round after it closed, or after its last
    event when ``closed`` is False (the question in play when the log ends, or the one on
    which the round ended without closing it).
    """

    number: int
    events: tuple[Event, ...]
    state: RoundState
    closed: bool = True

    @property
    def correct(self) -> tuple[str, ...]:
        """Players judged ○ on this question (buzzer, board or written), in event order."""
        out: list[str] = []
        for event in self.events:
            if isinstance(event, Correct):
                out.append(event.player)
            elif isinstance(event, BoardResults):
                if event.buzzer is not None and event.buzzer_correct:
                    out.append(event.buzzer)
                out.extend(sorted(event.correct - {event.buzzer}))
            elif isinstance(event, WrittenResults):
                out.extend(p for p, ok in event.marks if ok)
        return tuple(out)


def _root(state: RoundState) -> RoundState:
    while state.previous is not None:
        state = state.previous
    return state


def question_history(state: RoundState) -> tuple[QuestionRecord, ...]:
    """The round's questions in the decided version, oldest first, each with the state after.

    Clock taps and tie-break results belong to no question; a tie-break result shows in the
    final state only.
    """
    current = _root(state)
    records: list[QuestionRecord] = []
    pending: list[Event] = []
    for event in state.played:
        before = current.question
        current = apply(current, event)
        if isinstance(event, _JUDGING):
            pending.append(event)
        if current.question > before:
            records.append(QuestionRecord(current.question, tuple(pending), current))
            pending = []
    if pending:
        records.append(QuestionRecord(current.question + 1, tuple(pending), current, False))
    return tuple(records)
