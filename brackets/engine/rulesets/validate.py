"""Is a rule set playable? Every problem at once, each a :class:`RuleRefusal` value.

:func:`validate_ruleset` returns the problems of a :class:`~.document.RuleSet`, in the order
an organiser reads the rules (values, rounds in order, windows, policies); an empty list
means the event can be created with these rules. Each problem carries a stable ``code`` and
the ``params`` ``brackets.messages`` words it with, saying what to change. Nothing is
raised: a composer shows every problem beside the rule it concerns.

The checks: every round reachable and the event ending on a podium; each round's size
matching the players that can arrive at the capacity (advancers, wildcards up to the
target, seeds joining); contradictions (advancers ≥ group size, K6 capacities, pair rounds
of two); history windows read before anything writes them, or read over more sets than
the catalog has format groups (a window that needed a reset); the tie-break chain, the
Q thresholds, 修羅, the 下関 cards, the penalty and the dummy's set.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .. import bounds
from ..advancement import TIE_BREAKS
from ..cards import MAX_CARDS_PER_DRAW
from ..catalog import BUILTIN_CATALOGS
from ..errors import RuleRefusal
from ..presets.kyushu_cup_ix import shimonoseki_deck
from ..presets.plans import ladder_template, plan_fixed, plan_ladder
from ..presets.spec import RoundRestrictions, RoundSpec
from ..restrictions import Mode
from ..shura import FORMAT_LOT_POOLS, MAX_LOTS, SHURA_GROUNDS
from .document import SHURA_LATER_KEYS, LadderRules, RuleSet, ShuraPolicy


def validate_ruleset(ruleset: RuleSet) -> list[RuleRefusal]:
    """Every problem that keeps ``ruleset`` from running, in reading order (empty: none)."""
    problems: list[RuleRefusal] = []
    problems.extend(_values(ruleset))
    if ruleset.ladder is not None and ruleset.rounds:
        problems.append(RuleRefusal("ruleset_rounds_and_ladder",
                                    "fixed rounds and a ladder: keep one"))
    elif ruleset.ladder is not None:
        problems.extend(_ladder(ruleset, ruleset.ladder))
    elif not ruleset.rounds:
        problems.append(RuleRefusal("ruleset_rounds_missing", "no rounds"))
    else:
        problems.extend(_fixed(ruleset))
    problems.extend(_policies(ruleset))
    return problems


# -- plain ranges -----------------------------------------------------------------------------


def _range(key: str, value: int | None, low: int, high: int) -> Iterator[RuleRefusal]:
    if value is not None and not low <= value <= high:
        yield RuleRefusal("ruleset_value_range", f"{key}: {value} not in {low}..{high}",
                          key=key, value=value, low=low, high=high)


def _values(rs: RuleSet) -> Iterator[RuleRefusal]:
    seats = bounds.SEAT.high
    yield from _range("capacity", rs.capacity, 1, bounds.CAPACITY.high)
    yield from _range("max_seeds", rs.max_seeds, 0, bounds.SEED_SLOTS.high)
    yield from _range("berths", rs.berths, 0, seats)
    p = rs.players
    for key in ("bomber_min_q", "pinpoint_min_q", "grouped_min_q"):
        yield from _range(f"players.{key}", getattr(p, key), bounds.Q_LEVEL.low,
                          bounds.Q_LEVEL.high)
    for i, spec in enumerate(rs.rounds):
        yield from _range(f"rounds[{i}].group_size", spec.group_size, 2, seats)
        yield from _range(f"rounds[{i}].size", spec.size, 1, bounds.CAPACITY.high)
        yield from _range(f"rounds[{i}].target", spec.target, 1,
                          bounds.CAPACITY.high)
    if rs.ladder is not None:
        lad = rs.ladder
        yield from _range("ladder.group_size", lad.group_size, 2, seats)
        yield from _range("ladder.single_advance_from", lad.single_advance_from, 0,
                          bounds.CAPACITY.high)
        yield from _range("ladder.seeds_from_round", lad.seeds_from_round, 1, 99)
        for n in lad.single_advance_rounds:
            yield from _range("ladder.single_advance_rounds", n, 1, 99)


# -- fixed rounds -----------------------------------------------------------------------------


def _restriction_sets(spec: RoundSpec) -> tuple[RoundRestrictions, ...]:
    """The restrictions a round's sets are played under (each K6 rule's, if it has rules)."""
    return tuple(v.restrictions for v in spec.variants) if spec.variants else (spec.restrictions,)


def _advancers(spec: RoundSpec, players: int) -> int:
    """Players a round sends to the next one when ``players`` play it (no wildcards)."""
    if spec.variants:
        return sum(v.capacity // spec.group_size * v.advance_per_group for v in spec.variants)
    return math.ceil(players / spec.group_size) * spec.advance_per_group


@dataclass
class _Arrival:
    """Who reaches a round: from which round, as winners or as losers."""

    feeder: int
    losers: bool


def _routes(rounds: Sequence[RoundSpec]) -> tuple[dict[int, _Arrival], list[RuleRefusal]]:
    """How each reachable round is reached. Round 1 is; a round's winners go to the next
    round that is not its losers' round; its losers go to ``losers_to``; a podium (a ranked
    final, a partner match or series) sends nobody on."""
    problems: list[RuleRefusal] = []
    index = {spec.key: i for i, spec in enumerate(rounds)}
    arrivals: dict[int, _Arrival] = {}
    reached = {0}
    for i, spec in enumerate(rounds):
        if i not in reached:
            continue
        if spec.losers_to is not None:
            target = index.get(spec.losers_to)
            if target is None or target <= i:
                problems.append(RuleRefusal(
                    "ruleset_losers_to_unknown", f"{spec.name}: no later round "
                    f"{spec.losers_to!r}", round=spec.name, target=spec.losers_to))
            else:
                reached.add(target)
                arrivals[target] = _Arrival(i, losers=True)
        if spec.is_last:
            continue
        following = i + 1
        while following < len(rounds) and rounds[following].key == spec.losers_to:
            following += 1
        if following < len(rounds):
            reached.add(following)
            arrivals.setdefault(following, _Arrival(i, losers=False))
    for i, spec in enumerate(rounds):
        if i not in reached:
            problems.append(RuleRefusal("ruleset_round_unreachable",
                                        f"{spec.name}: no players reach it", round=spec.name))
    if not any(rounds[i].is_last for i in reached):
        last = max(reached)
        problems.append(RuleRefusal("ruleset_no_final", f"{rounds[last].name} gives no places",
                                    round=rounds[last].name))
    return arrivals, problems


def _round_shape(spec: RoundSpec) -> Iterator[RuleRefusal]:
    """What one round's settings contradict on their own."""
    if spec.kind == "rule_selection":
        if len(spec.variants) < 2:
            yield RuleRefusal("ruleset_variants_kind", f"{spec.name}: rules to choose from",
                              round=spec.name)
        capacity = sum(v.capacity for v in spec.variants)
        if spec.size is not None and capacity != spec.size:
            yield RuleRefusal("ruleset_capacity_mismatch", f"{spec.name}: capacities",
                              round=spec.name, capacity=capacity, size=spec.size)
        for v in spec.variants:
            if v.capacity < 0 or v.capacity % spec.group_size:
                yield RuleRefusal("ruleset_capacity_groups", f"{spec.name}: {v.name}",
                                  round=spec.name, variant=v.name, capacity=v.capacity,
                                  group_size=spec.group_size)
            if not 1 <= v.advance_per_group < spec.group_size:
                yield RuleRefusal("ruleset_advance_invalid", f"{spec.name}: {v.name}",
                                  round=f"{spec.name} {v.name}", advance=v.advance_per_group,
                                  group_size=spec.group_size)
    elif spec.variants:
        yield RuleRefusal("ruleset_variants_kind", f"{spec.name}: rules only in K6 rounds",
                          round=spec.name)
    advancing = spec.kind == "groups" or (spec.kind == "final_group" and not spec.ranks_all)
    if advancing and not 1 <= spec.advance_per_group < spec.group_size:
        yield RuleRefusal("ruleset_advance_invalid", f"{spec.name}: advancers",
                          round=spec.name, advance=spec.advance_per_group,
                          group_size=spec.group_size)
    if spec.is_pair and spec.size not in (None, 2):
        yield RuleRefusal("ruleset_pair_size", f"{spec.name}: two contenders",
                          round=spec.name, size=spec.size)
    if spec.is_series and (spec.wins_needed is None or spec.wins_needed < 1):
        yield RuleRefusal("ruleset_wins_needed", f"{spec.name}: wins needed", round=spec.name)
    if not spec.is_pair and any(r.pair_sets or r.pair_history
                                for r in _restriction_sets(spec)):
        yield RuleRefusal("ruleset_pair_rule_kind", f"{spec.name}: pair rules without pairs",
                          round=spec.name)


