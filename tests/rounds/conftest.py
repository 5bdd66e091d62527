"""Named tournament states for the round tests."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Group, Round, Tournament
from brackets.services import rounds as svc
from tests.rounds.helpers import add_entrants


def running_round_one(tournament: Tournament, entrants: int, user: Any,
                      preset: str = "kyushu-cup-ix") -> Round:
    tournament.preset = preset
    tournament.save()
    add_entrants(tournament, entrants)
    rounds = svc.rounds_configure(tournament=tournament, by=user)
    svc.round_draw(round=rounds[0], by=user)
    svc.round_start(round=rounds[0], by=user)
    return Round.objects.get(id=rounds[0].id)


@pytest.fixture
def round_one(tournament: Tournament, cast: dict[str, Any]) -> Round:
    """九州杯IX with 16 checked-in entrants: round 1 drawn and running (4 full groups)."""
    return running_round_one(tournament, 16, cast["organiser"])


@pytest.fixture
def group(round_one: Round) -> Group:
    return Group.objects.filter(round=round_one).order_by("number").first()
