"""The built-in presets as rule-set documents: where an organiser's composer starts from.

:func:`ruleset_of` reads everything the built :class:`~..presets.spec.Preset` holds as data
and takes from the preset's settings only what its plan callable hides (the ladder's
parameters, the seed limit) and the K7 card rules; compiling the result gives the same
rounds for every field and the same policies (``tests/engine/test_rulesets.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from ..errors import EngineBug
from ..presets.registry import get_preset
from ..presets.spec import Preset
from .document import CardRules, LadderRules, PlayerPolicy, RuleSet, SelectionPolicy, ShuraPolicy


def _common(preset: Preset) -> RuleSet:
    t = preset.thresholds
    return RuleSet(
        slug=preset.slug, name=preset.name, description=preset.description,
        catalog_version=preset.catalog_version,
        players=PlayerPolicy(
            mode_source=preset.mode_source, mode=preset.fixed_rules.mode,
            counting=preset.fixed_rules.counting, bomber_min_q=t.bomber_min_q,
            pinpoint_min_q=t.pinpoint_min_q, grouped_min_q=t.grouped_min_q,
            subgenres_as_one=preset.subgenres_as_one),
        shura=ShuraPolicy.of(enabled=preset.shura, max_lots=preset.max_lots,
                             format_lot_pool=preset.format_lot_pool_kind,
                             rules=preset.shura_rules),
        selection=SelectionPolicy(illegal=preset.illegal_selection, penalty=preset.penalty,
                                  dummy=preset.dummy_selection),
        tie_break=preset.tie_break, berths=preset.berths)


def _kyushu_cup_ix(preset: Preset, values: Mapping[str, Any]) -> RuleSet:
    r1, r2 = preset.rounds[0], preset.rounds[1]
    seeds = values["max_seeds"]
    # 定員: the most round-1 players whose advancers and the seeds fit round 2 (64 + 8).
    capacity = r1.group_size * ((r2.size or 0) - seeds) // r1.advance_per_group
    return replace(_common(preset), rounds=preset.rounds, max_seeds=seeds,
                   capacity=max(capacity, 0),
                   cards=CardRules(deck=values["k7_deck"],
                                   cards_per_draw=values["k7_cards_per_draw"],
                                   extra_card=values["k7_extra_card"],
                                   draw_per=values["k7_draw_per"]))


def _katata(preset: Preset, values: Mapping[str, Any]) -> RuleSet:
    return replace(_common(preset), ladder=LadderRules(
        advance_per_group=values["advance_per_group"],
        single_advance_from=values["single_advance_from"],
        single_advance_rounds=tuple(values["single_advance_rounds"]), draw=values["draw"],
        restrictions=preset.rounds[0].restrictions,
        final_restrictions=preset.rounds[-1].restrictions))


def _shop(preset: Preset, values: Mapping[str, Any]) -> RuleSet:
    return replace(_common(preset), ladder=LadderRules(
        draw=values["draw"], restrictions=preset.rounds[0].restrictions,
        final_restrictions=preset.rounds[-1].restrictions))


_BUILTIN: dict[str, Callable[[Preset, Mapping[str, Any]], RuleSet]] = {
    "kyushu-cup-ix": _kyushu_cup_ix,
    "katata-kansai5-qualifier": _katata,
    "shop-top2": _shop,
}

#: The built-in presets :func:`ruleset_of` describes: where a composer can start from.
RULESET_PRESETS: tuple[str, ...] = tuple(_BUILTIN)


def ruleset_of(slug: str, settings: Mapping[str, Any] | None = None) -> RuleSet:
    """The rule set of the built-in preset ``slug`` with ``settings`` (the composer's start).

    Unknown presets and bad settings are refused as :func:`get_preset` refuses them.
    """
    preset = get_preset(slug, settings)
    try:
        describe = _BUILTIN[slug]
    except KeyError:
        raise EngineBug("preset_without_ruleset", f"{slug} has no rule-set form",
                        slug=slug) from None
    return describe(preset, preset.settings)
