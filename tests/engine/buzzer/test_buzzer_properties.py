"""Property tests: a round is exactly the replay of its log, whatever the log."""

from __future__ import annotations

import json

from buzzer_helpers import specs
from hypothesis import given, settings
from hypothesis import strategies as st

from brackets.engine import EngineError
from brackets.engine.buzzer import (
    ABC_004,
    QUIZ_003,
    BoardResults,
    ClockExpire,
    ClockStart,
    ClockStop,
    Correct,
    Event,
    RoundConfig,
    RoundState,
    Thru,
    TieBreak,
    Undo,
    WrittenResults,
    Wrong,
    apply,
    event_from_dict,
    ranking,
    replay,
    scoreboard,
    start,
)

CONFIGS: list[tuple[RoundConfig, int]] = []
for preset, slug, n in [
    (QUIZ_003, "2r", 7),
    (QUIZ_003, "3r", 7),
    (QUIZ_003, "extra-2", 5),
    (QUIZ_003, "qf-2", 8),
    (QUIZ_003, "sf-1", 8),
    (QUIZ_003, "sf-3", 4),
    (QUIZ_003, "final", 4),
    (QUIZ_003, "extra-1", 16),
    (ABC_004, "2r", 12),
    (ABC_004, "3r-updown", 5),
    (ABC_004, "3r-freeze", 5),
    (ABC_004, "3r-swedish", 5),
    (ABC_004, "3r-10by10", 5),
    (ABC_004, "sf-1", 9),
    (ABC_004, "final", 3),
    (ABC_004, "extra-1", 16),
]:
    cfg = preset.round(slug).config
    assert cfg is not None
    CONFIGS.append((cfg, n))

# A step picks an action kind and a player index; invalid steps are skipped, so every
# generated log is a valid one built the way an operator would.
steps = st.lists(
    st.tuples(st.integers(0, 9), st.integers(0, 15), st.integers(0, 2**16)), max_size=80
)


def _candidate(state: RoundState, kind: int, who: int, bits: int) -> Event:
    ids = list(state.seat_order)
    pid = ids[who % len(ids)]
    if state.config.format == "written":
        standing = [p for p in ids if state.players[p].status == "active"]
        return WrittenResults.of({p: bool(bits >> (i % 16) & 1) for i, p in enumerate(standing)})
    if state.pending:
        d = state.pending[bits % len(state.pending)]
        order = sorted(d.candidates, key=lambda p: (bits * (ids.index(p) + 7)) % 101)
        return TieBreak(d.side, tuple(order))
    if kind in (0, 1, 2):
        return Correct(pid)
    if kind in (3, 4):
        return Wrong(pid)
    if kind == 5:
        return Thru()
    if kind == 6:
        if state.config.scoring.slug == "board":
            chosen = frozenset(p for i, p in enumerate(ids) if bits >> i & 1 and p != pid)
            return BoardResults(chosen, pid if bits & 1 else None, bool(bits & 2))
        return Undo()
    if kind == 7:
        elapsed = state.clock.elapsed_ms + bits
        if state.clock.running:
            return ClockStop(elapsed)
        return ClockStart(elapsed)
    if kind == 8:
        return ClockExpire(None, bool(bits & 1))
    return Thru()


def build(
    config: RoundConfig, n: int, raw: list[tuple[int, int, int]]
) -> tuple[list[Event], list[RoundState]]:
    state = start(config, specs(n))
    log: list[Event] = []
    states = [state]
    for kind, who, bits in raw:
        event = _candidate(state, kind, who, bits)
        try:
            state = apply(state, event)
        except EngineError:
            continue
        log.append(event)
        states.append(state)
    return log, states


def check_invariants(state: RoundState) -> None:
    winners, outs = set(state.winners), set(state.outs)
    assert len(state.winners) == len(winners) and len(state.outs) == len(outs)
    if state.config.format == "buzzer":
        assert len(state.winners) <= state.config.slots
    assert not winners & outs
    for pid, p in state.players.items():
        assert (p.status == "won") == (pid in winners)
        assert (p.status == "out") == (pid in outs)
    if state.over:
        listed = winners | outs | set(state.continuing)
        assert listed == set(state.players), "every player is placed once the round is over"
    assert sorted(r.player for r in ranking(state)) == sorted(state.players)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(CONFIGS) - 1), steps)
def test_replaying_any_prefix_equals_the_state_after_those_events(
    which: int, raw: list[tuple[int, int, int]]
) -> None:
    config, n = CONFIGS[which]
    log, states = build(config, n, raw)
    for k in range(0, len(log) + 1, max(1, len(log) // 6)):
        assert replay(config, specs(n), log[:k]) == states[k]
    stored = [event_from_dict(json.loads(json.dumps(e.to_dict()))) for e in log]
    assert replay(config, specs(n), stored) == states[-1]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(CONFIGS) - 1), steps)
def test_undo_of_the_last_event_equals_the_shorter_prefix(
    which: int, raw: list[tuple[int, int, int]]
) -> None:
    config, n = CONFIGS[which]
    log, states = build(config, n, raw)
    for k in range(1, len(states)):
        if isinstance(log[k - 1], Undo):
            continue
        undone = apply(states[k], Undo())
        assert undone == states[k - 1]
    if log and not isinstance(log[-1], Undo):
        assert replay(config, specs(n), [*log, Undo()]) == states[-2]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(CONFIGS) - 1), steps)
def test_winners_never_exceed_slots_and_nobody_both_wins_and_is_out(
    which: int, raw: list[tuple[int, int, int]]
) -> None:
    config, n = CONFIGS[which]
    _, states = build(config, n, raw)
    for state in states:
        check_invariants(state)
        json.dumps(scoreboard(state))
