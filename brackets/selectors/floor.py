"""Reads for the floor: the sets, the calls in force, the queue and the estimates.

The recorded ``FloorFact`` rows and the round's group views are turned into a
``FloorState`` here (the one adapter), and ``brackets.engine`` decides the rest. ``now`` is
always passed in, so a page and a test read the same clock.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.db.models import Count, Max, Min
from django.utils import timezone
from django.utils.translation import gettext as _

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.engine import (
    Estimate,
    FloorGroup,
    FloorPlan,
    FloorSet,
    FloorState,
    estimate_starts,
    floor_plan,
    match_minutes,
)
from brackets.models import (
    CabinetSet,
    Entrant,
    FloorFact,
    Group,
    RematchFact,
    ResultFact,
    Round,
    Tournament,
)
from brackets.selectors import rounds as sel
from brackets.selectors.timetable import planned_times, round_slot

#: Group statuses that no longer need a set: played (a result awaiting its second
#: confirmation counts as played) or not needed (K10).
_FINISHED = {sel.DONE, sel.CONFIRMING, sel.UNUSED}
#: Rounds whose groups the floor calls.
FLOOR_STATUSES = (Round.Status.DRAWN, Round.Status.RUNNING)

K = FloorFact.Kind
MIN_MEASURED_MINUTES = 2.0


def group_name(group: Group) -> str:
    """「C組」 as staff and players say it; a final's games keep their own label."""
    if round_rules(group.round).spec.is_series:
        return group.label
    return _("{label}組").format(label=group.label)


def cabinet_sets(tournament: Tournament) -> list[CabinetSet]:
    return list(CabinetSet.objects.filter(tournament=tournament))


def floor_round(tournament: Tournament) -> Round | None:
    """The round the floor is calling: the lowest drawn or running round."""
    return (Round.objects.filter(tournament=tournament, status__in=FLOOR_STATUSES)
            .order_by("number").first())


def calls_in_force(groups: Iterable[Group], tournament: Tournament) -> dict[int, FloorFact]:
    """Group id → its newest call, unless a release, its set going out of service or a
    re-match of the group came after it (the group is back in the queue)."""
    ids = [g.id for g in groups]
    facts = list(FloorFact.objects.filter(tournament=tournament, group_id__in=ids,
                                          kind__in=(K.CALL, K.RELEASE))
                 .select_related("cabinet_set"))
    newest: dict[int, FloorFact] = {}
    released: dict[int, int] = {}
    for f in facts:
        if f.kind == K.CALL:
            newest[f.group_id] = f
        else:
            released[f.group_id] = f.id
    set_off: dict[int, int] = dict(
        FloorFact.objects.filter(tournament=tournament, kind=K.SET_OFF)
        .values("cabinet_set_id").annotate(last=Max("id")).values_list("cabinet_set_id", "last"))
    rematches = dict(RematchFact.objects.filter(group_id__in=ids).values("group_id")
                     .annotate(n=Count("id")).values_list("group_id", "n"))
    return {g: call for g, call in newest.items()
            if released.get(g, 0) < call.id
            and set_off.get(call.cabinet_set_id, 0) < call.id
            and rematches.get(g, 0) <= int(call.data.get("rematches", 0))}


