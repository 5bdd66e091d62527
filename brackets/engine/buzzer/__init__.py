"""Live buzzer-quiz rounds (seeds 003 and 004): a round is the replay of its event log.

Public API::

    replay(config, players, events) -> RoundState
    apply(state, event) -> RoundState           # raises EngineError, state unchanged
    start(config, players) -> RoundState
    ranking(state) -> list[RankEntry]
    allowed_actions(state) -> Allowed           # buttons for the operator console
    tiebreak_round(state, side) -> (RoundConfig, [PlayerSpec])
    tiebreak_from(sub_state, side) -> TieBreak
    RoundState.to_dict()                        # scoreboard JSON
    event_from_dict(dict) / Event.to_dict()

Standard library only; no Django.
"""

from __future__ import annotations

from brackets.engine.buzzer.config import Checkpoint, PlayerSpec, RoundConfig, Rule, WrittenRules
from brackets.engine.buzzer.core import FORMATS, Allowed
from brackets.engine.buzzer.engine import (
    allowed_actions,
    apply,
    ranking,
    replay,
    start,
    tiebreak_from,
    tiebreak_round,
)
from brackets.engine.buzzer.events import (
    BoardResults,
    ClockExpire,
    ClockStart,
    ClockStop,
    Correct,
    Event,
    Thru,
    TieBreak,
    Undo,
    WrittenResults,
    Wrong,
    event_from_dict,
)
from brackets.engine.buzzer.rules import CONDITIONS, JUDGE_KEYS, REST_RULES, SCORING, TIE_RULES
from brackets.engine.buzzer.state import Clock, Decision, PlayerState, RankEntry, RoundState

__all__ = [
    "CONDITIONS",
    "FORMATS",
    "JUDGE_KEYS",
    "REST_RULES",
    "SCORING",
    "TIE_RULES",
    "Allowed",
    "BoardResults",
    "Checkpoint",
    "Clock",
    "ClockExpire",
    "ClockStart",
    "ClockStop",
    "Correct",
    "Decision",
    "Event",
    "PlayerSpec",
    "PlayerState",
    "RankEntry",
    "RoundConfig",
    "RoundState",
    "Rule",
    "Thru",
    "TieBreak",
    "Undo",
    "WrittenResults",
    "WrittenRules",
    "Wrong",
    "allowed_actions",
    "apply",
    "event_from_dict",
    "ranking",
    "replay",
    "start",
    "tiebreak_from",
    "tiebreak_round",
]
