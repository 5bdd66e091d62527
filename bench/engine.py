"""Engine timings at scale (a script, not a test): ``python3 bench/engine.py``.

For 256, 1,024 and 4,096 entrants it prints the median of several runs, in ms, of:

* drawing one round (random draw with seat lottery, plus a snake draw from a ranking);
* computing advancement with wildcards (standings, 惜敗率, top 2 per group, wildcards to a
  target, cross-group table) from the round's match results;
* the legal choices of every entrant for one match (restrictions.py), see
  :func:`bench_legal_choices`.

Why: the web pages (tablet result entry, the cross-group table shown before confirming a
cut) recompute these on every request, so they must stay far below a page's time budget.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brackets.engine import (
    AdvancementRule,
    Draw,
    Lottery,
    MatchResult,
    SeatEntry,
    TieContext,
    advance,
    draw_groups,
    match_result,
)

SIZES = (256, 1024, 4096)
RUNS = 7


def median_ms(func: Callable[[], object], runs: int = RUNS) -> float:
    """Median wall time of ``runs`` calls, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def players(n: int) -> list[str]:
    return [f"p{i:05d}" for i in range(n)]


def round_results(draw: Draw, seed: str) -> dict[str, MatchResult]:
    """Plausible results for every group: scores from the lottery, screen order by score."""
    lot = Lottery(seed, "bench/scores")
    results: dict[str, MatchResult] = {}
    for group in draw.groups:
        rows = [
            (seat, player, Decimal(lot.die(40000)) / 100)
            for seat, player in enumerate(group.seats, start=1)
        ]
        ranked = sorted(rows, key=lambda r: (-r[2], r[0]))
        entries = [
            SeatEntry(seat, player, score, ranked.index((seat, player, score)) + 1)
            for seat, player, score in rows
        ]
        results[str(group.number)] = match_result(entries, group=set(group.players))
    return results


def bench_draw(n: int) -> tuple[float, float]:
    names = players(n)
    seeds = names[:8]
    lottery = Lottery("bench", f"round-1/{n}")
    random_ms = median_ms(lambda: draw_groups(names, seeds=seeds, lottery=lottery))
    snake_ms = median_ms(lambda: draw_groups(names, method="snake", seat_mode="in_order"))
    return random_ms, snake_ms


def bench_results_and_advancement(n: int) -> tuple[float, float]:
    names = players(n)
    draw = draw_groups(names, lottery=Lottery("bench", f"round-1/{n}"))
    results_ms = median_ms(lambda: round_results(draw, "bench"))
    results = round_results(draw, "bench")
    groups = len(draw.groups)
    rule = AdvancementRule(per_group=2, target=2 * groups + groups // 4, already_in=0)
    ctx = TieContext(lottery=Lottery("bench", "round-1/wildcards"))
    advance_ms = median_ms(lambda: advance(results, rule, context=ctx))
    return results_ms, advance_ms


# --------------------------------------------------------------------------------------
# LEGAL CHOICES TIMING (restrictions.py, written by another helper).
# Everything restrictions-specific lives in this function; if its API changes, adapt here.
# --------------------------------------------------------------------------------------
def bench_legal_choices(n: int) -> tuple[float, float] | None:
    """Median ms to compute every entrant's legal choices for one match: first the legal
    genres and format units (what advancement pages and usage cards need), then the full
    option grid with a reason for every illegal cell (what one match page shows for its
    four players, here done for every entrant).

    Each entrant has three earlier sets in the history (mid-tournament, K1 basic rule) and
    the match has 下関 cards (K7), the heaviest common case. ``None`` if restrictions.py is
    not importable.
    """
    try:
        from brackets.engine import (
            BASIC_RULE,
            CATALOG_2016,
            HistoryEntry,
            MatchRules,
            Selection,
            legal_choices,
        )
    except ImportError:
        return None
    genres = [g for g in CATALOG_2016.genre_names if g != CATALOG_2016.nongenre]
    formats = [f for f in CATALOG_2016.format_names if f != CATALOG_2016.random_format]
    histories = []
    for i in range(n):
        histories.append(
            [
                HistoryEntry(
                    Selection(
                        genres[(i + k) % len(genres)],
                        formats[(i * 3 + k * 5) % len(formats)],
                        "HARD",
                    ),
                    round=f"R{k + 1}",
                )
                for k in range(3)
            ]
        )
    match = MatchRules(
        round="R4",
        card_genres=frozenset(genres[:2]),
        card_groups=frozenset(
            {CATALOG_2016.group_of(formats[0]), CATALOG_2016.group_of(formats[4])}
        ),
    )

    def legal_sets() -> None:
        for history in histories:
            choices = legal_choices(CATALOG_2016, BASIC_RULE, history, match)
            choices.legal_genres, choices.legal_units  # noqa: B018 - force the computation

    def option_grids() -> None:
        for history in histories:
            legal_choices(CATALOG_2016, BASIC_RULE, history, match).options()

    return median_ms(legal_sets, runs=5), median_ms(option_grids, runs=3)


def main() -> None:
    print(
        f"{'entrants':>8} {'draw rnd':>9} {'draw snk':>9} {'results':>9} "
        f"{'advance':>9} {'legal':>9} {'grids':>9}   (median ms)"
    )
    for n in SIZES:
        random_ms, snake_ms = bench_draw(n)
        results_ms, advance_ms = bench_results_and_advancement(n)
        legal = bench_legal_choices(n)
        legal_text = "n/a n/a" if legal is None else f"{legal[0]:9.1f} {legal[1]:9.1f}"
        print(
            f"{n:>8} {random_ms:9.2f} {snake_ms:9.2f} {results_ms:9.2f} "
            f"{advance_ms:9.2f} {legal_text:>9}"
        )


if __name__ == "__main__":
    main()
