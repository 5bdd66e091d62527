"""Rule sets: an event's rules as a document organisers compose, check and exchange (#17).

:mod:`.document` (:class:`RuleSet` and its parts, the JSON form), :mod:`.compile` (the
:class:`~..presets.spec.Preset` a rule set describes), :mod:`.validate` (what keeps it from
running), :mod:`.builtin` (the built-in presets as rule sets) and :mod:`.rehearsal` (the
event played headless before the day).
"""

from __future__ import annotations

from .builtin import RULESET_PRESETS, ruleset_of
from .compile import compile_ruleset
from .document import (
    K7_DECKS,
    K7_DRAW_PER,
    K7_EXTRA_CARD_RULES,
    RULESET_VERSION,
    CardRules,
    LadderRules,
    PlayerPolicy,
    RuleSet,
    SelectionPolicy,
    ShuraPolicy,
)
from .rehearsal import (
    REHEARSAL_MAX_ENTRANTS,
    REHEARSAL_MAX_PLAYER_RUNS,
    REHEARSAL_MAX_RUNS,
    Rehearsal,
    RoundRehearsal,
    Span,
    Spread,
    check_rehearsal,
    rehearse,
)
from .rehearsal_play import Shortfall
from .validate import validate_ruleset

__all__ = [
    "K7_DECKS",
    "K7_DRAW_PER",
    "K7_EXTRA_CARD_RULES",
    "REHEARSAL_MAX_ENTRANTS",
    "REHEARSAL_MAX_PLAYER_RUNS",
    "REHEARSAL_MAX_RUNS",
    "RULESET_PRESETS",
    "RULESET_VERSION",
    "CardRules",
    "LadderRules",
    "PlayerPolicy",
    "Rehearsal",
    "RoundRehearsal",
    "RuleSet",
    "SelectionPolicy",
    "Shortfall",
    "ShuraPolicy",
    "Span",
    "Spread",
    "check_rehearsal",
    "compile_ruleset",
    "rehearse",
    "ruleset_of",
    "validate_ruleset",
]
