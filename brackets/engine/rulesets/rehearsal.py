"""A rehearsal: the whole event played headless several times before the day (#17 item 3).

:func:`rehearse` compiles a :class:`~.document.RuleSet`, plans its rounds for the field and
plays the event ``runs`` times with random results (:mod:`.rehearsal_play`), then reports
per round what an organiser checks a rule page against: players, groups, dummies,
advancers, wildcards (惜敗率), the spread of open genres and formats at each match, an
estimated duration, and every match where a player had no legal choice left (the rule's
fallback was played), with the run, group, player and mode to find it. The same document,
field and seed always give the same report.

Work is bounded: at most :data:`MAX_ENTRANTS` entrants, :data:`MAX_RUNS` runs and
:data:`MAX_PLAYER_RUNS` entrants × runs (:func:`check_rehearsal`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import RuleRefusal
from ..lottery import Lottery
from ..presets.spec import RoundKind
from .compile import compile_ruleset
from .document import RuleSet
from .rehearsal_play import RoundRun, Shortfall, play_event

MAX_ENTRANTS = REHEARSAL_MAX_ENTRANTS = 1024
MAX_SEEDS = 64
MAX_RUNS = REHEARSAL_MAX_RUNS = 20
#: entrants × runs: a 1,024-player field rehearses 4 times, a 100-player field 20 times.
MAX_PLAYER_RUNS = REHEARSAL_MAX_PLAYER_RUNS = 4096
MAX_MINUTES = 120
MAX_CABINETS = 64
#: Shortfalls kept per round (the count is always exact): enough to find the pattern.
SHORTFALLS_SHOWN = 20


@dataclass(frozen=True)
class Span:
    """The least and the most of a count over the runs (equal when it never varies)."""

    low: int
    high: int

    @classmethod
    def of(cls, values: Sequence[int]) -> Span:
        return cls(min(values), max(values)) if values else cls(0, 0)

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}–{self.high}"


@dataclass(frozen=True)
class Spread:
    """Least, median and most of a count over every player at every match of every run."""

    low: int
    median: float
    high: int

    @classmethod
    def of(cls, values: Sequence[int]) -> Spread:
        if not values:
            return cls(0, 0.0, 0)
        return cls(min(values), float(statistics.median(values)), max(values))

    def __str__(self) -> str:
        median = f"{self.median:g}"
        return f"{self.low} / {median} / {self.high}"


@dataclass(frozen=True)
class RoundRehearsal:
    """One round over every run.

    ``genres_left`` / ``formats_left``: open genres and format units of each player at each
    match (0: none, the fallback was played). ``minutes``: the most matches of a run ×
    minutes per match, shared over ``cabinets`` sets when known. ``shortfalls``: the first
    :data:`SHORTFALLS_SHOWN` of ``shortfall_count`` matches a player had no legal choice.
    """

    key: str
    name: str
    kind: RoundKind
    players: Span
    groups: Span
    dummies: Span
    advancers: Span
    wildcards: Span
    matches: Span
    genres_left: Spread
    formats_left: Spread
    minutes: float
    shortfall_count: int
    shortfalls: tuple[Shortfall, ...]

    @property
    def flagged(self) -> bool:
        """A player was left with no legal choice in some run."""
        return self.shortfall_count > 0


@dataclass(frozen=True)
class Rehearsal:
    """The report of :func:`rehearse`."""

    ruleset: str
    entrants: int
    seeds: int
    runs: int
    seed: str
    minutes_per_match: float
    cabinets: int | None
    rounds: tuple[RoundRehearsal, ...]

    @property
    def minutes(self) -> float:
        """The whole event, round after round."""
        return sum(r.minutes for r in self.rounds)

    @property
    def flagged(self) -> tuple[RoundRehearsal, ...]:
        return tuple(r for r in self.rounds if r.flagged)


def _outside(value: float, low: float, high: float) -> bool:
    return not low <= value <= high


def check_rehearsal(entrants: int, seeds: int, runs: int, minutes_per_match: float,
                    cabinets: int | None = None) -> None:
    """Refuse a rehearsal outside the bounds (one server must not be held up by one)."""
    if _outside(entrants, 2, MAX_ENTRANTS):
        raise RuleRefusal("rehearsal_entrants_range", f"entrants {entrants}",
                          value=entrants, low=2, high=MAX_ENTRANTS)
    if _outside(seeds, 0, MAX_SEEDS):
        raise RuleRefusal("rehearsal_seeds_range", f"seeds {seeds}",
                          value=seeds, low=0, high=MAX_SEEDS)
    if _outside(runs, 1, MAX_RUNS):
        raise RuleRefusal("rehearsal_runs_range", f"runs {runs}",
                          value=runs, low=1, high=MAX_RUNS)
    if _outside(minutes_per_match, 1, MAX_MINUTES):
        raise RuleRefusal("rehearsal_minutes_range", f"minutes {minutes_per_match}",
                          value=minutes_per_match, low=1, high=MAX_MINUTES)
    if cabinets is not None and _outside(cabinets, 1, MAX_CABINETS):
        raise RuleRefusal("rehearsal_cabinets_range", f"cabinet sets {cabinets}",
                          value=cabinets, low=1, high=MAX_CABINETS)
    if (entrants + seeds) * runs > MAX_PLAYER_RUNS:
        raise RuleRefusal("rehearsal_too_large", f"{entrants + seeds} × {runs} runs",
                          players=entrants + seeds, runs=runs, most=MAX_PLAYER_RUNS,
                          runs_allowed=max(1, MAX_PLAYER_RUNS // (entrants + seeds)))


def rehearse(document: RuleSet, entrants: int, seeds: int = 0, runs: int = 5,
             seed: str = "rehearsal", minutes_per_match: float = 12.0,
             cabinets: int | None = None) -> Rehearsal:
    """Play the event of ``document`` ``runs`` times for ``entrants`` and ``seeds``.

    A field the rules cannot plan or draw is refused as the tournament would refuse it
    (``round_overfull``, ``too_few_players`` …); so are bounds (:func:`check_rehearsal`).
    """
    check_rehearsal(entrants, seeds, runs, minutes_per_match, cabinets)
    preset = compile_ruleset(document)
    rounds = preset.rounds_for(entrants, seeds)
    per_run: list[dict[str, RoundRun]] = []
    for number in range(1, runs + 1):
        lot = Lottery(seed, f"rehearsal/{number}")
        per_run.append(dict(play_event(preset, rounds, entrants, seeds, lot, number)))
    out: list[RoundRehearsal] = []
    for spec in rounds:
        played = [run[spec.key] for run in per_run if spec.key in run]
        matches = Span.of([r.matches for r in played])
        sets = math.ceil(matches.high / cabinets) if cabinets else matches.high
        shortfalls = [s for r in played for s in r.shortfalls]
        out.append(RoundRehearsal(
            key=spec.key, name=spec.name, kind=spec.kind,
            players=Span.of([r.players for r in played]),
            groups=Span.of([r.groups for r in played]),
            dummies=Span.of([r.dummies for r in played]),
            advancers=Span.of([r.advancers for r in played]),
            wildcards=Span.of([r.wildcards for r in played]),
            matches=matches,
            genres_left=Spread.of([n for r in played for n in r.genres_left]),
            formats_left=Spread.of([n for r in played for n in r.formats_left]),
            minutes=sets * minutes_per_match,
            shortfall_count=len(shortfalls),
            shortfalls=tuple(shortfalls[:SHORTFALLS_SHOWN])))
    return Rehearsal(ruleset=document.name, entrants=entrants, seeds=seeds, runs=runs,
                     seed=seed, minutes_per_match=minutes_per_match, cabinets=cabinets,
                     rounds=tuple(out))
