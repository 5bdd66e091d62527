"""The scoreboard payload: a round's state as plain JSON data, with how it is displayed.

The operator console and the stage scoreboard draw this payload (the web layer adds names,
the clock reading and Japanese labels) and decide no rule, so whatever a screen needs to
know about the round's rules is said here, in ``display``:

``main``
    ``"points"`` or ``"correct"``: which number is a player's big number.
``unit``
    ``"P"`` or ``"○"``, the unit after that number.
``factors``
    whether rows carry ``factors`` (10by10 shows 正解ポイント × 誤答ポイント beside the
    product, M3).
``sets``
    whether sets taken are shown (M6: a set's ○ go back to 0, so the sets are the score).
``tiebreak``
    what the deciding round is called: ``"playoff"`` (M3/M5) or ``"sudden_death"`` (L11).

Each player row repeats what it shows: ``main`` (the big number) and ``factors`` (the two
numbers, or ``None``).
"""

from __future__ import annotations

from typing import Any

from brackets.engine.buzzer.config import RoundConfig
from brackets.engine.buzzer.ranking import ranking
from brackets.engine.buzzer.rules import TIE_RULES, Scoring, scoring_for
from brackets.engine.buzzer.state import Clock, Decision, PlayerState, RoundState


def display_hints(config: RoundConfig) -> dict[str, Any]:
    """How the screens show a round with ``config`` (see the module docstring)."""
    scoring = scoring_for(config)
    return {
        "main": "points" if scoring.shows_points else "correct",
        "unit": "P" if scoring.shows_points else "○",
        "factors": scoring.shows_factors,
        "sets": bool(config.sets_to_win),
        "tiebreak": tiebreak_called(config),
    }


def tiebreak_called(config: RoundConfig) -> str:
    """``"playoff"`` or ``"sudden_death"``: the name the round's tie rule gives a decider."""
    return TIE_RULES.get(config.tie_rule).called


def player_row(p: PlayerState, scoring: Scoring) -> dict[str, Any]:
    """One player's scoreboard row (names come from the web layer)."""
    factors = scoring.factors(p)
    return {
        "id": p.id,
        "seat": p.seat,
        "rank": p.rank,
        "advantage": p.advantage,
        "correct": p.correct,
        "wrong": p.wrong,
        "misses": p.misses,
        "points": p.points,
        "rests": p.rests,
        "resting": p.resting,
        "streak": p.streak,
        "status": p.status,
        "win_order": p.win_order,
        "out_order": p.out_order,
        "board_correct": p.board_correct,
        "sets": p.sets,
        "first_miss": p.first_miss,
        "main": p.points if scoring.shows_points else p.correct,
        "factors": None if factors is None else list(factors),
    }


def player_rows(state: RoundState) -> list[dict[str, Any]]:
    """Every player's scoreboard row in seat order, without the ranking (sheets print one
    line per question and need the numbers only)."""
    scoring = scoring_for(state.config)
    return [player_row(state.players[pid], scoring) for pid in state.seat_order]


def clock_data(clock: Clock) -> dict[str, Any]:
    """The clock as the engine last saw it (the web layer adds the reading now)."""
    return {
        "limit_ms": clock.limit_ms,
        "elapsed_ms": clock.elapsed_ms,
        "running": clock.running,
        "expired": clock.expired,
        "last_question": clock.last_question,
    }


def decision_data(d: Decision) -> dict[str, Any]:
    """A sudden death / playoff the round waits for (operator console)."""
    return {
        "side": d.side,
        "candidates": list(d.candidates),
        "places": d.places,
        "out_places": d.out_places,
        "resolved": d.order is not None,
        "order": None if d.order is None else list(d.order),
    }


def scoreboard(state: RoundState) -> dict[str, Any]:
    """Scoreboard JSON: players by seat, question vs limit, clock, results, ranking, hints."""
    return {
        "config": state.config.to_dict(),
        "display": display_hints(state.config),
        "phase": state.phase,
        "question": state.question,
        "question_limit": state.config.question_limit,
        "clock": clock_data(state.clock),
        "players": player_rows(state),
        "winners": list(state.winners),
        "outs": list(state.outs),
        "continuing": list(state.continuing),
        "decisions": [decision_data(d) for d in state.decisions],
        "end_reason": state.end_reason,
        "open_slots": state.open_slots,
        "ranking": [
            {"position": r.position, "player": r.player, "status": r.status, "tied": r.tied}
            for r in ranking(state)
        ],
        "events": state.seq,
    }