@dataclass
class FloorView:
    """One round on the floor, as the organiser's page, the projector and the sheet read it."""

    round: Round
    now: dt.datetime
    sets: list[CabinetSet]
    groups: dict[int, sel.GroupView]
    names: dict[str, str]
    state: FloorState
    plan: FloorPlan
    calls: dict[int, FloorFact]
    minutes: float
    measured: int
    estimates: dict[int, Estimate]
    no_shows: dict[int, list[FloorFact]] = field(default_factory=dict)

    def group_on(self, cabinet: CabinetSet) -> sel.GroupView | None:
        key = self.plan.playing.get(cabinet.id)
        return None if key is None else self.groups[key]

    def call_of(self, group_id: int) -> FloorFact | None:
        return self.calls.get(group_id)

    def estimated_at(self, group_id: int) -> dt.datetime | None:
        est = self.estimates.get(group_id)
        return None if est is None else self.now + dt.timedelta(minutes=est.start)

    def set_name(self, key: int) -> str:
        return next((s.name for s in self.sets if s.id == key), "")

    def queue_of(self, cabinet: CabinetSet) -> list[Estimate]:
        """The waiting groups expected to play on ``cabinet``, in order (for its sheet)."""
        return [e for e in self.estimates.values() if e.set == cabinet.id]

    @cached_property
    def queue_rows(self) -> list[QueueRow]:
        """The waiting groups in call order, each with its expected set and start."""
        absent = {f.entrant_id for rows in self.no_shows.values() for f in rows}
        called_now = {c.group for c in self.plan.next_calls}
        rows = []
        for position, key in enumerate(_in_call_order(self.plan), start=1):
            est = self.estimates.get(key)
            rows.append(QueueRow(
                position=position, group=self.groups[key], next_call=key in called_now,
                set_id=est.set if est else None,
                set_name=self.set_name(est.set) if est else "",
                starts_at=self.estimated_at(key),
                absent=[s.entrant for s in self.groups[key].seats
                        if s.entrant_id is not None and (s.entrant_id in absent
                                                         or not s.entrant.checked_in)]))
        return rows

    def next_call_rows(self) -> list[tuple[sel.GroupView, str]]:
        """The calls to make now: (group, set name)."""
        return [(self.groups[c.group], self.set_name(c.set)) for c in self.plan.next_calls]

    @cached_property
    def set_rows(self) -> list[SetRow]:
        """Each set with the group in play there, since when, and its planned queue."""
        out = []
        for cabinet in self.sets:
            gv = self.group_on(cabinet)
            call = self.calls.get(gv.group.id) if gv is not None else None
            out.append(SetRow(
                cabinet=cabinet, group=gv, call=call,
                minutes=round(self._elapsed(cabinet.id)) if gv is not None else None,
                next_call=next((self.groups[c.group] for c in self.plan.next_calls
                                if c.set == cabinet.id), None),
                queue=[self.groups[e.group] for e in self.queue_of(cabinet)],
                no_shows=self.no_shows.get(gv.group.id, []) if gv is not None else []))
        return out

    @property
    def end(self) -> dt.datetime | None:
        """When the round's last group is expected to finish."""
        if self.estimates:
            last = max(e.start for e in self.estimates.values())
            return self.now + dt.timedelta(minutes=last + self.minutes)
        if self.plan.playing:
            left = max(self.minutes - self._elapsed(s) for s in self.plan.playing)
            return self.now + dt.timedelta(minutes=max(0.0, left))
        return None

    def _elapsed(self, set_key: int) -> float:
        call = self.calls.get(self.plan.playing[set_key])
        return 0.0 if call is None else (self.now - call.at).total_seconds() / 60


@dataclass(frozen=True)
class QueueRow:
    position: int
    group: sel.GroupView
    next_call: bool
    set_id: int | None
    set_name: str
    starts_at: dt.datetime | None
    absent: list[Entrant]


@dataclass(frozen=True)
class SetRow:
    cabinet: CabinetSet
    group: sel.GroupView | None
    call: FloorFact | None
    minutes: int | None
    next_call: sel.GroupView | None
    queue: list[sel.GroupView]
    no_shows: list[FloorFact]


def _in_call_order(plan: FloorPlan) -> list[int]:
    first = [c.group for c in plan.next_calls]
    return first + [g for g in plan.queue if g not in first]


def _absent(tournament: Tournament, groups: list[Group], calls: dict[int, FloorFact]
            ) -> tuple[dict[int, list[FloorFact]], set[int]]:
    """No-shows per group, and the players still counted absent: a no-show holds until
    the group is called again."""
    rows = list(FloorFact.objects.filter(tournament=tournament, kind=K.NO_SHOW,
                                         group_id__in=[g.id for g in groups])
                .select_related("entrant"))
    newest_call = dict(FloorFact.objects.filter(tournament=tournament, kind=K.CALL,
                                                group_id__in=[g.id for g in groups])
                       .values("group_id").annotate(last=Max("id"))
                       .values_list("group_id", "last"))
    per_group: dict[int, list[FloorFact]] = defaultdict(list)
    absent: set[int] = set()
    for row in rows:
        if row.id > newest_call.get(row.group_id, 0):
            per_group[row.group_id].append(row)
            absent.add(row.entrant_id)
    return dict(per_group), absent


def _measured_lengths(groups: dict[int, sel.GroupView], tournament: Tournament
                      ) -> list[float]:
    """Minutes from a group's newest call to its last result, for every finished group."""
    done = [g for g, gv in groups.items() if gv.status in (sel.DONE, sel.CONFIRMING)]
    if not done:
        return []
    finished = dict(ResultFact.objects.filter(group_id__in=done).values("group_id")
                    .annotate(last=Max("at")).values_list("group_id", "last"))
    called = dict(FloorFact.objects.filter(tournament=tournament, kind=K.CALL,
                                           group_id__in=done).values("group_id")
                  .annotate(last=Max("at")).values_list("group_id", "last"))
    lengths = [(finished[g] - called[g]).total_seconds() / 60
               for g in done if g in finished and g in called]
    # A result saved within a minute or two of the call was played before it (the call
    # was made late, or the result typed in afterwards): no measure of a match.
    return [m for m in lengths if m >= MIN_MEASURED_MINUTES]


