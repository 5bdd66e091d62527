"""Round 1 of a 64-player-class 九州杯IX (15 groups) run on two cabinet sets through the
floor services: every group is called and played once, no player is ever on two sets, and
the queue recovers when a set breaks."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from django.utils import timezone

from brackets.models import (
    CabinetSet,
    FloorFact,
    Group,
    ResultFact,
    Round,
    Seat,
    Tournament,
)
from brackets.selectors import floor as floor_sel
from brackets.selectors import rounds as sel
from brackets.selectors.rounds import advancement
from brackets.services import floor as floor_svc
from brackets.services import rounds as svc
from tests.rounds.helpers import play_group
from tests.states import kyushu_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_1_on_two_sets(tournament: Tournament, cast: dict[str, Any]
                        ) -> tuple[Round, CabinetSet, CabinetSet]:
    """九州杯IX with 58 entrants: round 1 drawn and started in 15 groups (two with a dummy),
    and two cabinet sets in service."""
    kyushu_state(tournament, cast["desk"], "round_1_running", count=58, seeds=0)
    rnd = Round.objects.get(tournament=tournament, number=1)
    a = floor_svc.cabinet_set_add(tournament=tournament, name="A台（1〜4番サテ）",
                                  by=cast["organiser"])
    b = floor_svc.cabinet_set_add(tournament=tournament, name="B台（5〜8番サテ）",
                                  by=cast["organiser"])
    return rnd, a, b


def _view(rnd: Round) -> floor_sel.FloorView:
    return floor_sel.floor_view(rnd, now=timezone.now())


def _players_on_sets(view: floor_sel.FloorView) -> list[int]:
    return [s.entrant_id for g in view.plan.playing.values() for s in view.groups[g].seats
            if s.entrant_id is not None]


def test_round_1_on_two_sets_plays_every_group_once_and_recovers_from_a_broken_set(
        round_1_on_two_sets: tuple[Round, CabinetSet, CabinetSet],
        cast: dict[str, Any]) -> None:
    rnd, a, b = round_1_on_two_sets
    user = cast["bracket"]
    assert Group.objects.filter(round=rnd).count() == 15
    rng = random.Random(3)
    played: list[int] = []
    broke_at = returned = None
    for _turn in range(40):
        view = _view(rnd)
        if view.plan.next_calls:
            floor_svc.floor_call_next(round=rnd, by=user)
            view = _view(rnd)
        on_sets = _players_on_sets(view)
        assert len(on_sets) == len(set(on_sets)), "a player is on two sets"
        if not view.plan.playing:
            break
        if len(played) == 5 and broke_at is None:
            # A台 breaks mid-match: its group goes back to the front of the queue and B台,
            # the only set left, takes it when it frees.
            broke_at = view.plan.playing[a.id]
            floor_svc.cabinet_set_service(cabinet_set=a, in_service=False, by=cast["organiser"])
            view = _view(rnd)
            assert a.id not in view.plan.playing
            assert view.plan.queue[0] == broke_at
            with pytest.raises(floor_svc.FloorRefused, match="停止中"):
                floor_svc.floor_call(group=view.groups[view.plan.queue[1]].group,
                                     cabinet_set=CabinetSet.objects.get(id=a.id), by=user)
        if broke_at is not None and returned is None and broke_at in view.plan.playing.values():
            returned = view.plan.set_of(broke_at)
            floor_svc.cabinet_set_service(cabinet_set=CabinetSet.objects.get(id=a.id),
                                          in_service=True, by=cast["organiser"])
        _cabinet, group_id = min(view.plan.playing.items())
        play_group(Group.objects.get(id=group_id), user, rng)
        played.append(group_id)
    assert sorted(played) == sorted(Group.objects.filter(round=rnd).values_list("id", flat=True))
    assert returned == b.id
    assert sel.round_view(rnd).all_done
    calls = FloorFact.objects.filter(round=rnd, kind=FloorFact.Kind.CALL)
    # One call per group, and one more for the group A台 dropped.
    assert calls.count() == 16
    assert ResultFact.objects.filter(group__round=rnd).count() == 58 + 2  # two dummies


def test_a_rematch_sends_the_group_back_into_the_queue(
        round_1_on_two_sets: tuple[Round, CabinetSet, CabinetSet],
        cast: dict[str, Any]) -> None:
    rnd, _a, _b = round_1_on_two_sets
    user = cast["bracket"]
    first, _second = floor_svc.floor_call_next(round=rnd, by=user)
    play_group(first.group, user, random.Random(1))
    floor_svc.floor_call_next(round=rnd, by=user)  # A台 takes the next group
    svc.rematch_record(group=Group.objects.get(id=first.group_id), by=user,
                       reason="筐体の通信エラー")
    view = _view(rnd)
    assert first.group_id not in view.plan.playing.values()
    assert view.plan.queue[0] == first.group_id


def test_refusals_say_why_and_record_nothing(
        round_1_on_two_sets: tuple[Round, CabinetSet, CabinetSet],
        cast: dict[str, Any]) -> None:
    rnd, a, b = round_1_on_two_sets
    user = cast["organiser"]
    g1, g2 = Group.objects.filter(round=rnd).order_by("number")[:2]
    with pytest.raises(floor_svc.FloorRefused, match="既にあります"):
        floor_svc.cabinet_set_add(tournament=rnd.tournament, name=" A台（1〜4番サテ） ", by=user)
    floor_svc.floor_call(group=g1, cabinet_set=a, by=user)
    before = FloorFact.objects.count()
    with pytest.raises(floor_svc.FloorRefused, match="対戦中です"):
        floor_svc.floor_call(group=g2, cabinet_set=a, by=user)
    with pytest.raises(floor_svc.FloorRefused, match="既にA台"):
        floor_svc.floor_call(group=g1, cabinet_set=b, by=user)
    assert FloorFact.objects.count() == before
    assert CabinetSet.objects.filter(tournament=rnd.tournament).count() == 2


def test_no_show_and_repeat_call_are_recorded_and_the_withdrawal_goes_through_the_desk_service(
        round_1_on_two_sets: tuple[Round, CabinetSet, CabinetSet],
        cast: dict[str, Any]) -> None:
    rnd, a, _b = round_1_on_two_sets
    user = cast["organiser"]
    g1 = Group.objects.filter(round=rnd).order_by("number").first()
    floor_svc.floor_call(group=g1, cabinet_set=a, by=user)
    repeat = floor_svc.floor_call_repeat(group=g1, by=user)
    latest, players = floor_sel.latest_call(rnd)
    assert latest == repeat and {p.group.id for p in players} == {g1.id}
    seat = next(s for s in sel.group_view(g1).seats if s.entrant_id)
    floor_svc.floor_no_show(group=g1, entrant=seat.entrant, action="decide", by=user)
    assert seat.entrant_id not in sel.withdrawn_ids(rnd.tournament)
    floor_svc.floor_no_show(group=g1, entrant=seat.entrant, action="withdrawal", by=user)
    assert seat.entrant_id in sel.withdrawn_ids(rnd.tournament)
    # Released, the group waits behind the groups whose players are all here.
    floor_svc.floor_release(group=g1, by=user)
    assert _view(rnd).plan.queue[-1] == g1.id


def test_estimates_use_measured_lengths_and_the_timetable_says_how_far_behind(
        round_1_on_two_sets: tuple[Round, CabinetSet, CabinetSet],
        cast: dict[str, Any]) -> None:
    rnd, _a, _b = round_1_on_two_sets
    user = cast["organiser"]
    first, _second = floor_svc.floor_call_next(round=rnd, by=user)
    called_at = first.at
    planned = called_at - dt.timedelta(minutes=20)
    floor_svc.round_planned_start(round=rnd, planned=planned, by=user)
    view = floor_sel.floor_view(rnd, now=called_at)
    # Before any match is measured, each waiting group is one default length per wave.
    starts = sorted({round(e.start) for e in view.estimates.values()})
    assert starts[:2] == [round(view.minutes), round(2 * view.minutes)]
    timing = {t.round.number: t for t in floor_sel.timetable(rnd.tournament, now=called_at)}
    assert timing[1].behind_minutes == 20
    assert timing[2].expected is not None


def test_sets_and_calls_travel_in_the_tournament_file(
        round_1_on_two_sets: tuple[Round, CabinetSet, CabinetSet],
        cast: dict[str, Any]) -> None:
    """The floor's facts reach the tournament file like every other area's: a copy of the
    tournament knows its sets, which is out of service, and who was called where."""
    import json

    from brackets.exporters.tournament_file import (
        tournament_file_export,
        tournament_file_import,
    )

    rnd, a, _b = round_1_on_two_sets
    floor_svc.floor_call_next(round=rnd, by=cast["organiser"])
    floor_svc.cabinet_set_service(cabinet_set=a, in_service=False, by=cast["organiser"])
    content = tournament_file_export(tournament=rnd.tournament)
    assert {"cabinetset", "floorfact"} <= set(json.loads(content)["records"])
    copy = tournament_file_import(data=content, slug="kyushu9-floor-copy")
    copied = Round.objects.get(tournament=copy, number=1)
    view = _view(copied)
    assert [(s.name, s.in_service) for s in view.sets] == [
        ("A台（1〜4番サテ）", False), ("B台（5〜8番サテ）", True)]
    assert [view.groups[g].group.label for g in view.plan.playing.values()] == ["B"]


def test_the_timetable_shows_the_floor_plan_and_its_estimates(
        round_1_on_two_sets: tuple[Round, CabinetSet, CabinetSet],
        cast: dict[str, Any]) -> None:
    """One plan per round: the floor's planned start is the timetable's slot, and the
    timetable's estimate is the round's first call, then the floor's estimates."""
    from django.utils import timezone

    from brackets.selectors.timetable import timetable_slots

    rnd, _a, _b = round_1_on_two_sets
    user = cast["organiser"]
    first, _second = floor_svc.floor_call_next(round=rnd, by=user)
    floor_svc.round_planned_start(round=rnd, planned=first.at - dt.timedelta(minutes=20),
                                  by=user)
    slots = {slot.key: slot for slot in timetable_slots(
        rnd.tournament, floor_sel.live_estimates(rnd.tournament))}
    called = timezone.localtime(first.at).time().replace(second=0, microsecond=0)
    assert slots["round-1"].estimate == called
    assert slots["round-1"].late_minutes == 20
    assert slots["round-2"].estimate is not None


