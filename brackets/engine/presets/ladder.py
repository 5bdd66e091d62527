"""Ladder planning shared by the events that add group rounds until one group is left."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from ..draws import dummy_count, group_count
from ..errors import RuleRefusal
from .spec import DrawMethod, RoundRestrictions, RoundSpec


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


def ladder(
    entrants: int,
    *,
    advance: Callable[[int, int], int],
    final: RoundSpec,
    restrictions: RoundRestrictions,
    draw: DrawMethod,
    group_size: int = 4,
) -> tuple[RoundSpec, ...]:
    """Group rounds (top k per group) until one group of at most ``group_size`` remains.

    ``advance(round_number, players)`` gives k for that round. The last group round before
    the final is named 準決勝, the others n回戦.
    """
    specs: list[RoundSpec] = []
    players = entrants
    number = 1
    while players > group_size:
        k = advance(number, players)
        if not 1 <= k < group_size:
            raise RuleRefusal("setting_invalid", "advance per group must be 1..3", value=k)
        groups = math.ceil(players / group_size)
        specs.append(RoundSpec(
            key=f"r{number}", name=f"{number}回戦", kind="groups", group_size=group_size,
            advance_per_group=k, size=players, draw=draw, draw_in_advance=number == 1,
            restrictions=restrictions))
        players = groups * k
        number += 1
    if specs:
        last = specs[-1]
        specs[-1] = replace(last, key="sf", name="準決勝")
    specs.append(replace(final, size=players))
    for spec in specs:
        require_drawable(spec, spec.size or 0)
    return tuple(specs)
