"""Rule presets: a tournament's rules as configuration under a stable slug.

A tournament stores a preset slug plus the values of the preset's settings; everything the
engine needs to run an event — its rounds, which restriction pieces apply in each, how
players' modes are decided, the penalty, tie-break chains, draw methods — comes from the
:class:`Preset` that :func:`get_preset` builds. A new event's rules are a new registered
definition (or different setting values), never a fork of the engine.

Every point where a seed page is ambiguous is a :class:`Setting` whose default is the
default reading of ``docs/domain.md``; :attr:`Setting.doc` says which rule it belongs to.

The package: :mod:`.settings` (:class:`Setting`), :mod:`.spec` (:class:`RoundSpec` and its
stored form, :class:`Preset`), :mod:`.registry`, :mod:`.ladder` (planning shared by the
ladder events) and one module per event (:mod:`.kyushu_cup_ix`, :mod:`.katata`,
:mod:`.shop`), which register themselves in that order when this package is imported.
"""

from __future__ import annotations

# isort: off
# Importing an event's module registers it; list_presets() keeps this order.
from . import kyushu_cup_ix as _kyushu_cup_ix  # noqa: F401
from . import katata as _katata  # noqa: F401
from . import shop as _shop  # noqa: F401
# isort: on
from .kyushu_cup_ix import extra_card_rule, shimonoseki_deck
from .registry import (
    PresetDefinition,
    get_preset,
    list_presets,
    preset_settings,
    register_preset,
)
from .settings import Setting
from .spec import (
    NO_RESTRICTION,
    SPEC_VERSION,
    DrawMethod,
    IllegalSelection,
    ModeSource,
    Preset,
    RoundKind,
    RoundRestrictions,
    RoundSpec,
    RuleVariant,
    order_from_round,
)

__all__ = [
    "NO_RESTRICTION", "SPEC_VERSION", "DrawMethod", "IllegalSelection", "ModeSource", "Preset",
    "PresetDefinition", "RoundKind", "RoundRestrictions", "RoundSpec", "RuleVariant",
    "Setting", "extra_card_rule", "get_preset", "list_presets", "order_from_round",
    "preset_settings", "register_preset", "shimonoseki_deck",
]
