"""Round 1 running with two groups' results, as the round pages' cache tests start from."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Group, Tournament
from brackets.services import rounds as svc
from tests.states import round_1_running

#: A group's four results, the first place clearly ahead.
ROWS = {1: ("432.10", 1), 2: ("250.00", 2), 3: ("200.00", 3), 4: ("150.00", 4)}


@pytest.fixture
def groups(tournament: Tournament, cast: dict[str, Any]) -> list[Group]:
    """Round 1 running (4 groups, one page), groups A and B with results."""
    round_1_running(tournament, cast["organiser"])
    found = list(Group.objects.filter(round__tournament=tournament, round__number=1)
                 .order_by("number"))
    for g in found[:2]:
        svc.results_save(group=g, by=cast["organiser"], rows=ROWS)
    return found
