"""Round-test fixtures: round 1 running (tests.states) and its first group."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Group, Round, Tournament
from tests.states import kyushu_state


def running_round_one(tournament: Tournament, entrants: int, user: Any,
                      preset: str = "kyushu-cup-ix") -> Round:
    """``entrants`` registered as checked in (no seeds), round 1 drawn and started: the
    named state round_1_running with this field."""
    kyushu_state(tournament, user, "round_1_running", count=entrants, seeds=0, preset=preset,
                 check_in_later=False)
    return Round.objects.get(tournament=tournament, number=1)


@pytest.fixture
def round_one(tournament: Tournament, cast: dict[str, Any]) -> Round:
    """九州杯IX with 16 checked-in entrants: round 1 drawn and running (4 full groups)."""
    return running_round_one(tournament, 16, cast["organiser"])


@pytest.fixture
def group(round_one: Round) -> Group:
    return Group.objects.filter(round=round_one).order_by("number").first()