def _measured_all(tournament: Tournament, skip: Round) -> list[float]:
    """Measured lengths of the tournament's earlier rounds, so round 2 starts with round 1's."""
    out: list[float] = []
    for rnd in Round.objects.filter(tournament=tournament).exclude(id=skip.id):
        if FloorFact.objects.filter(round=rnd, kind=K.CALL).exists():
            out += _measured_lengths({gv.group.id: gv for gv in sel.round_view(rnd).groups},
                                     tournament)
    return out


def floor_view(rnd: Round, *, now: dt.datetime) -> FloorView:
    """The round on the floor: who plays where, the queue, the next calls, the estimates."""
    tournament = rnd.tournament
    rv = sel.round_view(rnd)
    groups = {gv.group.id: gv for gv in rv.groups}
    sets = cabinet_sets(tournament)
    calls = calls_in_force([gv.group for gv in rv.groups], tournament)
    no_shows, absent = _absent(tournament, [gv.group for gv in rv.groups], calls)
    present = {ea.player_key(e) for e in Entrant.objects.filter(
        tournament=tournament, checked_in=True).values_list("id", flat=True) if e not in absent}
    state = FloorState(
        groups=tuple(FloorGroup(key=gv.group.id, label=group_name(gv.group),
                                players=tuple(ea.player_key(s.entrant_id) for s in gv.seats
                                              if s.entrant_id is not None),
                                done=gv.status in _FINISHED) for gv in rv.groups),
        sets=tuple(FloorSet(key=s.id, name=s.name, in_service=s.in_service) for s in sets),
        on_set={call.cabinet_set_id: g for g, call in sorted(calls.items(),
                                                             key=lambda kv: kv[1].id)},
        present=frozenset(present))
    plan = floor_plan(state)
    lengths = _measured_lengths(groups, tournament)
    measured = len(lengths)
    if not lengths:
        lengths = _measured_all(tournament, rnd)
    minutes = match_minutes(lengths)
    elapsed = {s: (now - calls[g].at).total_seconds() / 60 for s, g in plan.playing.items()
               if g in calls}
    estimates = {e.group: e for e in estimate_starts(state, minutes, elapsed)}
    return FloorView(round=rnd, now=now, sets=sets, groups=groups,
                     names=sel.seated_names(rv.groups), state=state, plan=plan, calls=calls,
                     minutes=minutes, measured=measured, estimates=estimates,
                     no_shows=no_shows)


@dataclass(frozen=True)
class PlayerCall:
    """「あなたの出番: C組 A台 サテ2」 for one player."""

    entrant: Entrant
    group: Group
    set_name: str
    seat: int
    call: FloorFact


def round_calls(rnd: Round, rv: sel.RoundView | None = None) -> list[PlayerCall]:
    """Every player whose group is called onto a set and still playing, by set order
    (``rv``: the round's view, when the caller has built it already)."""
    if rnd.status not in FLOOR_STATUSES:
        return []
    calls = calls_in_force(Group.objects.filter(round=rnd).only("id"), rnd.tournament)
    # Without the round's view, only the called groups are derived: a public card page
    # rebuilt after a save lists the calls, and must not derive all 256 groups for it.
    views = rv.groups if rv is not None else sel.round_group_views(rnd, calls.keys())
    live = {gv.group.id: gv for gv in views if gv.status not in _FINISHED}
    out: list[PlayerCall] = []
    for group_id, call in sorted(calls.items(), key=lambda kv: (kv[1].cabinet_set.position,
                                                                kv[1].cabinet_set_id)):
        if group_id not in live or not call.cabinet_set.in_service:
            continue
        for seat in live[group_id].seats:
            if seat.entrant is not None:
                out.append(PlayerCall(entrant=seat.entrant, group=live[group_id].group,
                                      set_name=call.cabinet_set.name, seat=seat.number,
                                      call=call))
    return out


def player_call(tournament: Tournament, entrant: Entrant) -> PlayerCall | None:
    """The call in force for ``entrant``, if their group is on a set now."""
    rnd = floor_round(tournament)
    if rnd is None:
        return None
    return next((c for c in round_calls(rnd) if c.entrant.id == entrant.id), None)


def player_estimate(tournament: Tournament, entrant: Entrant, *, now: dt.datetime
                    ) -> tuple[str, dt.datetime] | None:
    """(group label, expected start) while the player's group waits in the queue."""
    rnd = floor_round(tournament)
    if rnd is None or not CabinetSet.objects.filter(tournament=tournament).exists():
        return None
    group = Group.objects.filter(round=rnd, seats__entrant=entrant,
                                 seats__superseded_by__isnull=True).first()
    if group is None:
        return None
    view = floor_view(rnd, now=now)
    at = view.estimated_at(group.id)
    return None if at is None else (group_name(group), at)


