"""Rule sets: an event's rules as a document organisers compose, check and exchange (#17).

:mod:`.document` (:class:`RuleSet` and its parts, the JSON form), :mod:`.compile` (the
:class:`~..presets.spec.Preset` a rule set describes), :mod:`.validate` (what keeps it from
running) and :mod:`.builtin` (the built-in presets as rule sets).
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
from .validate import validate_ruleset

__all__ = [
    "K7_DECKS", "K7_DRAW_PER", "K7_EXTRA_CARD_RULES", "RULESET_PRESETS", "RULESET_VERSION", "CardRules", "LadderRules", "PlayerPolicy", "RuleSet",
    "SelectionPolicy", "ShuraPolicy", "compile_ruleset", "ruleset_of", "validate_ruleset",
]
