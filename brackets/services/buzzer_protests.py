"""Writes for protests (審議) and thrown-out questions on a live buzzer round.

A protest is appended to the round's log like any tap (same lock, expected sequence number
and idempotency key, :func:`brackets.services.buzzer.buzzer_event_append`'s path); the
engine recomputes the round from the log. The engine's window decides whether the
organiser must allow it (:func:`brackets.engine.buzzer.protest_refusal`); this module only
says who the organiser is, and records ``overrule`` only when the window needed it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from brackets.engine.buzzer import Rejudge, RoundState, ThrowOut, protest_refusal
from brackets.messages import engine_message
from brackets.models import BuzzerRound
from brackets.services.buzzer import Appended, BuzzerRefused, _append_atomic
from brackets.services.submit_keys import KEY_MAX_LENGTH, content_digest


def protest_event(
    *, kind: str, question: int, player: str = "", correct: bool = True
) -> Rejudge | ThrowOut:
    """The engine event for a protest form: ``"rejudge"`` (one answer ○ ↔ ×) or
    ``"throw_out"`` (the question is void and replaced)."""
    if kind == "throw_out":
        return ThrowOut(question)
    return Rejudge(question, player, correct)


def buzzer_protest_record(
    *,
    round: BuzzerRound,
    event: Rejudge | ThrowOut,
    expected_seq: int | None,
    by: Any = None,
    organiser: bool = False,
    idempotency_key: str = "",
) -> Appended:
    """Append a protest; the round is recomputed by the engine from the whole log.

    Outside the window (or on a finished round) only the ``organiser`` may apply it, and
    then the event records ``overrule``. Refusals raise :class:`BuzzerRefused` with the
    engine's code worded in Japanese and store nothing.
    """

    def event_for(state: RoundState, _reading: int | None) -> Rejudge | ThrowOut:
        refusal = protest_refusal(state, event)
        if refusal is not None and not organiser:
            params = {"window": state.config.protest_window}
            raise BuzzerRefused(refusal, engine_message(refusal, params))
        return dataclasses.replace(event, overrule=refusal is not None)

    key = (idempotency_key or "")[:KEY_MAX_LENGTH]
    data = dataclasses.replace(event, overrule=False).to_dict()
    digest = content_digest("buzzer", data) if key else ""
    return _append_atomic(round, data, expected_seq, by, key, digest, event_for)