def _calls_shown(calls: list[floor_sel.PlayerCall]) -> list[tuple[int, int, str, int]]:
    return [(c.entrant.id, c.group.id, c.set_name, c.seat) for c in calls]


def test_the_call_list_reads_only_the_called_groups_and_matches_the_whole_rounds(
        round_1_on_two_sets: tuple[Round, CabinetSet, CabinetSet],
        cast: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    rnd, _a, _b = round_1_on_two_sets
    user = cast["bracket"]
    first, second = floor_svc.floor_call_next(round=rnd, by=user)
    play_group(first.group, user, random.Random(2))  # done: its players are off the list
    derived: list[list[int]] = []
    whole = advancement.group_views

    def recording(groups: list[Group], tournament: Tournament, derive: bool = True) -> Any:
        derived.append([g.id for g in groups])
        return whole(groups, tournament, derive)

    monkeypatch.setattr(advancement, "group_views", recording)
    calls = floor_sel.round_calls(Round.objects.get(id=rnd.id))
    assert [set(ids) for ids in derived] == [{first.group_id, second.group_id}]
    assert {c.group.id for c in calls} == {second.group_id}
    assert len(calls) == Seat.objects.filter(group_id=second.group_id,
                                             entrant__isnull=False).count()
    monkeypatch.undo()
    rnd = Round.objects.get(id=rnd.id)
    assert _calls_shown(calls) == _calls_shown(floor_sel.round_calls(rnd, sel.round_view(rnd)))
