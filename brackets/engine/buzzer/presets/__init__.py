"""Whole tournaments as data, registered here and only here.

A preset lists its rounds in playing order (:mod:`.base`); each event is one module
(:mod:`.quiz_003` for seed 003, :mod:`.abc_004` for seed 004) that only builds its
:class:`TournamentPreset` value; :func:`entrants` (:mod:`.feeding`) evaluates a round's feed
against finished round states. A new event is one module and one line below.
"""

from __future__ import annotations

from brackets.engine.buzzer.presets.abc_004 import ABC_004
from brackets.engine.buzzer.presets.base import Feed, RoundPreset, TournamentPreset
from brackets.engine.buzzer.presets.feeding import entrants, is_skipped, round_winners
from brackets.engine.buzzer.presets.quiz_003 import QUIZ_003
from brackets.engine.buzzer.registry import Registry

PRESETS: Registry[TournamentPreset] = Registry("tournament preset")
PRESETS.register(QUIZ_003.slug)(QUIZ_003)
PRESETS.register(ABC_004.slug)(ABC_004)

__all__ = [
    "ABC_004", "PRESETS", "QUIZ_003", "Feed", "RoundPreset", "TournamentPreset", "entrants",
    "is_skipped", "round_winners",
]
