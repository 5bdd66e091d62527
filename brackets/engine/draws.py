"""Group draws: groups of four with dummies, seed separation, seat assignment (K2, K5).

For N entrants there are G = ceil(N / 4) groups and exactly 4G − N of them get one dummy,
never two (K2). That is possible only when 4G − N ≤ G, which fails for N = 1, 2 and 5
(e.g. 5 players would need 3 dummies in 2 groups): those raise :class:`RuleRefusal`.

Seeds never share a group (K5); more seeds than groups raises :class:`RuleRefusal`.

Three methods:

* ``random`` — a lottery (:class:`Lottery` from the stored seed, so the draw is
  reproducible): seeds go to distinct groups chosen by lot, everyone else fills the
  remaining places in lot order. The last 4G − N groups are the ones with a dummy (group
  numbers carry no meaning in a random draw).
* ``snake`` (蛇腹) — from a ranked list: ranks go 1..G left to right, then G..1 back, and so
  on. The missing places of the last row are the dummies, so with a short last row the
  lowest-numbered groups (the strongest heads) play with a dummy.
* ``mod`` — rank r goes to group r mod G; the dummies fall on the highest-numbered groups.

For the ranked methods the seeds are moved, in their given order, to the front of the
ranking, which puts each in a different group.

Seats (サテ 1–4) are then assigned per group, either in group order (the dummy last) or
by lot (the dummy's seat included), from a child lottery per group.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .errors import EngineBug, RuleRefusal
from .lottery import Lottery

Method = Literal["random", "snake", "mod"]
SeatMode = Literal["in_order", "lottery"]

GROUP_SIZE = 4


@dataclass(frozen=True)
class Group:
    """One group; ``seats[i]`` sits at サテ i + 1, ``None`` is the dummy."""

    number: int
    seats: tuple[str | None, ...]

    @property
    def players(self) -> list[str]:
        return [p for p in self.seats if p is not None]

    @property
    def dummies(self) -> int:
        return sum(1 for p in self.seats if p is None)

    def seat_of(self, player: str) -> int:
        return self.seats.index(player) + 1


@dataclass(frozen=True)
class Draw:
    """A round's groups, numbered from 1."""

    groups: tuple[Group, ...]

    def group_of(self, player: str) -> Group:
        for group in self.groups:
            if player in group.seats:
                return group
        raise RuleRefusal("player_not_drawn", f"{player!r} is in no group", player=player)

    @property
    def players(self) -> list[str]:
        return [p for g in self.groups for p in g.players]

    @property
    def dummy_count(self) -> int:
        return sum(g.dummies for g in self.groups)


def group_count(entrants: int, size: int = GROUP_SIZE) -> int:
    """G = ceil(N / size) (K2)."""
    return math.ceil(entrants / size) if entrants > 0 else 0


def dummy_count(entrants: int, size: int = GROUP_SIZE) -> int:
    """size·G − N: how many groups play with one dummy (K2)."""
    return size * group_count(entrants, size) - entrants


def _check(players: Sequence[str], seeds: Sequence[str], size: int) -> int:
    if len(set(players)) != len(players):
        dupes = sorted({p for p in players if players.count(p) > 1})
        raise RuleRefusal("player_twice", "a player is listed twice", players=dupes)
    unknown = [s for s in seeds if s not in set(players)]
    if unknown:
        raise RuleRefusal("seed_not_entered", "seeds must be among the players", seeds=unknown)
    if len(set(seeds)) != len(seeds):
        raise RuleRefusal("seed_twice", "a seed is listed twice", seeds=list(seeds))
    groups = group_count(len(players), size)
    if dummy_count(len(players), size) > groups:
        raise RuleRefusal(
            "too_few_players",
            f"{len(players)} players cannot fill {groups} groups of {size} "
            "with at most one dummy each",
            players=len(players),
            groups=groups,
        )
    if len(seeds) > groups:
        raise RuleRefusal(
            "seeds_exceed_groups",
            f"{len(seeds)} seeds cannot be kept apart in {groups} groups (K5)",
            seeds=len(seeds),
            groups=groups,
        )
    return groups