def _fixed(rs: RuleSet) -> Iterator[RuleRefusal]:
    rounds = rs.rounds
    seen: set[str] = set()
    for spec in rounds:
        if spec.key in seen:
            yield RuleRefusal("ruleset_round_key_twice", f"round key {spec.key} twice",
                              round=spec.name, key=spec.key)
        seen.add(spec.key)
        yield from _round_shape(spec)
    arrivals, problems = _routes(rounds)
    yield from problems
    yield from _sizes(rs, arrivals)
    yield from _windows(rs, [rounds[i] for i in [0, *sorted(arrivals)]])
    if rs.capacity is not None:
        try:
            plan_fixed(rs.rounds, rs.max_seeds, rs.capacity, rs.max_seeds or 0)
        except RuleRefusal as refusal:
            yield refusal


def _sizes(rs: RuleSet, arrivals: dict[int, _Arrival]) -> Iterator[RuleRefusal]:
    """Each round's size against the players that can arrive, at the capacity.

    Round 1 holds the capacity (with the seeds unless they join later); a round reached by
    winners gets the feeder's advancers, at most the seeds, and wildcards up to the feeder's
    target; a losers' round gets the feeder's non-advancers.
    """
    rounds = rs.rounds
    seeds = rs.max_seeds or 0
    later = any(spec.seeds_enter for spec in rounds)
    sizes: dict[int, int | None] = {
        0: None if rs.capacity is None else rs.capacity + (0 if later else seeds)}
    for i in sorted(arrivals):
        spec, arrival = rounds[i], arrivals[i]
        feeder = rounds[arrival.feeder]
        if not arrival.losers and feeder.target is not None and spec.size is not None \
                and feeder.target != spec.size:
            yield RuleRefusal("ruleset_target_mismatch", f"{feeder.name} fills to "
                              f"{feeder.target}, {spec.name} holds {spec.size}",
                              round=feeder.name, target=feeder.target, next=spec.name,
                              size=spec.size)
        played = sizes.get(arrival.feeder)
        if played is None and feeder.variants:
            played = sum(v.capacity for v in feeder.variants)
        if played is None:
            sizes[i] = spec.size
            continue
        advancers = _advancers(feeder, played)
        joining = seeds if spec.seeds_enter else 0
        if arrival.losers:
            least = most = played - advancers
        else:
            least = advancers + joining
            most = least if feeder.target is None else max(
                least, min(feeder.target, played + joining))
        if spec.size is None:
            sizes[i] = most
            continue
        sizes[i] = spec.size
        if least > spec.size:
            yield RuleRefusal("ruleset_round_overfull", f"{spec.name}: {least} > {spec.size}",
                              round=spec.name, previous=feeder.name, players=least,
                              size=spec.size)
        elif most < spec.size:
            yield RuleRefusal("ruleset_round_short", f"{spec.name}: {most} < {spec.size}",
                              round=spec.name, previous=feeder.name, players=most,
                              size=spec.size)


