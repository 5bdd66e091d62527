"""The result save reads and checks outside the SQLite write lock (see
``services.rounds.results_save``): these tests run it outside any transaction, as a server
request does, and check that a group that moved meanwhile is re-read under the lock."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Group, ResultFact, Round, Submission
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.rounds.conftest import running_round_one

pytestmark = pytest.mark.django_db(transaction=True)

GOOD = {1: ("310.50", 1), 2: ("290.00", 2), 3: ("250.00", 3), 4: ("180.00", 4)}


@pytest.fixture
def fresh_group(tournament: Any, cast: dict[str, Any]) -> Group:
    rnd: Round = running_round_one(tournament, 16, cast["organiser"])
    return Group.objects.select_related("round", "round__tournament").filter(
        round=rnd).order_by("number").first()


def test_save_outside_a_transaction_records_every_seat(fresh_group: Group,
                                                       cast: dict[str, Any]) -> None:
    version = svc.results_save(group=fresh_group, by=cast["bracket"], rows=GOOD, key="k1")
    assert version == fresh_group.version + 1
    gv = sel.group_view(Group.objects.get(id=fresh_group.id))
    assert {n: (str(r.score), r.placement) for n, r in gv.result_rows.items()} == {
        n: (s, p) for n, (s, p) in GOOD.items()}
    assert Submission.objects.filter(key="k1").count() == 1


def test_a_group_that_moved_after_loading_is_reread_under_the_lock(
        fresh_group: Group, cast: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    svc.results_save(group=fresh_group, by=cast["bracket"], rows=GOOD)
    loaded = Group.objects.select_related("round", "round__tournament").get(id=fresh_group.id)
    original = sel.group_view
    calls: list[str] = []

    def read_then_another_tablet_saves(group: Group, derive: bool = True) -> sel.GroupView:
        view = original(group, derive)
        if not calls:  # the early read: another tablet corrects seat 2 right after it
            calls.append("early")
            svc.results_save(group=Group.objects.get(id=group.id), by=cast["organiser"],
                             rows={**GOOD, 2: ("291.00", 2)})
        return view

    monkeypatch.setattr(sel, "group_view", read_then_another_tablet_saves)
    before = ResultFact.objects.filter(group=fresh_group).count()
    svc.results_save(group=loaded, by=cast["bracket"], rows={**GOOD, 3: ("251.00", 3)})
    new = list(ResultFact.objects.filter(group=fresh_group).order_by("id"))[before:]
    # The other tablet's seat-2 fix, then ours, checked against the facts under the lock:
    # our form still says 290.00 for seat 2, which now differs from the stored 291.00, so
    # it is written as a correction of 291.00. Trusting the early read (taken before the
    # fix, when seat 2 was 290.00) would have skipped seat 2 and left 291.00 standing.
    assert [(r.seat.number, str(r.score)) for r in new] == [
        (2, "291.00"), (2, "290.00"), (3, "251.00")]
    assert str(new[1].supersedes.score) == "291.00"


def test_refusals_are_the_locked_path_s_and_save_nothing(fresh_group: Group,
                                                        cast: dict[str, Any]) -> None:
    before = ResultFact.objects.count()
    with pytest.raises(svc.RoundError) as info:
        svc.results_save(group=fresh_group, by=cast["bracket"],
                         rows={**GOOD, 3: ("250.00", 2)})
    assert "2位が2回" in info.value.message
    Round.objects.filter(id=fresh_group.round_id).update(status=Round.Status.CLOSED)
    with pytest.raises(svc.RoundError) as info:  # the round check still comes first
        svc.results_save(group=fresh_group, by=cast["bracket"],
                         rows={**GOOD, 3: ("250.00", 2)})
    assert "受け付けていません" in info.value.message
    assert ResultFact.objects.count() == before
