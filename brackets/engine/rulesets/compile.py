"""A :class:`~.document.RuleSet` compiled to the :class:`~..presets.spec.Preset` the engine runs.

The round plan is built from the document's data: a fixed format plays its rounds with
round 1 sized to the field, a ladder adds group rounds until the final group is reached.
Compiling checks nothing beyond what ``Preset`` itself refuses (an unknown tie-break):
:func:`~.validate.validate_ruleset` says what to change before a tournament uses the rules,
and the plan refuses a field its rounds cannot hold, as the built-in presets do.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..draws import group_count
from ..errors import RuleRefusal
from ..presets.ladder import require_drawable
from ..presets.spec import Preset, RoundSpec
from ..restrictions import PlayerRules, QThresholds
from .document import LadderRules, RuleSet


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
            return plan_fixed(ruleset, entrants, seeds)

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
        subgenres_as_one=p.subgenres_as_one, berths=ruleset.berths,
    )


def card_settings(ruleset: RuleSet) -> dict[str, Any]:
    """The K7 rules under the setting keys the round adapter and the card sheets read from
    ``Preset.settings``, so a compiled preset runs through the same app code."""
    return {"k7_deck": ruleset.cards.deck, "k7_extra_card": ruleset.cards.extra_card,
            "k7_draw_per": ruleset.cards.draw_per}


# -- fixed formats ---------------------------------------------------------------------------


def seeds_enter_later(rounds: tuple[RoundSpec, ...]) -> bool:
    """Seeds join a later round (K5) rather than play round 1 with everyone."""
    return any(spec.seeds_enter for spec in rounds)


def plan_fixed(ruleset: RuleSet, entrants: int, seeds: int) -> tuple[RoundSpec, ...]:
    """The fixed rounds with round 1 sized to the field.

    More seeds than ``max_seeds`` are refused, and so is a round 1 whose advancers (with
    the seeds joining round 2) overfill round 2: wildcards only fill a round up to its
    size, nothing cuts it down, so the refusal comes before the first draw and names the
    most round 1 can take.
    """
    rounds = ruleset.rounds
    if not rounds:
        return ()
    if ruleset.max_seeds is not None and seeds > ruleset.max_seeds:
        raise RuleRefusal("too_many_seeds", f"at most {ruleset.max_seeds} seeds",
                          seeds=seeds, max_seeds=ruleset.max_seeds)
    first = replace(rounds[0], size=entrants if seeds_enter_later(rounds) else entrants + seeds)
    require_drawable(first, first.size or 0)
    second = rounds[1] if len(rounds) > 1 else None
    if first.kind == "groups" and second is not None and second.size is not None:
        joining = seeds if second.seeds_enter else 0
        players = (first.advance_per_group * group_count(first.size or 0, first.group_size)
                   + joining)
        if players > second.size:
            most = first.group_size * ((second.size - joining) // first.advance_per_group)
            raise RuleRefusal(
                "round_overfull",
                f"{entrants} round-1 players and {seeds} seeds make {players} in "
                f"{second.name}, more than its {second.size}",
                round=second.name, players=players, size=second.size, entrants=entrants,
                seeds=seeds, most=most)
    return (first,) + rounds[1:]


# -- ladders ---------------------------------------------------------------------------------


def ladder_final(ladder: LadderRules) -> RoundSpec:
    """The ladder's last round: one group ranking all its players (H1-b)."""
    return RoundSpec("final", "決勝", "final_group", group_size=ladder.group_size,
                     advance_per_group=0, draw="fixed", restrictions=ladder.final_restrictions,
                     ranks_all=True)


def ladder_template(ladder: LadderRules) -> tuple[RoundSpec, ...]:
    """Round 1 and the final: what a ladder event shows before its field is known."""
    first = RoundSpec("r1", "1回戦", "groups", group_size=ladder.group_size,
                      advance_per_group=ladder.advance_per_group, draw=ladder.draw,
                      draw_in_advance=True, restrictions=ladder.restrictions)
    return first, ladder_final(ladder)


def ladder_advance(ladder: LadderRules, number: int, players: int) -> int:
    """Advancers per group in round ``number`` of ``players`` (H1: one when entries are many)."""
    if number in ladder.single_advance_rounds or (
            ladder.single_advance_from and players >= ladder.single_advance_from):
        return 1
    return ladder.advance_per_group


def plan_ladder(ladder: LadderRules, entrants: int, seeds: int) -> tuple[RoundSpec, ...]:
    """Group rounds (top k per group) until at most ``final_size`` players remain.

    The last group round is named 準決勝, the others n回戦. Seeds join round
    ``seeds_from_round``; a field that reaches the final before it is refused
    (``seeds_round_not_played``), and so is a round that cannot be drawn.
    """
    specs: list[RoundSpec] = []
    seeds_in = ladder.seeds_from_round <= 1
    players = entrants + (seeds if seeds_in else 0)
    number = 1
    while True:
        entering = not seeds_in and number == ladder.seeds_from_round
        if entering:
            players += seeds
            seeds_in = True
        if players <= ladder.final_size:
            break
        k = ladder_advance(ladder, number, players)
        if not 1 <= k < ladder.group_size:
            raise RuleRefusal("setting_invalid", "advance per group must be 1..3", value=k)
        specs.append(RoundSpec(
            key=f"r{number}", name=f"{number}回戦", kind="groups",
            group_size=ladder.group_size, advance_per_group=k, size=players,
            seeds_enter=entering, draw=ladder.draw, draw_in_advance=number == 1,
            restrictions=ladder.restrictions))
        players = math.ceil(players / ladder.group_size) * k
        number += 1
    if not seeds_in and seeds:
        raise RuleRefusal("seeds_round_not_played",
                          f"{entrants} entrants reach the final before round "
                          f"{ladder.seeds_from_round}", entrants=entrants, seeds=seeds,
                          seeds_round=ladder.seeds_from_round, rounds=number - 1)
    if specs:
        specs[-1] = replace(specs[-1], key="sf", name="準決勝")
    specs.append(replace(ladder_final(ladder), size=players, seeds_enter=entering))
    for spec in specs:
        require_drawable(spec, spec.size or 0)
    return tuple(specs)
