"""Buzzer engine timings (a script, not a test): ``python3 bench/buzzer.py``.

Prints the median of several runs, in ms, of:

* replaying a 50-question round of 12 players (12○5×-style log with wrongs, thrus and
  corrects), the work done on every operator click and scoreboard poll;
* replaying a 1,000-entrant written elimination (L3: 15 questions, sit after 2 wrong),
  the largest log the engine sees.

Why: state is never stored, only the log, so every request replays it from the start.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brackets.engine import EngineError
from brackets.engine.buzzer import (
    QUIZ_003,
    Correct,
    Event,
    PlayerSpec,
    RoundConfig,
    Rule,
    Thru,
    WrittenResults,
    Wrong,
    apply,
    replay,
    start,
)

RUNS = 7


def median_ms(func: Callable[[], object], runs: int = RUNS) -> float:
    """Median wall time of ``runs`` calls, in milliseconds."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        func()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def buzzer_log() -> tuple[RoundConfig, list[PlayerSpec], list[Event]]:
    """A valid 50-question log for 12 players, built by trying random operator clicks."""
    config = RoundConfig(
        win=Rule("correct-at-least", {"n": 12}),
        loss=Rule("wrong-at-least", {"n": 5}),
        slots=3,
        question_limit=50,
    )
    players = [PlayerSpec(f"p{i}", i, i) for i in range(1, 13)]
    rng = random.Random(4)
    state = start(config, players)
    log: list[Event] = []
    while state.question < 50 and state.phase == "playing":
        pid = f"p{rng.randrange(1, 13)}"
        roll = rng.random()
        event: Event = Correct(pid) if roll < 0.6 else Wrong(pid) if roll < 0.85 else Thru()
        try:
            state = apply(state, event)
        except EngineError:
            continue
        log.append(event)
    return config, players, log


def written_log(entrants: int = 1000) -> tuple[RoundConfig, list[PlayerSpec], list[Event]]:
    """15 questions for ``entrants`` players; each answers right with probability 0.9."""
    config = QUIZ_003.round("extra-1").config
    assert config is not None
    players = [PlayerSpec(f"e{i}", i, i) for i in range(1, entrants + 1)]
    rng = random.Random(3)
    state = start(config, players)
    log: list[Event] = []
    while state.phase == "playing":
        standing = [p for p in state.seat_order if state.players[p].status == "active"]
        event = WrittenResults.of({p: rng.random() < 0.9 for p in standing})
        state = apply(state, event)
        log.append(event)
    return config, players, log


def main() -> None:
    """Print the two timings."""
    config, players, log = buzzer_log()
    ms = median_ms(lambda: replay(config, players, log))
    print(f"buzzer round, 12 players, 50 questions ({len(log)} events): {ms:.2f} ms")
    config, players, log = written_log()
    ms = median_ms(lambda: replay(config, players, log))
    print(f"written elimination, 1,000 entrants ({len(log)} questions): {ms:.2f} ms")


if __name__ == "__main__":
    main()
