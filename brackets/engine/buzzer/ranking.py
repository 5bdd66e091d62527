"""The current order of a round's players, from its state alone.

Kept apart from :mod:`.engine` so the scoreboard payload can rank a state without importing
the event machinery (and without an import cycle through :mod:`.state`).
"""

from __future__ import annotations

from brackets.engine.buzzer.core import resolved_blocks, sort_key
from brackets.engine.buzzer.rules import key_tuple
from brackets.engine.buzzer.state import OVER, RankEntry, RoundState


def ranking(state: RoundState) -> list[RankEntry]:
    """Current order: winners in win order, then the players still in play, then the outs.

    In play, players follow the round's judging keys, then the earliest last correct, then
    fallback rank (the documented in-progress order). Once judged, the judged order is
    used; outs are listed latest first (a later out ranks higher).
    """
    keys = state.config.judge_keys
    rows: list[tuple[str, str, tuple[float, ...] | None]] = [
        (pid, "won", None) for pid in state.winners
    ]
    if state.phase == OVER:
        rows += [(pid, "continuing", None) for pid in state.continuing]
    elif state.judged:
        for block in resolved_blocks(state):
            for pid in block:
                rows.append((pid, state.players[pid].status, key_tuple(keys, state.players[pid])))
    else:
        remaining = sorted(
            state.remaining,
            key=lambda pid: sort_key(keys + ("earliest_last_correct",), state.players[pid]),
        )
        rows += [
            (pid, state.players[pid].status, key_tuple(keys, state.players[pid]))
            for pid in remaining
        ]
    rows += [(pid, "out", None) for pid in reversed(state.outs)]
    entries: list[RankEntry] = []
    for i, (pid, status, key) in enumerate(rows):
        tied = key is not None and any(
            0 <= j < len(rows) and rows[j][2] == key for j in (i - 1, i + 1)
        )
        entries.append(RankEntry(i + 1, pid, status, tied))
    return entries
