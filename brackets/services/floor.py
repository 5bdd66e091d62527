"""Writes of the floor: cabinet sets, calls, repeated calls, no-shows, planned starts.

Each is one transaction that locks the tournament's sets first, so two staff calling at
once are decided one after the other; each appends a ``FloorFact`` (who, when) and never
changes a result. A no-show's withdrawal or dummy goes through the match services the
desk and tablets use.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from brackets.engine import RuleRefusal, call_check
from brackets.errors import Refused
from brackets.messages import error_text
from brackets.models import (
    CabinetSet,
    Entrant,
    FloorFact,
    Group,
    RematchFact,
    Round,
    Seat,
    Tournament,
)
from brackets.perf import revision
from brackets.selectors import floor as floor_sel
from brackets.services.rounds import disqualification_add, withdrawal_record

K = FloorFact.Kind

#: A no-show: the organiser decides later (the default), or the player withdraws, or the
#: seat is played by the dummy (the player counts as disqualified in this match, H8).
NO_SHOW_DECIDE, NO_SHOW_WITHDRAW, NO_SHOW_DUMMY = "decide", "withdrawal", "dummy"
NO_SHOW_ACTIONS = (NO_SHOW_DECIDE, NO_SHOW_WITHDRAW, NO_SHOW_DUMMY)


class FloorRefused(Refused):
    """A floor write refused with the reason; nothing was recorded."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def _lock_sets(tournament: Tournament) -> list[CabinetSet]:
    return list(CabinetSet.objects.select_for_update().filter(tournament=tournament))


def _fact(tournament: Tournament, kind: str, by: Any, **fields: Any) -> FloorFact:
    fact = FloorFact.objects.create(tournament=tournament, kind=kind, by=by, **fields)
    revision.touch(tournament.id)
    return fact


# ---------------------------------------------------------------- cabinet sets


@transaction.atomic
def cabinet_set_add(*, tournament: Tournament, name: str, by: Any) -> CabinetSet:
    """A new cabinet set at the end of the list; a name already used is refused."""
    name = name.strip()
    if not name:
        raise FloorRefused(_("台の名前を入力してください。"), field="name")
    sets = _lock_sets(tournament)
    if any(s.name == name for s in sets):
        raise FloorRefused(_("「{name}」という台は既にあります。別の名前にしてください。")
                           .format(name=name), field="name")
    try:
        with transaction.atomic():
            created = CabinetSet.objects.create(
                tournament=tournament, name=name, by=by,
                position=max((s.position for s in sets), default=0) + 1)
    except IntegrityError as exc:  # a concurrent add of the same name
        raise FloorRefused(_("「{name}」という台は既にあります。").format(name=name),
                           field="name") from exc
    revision.touch(tournament.id)
    return created


@transaction.atomic
def cabinet_set_service(*, cabinet_set: CabinetSet, in_service: bool, by: Any) -> CabinetSet:
    """Take a set out of service (its group goes back into the queue) or back into it."""
    locked = {s.id: s for s in _lock_sets(cabinet_set.tournament)}[cabinet_set.id]
    if locked.in_service == in_service:
        raise FloorRefused(_("{set}は既に{state}です。").format(
            set=locked.name, state=_("使用中") if in_service else _("停止中")))
    _fact(locked.tournament, K.SET_ON if in_service else K.SET_OFF, by, cabinet_set=locked)
    locked.in_service = in_service
    locked.save(update_fields=["in_service"])
    return locked


# ---------------------------------------------------------------- calls


def _check_round(rnd: Round) -> None:
    if rnd.status not in floor_sel.FLOOR_STATUSES:
        raise FloorRefused(_("{round}は抽選済・進行中ではないため呼び出せません。")
                           .format(round=rnd.name))


@transaction.atomic
def floor_call(*, group: Group, cabinet_set: CabinetSet, by: Any) -> FloorFact:
    """Call ``group`` to ``cabinet_set``, refused with the reason when the floor cannot
    take it (set out of service or in use, a player playing on another set)."""
    rnd = group.round
    tournament = rnd.tournament
    _lock_sets(tournament)
    _check_round(rnd)
    view = floor_sel.floor_view(rnd, now=timezone.now())
    try:
        call_check(view.state, group.id, cabinet_set.id)
    except RuleRefusal as exc:
        raise FloorRefused(error_text(exc, view.names)) from exc
    if view.plan.set_of(group.id) == cabinet_set.id:
        raise FloorRefused(_("{group}は既に{set}に呼んでいます。再呼び出しを使ってください。")
                           .format(group=floor_sel.group_name(group), set=cabinet_set.name))
    return _fact(tournament, K.CALL, by, round=rnd, group=group, cabinet_set=cabinet_set,
                 data={"rematches": RematchFact.objects.filter(group=group).count()})


