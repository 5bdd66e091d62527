"""H9 ties at the tablet: two players on one on-screen place can be entered.

「2位が2回使われています」 refused what the result screen showed. The tablet now accepts a
tie in the screen's shape (1, 2, 2, 4), keeps the placements as entered (facts), derives
the order by the round's tie-break chain (default: score, then the lottery recorded from
the tournament's seed) and says so on the match page.
"""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Group, ResultFact, Round, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.conftest import running_round_one

pytestmark = pytest.mark.django_db

TIE = {1: ("310.50", 1), 2: ("250.00", 2), 3: ("250.00", 2), 4: ("180.00", 4)}


def _first_group(tournament: Tournament, cast: dict[str, Any]) -> Group:
    rnd: Round = running_round_one(tournament, 16, cast["organiser"])
    return Group.objects.filter(round=rnd).order_by("number").first()


def test_h9_a_tie_on_screen_is_accepted_and_ordered_by_the_seeded_lottery(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    group = _first_group(tournament, cast)
    svc.results_save(group=group, by=cast["bracket"], rows=TIE)
    stored = {f.seat.number: f.placement for f in ResultFact.objects.filter(group=group)}
    assert stored == {1: 1, 2: 2, 3: 2, 4: 4}  # what staff entered, kept as entered
    gv = sel.group_view(Group.objects.get(id=group.id))
    assert gv.result is not None
    assert [p.place for p in gv.result.players] == [1, 2, 3, 4]
    (tie,) = gv.result.screen_ties
    assert tie.screen_place == 2 and tie.decided_by == ("lottery",)
    again = sel.group_view(Group.objects.get(id=group.id))
    assert [p.player for p in again.result.players] == [p.player for p in gv.result.players]
    names = {str(s.entrant_id): s.entrant.name for s in gv.seats if s.entrant_id}
    note = next(w for w in gv.warnings if "画面で同じ2位" in w)
    assert "・".join(names[p] for p in tie.players) in note and "抽選" in note
    page = client_for(cast["bracket"]).get(
        f"/t/{tournament.slug}/match/{group.id}/").content.decode()
    assert "画面で同じ2位" in page


def test_h9_placements_not_in_the_screens_shape_are_refused(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    group = _first_group(tournament, cast)
    with pytest.raises(svc.RoundError) as err:
        svc.results_save(group=group, by=cast["bracket"], rows={**TIE, 4: ("180.00", 3)})
    assert "1・2・2・4位" in err.value.message and err.value.field == "place"
    assert not ResultFact.objects.filter(group=group).exists()
