"""Group verdicts are memoised on the engine's exact inputs (selectors.rounds._derive):
a repeat derive gives the same verdict, a correction gives a new one, and what a page does
with its copy never leaks into the next page."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Group
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc

pytestmark = pytest.mark.django_db

GOOD = {1: ("310.50", 1), 2: ("290.00", 2), 3: ("250.00", 3), 4: ("180.00", 4)}


def test_memoised_verdicts_follow_the_facts(group: Group, cast: dict[str, Any]) -> None:
    svc.results_save(group=group, by=cast["bracket"], rows=GOOD)
    first = sel.group_view(Group.objects.get(id=group.id))
    assert first.result is not None
    first.ratios.clear()  # a page's own copy
    first.warnings.append("x")
    again = sel.group_view(Group.objects.get(id=group.id))
    assert again.result == first.result and again.ratios and "x" not in again.warnings
    svc.results_save(group=Group.objects.get(id=group.id), by=cast["bracket"],
                     rows={**GOOD, 1: ("200.00", 3), 3: ("250.00", 1)})
    corrected = sel.group_view(Group.objects.get(id=group.id))
    assert corrected.result.ranking()[0] != first.result.ranking()[0]
    sel._VERDICTS.clear()  # computed afresh, the verdict is the same
    fresh = sel.group_view(Group.objects.get(id=group.id))
    assert fresh.result == corrected.result and fresh.ratios == corrected.ratios
