"""A :class:`~.document.RuleSet` compiled to the :class:`~..presets.spec.Preset` the engine runs.

The round plan is built from the document's data: a fixed format plays its rounds with
round 1 sized to the field, a ladder adds group rounds until the final group is reached.
Compiling checks nothing beyond what ``Preset`` itself refuses (an unknown tie-break):
:func:`~.validate.validate_ruleset` says what to change before a tournament uses the rules,
and the plan refuses a field its rounds cannot hold, as the built-in presets do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..presets.plans import ladder_template, plan_fixed, plan_ladder
from ..presets.spec import Preset, RoundSpec
from ..restrictions import PlayerRules, QThresholds
from .document import RuleSet


def compile_ruleset(ruleset: RuleSet) -> Preset:
    """The :class:`Preset` a rule set describes, its plan built from the rule set's data."""
    plan: Callable[[int, int], tuple[RoundSpec, ...]]
    if ruleset.ladder is not None:
        ladder = ruleset.ladder
        template = ladder_template(ladder)

        def plan(entrants: int, seeds: int) -> tuple[RoundSpec, ...]:
            return plan_ladder(ladder, entrants, seeds)
    else:
        template = ruleset.rounds

        def plan(entrants: int, seeds: int) -> tuple[RoundSpec, ...]:
            return plan_fixed(ruleset.rounds, ruleset.max_seeds, entrants, seeds)

    p = ruleset.players
    if p.mode_source == "fixed":
        fixed_rules = PlayerRules(mode=p.mode, counting=p.counting,
                                  subgenres_as_one=p.subgenres_as_one)
    else:
        # A rank-based event never plays its fixed rules; the sub-genre flag reaches its
        # players through Preset.subgenres_as_one.
        fixed_rules = PlayerRules(mode=p.mode, counting=p.counting)
    return Preset(
        slug=ruleset.slug, name=ruleset.name, description=ruleset.description,
        catalog_version=ruleset.catalog_version, rounds=template, plan=plan,
        mode_source=p.mode_source, fixed_rules=fixed_rules,
        thresholds=QThresholds(p.bomber_min_q, p.pinpoint_min_q, p.grouped_min_q),
        shura=ruleset.shura.enabled, illegal_selection=ruleset.selection.illegal,
        penalty=ruleset.selection.penalty, tie_break=ruleset.tie_break,
        dummy_selection=ruleset.selection.dummy, settings=card_settings(ruleset),
        setting_specs=(), max_lots=ruleset.shura.max_lots,
        format_lot_pool_kind=ruleset.shura.format_lot_pool,
        shura_rules=ruleset.shura.rules(),
        subgenres_as_one=p.subgenres_as_one, berths=ruleset.berths,
    )


def card_settings(ruleset: RuleSet) -> dict[str, Any]:
    """The K7 rules under the setting keys the round adapter and the card sheets read from
    ``Preset.settings``, so a compiled preset runs through the same app code."""
    return {"k7_deck": ruleset.cards.deck, "k7_cards_per_draw": ruleset.cards.cards_per_draw,
            "k7_extra_card": ruleset.cards.extra_card, "k7_draw_per": ruleset.cards.draw_per}