def draw_groups(
    players: Sequence[str],
    *,
    method: Method = "random",
    lottery: Lottery | None = None,
    seeds: Sequence[str] = (),
    seat_mode: SeatMode = "lottery",
    size: int = GROUP_SIZE,
) -> Draw:
    """Split ``players`` into groups (see the module docstring for the methods).

    For ``snake`` and ``mod``, ``players`` is the ranking, best first. ``lottery`` is
    required by the ``random`` method and by ``seat_mode="lottery"``; sub-draws use child
    lotteries (``"groups"``, ``"seats-<n>"``) so changing the seat mode never changes who
    is grouped with whom.
    """
    groups = _check(players, seeds, size)
    if groups == 0:
        return Draw(())
    dummies = dummy_count(len(players), size)
    # Group g (0-based) has `size` places, minus one for a dummy group.
    if method == "random":
        members = _random_members(players, seeds, groups, dummies, size, _need(lottery))
    elif method in ("snake", "mod"):
        seed_set = set(seeds)
        ranking = list(seeds) + [p for p in players if p not in seed_set]
        members = _ranked_members(ranking, groups, method, size)
    else:
        raise EngineBug("draw_method_unknown", f"no draw method {method!r}", method=method)

    result: list[Group] = []
    for index, group_players in enumerate(members):
        row: list[str | None] = list(group_players)
        row.extend([None] * (size - len(row)))
        if seat_mode == "lottery":
            row = _need(lottery).child(f"seats-{index + 1}").shuffled(row)
        elif seat_mode != "in_order":
            raise EngineBug(
                "seat_mode_unknown", f"no seat mode {seat_mode!r}", seat_mode=seat_mode
            )
        result.append(Group(index + 1, tuple(row)))
    return Draw(tuple(result))


def _need(lottery: Lottery | None) -> Lottery:
    if lottery is None:
        raise EngineBug("lottery_missing", "this draw needs the tournament's lottery")
    return lottery


def _random_members(
    players: Sequence[str],
    seeds: Sequence[str],
    groups: int,
    dummies: int,
    size: int,
    lottery: Lottery,
) -> list[list[str]]:
    lot = lottery.child("groups")
    capacity = [size - 1 if g >= groups - dummies else size for g in range(groups)]
    members: list[list[str]] = [[] for _ in range(groups)]
    seed_groups = lot.sample(list(range(groups)), len(seeds))
    for seed, g in zip(lot.shuffled(list(seeds)), seed_groups):
        members[g].append(seed)
    seed_set = set(seeds)
    others = lot.shuffled([p for p in players if p not in seed_set])
    position = 0
    for g in range(groups):
        free = capacity[g] - len(members[g])
        members[g].extend(others[position : position + free])
        position += free
    return members


def _ranked_members(ranking: Sequence[str], groups: int, method: str, size: int) -> list[list[str]]:
    members: list[list[str]] = [[] for _ in range(groups)]
    for rank, player in enumerate(ranking):
        row, column = divmod(rank, groups)
        if method == "snake" and row % 2 == 1:
            column = groups - 1 - column
        members[column].append(player)
    return members


def record_draw(
    groups: Sequence[Sequence[str | None]],
    players: Sequence[str],
    *,
    seeds: Sequence[str] = (),
    size: int = GROUP_SIZE,
) -> Draw:
    """Check and keep a draw made on paper (a physical lottery, K4/K5).

    ``groups[i][s]`` is the player at サテ s + 1 of group i + 1, ``None`` the dummy. The
    same invariants as a computed draw hold: every entrant exactly once, nobody else,
    ceil(N / size) groups of ``size`` seats, exactly size·G − N dummies and never two in a
    group, seeds in different groups. Anything else is :class:`RuleRefusal`.
    """
    expected_groups = _check(players, seeds, size)
    if len(groups) != expected_groups:
        raise RuleRefusal(
            "group_count_mismatch",
            f"{len(players)} players make {expected_groups} groups, {len(groups)} recorded",
            expected=expected_groups,
            count=len(groups),
        )
    placed = [p for g in groups for p in g if p is not None]
    missing = sorted(set(players) - set(placed))
    extra = sorted(set(placed) - set(players))
    twice = sorted({p for p in placed if placed.count(p) > 1})
    if missing or extra or twice:
        raise RuleRefusal(
            "draw_players_mismatch",
            "every entrant must be drawn exactly once",
            missing=missing,
            extra=extra,
            twice=twice,
        )
    seed_set = set(seeds)
    for index, seats in enumerate(groups, start=1):
        if len(seats) != size:
            raise RuleRefusal(
                "group_size_mismatch", f"group {index} has {len(seats)} seats", group=index
            )
        if sum(1 for p in seats if p is None) > 1:
            raise RuleRefusal("two_dummies", f"group {index} has two dummies (K2)", group=index)
        if sum(1 for p in seats if p in seed_set) > 1:
            raise RuleRefusal("seeds_share_group", f"seeds share group {index} (K5)", group=index)
    return Draw(tuple(Group(i, tuple(g)) for i, g in enumerate(groups, start=1)))
