"""Desk fixtures: entrants made fast (bulk_create with derived keys) for size tests."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Entrant, Tournament
from brackets.services.entrants import entrant_keys, entrant_register

FAMILY = ["たなか", "すずき", "さとう", "たかはし", "いとう", "わたなべ", "やまもと", "なかむら"]


def bulk_entrants(tournament: Tournament, count: int, *, start: int = 0) -> list[Entrant]:
    """``count`` general entrants, numbered from ``start``, written in one bulk insert."""
    entrants = []
    for i in range(start, start + count):
        reading = f"{FAMILY[i % len(FAMILY)]}{i}"
        entrant = Entrant(
            tournament=tournament,
            name=f"参加者{i}",
            reading=reading,
            card_name=f"CN{i}",
            q_level=i % 120,
            checked_in=i % 3 == 0,
            fee_paid=i % 2 == 0,
        )
        entrant.search_key, entrant.card_key = entrant_keys(
            name=entrant.name, reading=entrant.reading, card_name=entrant.card_name
        )
        entrants.append(entrant)
    return Entrant.objects.bulk_create(entrants, batch_size=500)


@pytest.fixture
def register(tournament: Tournament, cast: dict[str, Any]) -> Any:
    """Register an entrant as desk staff, with sensible defaults."""

    def make(**data: Any) -> Entrant:
        defaults: dict[str, Any] = {"name": "山田太郎", "reading": "やまだたろう", "card_name": "ヤマダ"}
        return entrant_register(tournament=tournament, by=cast["desk"], data={**defaults, **data})

    return make
