"""The floor: the organiser's page of sets and calls, each set's tablet, the projector's
call and the calls on the public pages. Each write is one form and one service call."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from brackets.forms.floor import (
    CabinetSetForm,
    CallForm,
    GroupActionForm,
    NoShowForm,
    PlannedStartForm,
    SetServiceForm,
)
from brackets.models import CabinetSet, Role, Round, Tournament
from brackets.perf.page_cache import public_page
from brackets.permissions import role_required
from brackets.selectors import floor as floor_sel
from brackets.services import floor as floor_svc

STAFF = (Role.ORGANISER, Role.BRACKET)


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def _floor_url(tournament: Tournament, rnd: Round | None) -> str:
    url = reverse("floor_page", args=[tournament.slug])
    return f"{url}?round={rnd.number}" if rnd is not None else url


def _render_floor(request: HttpRequest, tournament: Tournament, rnd: Round | None,
                  status: int = 200, **bound: forms.Form) -> HttpResponse:
    now = timezone.now()
    view = floor_sel.floor_view(rnd, now=now) if rnd is not None else None
    planned = floor_sel.planned_starts(tournament, now=now)
    context: dict[str, Any] = {
        "tournament": tournament, "round": rnd, "view": view, "now": now,
        "rounds": Round.objects.filter(tournament=tournament, status__in=floor_sel.FLOOR_STATUSES),
        "sets": floor_sel.cabinet_sets(tournament),
        "timetable": floor_sel.timetable(tournament, now=now, view=view),
        "set_form": bound.get("set_form") or CabinetSetForm(tournament=tournament),
        "plan_form": bound.get("plan_form") or PlannedStartForm(
            initial={"planned": timezone.localtime(planned[rnd.id]) if rnd and rnd.id in planned
                     else None}),
        "is_organiser": Role.ORGANISER in request.roles,  # type: ignore[attr-defined]
        "no_show_choices": NoShowForm.base_fields["action"].choices,
    }
    return render(request, "brackets/floor/page.html", context, status=status)


@role_required(*STAFF)
def floor_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Sets, who plays where, the queue with estimated starts, and the calls to make."""
    number = request.GET.get("round")
    if number and number.isdigit():
        rnd: Round | None = _round(tournament, int(number))
    else:
        rnd = floor_sel.floor_round(tournament)
    return _render_floor(request, tournament, rnd)


def _refused(request: HttpRequest, exc: floor_svc.FloorRefused) -> None:
    messages.error(request, exc.message)


def _form_errors(request: HttpRequest, form: forms.Form) -> None:
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)


@require_POST
@role_required(Role.ORGANISER)
def floor_set_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = CabinetSetForm(request.POST, tournament=tournament)
    rnd = floor_sel.floor_round(tournament)
    if form.is_valid():
        try:
            created = floor_svc.cabinet_set_add(tournament=tournament,
                                                name=form.cleaned_data["name"], by=request.user)
        except floor_svc.FloorRefused as exc:
            form.add_error("name", exc.message)
        else:
            messages.success(request, _("{name}を追加しました。").format(name=created.name))
            return redirect(_floor_url(tournament, rnd))
    # Re-shown with what was typed, so nothing entered is lost.
    return _render_floor(request, tournament, rnd, status=400, set_form=form)


@require_POST
@role_required(*STAFF)
def floor_set_service(request: HttpRequest, tournament: Tournament, set_id: int) -> HttpResponse:
    cabinet = get_object_or_404(CabinetSet, id=set_id, tournament=tournament)
    form = SetServiceForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
    else:
        try:
            floor_svc.cabinet_set_service(cabinet_set=cabinet,
                                          in_service=form.cleaned_data["in_service"],
                                          by=request.user)
        except floor_svc.FloorRefused as exc:
            _refused(request, exc)
        else:
            if form.cleaned_data["in_service"]:
                messages.success(request, _("{set}を再開しました。").format(set=cabinet.name))
            else:
                messages.warning(request, _("{set}を停止しました。対戦中の組は待ち列に戻りました。")
                                 .format(set=cabinet.name))
    return redirect(_floor_url(tournament, floor_sel.floor_round(tournament)))


def _group_write(request: HttpRequest, tournament: Tournament, number: int,
                 form_class: type[forms.Form], write: Any) -> HttpResponse:
    rnd = _round(tournament, number)
    form = form_class(request.POST, round=rnd)
    if not form.is_valid():
        _form_errors(request, form)
    else:
        try:
            text = write(form.cleaned_data)
        except floor_svc.FloorRefused as exc:
            _refused(request, exc)
        else:
            messages.success(request, text)
    return redirect(_floor_url(tournament, rnd))


