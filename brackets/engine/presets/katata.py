"""堅田大会 (seed 002, a 関西杯5 qualifier): rank-based modes, 修羅 lots, −400 (H0–H9)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from ..bounds import PENALTY
from ..catalog import Selection
from ..errors import RuleRefusal
from ..restrictions import PlayerRules, QThresholds
from ..shura import FORMAT_LOT_POOLS, MAX_LOTS
from .plans import LadderRules, ladder_template, plan_ladder
from .registry import PresetDefinition, register_preset
from .settings import Setting
from .spec import NO_RESTRICTION, Preset, RoundRestrictions, RoundSpec


@register_preset
class KatataKansai5Qualifier(PresetDefinition):
    """堅田大会 (関西杯5 qualifier): rank-based modes, 修羅 lots, −400 penalties (H0–H9)."""

    slug = "katata-kansai5-qualifier"
    name = "堅田大会（関西杯5予選・階級別縛り・修羅の道）"
    description = ("4-player groups (3 + dummy) until the final of 4; 2 advance per group; "
                   "BOMBER ≥ Q80, PINPOINT Q50–79, FREE ≤ Q49; 修羅 genre lots; "
                   "−400 for an illegal selection.")
    settings = (
        Setting("bomber_min_q", 80, "H2: Q level from which BOMBER applies.", minimum=0),
        Setting("pinpoint_min_q", 50, "H2: Q level from which PINPOINT applies.", minimum=0),
        Setting("grouped_min_q", 35, "H3: Q level from which a group counts as one format.",
                minimum=0),
        Setting("advance_per_group", 2, "H1: advancers per group in rounds before the final.",
                minimum=1, maximum=3),
        Setting("single_advance_from", 0,
                "H1: '1 when entries are many': rounds with at least this many players "
                "advance only the group winner (0 = never).", minimum=0),
        Setting("single_advance_rounds", (), "H1: round numbers (1-based) that advance only "
                                             "the group winner, whatever the count.",
                item_type=int),
        Setting("penalty", Decimal(400), "H7: points off an illegal selection made while a "
                                         "legal one existed.", minimum=0,
                maximum=PENALTY.high),
        Setting("final_restricted", True, "H2: restrictions continue into the final "
                                          "('以降の試合')."),
        Setting("draw", "random", "Group draws (not stated on the page): recorded lottery.",
                ("random", "snake", "mod")),
        Setting("tie_break", ("ratio", "score", "lottery"),
                "H9: within a match on-screen order, else a recorded lottery; across groups "
                "(if wildcards are ever needed) 惜敗率, score, lottery.",
                minimum=1),
        Setting("max_lots", 4, "H4/6-c-ii: at most 4 genre lots per person.", minimum=0,
                maximum=MAX_LOTS),
        Setting("format_lot_pool", "format_groups",
                "H5 (inference): format lots are the ordinary format columns (the player is "
                "Q≥50, i.e. 高火力); or columns plus サブジャンル; or single formats.",
                FORMAT_LOT_POOLS),
        Setting("low_firepower_subgenres", "as_one",
                "H3: under 低火力 all sub-genre sets count as one format (the sub-genre "
                "column) or each sub-genre on its own.", ("as_one", "each")),
        Setting("dummy_format", "ランダム", "H1 names the dummy's set only as ノンジャンル "
                                            "HARD: its format."),
        Setting("catalog_version", "qma-2016", "Catalog of the event (栗東 / ゑ era)."),
        # The page never says how many berths 堅田 grants: the champion's is the reading.
        Setting("berths", 1, "0-a (inference, the page is silent): main-event berths this "
                             "qualifier grants, to its top placements not already holding "
                             "one (1 = the champion). The series itself is the tournament's "
                             "series link, not a setting.", minimum=0, maximum=4),
    )

    def build(self, values: Mapping[str, Any]) -> Preset:
        """A ladder of group rounds to a final of 4, planned from the entrant count."""
        restrictions = RoundRestrictions(read_window="main", record_window="main", lots=True)
        if values["pinpoint_min_q"] > values["bomber_min_q"]:
            raise RuleRefusal("setting_invalid", "H2: PINPOINT must start at or below BOMBER",
                              key="pinpoint_min_q", value=values["pinpoint_min_q"],
                              maximum=values["bomber_min_q"])
        ladder = LadderRules(
            advance_per_group=values["advance_per_group"],
            single_advance_from=values["single_advance_from"],
            single_advance_rounds=tuple(values["single_advance_rounds"]), draw=values["draw"],
            restrictions=restrictions,
            final_restrictions=restrictions if values["final_restricted"] else NO_RESTRICTION)

        def plan(entrants: int, seeds: int) -> tuple[RoundSpec, ...]:
            return plan_ladder(ladder, entrants, seeds)

        return Preset(
            slug=self.slug, name=self.name, description=self.description,
            catalog_version=values["catalog_version"], rounds=ladder_template(ladder),
            mode_source="by_q",
            fixed_rules=PlayerRules(),
            thresholds=QThresholds(values["bomber_min_q"], values["pinpoint_min_q"],
                                   values["grouped_min_q"]),
            shura=True, illegal_selection="penalty", penalty=values["penalty"],
            tie_break=tuple(values["tie_break"]),
            dummy_selection=Selection("ノンジャンル", values["dummy_format"], "HARD"),
            settings=dict(values), setting_specs=self.settings, plan=plan,
            max_lots=values["max_lots"], format_lot_pool_kind=values["format_lot_pool"],
            subgenres_as_one=values["low_firepower_subgenres"] == "as_one",
            berths=values["berths"],
        )
