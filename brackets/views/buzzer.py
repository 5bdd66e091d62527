"""The operator console of a live buzzer round (bracket staff): taps, the written entry of a
hall, and the sudden death the engine asks for.

The views never decide a rule: every tap goes through
:func:`brackets.services.buzzer.buzzer_event_append`, which asks the engine, and every
screen draws :func:`brackets.selectors.buzzer.round_payload` (the engine's replayed state).
Creating rounds is :mod:`brackets.views.buzzer_rounds`, the paper quiz
:mod:`brackets.views.buzzer_paper`, the public scoreboard :mod:`brackets.views.buzzer_public`.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from brackets.engine import EngineError
from brackets.engine.buzzer import tiebreak_called, tiebreak_from
from brackets.messages import error_text
from brackets.models import BuzzerRound, Role, Tournament
from brackets.permissions import role_required
from brackets.selectors.buzzer import round_players, round_state, safe_payload, tiebreak_is_playoff
from brackets.services.buzzer import BuzzerRefused, buzzer_event_append, buzzer_tiebreak_open

STAFF_ROLES = (Role.ORGANISER, Role.BRACKET)


def round_or_404(tournament: Tournament, round_id: int) -> BuzzerRound:
    """The tournament's buzzer round ``round_id``; 404 for another tournament's."""
    return get_object_or_404(BuzzerRound, pk=round_id, tournament=tournament)


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def refusal_text(refused: BuzzerRefused | EngineError) -> str:
    """What staff read for a refusal from the buzzer services or the engine."""
    return refused.message if isinstance(refused, BuzzerRefused) else error_text(refused)


def _console(tournament: Tournament, round_id: int) -> HttpResponse:
    return redirect("buzzer_console", slug=tournament.slug, round_id=round_id)


@role_required(*STAFF_ROLES)
def buzzer_console(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    """The operator console: big ○/× per seat, スルー, undo, clock, sudden-death prompt."""
    round_ = round_or_404(tournament, round_id)
    payload = safe_payload(round_, for_console=True)
    template = (
        "brackets/buzzer/written.html"
        if payload.get("round", {}).get("format") == "written"
        else "brackets/buzzer/console.html"
    )
    return render(
        request,
        template,
        {
            "tournament": tournament,
            "round": round_,
            "payload": payload,
            "parent": round_.parent,
            "parent_playoff": tiebreak_is_playoff(round_),
            # The settings page is the organiser's (bracket staff run the round).
            "can_edit_settings": Role.ORGANISER in request.roles,  # type: ignore[attr-defined]
            "standing": [p for p in payload.get("players", []) if p["status"] == "active"],
            "others": [p for p in payload.get("players", []) if p["status"] != "active"],
        },
    )


@role_required(*STAFF_ROLES)
def buzzer_console_state(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> JsonResponse:
    """The console JSON: the scoreboard state plus allowed buttons and the tap log."""
    round_ = round_or_404(tournament, round_id)
    return JsonResponse(
        safe_payload(round_, for_console=True), json_dumps_params={"ensure_ascii": False}
    )


def _tap_data(request: HttpRequest) -> dict[str, Any]:
    data: dict[str, Any] = {k: v for k, v in request.POST.items() if k != "csrfmiddlewaretoken"}
    if data.get("kind") == "tiebreak":
        data["order"] = [p for p in request.POST.getlist("order") if p]
        if len(data["order"]) == 1 and "," in data["order"][0]:
            data["order"] = data["order"][0].split(",")
    if data.get("kind") == "board":
        data["correct"] = [p for p in request.POST.getlist("correct") if p]
        data["buzzer"] = data.get("buzzer") or None
        data["buzzer_correct"] = data.get("buzzer_correct") in ("1", "true", "on")
    if data.get("kind") == "written":
        raise BuzzerRefused("bad_request", _("筆記の採点は筆記の入力画面から送ってください。"))
    return data


@require_POST
@role_required(*STAFF_ROLES)
def buzzer_tap(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    """One operator tap. JSON callers get the new console state; forms get a redirect."""
    round_ = round_or_404(tournament, round_id)
    raw_seq = request.POST.get("expected_seq", "")
    try:
        expected = int(raw_seq) if raw_seq != "" else None
        data = _tap_data(request)
        appended = buzzer_event_append(
            round=round_,
            data=data,
            expected_seq=expected,
            by=request.user,
            idempotency_key=request.POST.get("key", ""),
        )
    except ValueError:
        refused = BuzzerRefused("bad_request", _("送信内容が正しくありません。"))
        return _refusal(request, tournament, round_, refused)
    except BuzzerRefused as refused:
        return _refusal(request, tournament, round_, refused)
    if _wants_json(request):
        body = safe_payload(round_, for_console=True)
        body["ok"] = True
        body["duplicate"] = appended.duplicate
        return JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    if appended.duplicate:
        messages.info(request, _("同じ操作はすでに記録されています。"))
    elif data.get("kind") == "undo":
        # The written page's undo is a plain form, with no console to show it: say it worked.
        messages.success(request, _("直前の入力を取り消しました。"))
    return _console(tournament, round_.pk)


def _refusal(
    request: HttpRequest, tournament: Tournament, round_: BuzzerRound, refused: BuzzerRefused
) -> HttpResponse:
    if _wants_json(request):
        body = safe_payload(round_, for_console=True)
        body.update({"ok": False, "error": refused.message, "code": refused.code})
        return JsonResponse(
            body,
            status=409 if refused.code == "stale" else 400,
            json_dumps_params={"ensure_ascii": False},
        )
    messages.error(request, refused.message)
    return _console(tournament, round_.pk)


@require_POST
@role_required(*STAFF_ROLES)
def buzzer_written_entry(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """One written question for a whole hall: the standing players ticked as wrong.

    Standing players not ticked are marked correct; seat numbers typed into the quick box
    are ticked too. The engine decides who sits, who passes and who stands again.
    """
    round_ = round_or_404(tournament, round_id)
    players = round_players(round_)
    by_seat = {str(p.seat): p.key for p in players}
    wrong = set(request.POST.getlist("wrong"))
    unknown: list[str] = []
    for token in request.POST.get("wrong_seats", "").replace(",", " ").replace("、", " ").split():
        if token in by_seat:
            wrong.add(by_seat[token])
        else:
            unknown.append(token)
    try:
        if unknown:
            raise BuzzerRefused(
                "bad_request", _("席番号がありません: %(seats)s") % {"seats": "、".join(unknown)}
            )
        state = round_state(round_, players=players)
        standing = [pid for pid in state.seat_order if state.players[pid].status == "active"]
        strays = sorted(wrong - set(standing))
        if strays:
            names = {p.key: p.name for p in players}
            raise BuzzerRefused(
                "player_out",
                _("すでに着席した人が選ばれています: %(names)s")
                % {"names": "、".join(names.get(pid, pid) for pid in strays)},
            )
        raw_seq = request.POST.get("expected_seq", "")
        buzzer_event_append(
            round=round_,
            data={
                "kind": "written",
                "marks": {pid: pid not in wrong for pid in standing},
                "question": int(q) if (q := request.POST.get("question", "")).isdigit() else None,
            },
            expected_seq=int(raw_seq) if raw_seq.isdigit() else None,
            by=request.user,
            idempotency_key=request.POST.get("key", ""),
        )
    except BuzzerRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("記録しました（誤答 %(n)d人）。") % {"n": len(wrong)})
    return _console(tournament, round_.pk)


@require_POST
@role_required(*STAFF_ROLES)
def buzzer_tiebreak_start(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """Open the sudden death (or playoff) the engine asks for as its own round."""
    round_ = round_or_404(tournament, round_id)
    try:
        sub = buzzer_tiebreak_open(
            round=round_, side=request.POST.get("side", ""), by=request.user
        )
    except BuzzerRefused as refused:
        messages.error(request, refused.message)
        return _console(tournament, round_.pk)
    return _console(tournament, sub.pk)


@require_POST
@role_required(*STAFF_ROLES)
def buzzer_tiebreak_apply(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """Carry a finished sudden death's order back to the round that asked for it."""
    sub = round_or_404(tournament, round_id)
    if sub.parent is None:
        raise Http404
    try:
        event = tiebreak_from(round_state(sub), sub.side)
        buzzer_event_append(
            round=sub.parent,
            data=event.to_dict(),
            expected_seq=None,
            by=request.user,
            idempotency_key=f"tiebreak-{sub.pk}",
        )
    except (EngineError, BuzzerRefused) as refused:
        messages.error(request, refusal_text(refused))
        return _console(tournament, sub.pk)
    playoff = tiebreak_called(round_state(sub.parent).config) == "playoff"
    messages.success(
        request,
        _("プレーオフの結果を反映しました。") if playoff else _("サドンデスの結果を反映しました。"),
    )
    return _console(tournament, sub.parent.pk)

