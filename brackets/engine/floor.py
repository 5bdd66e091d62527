"""The floor: which group plays on which cabinet set, which group is next, and when.

An arcade event has a few sets of four cabinets; a round's groups wait in one queue and
are called onto a set as it frees. Plain values in, plain values out: the web layer
derives the groups in play from its recorded calls and hands them here.

Rules, in the order they apply:

- a group that is done (or not needed) never waits; a group in play is on exactly one set;
- the queue puts groups whose players are all present first, then keeps the draw's order;
- a group is called only to a free set in service, and never while one of its players is
  in play on another set;
- a set taken out of service frees its group, which goes back into the queue (so does a
  group whose match is voided for a re-match: the caller stops counting its call);
- estimates come from the measured lengths of finished matches: each set takes the next
  callable group as soon as it frees.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from statistics import median

from brackets.engine.errors import RuleRefusal

#: Minutes one QMA match takes when nothing has been measured yet (entry, selections,
#: the game itself and the result screen, at an arcade's pace).
DEFAULT_MATCH_MINUTES = 12.0


@dataclass(frozen=True)
class FloorGroup:
    """One group of a round as the floor sees it: its seated players and whether it is done."""

    key: int
    label: str
    players: tuple[str, ...]
    done: bool = False


@dataclass(frozen=True)
class FloorSet:
    """A set of four cabinets (e.g. 「A台（1〜4番サテ）」) and whether it is in service."""

    key: int
    name: str
    in_service: bool = True


@dataclass(frozen=True)
class FloorState:
    """Everything the queue is decided from.

    ``groups`` in the draw's order; ``sets`` in the organiser's order; ``on_set`` maps a
    set's key to the group its call in force put there; ``present`` names the players
    known to be at the venue (checked in, not recorded as a no-show).
    """

    groups: tuple[FloorGroup, ...]
    sets: tuple[FloorSet, ...]
    on_set: Mapping[int, int] = field(default_factory=dict)
    present: frozenset[str] = frozenset()


@dataclass(frozen=True)
class FloorCall:
    """A group to call next onto a set."""

    group: int
    set: int


@dataclass(frozen=True)
class FloorPlan:
    """``playing``: set key → group key in play; ``queue``: waiting group keys in call
    order; ``next_calls``: the calls to make now, one per free set in service."""

    playing: Mapping[int, int]
    queue: tuple[int, ...]
    next_calls: tuple[FloorCall, ...]

    def set_of(self, group: int) -> int | None:
        return next((s for s, g in self.playing.items() if g == group), None)


def _by_key(state: FloorState) -> tuple[dict[int, FloorGroup], dict[int, FloorSet]]:
    return {g.key: g for g in state.groups}, {s.key: s for s in state.sets}


def _playing(state: FloorState) -> dict[int, int]:
    """The calls in force that still hold a set: in service, group known and not done."""
    groups, sets = _by_key(state)
    return {s: g for s, g in state.on_set.items()
            if s in sets and sets[s].in_service and g in groups and not groups[g].done}


def floor_plan(state: FloorState) -> FloorPlan:
    """The groups in play, the queue in call order, and the calls to make now."""
    groups, _sets = _by_key(state)
    playing = _playing(state)
    in_play = set(playing.values())
    waiting = [g for g in state.groups if not g.done and g.key not in in_play]
    # sorted() is stable: within "all present" and "someone missing" the draw's order holds.
    waiting.sort(key=lambda g: not all(p in state.present for p in g.players))
    busy = {p for g in in_play for p in groups[g].players}
    calls: list[FloorCall] = []
    chosen: set[int] = set()
    for cabinet in state.sets:
        if not cabinet.in_service or cabinet.key in playing:
            continue
        nxt = next((g for g in waiting if g.key not in chosen and not busy & set(g.players)),
                   None)
        if nxt is None:
            continue
        calls.append(FloorCall(nxt.key, cabinet.key))
        chosen.add(nxt.key)
        busy |= set(nxt.players)
    return FloorPlan(playing=playing, queue=tuple(g.key for g in waiting),
                     next_calls=tuple(calls))


def call_check(state: FloorState, group: int, cabinet: int) -> None:
    """Refuse a call the floor cannot take, with the reason; return quietly otherwise.

    Codes: ``floor_set_unknown``, ``floor_set_out_of_service``, ``floor_group_unknown``,
    ``floor_group_done``, ``floor_set_busy`` (another group is in play there),
    ``floor_group_elsewhere`` (the group is in play on another set) and
    ``floor_player_busy`` (one of its players is in play on another set).
    """
    groups, sets = _by_key(state)
    if cabinet not in sets:
        raise RuleRefusal("floor_set_unknown", f"no set {cabinet}", set=cabinet)
    target = sets[cabinet]
    if not target.in_service:
        raise RuleRefusal("floor_set_out_of_service", f"{target.name} is out of service",
                          set=target.name)
    if group not in groups:
        raise RuleRefusal("floor_group_unknown", f"no group {group}", group=group)
    called = groups[group]
    if called.done:
        raise RuleRefusal("floor_group_done", f"{called.label} is done", group=called.label)
    playing = _playing(state)
    if playing.get(cabinet) not in (None, group):
        raise RuleRefusal("floor_set_busy", f"{target.name} is in use", set=target.name,
                          group=groups[playing[cabinet]].label)
    for other_set, other in playing.items():
        if other_set == cabinet:
            continue
        if other == group:
            raise RuleRefusal("floor_group_elsewhere", f"{called.label} plays elsewhere",
                              group=called.label, set=sets[other_set].name)
        shared = sorted(set(called.players) & set(groups[other].players))
        if shared:
            raise RuleRefusal("floor_player_busy", f"{shared[0]} plays elsewhere",
                              player=shared[0], group=groups[other].label,
                              set=sets[other_set].name)


def match_minutes(measured: Iterable[float], default: float = DEFAULT_MATCH_MINUTES) -> float:
    """The length a match is expected to take: the median of the measured lengths (one
    long re-match does not drag every estimate), ``default`` before any is measured."""
    lengths = [m for m in measured if m > 0]
    return float(median(lengths)) if lengths else default


@dataclass(frozen=True)
class Estimate:
    """When a queued group is expected to start (minutes from now) and on which set."""

    group: int
    set: int
    start: float


def estimate_starts(state: FloorState, minutes: float,
                    elapsed: Mapping[int, float] | None = None) -> tuple[Estimate, ...]:
    """Expected starts of every waiting group, in call order.

    Each in-service set frees when its group has played ``minutes`` (``elapsed``: set key →
    minutes its group has played so far); the next group in the queue whose players are
    all free then takes the set that frees first. With no set in service nothing can be
    estimated and the answer is empty.
    """
    plan = floor_plan(state)
    groups, _sets = _by_key(state)
    elapsed = elapsed or {}
    free_at = {s.key: 0.0 for s in state.sets if s.in_service}
    if not free_at:
        return ()
    player_free: dict[str, float] = {}
    for cabinet, group in plan.playing.items():
        left = max(0.0, minutes - elapsed.get(cabinet, 0.0))
        free_at[cabinet] = left
        for p in groups[group].players:
            player_free[p] = left
    order = _call_order(plan)
    out: list[Estimate] = []
    for key in order:
        cabinet = min(free_at, key=lambda s: (free_at[s], _set_index(state, s)))
        start = max([free_at[cabinet]] + [player_free.get(p, 0.0)
                                          for p in groups[key].players])
        out.append(Estimate(group=key, set=cabinet, start=start))
        free_at[cabinet] = start + minutes
        for p in groups[key].players:
            player_free[p] = start + minutes
    return tuple(out)


def _call_order(plan: FloorPlan) -> list[int]:
    first = [c.group for c in plan.next_calls]
    return first + [g for g in plan.queue if g not in first]


def _set_index(state: FloorState, key: int) -> int:
    return next(i for i, s in enumerate(state.sets) if s.key == key)
