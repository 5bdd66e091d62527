"""九州杯IX (seed 000): 64 + 8 seeds, 高火力ボンバーマン throughout, K1–K10.

Also the K7 下関ルール・改 pieces its settings name: the redraw rule and the card deck.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from decimal import Decimal
from typing import Any

from ..bounds import PENALTY
from ..cards import (
    MAX_CARDS_PER_DRAW,
    Card,
    never_extra_card,
    share_genre_and_group,
    share_genre_or_group,
)
from ..catalog import Catalog, Selection
from ..errors import RuleRefusal
from ..restrictions import BASIC_RULE, QThresholds
from .plans import plan_fixed
from .registry import PresetDefinition, register_preset
from .settings import Setting
from .spec import NO_RESTRICTION, Preset, RoundRestrictions, RoundSpec, RuleVariant


@register_preset
class KyushuCupIX(PresetDefinition):
    """九州杯IX (2019): 64 + 8 seeds, 高火力ボンバーマン throughout, K1–K10."""

    slug = "kyushu-cup-ix"
    name = "九州杯IX（高火力ボンバーマン・64名＋シード8名）"
    description = ("4-player groups; R1 top 2 + 惜敗率 wildcards to 40; seeds join R2; "
                   "R3 rule selection A/B; R4 下関ルール・改; semi-final with bans; "
                   "third-place match and best-of-3 final with partners.")
    settings = (
        Setting("r2_size", 40, "K4: round 2 is filled to this size by 惜敗率 wildcards.",
                minimum=4),
        Setting("r3_size", 20, "K5: round 3 size (the page's '2回戦に進出（20名）' is a typo "
                               "for round 3).", minimum=4),
        Setting("r2_draw", "random", "K5: round-2 groups: recorded lottery with seed "
                                     "separation (default) or ranked snake / mod.",
                ("random", "snake", "mod")),
        Setting("wildcard_chain", ("ratio", "score", "lottery"),
                "K3/K4: wildcard ranking: 惜敗率, then raw score, then a recorded lottery.",
                minimum=1),
        Setting("r3_capacity_a", 12, "K6: rule A capacity (3 groups, top 2).", minimum=0),
        Setting("r3_capacity_b", 8, "K6: rule B capacity (2 groups, winner only).", minimum=0),
        Setting("r3_b_recorded", False, "K6: rule B sets are not recorded in the history."),
        Setting("k7_cards_per_draw", 2, "K7: cards drawn before the redraw rule (two).",
                minimum=1, maximum=MAX_CARDS_PER_DRAW),
        Setting("k7_extra_card", "share_genre_or_group",
                "K7: draw one more card when two drawn share a genre or a group (default), "
                "only when identical (literal reading), or never (a variant without redraw).",
                ("share_genre_or_group", "identical", "never")),
        Setting("k7_deck", "lot_genres_x_format_groups",
                "K7: the card deck (inference): 7 genres × columns with questions.",
                ("lot_genres_x_format_groups", "all")),
        Setting("k7_draw_per", "match", "K7: one card draw per match (default) or per round.",
                ("match", "round")),
        Setting("history_reset_at_final", True,
                "K10: the final resets the history and applies the basic rule within the "
                "final, per pair; the third-place match has no history restriction."),
        Setting("final_wins_needed", 2, "K10: first to 2 game wins (best of 3).", minimum=1),
        Setting("illegal_selection", "refuse",
                "Seed 000 states no penalty: selections are validated before the match and "
                "an illegal one is refused (or penalised with `penalty`).",
                ("refuse", "penalty")),
        Setting("penalty", Decimal(400), "Points off when illegal_selection is 'penalty'.",
                minimum=0, maximum=PENALTY.high),
        Setting("max_seeds", 8, "Seeds join round 2 (定員64名＋シード権保持者、最大8名).",
                minimum=0),
        Setting("catalog_version", "qma-2016", "Catalog the event was played on."),
    )

    def build(self, values: Mapping[str, Any]) -> Preset:
        """Rounds R1–R4, semi-final, third-place match and final (K1–K10)."""
        basic = RoundRestrictions(read_window="main", record_window="main", lots=False)
        rule_b = RoundRestrictions(
            read_window=None, lots=False,
            record_window="main" if values["r3_b_recorded"] else None)
        if values["history_reset_at_final"]:
            third = replace(NO_RESTRICTION, pair_sets=True)
            final = RoundRestrictions(read_window="final", record_window="final", lots=False,
                                      pair_sets=True, pair_history=True)
        else:
            third = RoundRestrictions(read_window="main", record_window=None, lots=False,
                                      pair_sets=True)
            final = RoundRestrictions(read_window="main", record_window="main", lots=False,
                                      pair_sets=True, pair_history=True)
        cap_a, cap_b = values["r3_capacity_a"], values["r3_capacity_b"]
        r3_size = values["r3_size"]
        if cap_a + cap_b != r3_size or cap_a % 4 or cap_b % 4 or min(cap_a, cap_b) < 0:
            raise RuleRefusal("setting_invalid", "K6 capacities must fill round 3 in groups of "
                              "4", r3_size=r3_size, a=cap_a, b=cap_b)
        advancers = values["r2_size"] // 4 * 2
        if advancers > r3_size:
            # Round 2's group winners and runners-up all go on: round 3 holds at least them.
            raise RuleRefusal("setting_invalid", "round 3 is smaller than round 2's advancers",
                              r2_size=values["r2_size"], advancers=advancers, r3_size=r3_size)
        rounds = (
            RoundSpec("r1", "1回戦", "groups", advance_per_group=2, target=values["r2_size"],
                      draw="random", draw_in_advance=True, restrictions=basic),
            RoundSpec("r2", "2回戦", "groups", advance_per_group=2, size=values["r2_size"],
                      target=r3_size, seeds_enter=True, draw=values["r2_draw"],
                      seed_separation=True, restrictions=basic),
            RoundSpec("r3", "3回戦", "rule_selection", size=r3_size, draw="random",
                      variants=(
                          RuleVariant("A", "ルールA", cap_a, 2, basic),
                          RuleVariant("B", "ルールB", cap_b, 1, rule_b),
                      )),
            RoundSpec("r4", "4回戦", "groups", advance_per_group=2,
                      size=(cap_a // 4) * 2 + cap_b // 4, draw="random",
                      restrictions=replace(basic, cards=True)),
            RoundSpec("sf", "準決勝", "final_group", advance_per_group=2, size=4,
                      draw="fixed", restrictions=replace(basic, match_bans=True),
                      losers_to="third"),
            RoundSpec("third", "3位決定戦", "partner_match", size=2, draw="fixed",
                      restrictions=third),
            RoundSpec("final", "決勝", "partner_series", size=2, draw="fixed",
                      restrictions=final, wins_needed=values["final_wins_needed"]),
        )
        max_seeds = values["max_seeds"]

        def plan(entrants: int, seeds: int) -> tuple[RoundSpec, ...]:
            return plan_fixed(rounds, max_seeds, entrants, seeds)

        return Preset(
            slug=self.slug, name=self.name, description=self.description, plan=plan,
            catalog_version=values["catalog_version"], rounds=rounds, mode_source="fixed",
            fixed_rules=BASIC_RULE, thresholds=QThresholds(), shura=False,
            illegal_selection=values["illegal_selection"], penalty=values["penalty"],
            tie_break=tuple(values["wildcard_chain"]),
            dummy_selection=Selection("ノンジャンル", "ランダム", "HARD"),
            settings=dict(values), setting_specs=self.settings,
        )


# -- K7 下関ルール・改 --------------------------------------------------------------------------

_EXTRA_CARD_RULES = {"share_genre_or_group": share_genre_or_group,
                     "identical": share_genre_and_group, "never": never_extra_card}


def extra_card_rule(name: str) -> Callable[[Card, Card], bool]:
    """The K7 redraw rule registered under a setting value."""
    try:
        return _EXTRA_CARD_RULES[name]
    except KeyError:
        raise RuleRefusal("setting_invalid", f"no K7 redraw rule {name!r}",
                          value=name) from None


def shimonoseki_deck(catalog: Catalog, kind: str = "lot_genres_x_format_groups"
                     ) -> tuple[Card, ...]:
    """K7 deck (**inference**; the page does not list the cards).

    ``lot_genres_x_format_groups`` (default): each of the 7 genres with each column that
    has questions of its own (the four format groups and サブジャンル) — ノンジャンル and
    ランダム are the fallbacks, not cards. ``all``: every genre with every group.
    """
    if kind == "lot_genres_x_format_groups":
        genres = catalog.lot_genres
        groups = tuple(g.name for g in catalog.groups if g.kind != "random")
    elif kind == "all":
        genres, groups = catalog.genre_names, catalog.group_names
    else:
        raise RuleRefusal("setting_invalid", f"no K7 deck {kind!r}", value=kind)
    return tuple(Card(g, grp) for g in genres for grp in groups)
