"""Series rows → the engine's berth inputs (``brackets.engine.series``).

The one place a finished qualifier's podium (read by ``brackets.selectors.series``) or a hand grant becomes engine input, so the
desk (H0), the series pages and the grant service ask the engine the same question. A
placement is keyed by the registry player it is linked to (merged duplicates read as the
kept player), else by the entrant, so a berth won before the registry knew the player is
still a berth.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from brackets import engine_adapter as ea
from brackets.adapters import players as ad
from brackets.engine import BerthGrant, EngineError, QualifierResult
from brackets.models import Entrant, Player, SeriesBerthGrant, Tournament


def player_key(player: Player) -> str:
    return f"p{ad.canonical(player).pk}"


def entrant_key(entrant: Entrant) -> str:
    return player_key(entrant.player) if entrant.player_id else f"e{entrant.pk}"


def berths_of(tournament: Tournament) -> int:
    """How many berths a qualifier grants: its preset's ``berths`` (堅田: the setting)."""
    try:
        return int(ea.preset_for(tournament).berths)
    except EngineError:
        return 0


def qualifier_result(tournament: Tournament, podium: Sequence[Entrant]) -> QualifierResult:
    """A finished qualifier as the engine weighs it: its podium's entrants, best first."""
    return QualifierResult(f"t{tournament.pk}", held_on(tournament),
                           tuple(entrant_key(e) for e in podium), berths_of(tournament),
                           tournament.pk)


def grant_of(row: SeriesBerthGrant) -> BerthGrant:
    return BerthGrant(f"g{row.pk}" if row.pk else "new", row.qualifier.strip(),
                      row.held_on.isoformat() if row.held_on else "", row.place,
                      player_key(row.player))


def held_on(tournament: Any) -> str:
    return tournament.date.isoformat() if tournament.date else ""
