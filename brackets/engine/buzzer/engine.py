"""Replaying a round's event log: ``replay``, ``apply``, ``allowed_actions``, tie-breaks.

The state of a round is a pure function of its configuration, its players and its events.
``apply`` validates one event against the current state and either returns the next state
or raises :class:`~brackets.engine.errors.RuleRefusal` leaving nothing changed (states are
immutable). The round formats (``"buzzer"``: buzz, board and set rounds; ``"written"``:
written elimination) are registered in :mod:`brackets.engine.buzzer.formats`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from brackets.engine.buzzer.config import PlayerSpec, RoundConfig
from brackets.engine.buzzer.core import Allowed, pending
from brackets.engine.buzzer.events import (
    Event,
    Rejudge,
    ThrowOut,
    TieBreak,
    Undo,
    event_from_dict,
)
from brackets.engine.buzzer.formats import FORMATS
from brackets.engine.buzzer.protests import ProtestPreview, protest_refusal, recompute
from brackets.engine.buzzer.protests import protest_preview as _preview
from brackets.engine.buzzer.questions import read_position
from brackets.engine.buzzer.ranking import ranking
from brackets.engine.buzzer.rules import TIE_RULES, scoring_for
from brackets.engine.buzzer.state import OVER, Clock, PlayerState, RoundState
from brackets.engine.errors import RuleRefusal

# ----------------------------------------------------------------------------- API


def _specs(players: Sequence[PlayerSpec | str]) -> list[PlayerSpec]:
    """Plain ids are seated in the order given (seat 1 first, fallback rank = seat)."""
    return [
        PlayerSpec(p, seat) if isinstance(p, str) else p for seat, p in enumerate(players, start=1)
    ]


def start(config: RoundConfig, players: Sequence[PlayerSpec | str]) -> RoundState:
    """The state before any event: seats, advantages and carried values applied.

    ``players`` are :class:`PlayerSpec` values, or bare ids seated in the order given.
    """
    players = _specs(players)
    if not players:
        raise RuleRefusal("no_players", "a round needs at least one player")
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise RuleRefusal("duplicate_player", "a player appears twice", players=ids)
    seats = [p.seat for p in players]
    if len(set(seats)) != len(seats):
        raise RuleRefusal("duplicate_seat", "two players share a seat", seats=seats)
    fmt = FORMATS.get(config.format)
    if config.slots < 0 or (config.eliminate is not None and config.eliminate < 0):
        raise RuleRefusal("bad_config", "slots and eliminate must not be negative")
    scoring = scoring_for(config)
    states: dict[str, PlayerState] = {}
    for spec in sorted(players, key=lambda p: p.seat):
        if spec.advantage is not None:
            advantage = spec.advantage
        elif 1 <= spec.seat <= len(config.advantages):
            advantage = config.advantages[spec.seat - 1]
        else:
            advantage = 0
        p = PlayerState(
            id=spec.id,
            seat=spec.seat,
            rank=spec.fallback,
            advantage=advantage,
            points=spec.points,
            rests=spec.rests,
            board_correct=spec.board_correct,
        )
        states[spec.id] = scoring.start(p)
    seat_order = tuple(p.id for p in sorted(players, key=lambda p: p.seat))
    state = RoundState(
        config=config,
        players=states,
        seat_order=seat_order,
        clock=Clock(limit_ms=config.clock_ms),
    )
    return fmt.after_start(state)


def apply(state: RoundState, event: Event | Mapping[str, Any]) -> RoundState:
    """The state after ``event``; bad input raises ``RuleRefusal`` and changes nothing.

    ``event`` may also be a stored dict (``Event.to_dict`` output).
    """
    if not isinstance(event, Event):
        event = event_from_dict(event)
    if isinstance(event, Undo):
        if state.previous is None:
            raise RuleRefusal("undo_past_start", "there is no event left to undo")
        return state.previous
    if isinstance(event, Rejudge | ThrowOut):
        return _protest(state, event)
    return _play(state, event)


def _play(state: RoundState, event: Event) -> RoundState:
    """One plain event (an answer, a clock tap, a tie-break result)."""
    if state.phase == OVER:
        raise RuleRefusal("round_over", "the round is over", event=event.kind)
    new = FORMATS.get(state.config.format).apply(state, event)
    return dataclasses.replace(
        new, seq=state.seq + 1, previous=state, played=(*state.played, event)
    )


def _protest(state: RoundState, event: Rejudge | ThrowOut) -> RoundState:
    """The round recomputed with the protest; outside the window only with ``overrule``."""
    refusal = protest_refusal(state, event)
    if refusal is not None and not event.overrule:
        params = {"question": event.question, "window": state.config.protest_window}
        if refusal == "protest_round_over":
            raise RuleRefusal("protest_round_over", "the round is over: the organiser must "
                              "allow this protest", **params)
        raise RuleRefusal("protest_late", "past the protest window: the organiser must allow "
                          "this protest", **params)
    new = recompute(state, event, _play).state
    # The replay starts from the round's start, which knows no thrown-out question.
    thrown = state.thrown
    if isinstance(event, ThrowOut):
        thrown = (*thrown, read_position(thrown, event.question))
    # seq only grows, so "who answered last" (earliest_last_correct) keeps its order
    # across a protest; Undo goes back to the version before it.
    return dataclasses.replace(
        new, seq=max(state.seq + 1, new.seq), previous=state, thrown=thrown
    )


def protest_preview(state: RoundState, event: Rejudge | ThrowOut) -> ProtestPreview:
    """What a protest will change before it is applied (players before → after, voided
    events) and ``refusal``: why the operator may not apply it alone, or None."""
    return _preview(state, event, _play)


def replay(
    config: RoundConfig,
    players: Sequence[PlayerSpec | str],
    events: Iterable[Event | Mapping[str, Any]],
) -> RoundState:
    """Replay a whole log from the start (the only way state is ever obtained)."""
    state = start(config, players)
    for event in events:
        state = apply(state, event)
    return state


def allowed_actions(state: RoundState) -> Allowed:
    """Buttons to enable on the operator console for this state."""
    allowed = FORMATS.get(state.config.format).allowed(state)
    if state.previous is not None:
        return dataclasses.replace(allowed, round=allowed.round | {"undo"})
    return allowed


def tiebreak_round(state: RoundState, side: str) -> tuple[RoundConfig, list[PlayerSpec]]:
    """Config and players of the sudden death / playoff settling a pending decision.

    Replay it like any round; :func:`tiebreak_from` turns its result into the
    :class:`TieBreak` event for this round.
    """
    decision = pending(state, side)
    rule = TIE_RULES.get(state.config.tie_rule)
    candidates = [state.players[pid] for pid in decision.candidates]
    return rule.subround(candidates, side, decision.places)


def tiebreak_from(sub: RoundState, side: str) -> TieBreak:
    """The ``TieBreak`` event carrying a finished sudden death's order."""
    if sub.phase != OVER:
        raise RuleRefusal("tiebreak_unfinished", "the sudden death is not over yet", side=side)
    return TieBreak(side, tuple(r.player for r in ranking(sub)))