# -- history windows --------------------------------------------------------------------------


def _windows(rs: RuleSet, path: Sequence[RoundSpec]) -> Iterator[RuleRefusal]:
    """Windows along the rounds a player plays in order.

    A window read before any round writes it restricts nobody: a misspelt or forgotten
    window. Under BOMBER each set in a window uses a format group for good, so a window
    read over more sets than the catalog has groups leaves the player only the fallback:
    the rules needed a reset (a new window) before that round.
    """
    written: set[str] = set()
    used: dict[str, int] = {}
    catalog = BUILTIN_CATALOGS.get(rs.catalog_version)
    bomber = rs.players.mode is Mode.BOMBER if rs.players.mode_source == "fixed" else True
    for spec in path:
        sets = tuple(_restriction_sets(spec))
        for r in sets:
            if r.read_window is not None and r.read_window not in written \
                    and r.read_window != r.record_window:
                yield RuleRefusal("ruleset_window_never_written",
                                  f"{spec.name} reads {r.read_window!r}", round=spec.name,
                                  window=r.read_window)
        # A pair series plays two sets a game over its longest run; others one set.
        played = 2 * (2 * (spec.wins_needed or 1) - 1) if spec.is_series else 1
        for r in sets:
            window = r.read_window
            if not (bomber and catalog is not None and window is not None):
                continue
            before_last = used.get(window, 0) + (played - 1 if r.pair_history else 0)
            groups = len(catalog.groups)
            if before_last >= groups:
                yield RuleRefusal("ruleset_window_exhausted",
                                  f"{spec.name}: {before_last} sets in {window!r}",
                                  round=spec.name, window=window, sets=before_last,
                                  available=groups)
        recorded = {r.record_window for r in sets if r.record_window is not None}
        for window in recorded:
            written.add(window)
            used[window] = used.get(window, 0) + max(
                played if r.pair_history else 1 for r in sets if r.record_window == window)


