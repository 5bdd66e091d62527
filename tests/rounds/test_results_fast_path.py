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
    original = sel.write_check_rows
    calls: list[str] = []

    def read_then_another_tablet_saves(group: Group) -> sel.GroupRows:
        rows = original(group)
        if not calls:  # the early read: another tablet corrects seat 2 right after it
            calls.append("early")
            svc.results_save(group=Group.objects.select_related(
                "round", "round__tournament").get(id=group.id), by=cast["organiser"],
                rows={**GOOD, 2: ("291.00", 2)})
        return rows

    monkeypatch.setattr(sel, "write_check_rows", read_then_another_tablet_saves)
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
                         rows={**GOOD, 3: ("250.00", 2), 4: ("180.00", 3)})
    assert "1・2・2・4位" in info.value.message  # 1, 2, 2, 3 is no screen (H9)
    Round.objects.filter(id=fresh_group.round_id).update(status=Round.Status.CLOSED)
    with pytest.raises(svc.RoundError) as info:  # the round check still comes first
        svc.results_save(group=fresh_group, by=cast["bracket"],
                         rows={**GOOD, 3: ("250.00", 2)})
    assert "受け付けていません" in info.value.message
    assert ResultFact.objects.count() == before


def _loaded(group: Group) -> Group:
    """The group as a request loads it (the round and tournament with it)."""
    return Group.objects.select_related("round", "round__tournament").get(id=group.id)


FACT_TABLES = ("brackets_seat", "brackets_selectionfact", "brackets_resultfact",
               "brackets_penaltyfact", "brackets_disqualificationfact", "brackets_rematchfact")


def _fact_reads(queries: list[dict[str, Any]]) -> list[str]:
    return [q["sql"] for q in queries
            if q["sql"].startswith("SELECT") and any(f'FROM "{t}"' in q["sql"]
                                                     for t in FACT_TABLES)]


def test_a_correction_right_after_a_save_reads_no_facts_again(
        fresh_group: Group, cast: dict[str, Any]) -> None:
    """The rows a save read plus what it wrote are the group's rows at its new version, so
    the same tablet's next save (a correction) checks against them without reading."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    svc.results_save(group=fresh_group, by=cast["bracket"], rows=GOOD, key="first")
    with CaptureQueriesContext(connection) as ctx:
        svc.results_save(group=_loaded(fresh_group), by=cast["bracket"],
                         rows={**GOOD, 1: ("311.00", 1)}, key="second")
    assert _fact_reads(ctx.captured_queries) == []
    newest = ResultFact.objects.filter(group=fresh_group).order_by("-id").first()
    assert (newest.seat.number, str(newest.score)) == (1, "311.00")
    assert str(newest.supersedes.score) == "310.50"  # the correction names what it replaces
    # A third save still sees the correction as current: nothing is written for seat 1.
    before = ResultFact.objects.count()
    svc.results_save(group=_loaded(fresh_group), by=cast["bracket"],
                     rows={**GOOD, 1: ("311.00", 1)})
    assert ResultFact.objects.count() == before


def test_facts_written_elsewhere_are_read_again(fresh_group: Group,
                                                cast: dict[str, Any]) -> None:
    """A disqualification (or a save by another server process) bumps the version, so the
    next result save reads the rows again instead of trusting the ones it kept."""
    svc.results_save(group=fresh_group, by=cast["bracket"], rows=GOOD)
    svc.disqualification_add(group=_loaded(fresh_group), by=cast["organiser"], seat_number=4,
                              reason="遅刻")
    group = _loaded(fresh_group)
    rows = sel.write_check_rows(group)
    assert [d.seat.number for d in rows.dqs] == [4]
    # Another process corrects seat 2 (facts and version in one transaction, as _lock and
    # _finish do), unseen by this process's kept rows.
    from django.db import transaction
    from django.db.models import F

    seat2 = next(s for s in rows.seats if s.number == 2)
    with transaction.atomic():
        current = ResultFact.objects.filter(seat=seat2).order_by("-id").first()
        ResultFact.objects.create(group=group, seat=seat2, score="295.00", placement=2,
                                  supersedes=current, by=cast["organiser"],
                                  base_version=group.version)
        Group.objects.filter(id=group.id).update(version=F("version") + 1)
    svc.results_save(group=_loaded(fresh_group), by=cast["bracket"], rows=GOOD)
    newest = ResultFact.objects.filter(seat=seat2).order_by("-id").first()
    assert str(newest.score) == "290.00" and str(newest.supersedes.score) == "295.00"


def test_a_refused_save_keeps_nothing(fresh_group: Group, cast: dict[str, Any]) -> None:
    svc.results_save(group=fresh_group, by=cast["bracket"], rows=GOOD)
    group = _loaded(fresh_group)
    with pytest.raises(svc.RoundError):
        svc.results_save(group=group, by=cast["bracket"], rows={**GOOD, 3: ("abc", 3)})
    assert _loaded(fresh_group).version == group.version
    # The kept rows are still the committed ones: seat 3 at 250.00.
    rows = sel.write_check_rows(group)
    assert str(sel.assemble(group, rows).result_rows[3].score) == "250.00"


def test_a_double_tap_records_once_and_its_key_names_the_new_version(
        fresh_group: Group, cast: dict[str, Any]) -> None:
    """The key is inserted before the version check, so the second tap of one form is a
    duplicate (not mistaken for another tablet's save), and nothing of it is written; the
    same key with other rows (issue 19: a corrected form re-sent) is refused as stale, and
    nothing of it is written either."""
    base = fresh_group.version
    version = svc.results_save(group=fresh_group, by=cast["bracket"], rows=GOOD, key="tap",
                               base_version=base)
    before = ResultFact.objects.count()
    with pytest.raises(svc.Duplicate):
        svc.results_save(group=_loaded(fresh_group), by=cast["bracket"],
                         rows=GOOD, key="tap", base_version=base)
    assert ResultFact.objects.count() == before
    with pytest.raises(svc.RepeatedKey):
        svc.results_save(group=_loaded(fresh_group), by=cast["bracket"],
                         rows={**GOOD, 1: ("312.00", 1)}, key="tap", base_version=base)
    assert ResultFact.objects.count() == before
    assert Submission.objects.get(key="tap").result_version == version
    assert _loaded(fresh_group).version == version


def test_a_committed_save_shows_on_the_cached_public_page_at_once(
        fresh_group: Group, cast: dict[str, Any]) -> None:
    """The public pages trust the revision they read for PUBLIC_FRESH_SECONDS; a committed
    write in this process drops that trust (revision's commit hook), so a visitor's next
    load already shows the result instead of up to a second later."""
    from django.test import Client
    from django.urls import reverse

    url = reverse("public_round", args=[fresh_group.round.tournament.slug, 1])
    visitor = Client()
    assert "310.50" not in visitor.get(url).content.decode()
    assert "310.50" not in visitor.get(url).content.decode()  # served from the cache
    svc.results_save(group=fresh_group, by=cast["bracket"], rows=GOOD)
    assert "310.50" in visitor.get(url).content.decode()
    # A rolled-back write leaves the cached page trusted (and right: nothing changed).
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        svc.results_save(group=_loaded(fresh_group), by=cast["bracket"],
                         rows={**GOOD, 1: ("399.00", 1)})
        raise RuntimeError("abort")
    assert "399.00" not in visitor.get(url).content.decode()
