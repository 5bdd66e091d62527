"""Issue 19, defect 10: a round of more than 702 groups could not be drawn (``label_for``
ran out of two-letter labels: IndexError at about 2,800 entrants). Labels go on: AAA …"""

from __future__ import annotations

from typing import Any

import pytest

from brackets.labels import group_label
from brackets.models import Group, Tournament
from brackets.services import rounds as svc


@pytest.mark.parametrize(("index", "label"), [
    (0, "A"), (25, "Z"), (26, "AA"), (51, "AZ"), (52, "BA"), (701, "ZZ"), (702, "AAA"),
    (703, "AAB"), (18277, "ZZZ"), (18278, "AAAA"),
])
def test_group_labels_run_like_spreadsheet_columns(index: int, label: str) -> None:
    assert group_label(index) == label
    assert svc.label_for(index) == label


def test_group_labels_are_unique_past_two_letters() -> None:
    labels = [group_label(i) for i in range(20000)]
    assert len(set(labels)) == len(labels)


@pytest.mark.django_db
def test_a_round_of_more_than_702_groups_is_drawn(tournament: Tournament,
                                                  cast: dict[str, Any]) -> None:
    from tests.rounds.helpers import add_entrants

    tournament.capacity = 3000
    tournament.save()
    add_entrants(tournament, 2820)
    first = svc.rounds_configure(tournament=tournament, by=cast["organiser"])[0]
    svc.round_draw(round=first, by=cast["organiser"])
    labels = list(Group.objects.filter(round=first).order_by("number")
                  .values_list("label", flat=True))
    assert len(labels) > 702
    assert labels[702] == "AAA" and len(set(labels)) == len(labels)