# -- ladders ----------------------------------------------------------------------------------


def _ladder(rs: RuleSet, lad: LadderRules) -> Iterator[RuleRefusal]:
    if not 1 <= lad.advance_per_group < lad.group_size:
        yield RuleRefusal("ruleset_advance_invalid", "ladder advancers",
                          round="各回戦", advance=lad.advance_per_group,
                          group_size=lad.group_size)
        return
    if not 2 <= lad.final_size <= lad.group_size:
        yield RuleRefusal("ruleset_final_size", "the final is one group",
                          final_size=lad.final_size, group_size=lad.group_size)
        return
    for spec in ladder_template(lad):
        yield from _round_shape(spec)
    if rs.capacity is None:
        yield from _windows(rs, ladder_template(lad))
        return
    try:
        planned = plan_ladder(lad, rs.capacity, rs.max_seeds or 0)
    except RuleRefusal as refusal:
        yield refusal
        return
    yield from _windows(rs, planned)


# -- policies ---------------------------------------------------------------------------------


def _policies(rs: RuleSet) -> Iterator[RuleRefusal]:
    chain = rs.tie_break
    if not chain:
        yield RuleRefusal("ruleset_tie_break_empty", "no tie-break")
    unknown = [slug for slug in chain if slug not in TIE_BREAKS]
    if unknown:
        yield RuleRefusal("ruleset_tie_break_unknown", f"no tie-break {unknown}",
                          tie_breaks=unknown)
    repeated = sorted({slug for i, slug in enumerate(chain) if slug in chain[:i]})
    if repeated:
        yield RuleRefusal("ruleset_tie_break_repeated", f"{repeated} twice", tie_breaks=repeated)
    p = rs.players
    if p.mode_source == "by_q" and p.pinpoint_min_q > p.bomber_min_q:
        yield RuleRefusal("ruleset_thresholds_order", "PINPOINT above BOMBER",
                          pinpoint=p.pinpoint_min_q, bomber=p.bomber_min_q)
    if rs.shura.enabled and p.mode_source == "fixed":
        yield RuleRefusal("ruleset_shura_fixed_mode", "修羅 needs modes by Q level")
    yield from _range("shura.max_lots", rs.shura.max_lots, 0, MAX_LOTS)
    if rs.shura.format_lot_pool not in FORMAT_LOT_POOLS:
        yield RuleRefusal("ruleset_lot_pool_unknown", "no such pool",
                          pool=rs.shura.format_lot_pool)
    yield from _shura_owed(rs)
    yield from _cards(rs)
    penalty = rs.selection.penalty
    if rs.selection.illegal == "penalty" and not bounds.PENALTY.contains(penalty):
        yield RuleRefusal("ruleset_penalty_range", f"penalty {penalty}", penalty=penalty,
                          low=bounds.PENALTY.low, high=bounds.PENALTY.high)
    catalog = BUILTIN_CATALOGS.get(rs.catalog_version)
    if catalog is not None:
        try:
            catalog.validate(rs.selection.dummy)
        except RuleRefusal as refusal:
            yield refusal


