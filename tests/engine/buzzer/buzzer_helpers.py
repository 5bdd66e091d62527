"""Small builders shared by the buzzer engine tests."""

from __future__ import annotations

from collections.abc import Sequence

from brackets.engine.buzzer import Event, PlayerSpec, RoundConfig, RoundState, replay


def specs(n: int, prefix: str = "p") -> list[PlayerSpec]:
    """``n`` players p1..pn in seats 1..n with 1st Round rank = seat."""
    return [PlayerSpec(f"{prefix}{i}", i, i) for i in range(1, n + 1)]


def run(
    config: RoundConfig, players: int | Sequence[PlayerSpec], events: Sequence[Event]
) -> RoundState:
    """Replay ``events`` with ``players`` (a count or specs)."""
    ps = specs(players) if isinstance(players, int) else list(players)
    return replay(config, ps, events)
