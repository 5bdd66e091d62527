"""Round plans: the rounds an event plays for its field, from the event's shape.

One planner per shape, read by the built-in presets and by a composed rule set alike
(``rulesets/compile.py``): a fixed format plays its rounds with round 1 sized to the field
(:func:`plan_fixed`), a ladder adds group rounds until the final group is reached
(:func:`plan_ladder`). Each refuses, before the first draw, a field its rounds cannot hold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..draws import dummy_count, group_count
from ..errors import RuleRefusal
from .spec import DrawMethod, RoundRestrictions, RoundSpec

_RESTRICTED = RoundRestrictions()


def require_drawable(spec: RoundSpec, players: int) -> None:
    """Refuse a planned round whose players cannot be drawn (K2: at most one dummy a group).

    5 players would need 3 dummies in 2 groups, 2 finalists 2 dummies in one: the draw
    would refuse them later, so the plan says so now, naming the round (``round`` its key,
    ``round_name`` what staff call it).
    """
    if dummy_count(players, spec.group_size) > group_count(players, spec.group_size):
        raise RuleRefusal(
            "round_undrawable",
            f"{spec.name}: {players} players cannot be drawn into groups of "
            f"{spec.group_size} with at most one dummy each",
            round=spec.key, round_name=spec.name, players=players, group_size=spec.group_size)


@dataclass(frozen=True)
class LadderRules:
    """Group rounds until one final group is left (堅田 H1, the shop event).

    ``advance_per_group`` per group, except the group winner alone in rounds of at least
    ``single_advance_from`` players (0: never) and in ``single_advance_rounds`` (1-based).
    The ladder stops when at most ``final_size`` players remain; they play the final, which
    ranks them all. Seeds play from round ``seeds_from_round`` (1: with everyone).
    """

    group_size: int = 4
    advance_per_group: int = 2
    single_advance_from: int = 0
    single_advance_rounds: tuple[int, ...] = ()
    final_size: int = 4
    seeds_from_round: int = 1
    draw: DrawMethod = "random"
    restrictions: RoundRestrictions = _RESTRICTED
    final_restrictions: RoundRestrictions = _RESTRICTED


# -- fixed formats -------------------------------------------------------------------------


def seeds_enter_later(rounds: tuple[RoundSpec, ...]) -> bool:
    """Seeds join a later round (K5) rather than play round 1 with everyone."""
    return any(spec.seeds_enter for spec in rounds)


def plan_fixed(rounds: tuple[RoundSpec, ...], max_seeds: int | None, entrants: int,
               seeds: int) -> tuple[RoundSpec, ...]:
    """The fixed rounds with round 1 sized to the field.

    More seeds than ``max_seeds`` are refused, and so is a round 1 whose advancers (with
    the seeds joining round 2) overfill round 2: wildcards only fill a round up to its
    size, nothing cuts it down, so the refusal comes before the first draw and names the
    most round 1 can take.
    """
    if not rounds:
        return ()
    if max_seeds is not None and seeds > max_seeds:
        raise RuleRefusal("too_many_seeds", f"at most {max_seeds} seeds",
                          seeds=seeds, max_seeds=max_seeds)
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