@transaction.atomic
def floor_call_next(*, round: Round, by: Any) -> list[FloorFact]:
    """Every call the queue says to make now (one per free set in service)."""
    _lock_sets(round.tournament)
    _check_round(round)
    view = floor_sel.floor_view(round, now=timezone.now())
    if not view.plan.next_calls:
        raise FloorRefused(_("今呼べる組はありません（空いている台がないか、"
                             "待っている組の選手が対戦中です）。"))
    sets = {s.id: s for s in view.sets}
    return [_fact(round.tournament, K.CALL, by, round=round, group=view.groups[c.group].group,
                  cabinet_set=sets[c.set],
                  data={"rematches": RematchFact.objects.filter(group_id=c.group).count()})
            for c in view.plan.next_calls]


def _call_in_force(group: Group) -> FloorFact:
    view = floor_sel.floor_view(group.round, now=timezone.now())
    call = view.calls.get(group.id)
    if call is None or view.plan.set_of(group.id) is None:
        raise FloorRefused(_("{group}は今どの台にも呼ばれていません。").format(group=floor_sel.group_name(group)))
    return call


@transaction.atomic
def floor_call_repeat(*, group: Group, by: Any) -> FloorFact:
    """Call the group again to the set it was called to (the projector chimes again)."""
    _lock_sets(group.round.tournament)
    call = _call_in_force(group)
    return _fact(group.round.tournament, K.REPEAT, by, round=group.round, group=group,
                 cabinet_set=call.cabinet_set)


@transaction.atomic
def floor_release(*, group: Group, by: Any) -> FloorFact:
    """Take a call back: the group returns to the queue and its set is free."""
    _lock_sets(group.round.tournament)
    call = _call_in_force(group)
    return _fact(group.round.tournament, K.RELEASE, by, round=group.round, group=group,
                 cabinet_set=call.cabinet_set)


@transaction.atomic
def floor_no_show(*, group: Group, entrant: Entrant, action: str, by: Any) -> FloorFact:
    """Record that a called player did not come. ``action``: the organiser decides later
    (nothing else changes), the player withdraws, or their seat plays as the dummy."""
    if action not in NO_SHOW_ACTIONS:
        raise FloorRefused(_("不在の扱いを選んでください。"), field="action")
    _lock_sets(group.round.tournament)
    call = _call_in_force(group)
    seat = Seat.objects.filter(group=group, entrant=entrant, superseded_by__isnull=True).first()
    if seat is None:
        raise FloorRefused(_("{name}さんは{group}の選手ではありません。").format(
            name=entrant.name, group=floor_sel.group_name(group)), field="entrant")
    fact = _fact(group.round.tournament, K.NO_SHOW, by, round=group.round, group=group,
                 cabinet_set=call.cabinet_set, entrant=entrant, data={"action": action})
    reason = _("呼び出しに来なかったため（{group} {set}）").format(
        group=floor_sel.group_name(group), set=call.cabinet_set.name)
    if action == NO_SHOW_WITHDRAW:
        withdrawal_record(tournament=group.round.tournament, entrant=entrant, by=by,
                          reason=reason)
    elif action == NO_SHOW_DUMMY:
        disqualification_add(group=group, by=by, seat_number=seat.number, reason=reason)
    return fact


# ---------------------------------------------------------------- timetable


def round_planned_start(*, round: Round, planned: dt.datetime | None, by: Any) -> list[str]:
    """The time the organiser plans the round to start (None clears it), recorded on the
    timetable (its one place) as the round's slot; returns the slots that changed."""
    from brackets.selectors.timetable import round_slot
    from brackets.services.timetable import timetable_set

    at = timezone.localtime(planned).time().replace(second=0, microsecond=0) if planned else None
    return timetable_set(tournament=round.tournament, by=by,
                         times={round_slot(round.number): at})
