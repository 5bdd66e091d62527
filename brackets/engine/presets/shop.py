"""店舗大会: a plain shop tournament, groups of 4, top 2 advance, free choice."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from ..catalog import Selection
from ..restrictions import Mode, PlayerRules, QThresholds
from .plans import LadderRules, ladder_template, plan_ladder
from .registry import PresetDefinition, register_preset
from .settings import Setting
from .spec import NO_RESTRICTION, Preset, RoundSpec


@register_preset
class ShopTop2(PresetDefinition):
    """A plain shop tournament: groups of 4, top 2 advance, no selection restrictions."""

    slug = "shop-top2"
    name = "店舗大会（4人組・上位2名）"
    description = "Groups of 4 (dummies as needed), top 2 advance, final of 4, free choice."
    settings = (
        Setting("draw", "random", "How groups are formed each round.",
                ("random", "snake", "mod")),
        Setting("tie_break", ("ratio", "score", "lottery"), "Cross-group ranking chain.",
                minimum=1),
        Setting("catalog_version", "qma-2016", "Catalog of the event."),
    )

    def build(self, values: Mapping[str, Any]) -> Preset:
        """A ladder of unrestricted group rounds to a final of 4."""
        ladder = LadderRules(draw=values["draw"], restrictions=NO_RESTRICTION,
                             final_restrictions=NO_RESTRICTION)

        def plan(entrants: int, seeds: int) -> tuple[RoundSpec, ...]:
            return plan_ladder(ladder, entrants, seeds)

        return Preset(
            slug=self.slug, name=self.name, description=self.description,
            catalog_version=values["catalog_version"], rounds=ladder_template(ladder), mode_source="fixed",
            fixed_rules=PlayerRules(mode=Mode.FREE), thresholds=QThresholds(), shura=False,
            illegal_selection="refuse", penalty=Decimal(0),
            tie_break=tuple(values["tie_break"]),
            dummy_selection=Selection("ノンジャンル", "ランダム", "HARD"),
            settings=dict(values), setting_specs=self.settings, plan=plan,
        )