def _cards(rs: RuleSet) -> Iterator[RuleRefusal]:
    """The 下関 cards: a number one draw can have, a redraw rule with two cards to compare,
    and a deck that holds the draw and its redraw (the deck is the catalog's, so it is
    checked when the catalog is a built-in one)."""
    c = rs.cards
    yield from _range("cards.cards_per_draw", c.cards_per_draw, 1, MAX_CARDS_PER_DRAW)
    redraws = c.extra_card != "never"
    if c.cards_per_draw == 1 and redraws:
        yield RuleRefusal("ruleset_cards_redraw_one", "a redraw compares two cards, one drawn",
                          key="cards.extra_card")
    catalog = BUILTIN_CATALOGS.get(rs.catalog_version)
    if catalog is None or not 1 <= c.cards_per_draw <= MAX_CARDS_PER_DRAW:
        return
    deck = len(shimonoseki_deck(catalog, c.deck))
    needed = c.cards_per_draw + (1 if redraws else 0)
    if deck < needed:
        yield RuleRefusal("ruleset_cards_deck_small", f"deck of {deck}, {needed} needed",
                          key="cards.cards_per_draw", deck=deck, needed=needed)


def _shura_owed(rs: RuleSet) -> Iterator[RuleRefusal]:
    """What 修羅 owes against its switch and its cap.

    While 修羅 is off what it owes is dormant, and a document that never composed it holds
    堅田's values (the defaults); composing anything else there contradicts the switch.
    While it is on: a ground owing more than the cap (that player could never register)
    and a 修羅 nobody can owe.
    """
    s = rs.shura
    for ground in SHURA_GROUNDS:
        yield from _range(f"shura.{ground}", getattr(s, ground), 0, MAX_LOTS)
    if not s.enabled:
        dormant = ShuraPolicy()
        if any(getattr(s, k) != getattr(dormant, k) for k in SHURA_LATER_KEYS):
            yield RuleRefusal("ruleset_shura_off_lots_owed", "what 修羅 owes, 修羅 is off")
        return
    owing = [g for g in SHURA_GROUNDS if getattr(s, g) > 0]
    for ground in owing:
        if getattr(s, ground) > s.max_lots:
            yield RuleRefusal("ruleset_shura_ground_over_cap", f"{ground} over the cap",
                              key=f"shura.{ground}", ground=ground,
                              lots=getattr(s, ground), cap=s.max_lots)
    if not owing and not s.voluntary:
        yield RuleRefusal("ruleset_shura_owes_nothing", "修羅 is on and owes nothing")