def latest_call(rnd: Round) -> tuple[FloorFact | None, list[PlayerCall]]:
    """The newest call or repeated call still in force, and its players (the projector's
    「次: C組 → A台」); the fact's id tells a screen when to chime."""
    calls = round_calls(rnd)
    if not calls:
        return None, []
    groups = {c.group.id for c in calls}
    newest = (FloorFact.objects.filter(tournament=rnd.tournament, group_id__in=groups,
                                       kind__in=(K.CALL, K.REPEAT)).order_by("-id").first())
    if newest is None:
        return None, []
    return newest, [c for c in calls if c.group.id == newest.group_id]


@dataclass(frozen=True)
class RoundTiming:
    """A round's planned start beside its actual or estimated one."""

    round: Round
    planned: dt.datetime | None
    started: dt.datetime | None
    expected: dt.datetime | None

    @property
    def behind_minutes(self) -> int | None:
        at = self.started or self.expected
        if self.planned is None or at is None:
            return None
        return int((at - self.planned).total_seconds() // 60)  # plans are to the minute

    @property
    def ahead_minutes(self) -> int | None:
        behind = self.behind_minutes
        return None if behind is None else -behind


def planned_starts(tournament: Tournament, *, now: dt.datetime) -> dict[int, dt.datetime]:
    """Round id → its planned start: the timetable's time for the round (one place for the
    plan, ``selectors.timetable``), on the day within twelve hours of ``now``."""
    times = planned_times(tournament)
    local = timezone.localtime(now)
    out: dict[int, dt.datetime] = {}
    for rnd in sel.tournament_rounds(tournament):
        planned = times.get(round_slot(rnd.number))
        if planned is None:
            continue
        at = local.replace(hour=planned.hour, minute=planned.minute, second=0, microsecond=0)
        if at - local > dt.timedelta(hours=12):
            at -= dt.timedelta(days=1)
        elif local - at > dt.timedelta(hours=12):
            at += dt.timedelta(days=1)
        out[rnd.id] = at
    return out


def timetable(tournament: Tournament, *, now: dt.datetime,
              view: FloorView | None = None) -> list[RoundTiming]:
    """Every round with its planned start, its first call (the actual start) or, for a round
    not started, its estimate: the current round's expected end, chained round by round."""
    planned = planned_starts(tournament, now=now)
    first_call: dict[int, Any] = dict(
        FloorFact.objects.filter(tournament=tournament, kind=K.CALL).values("round_id")
        .annotate(first=Min("at")).values_list("round_id", "first"))
    current = floor_round(tournament)
    if view is None or current is None or view.round.id != current.id:
        # The caller's view is reused when it is the round the floor is calling.
        view = (floor_view(current, now=now)
                if current is not None and cabinet_sets(tournament) else None)
    rows: list[RoundTiming] = []
    cursor: dt.datetime | None = view.end if view is not None else None
    for rnd in sel.tournament_rounds(tournament):
        started = first_call.get(rnd.id)
        expected = None
        if started is None and view is not None:
            if rnd.id == view.round.id:
                first = min((e.start for e in view.estimates.values()), default=None)
                expected = None if first is None else now + dt.timedelta(minutes=first)
            elif rnd.number > view.round.number and cursor is not None:
                expected = cursor
                groups = Group.objects.filter(round=rnd).count() or _expected_groups(rnd)
                in_service = sum(1 for s in view.sets if s.in_service) or 1
                waves = -(-groups // in_service)
                cursor = cursor + dt.timedelta(minutes=waves * view.minutes)
        rows.append(RoundTiming(round=rnd, planned=planned.get(rnd.id), started=started,
                                expected=expected))
    return rows


def _expected_groups(rnd: Round) -> int:
    """A round not drawn yet: four to a group of the size the round before sends on."""
    before = Round.objects.filter(tournament=rnd.tournament, number=rnd.number - 1).first()
    size = before.target_size if before is not None and before.target_size else 0
    return max(1, -(-size // 4))


def live_estimates(tournament: Tournament) -> dict[str, dt.time]:
    """Each round's actual start (its first call) or estimated one, from the floor's
    measured match lengths (``selectors.floor.timetable``), as local times per slot."""
    out: dict[str, dt.time] = {}
    for timing in timetable(tournament, now=timezone.now()):
        at = timing.started or timing.expected
        if at is not None:
            out[round_slot(timing.round.number)] = timezone.localtime(at).time().replace(
                second=0, microsecond=0)
    return out
