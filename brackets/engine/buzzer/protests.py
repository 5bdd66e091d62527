"""Protests (審議) and thrown-out questions: new events that supersede earlier judgements.

A protest never edits the log. :class:`~brackets.engine.buzzer.events.Rejudge` and
:class:`~brackets.engine.buzzer.events.ThrowOut` are appended like any tap; applying one
takes the plain events in effect (``RoundState.played``), rewrites the protested question
and replays the round from its start. Undo of a protest therefore restores the earlier
version exactly, and a protest after a protest works on the version then in effect.

How a question is rewritten (the default readings, one place):

* ○ → ×: the answer becomes a wrong; if the question is then still open it is closed as a
  thru (the next question was read; nobody buzzed again on this one).
* × → ○: the answer becomes the correct one and closes the question; answers recorded on
  it after this one did not happen and are voided.
* thrown out: none of its answers stand and it does not count toward the limit, so the
  next question read is its replacement (later questions are numbered one lower).
* Later events the recomputed round refuses (a player now out answered later, the round
  is now over) are voided and listed, so staff see every consequence before applying.

The window (seed 003 「審議を求めることができる」): a protest on question *q* is in time
until question *q* + ``protest_window`` is read, which the app learns from the first answer
recorded on it; a protest outside the window, or on a finished round, needs the organiser
(``overrule``). :func:`protest_refusal` is the one place that decides it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from brackets.engine.buzzer.events import (
    BoardResults,
    Correct,
    Event,
    Rejudge,
    ThrowOut,
    Thru,
    WrittenResults,
    Wrong,
)
from brackets.engine.buzzer.state import PLAYING, PlayerState, RoundState
from brackets.engine.errors import RuleRefusal

Step = Callable[[RoundState, Event], RoundState]

_JUDGING = (Correct, Wrong, Thru, BoardResults, WrittenResults)


@dataclass(frozen=True)
class Voided:
    """A recorded event that no longer stands after a protest, and the engine's reason;
    ``index`` is its place in the ``played`` events before the protest."""

    event: Event
    question: int | None
    code: str
    index: int | None = None


@dataclass(frozen=True)
class PlayerChange:
    """One player whose standing a protest changes (before → after)."""

    player: str
    before: PlayerState
    after: PlayerState


@dataclass(frozen=True)
class ProtestPreview:
    """What a protest will change, computed before it is applied.

    ``refusal`` is the code that stops the operator applying it alone (``protest_late``,
    ``protest_round_over``) or ``None``; ``state`` is the round after it; ``sources`` says
    where each of its ``played`` events comes from (see :class:`Recomputed`), so a history
    can tell which recorded taps still stand.
    """

    event: Rejudge | ThrowOut
    state: RoundState
    changes: tuple[PlayerChange, ...]
    voided: tuple[Voided, ...]
    refusal: str | None
    reopens: bool
    ends: bool
    sources: tuple[int | None, ...] = ()


def _root(state: RoundState) -> RoundState:
    while state.previous is not None:
        state = state.previous
    return state


def _tagged(root: RoundState, played: Sequence[Event], step: Step) -> list[tuple[Event, int]]:
    """Each plain event with the question it was recorded on (0 for clock and tie-break)."""
    tagged: list[tuple[Event, int]] = []
    state = root
    for event in played:
        tagged.append((event, state.question + 1 if isinstance(event, _JUDGING) else 0))
        state = step(state, event)
    return tagged


def protest_refusal(state: RoundState, event: Rejudge | ThrowOut) -> str | None:
    """Why the operator may not apply ``event`` alone (ignoring ``overrule``), or None.

    ``protest_round_over``: the round is finished (the next round may be under way);
    ``protest_late``: question ``q`` + ``protest_window`` has been read, which the app
    knows once it is closed or an answer to it is recorded.
    """
    if state.over:
        return "protest_round_over"
    in_play = state.question + 1
    window = state.config.protest_window
    late = in_play - event.question > window or (
        in_play - event.question == window and bool(state.open_wrongs)
    )
    return "protest_late" if late else None


def _rejudged(events: list[Event], e: Rejudge) -> list[Event]:
    """The question's events with ``e.player``'s answer judged anew."""
    for index, old in enumerate(events):
        if isinstance(old, Correct | Wrong) and old.player == e.player:
            if isinstance(old, Correct) == e.correct:
                break
            if e.correct:
                return [*events[:index], Correct(old.player, old.question, old.clock_ms)]
            return [*events[:index], Wrong(old.player, old.question, old.clock_ms),
                    *events[index + 1:]]
        if isinstance(old, BoardResults):
            if old.buzzer == e.player:
                if old.buzzer_correct == e.correct:
                    break
                return [dataclasses.replace(old, buzzer_correct=e.correct)]
            if (e.player in old.correct) == e.correct:
                break
            board = old.correct | {e.player} if e.correct else old.correct - {e.player}
            return [dataclasses.replace(old, correct=frozenset(board))]
        if isinstance(old, WrittenResults):
            marks = dict(old.marks)
            if marks.get(e.player, False) == e.correct:
                break
            marks[e.player] = e.correct
            return [WrittenResults.of(marks, old.question)]
    else:
        raise RuleRefusal("protest_no_answer", "the player gave no answer to that question",
                          question=e.question, player=e.player)
    raise RuleRefusal("protest_no_change", "the judgement is already so",
                      question=e.question, player=e.player)


def _numbered(event: Event, question: int) -> Event:
    if isinstance(event, _JUDGING):
        return dataclasses.replace(event, question=question)
    return event


@dataclass(frozen=True)
class Recomputed:
    """A protest's outcome: the round after it, what it voided, and where each plain event
    of the new version comes from (``sources[i]`` is the index in the old ``played``, or
    None for an event the protest itself wrote: the new judgement, a closing thru)."""

    state: RoundState
    voided: tuple[Voided, ...]
    sources: tuple[int | None, ...]


def recompute(state: RoundState, protest: Rejudge | ThrowOut, step: Step) -> Recomputed:
    """The round replayed from its start with ``protest`` applied, and what it voided.

    Checks the question and the answer; not the window (see :func:`protest_refusal`).
    ``step`` applies one plain event (the engine's ``apply``).
    """
    root = _root(state)
    tagged = _tagged(root, state.played, step)
    mine = [i for i, (_e, q) in enumerate(tagged) if q == protest.question]
    if not mine:
        raise RuleRefusal("protest_no_question", "no answer is recorded on that question",
                          question=protest.question)
    closed = state.question
    rewritten: list[Event] = (
        _rejudged([tagged[i][0] for i in mine], protest) if isinstance(protest, Rejudge) else []
    )
    kept = {id(e) for e in rewritten}
    origin = {id(tagged[i][0]): i for i in mine}
    code = "protest_thrown" if isinstance(protest, ThrowOut) else "protest_superseded"
    voided = [Voided(tagged[i][0], protest.question, code, i)
              for i in mine if id(tagged[i][0]) not in kept]
    last = {q: index for index, (_e, q) in enumerate(tagged) if q}
    run = _Run(root, step, voided)
    counted = 0
    for index, (event, q) in enumerate(tagged):
        if not q:
            run.play(event, None, index)
            continue
        items: list[tuple[Event, int | None]] = [(event, index)]
        if q == protest.question:
            items = [(e, origin.get(id(e))) for e in rewritten] if index == mine[0] else []
        target = counted + 1
        for item, source in items:
            if run.state.question + 1 == target:
                run.play(_numbered(item, target), q, source)
            else:
                voided.append(Voided(item, q, "question_closed", source))
        if index == last[q] and q <= closed and not (
            q == protest.question and isinstance(protest, ThrowOut)
        ):
            counted += 1
            if run.state.question + 1 == target and run.state.phase == PLAYING:
                run.play(Thru(target), q, None)
    return Recomputed(run.state, tuple(voided), tuple(run.sources))


class _Run:
    """The new version being replayed: events the round refuses are voided, not raised."""

    def __init__(self, root: RoundState, step: Step, voided: list[Voided]) -> None:
        self.state = root
        self.step = step
        self.voided = voided
        self.sources: list[int | None] = []

    def play(self, event: Event, question: int | None, source: int | None) -> None:
        try:
            self.state = self.step(self.state, event)
        except RuleRefusal as refusal:
            self.voided.append(Voided(event, question, refusal.code, source))
        else:
            self.sources.append(source)


def _standing(p: PlayerState) -> tuple[object, ...]:
    """What a screen shows of a player (sequence numbers are replay bookkeeping)."""
    return (p.correct, p.wrong, p.misses, p.points, p.rests, p.streak, p.status,
            p.win_order, p.out_order, p.board_correct, p.sets)


def protest_preview(state: RoundState, event: Rejudge | ThrowOut, step: Step) -> ProtestPreview:
    """What ``event`` will change: players before → after, voided events, and whether the
    organiser must allow it (``refusal``). Raises ``RuleRefusal`` for a protest that cannot
    apply at all (no such question or answer, nothing to change)."""
    done = recompute(state, event, step)
    after, voided = done.state, done.voided
    changes = tuple(
        PlayerChange(pid, state.players[pid], after.players[pid])
        for pid in state.seat_order
        if _standing(state.players[pid]) != _standing(after.players[pid])
    )
    return ProtestPreview(
        event=event,
        state=after,
        changes=changes,
        voided=voided,
        refusal=protest_refusal(state, event),
        reopens=state.over and not after.over,
        ends=after.over and not state.over,
        sources=done.sources,
    )