@require_POST
@role_required(*STAFF)
def floor_call(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    def write(data: dict[str, Any]) -> str:
        floor_svc.floor_call(group=data["group"], cabinet_set=data["cabinet_set"],
                             by=request.user)
        return _("{group}を{set}に呼び出しました。").format(group=floor_sel.group_name(data["group"]),
                                                      set=data["cabinet_set"].name)
    return _group_write(request, tournament, number, CallForm, write)


@require_POST
@role_required(*STAFF)
def floor_call_next(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    rnd = _round(tournament, number)
    try:
        calls = floor_svc.floor_call_next(round=rnd, by=request.user)
    except floor_svc.FloorRefused as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("呼び出しました：{calls}").format(calls="、".join(
            f"{floor_sel.group_name(c.group)} → {c.cabinet_set.name}" for c in calls)))
    return redirect(_floor_url(tournament, rnd))


@require_POST
@role_required(*STAFF)
def floor_repeat(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    def write(data: dict[str, Any]) -> str:
        fact = floor_svc.floor_call_repeat(group=data["group"], by=request.user)
        return _("{group}をもう一度{set}に呼び出しました。").format(
            group=floor_sel.group_name(data["group"]), set=fact.cabinet_set.name)
    return _group_write(request, tournament, number, GroupActionForm, write)


@require_POST
@role_required(*STAFF)
def floor_release(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    def write(data: dict[str, Any]) -> str:
        floor_svc.floor_release(group=data["group"], by=request.user)
        return _("{group}の呼び出しを取り消しました。待ち列に戻ります。").format(
            group=floor_sel.group_name(data["group"]))
    return _group_write(request, tournament, number, GroupActionForm, write)


@require_POST
@role_required(*STAFF)
def floor_no_show(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    def write(data: dict[str, Any]) -> str:
        floor_svc.floor_no_show(group=data["group"], entrant=data["entrant"],
                                action=data["action"], by=request.user)
        return _("{name}さんの不在を記録しました。").format(name=data["entrant"].name)
    return _group_write(request, tournament, number, NoShowForm, write)


@require_POST
@role_required(Role.ORGANISER)
def floor_planned_start(request: HttpRequest, tournament: Tournament, number: int
                        ) -> HttpResponse:
    rnd = _round(tournament, number)
    form = PlannedStartForm(request.POST)
    if not form.is_valid():
        return _render_floor(request, tournament, floor_sel.floor_round(tournament),
                             status=400, plan_form=form)
    floor_svc.round_planned_start(round=rnd, planned=form.cleaned_data["planned"],
                                  by=request.user)
    messages.success(request, _("{round}の開始予定を保存しました。").format(round=rnd.name))
    return redirect(_floor_url(tournament, floor_sel.floor_round(tournament)))


# ---------------------------------------------------------------- a set's tablet


def _set_state(tournament: Tournament, cabinet: CabinetSet) -> dict[str, Any]:
    rnd = floor_sel.floor_round(tournament)
    call = next((c for c in floor_sel.round_calls(rnd) if c.call.cabinet_set_id == cabinet.id),
                None) if rnd is not None else None
    group = call.group if call is not None else None
    return {"set": cabinet.name, "in_service": cabinet.in_service,
            "group": group.id if group else None, "label": floor_sel.group_name(group) if group else "",
            "url": (reverse("match_page", args=[tournament.slug, group.id])
                    + f"?set={cabinet.id}") if group else None}


@role_required(*STAFF)
def floor_tablet(request: HttpRequest, tournament: Tournament, set_id: int) -> HttpResponse:
    """The URL a set's tablet keeps open: the match page of the group called there, or a
    waiting screen that opens the next called group by itself."""
    cabinet = get_object_or_404(CabinetSet, id=set_id, tournament=tournament)
    state = _set_state(tournament, cabinet)
    if state["url"]:
        return redirect(state["url"])
    return render(request, "brackets/floor/tablet.html",
                  {"tournament": tournament, "cabinet": cabinet, "state": state})


@role_required(*STAFF)
def floor_tablet_state(request: HttpRequest, tournament: Tournament, set_id: int
                       ) -> JsonResponse:
    cabinet = get_object_or_404(CabinetSet, id=set_id, tournament=tournament)
    return JsonResponse(_set_state(tournament, cabinet))


# ---------------------------------------------------------------- public


@public_page
def public_floor_call(request: HttpRequest, tournament: Tournament, number: int
                      ) -> HttpResponse:
    """The projector's 「次: C組 → A台」 with the four names, polled by the projector."""
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    latest, players = floor_sel.latest_call(rnd)
    return render(request, "brackets/floor/_projector_call.html",
                  {"tournament": tournament, "round": rnd, "latest": latest,
                   "players": players})
