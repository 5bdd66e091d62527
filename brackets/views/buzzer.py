"""Live buzzer rounds: operator console (bracket staff), stage scoreboard (public), paper quiz.

The views never decide a rule: every tap goes through
:func:`brackets.services.buzzer.buzzer_event_append`, which asks the engine, and every
screen draws :func:`brackets.selectors.buzzer.round_payload` (the engine's replayed state).

The scoreboard is pushed with server-sent events from :func:`public_buzzer_stream`, which
watches the round's newest sequence number *in the database* (one indexed query every
``BUZZER_POLL_SECONDS``), so a tap made through any server process or thread reaches every
screen. Each stream ends after ``BUZZER_STREAM_SECONDS`` so it never holds a waitress
thread for long; the browser's EventSource reconnects by itself (also after a restart).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    JsonResponse,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from brackets.engine.buzzer import RoundConfig, paper_ranking, tiebreak_called, tiebreak_from
from brackets.engine.errors import EngineError
from brackets.engine.lottery import Lottery
from brackets.messages import error_text
from brackets.models import BuzzerRound, Entrant, PaperMarking, Role, Tournament
from brackets.permissions import public_tournament, role_required
from brackets.selectors.buzzer import (
    latest_seq,
    round_players,
    round_state,
    safe_payload,
    tiebreak_is_playoff,
    tournament_rounds,
)
from brackets.services.buzzer import (
    BuzzerRefused,
    buzzer_event_append,
    buzzer_round_create,
    buzzer_tiebreak_open,
)
from brackets.services.buzzer_paper import paper_marking_upload
from brackets.services.buzzer_presets import (
    available_presets,
    preset_courses_seat,
    preset_round_seat,
    preset_rounds_create,
)

STAFF_ROLES = (Role.ORGANISER, Role.BRACKET)


def _round(tournament: Tournament, round_id: int) -> BuzzerRound:
    return get_object_or_404(BuzzerRound, pk=round_id, tournament=tournament)


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


# ------------------------------------------------------------------------ staff pages


@role_required(*STAFF_ROLES)
def buzzer_index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every live round of the tournament, the preset buttons and the paper quizzes."""
    rounds = tournament_rounds(tournament.pk)
    markings = PaperMarking.objects.filter(tournament=tournament).select_related("by")
    return render(
        request,
        "brackets/buzzer/index.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "markings": markings,
            "presets": available_presets(),
            "is_organiser": Role.ORGANISER in request.roles,  # type: ignore[attr-defined]
        },
    )


class RoundForm(forms.Form):
    """A hand-made round: settings as the engine's RoundConfig JSON, players one per line."""

    name = forms.CharField(label=gettext_lazy("ラウンド名"), max_length=100)
    group_name = forms.CharField(label=gettext_lazy("組"), max_length=50, required=False)
    config = forms.CharField(
        label=gettext_lazy("ルール設定（JSON）"),
        widget=forms.Textarea(attrs={"rows": 6, "class": "form-control font-monospace"}),
        help_text=gettext_lazy("プリセットのラウンドをコピーして数字だけ変えられます"),
    )
    players = forms.CharField(
        label=gettext_lazy("参加者（1行に1人、席順）"),
        widget=forms.Textarea(attrs={"rows": 8, "class": "form-control"}),
        help_text=gettext_lazy(
            "「名前」または「名前,アドバンテージ」。カードネームが一致すれば参加者に紐づけます"
        ),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        for name in ("name", "group_name"):
            self.fields[name].widget.attrs["class"] = "form-control"

    def clean_config(self) -> RoundConfig:
        try:
            data = json.loads(self.cleaned_data["config"])
            if not isinstance(data, dict):
                raise TypeError
            return RoundConfig.from_dict(data)
        except (ValueError, TypeError, KeyError):
            raise forms.ValidationError(_("ルール設定のJSONが読めません。")) from None
        except EngineError as error:
            raise forms.ValidationError(error_text(error)) from None

    def clean_players(self) -> list[dict[str, Any]]:
        entrants = {e.card_name: e for e in Entrant.objects.filter(tournament=self.tournament)} | {
            e.name: e for e in Entrant.objects.filter(tournament=self.tournament)
        }
        rows: list[dict[str, Any]] = []
        for number, line in enumerate(self.cleaned_data["players"].splitlines(), start=1):
            if not line.strip():
                continue
            parts = [p.strip() for p in line.replace("，", ",").split(",")]
            row: dict[str, Any] = {"name": parts[0], "entrant": entrants.get(parts[0])}
            if len(parts) > 1 and parts[1]:
                try:
                    row["advantage"] = int(parts[1])
                except ValueError:
                    raise forms.ValidationError(
                        _("%(n)d行目: アドバンテージは整数で入力してください。") % {"n": number}
                    ) from None
            rows.append(row)
        if not rows:
            raise forms.ValidationError(_("参加者を1人以上入力してください。"))
        return rows


@role_required(Role.ORGANISER)
def buzzer_round_new(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Create one round by hand (settings JSON + seating)."""
    initial: dict[str, Any] = {}
    template = request.GET.get("from")
    if template:
        source = BuzzerRound.objects.filter(tournament=tournament, pk=template).first()
        if source is not None:
            initial = {
                "name": source.name,
                "group_name": source.group_name,
                "config": json.dumps(source.config, ensure_ascii=False),
                "players": "\n".join(p.name for p in round_players(source)),
            }
    preset_ref = request.GET.get("template", "")
    templates = [
        (f"{p.slug}:{r.slug}", f"{r.name}（{r.rule}）")
        for p in available_presets()
        for r in p.rounds
        if r.config is not None
    ]
    # A round made from a preset round's template joins that preset's chain (the form posts
    # back to this URL, so the template is still in the query string): its winners and
    # carried points seat the preset's next rounds, e.g. M5 sets 2 and 3 after set 1.
    chain: dict[str, Any] = {}
    if ":" in preset_ref:
        preset_slug, round_slug = preset_ref.split(":", 1)
        try:
            preset = next(p for p in available_presets() if p.slug == preset_slug)
            config = preset.round(round_slug).config
        except (StopIteration, EngineError):
            config = None
        if config is not None:
            initial.setdefault("name", round_slug)
            initial["config"] = json.dumps(config.to_dict(), ensure_ascii=False)
            chain = {
                "preset": preset_slug,
                "round_slug": round_slug,
                "ranking_from_seats": True,
                "position": list(preset.rounds).index(preset.round(round_slug)) * 10,
            }
    form = RoundForm(request.POST or None, tournament=tournament, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            round_ = buzzer_round_create(
                tournament=tournament,
                name=form.cleaned_data["name"],
                group_name=form.cleaned_data["group_name"],
                config=form.cleaned_data["config"],
                players=form.cleaned_data["players"],
                by=request.user,
                **(chain or {"position": len(tournament_rounds(tournament.pk)) + 1}),
            )
        except BuzzerRefused as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(request, _("ラウンドを作成しました。"))
            return redirect("buzzer_console", slug=tournament.slug, round_id=round_.pk)
    return render(
        request,
        "brackets/buzzer/round_form.html",
        {"tournament": tournament, "form": form, "templates": templates, "current": preset_ref},
    )


@role_required(Role.ORGANISER)
def buzzer_presets(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Create the rounds of a preset (seed 003 / seed 004), seated by the engine's feeds."""
    markings = list(PaperMarking.objects.filter(tournament=tournament))
    presets = available_presets()
    if request.method == "POST":
        slug = request.POST.get("preset", "")
        round_slug = request.POST.get("round_slug", "")
        try:
            if request.POST.get("courses"):
                raw_order = {
                    k.removeprefix("order-"): request.POST.get(k, "").strip()
                    for k in request.POST
                    if k.startswith("order-")
                }
                # A typed "a" or "-1" used to reach int() and give a server error page.
                if not all(v.isdigit() and int(v) > 0 for v in raw_order.values()):
                    messages.error(request, _("コースの順番は1以上の数字で入力してください。"))
                    return redirect("buzzer_presets", slug=tournament.slug)
                if len({int(v) for v in raw_order.values()}) != len(raw_order):
                    messages.error(request, _("コースの順番が重複しています。"))
                    return redirect("buzzer_presets", slug=tournament.slug)
                order = sorted(raw_order, key=lambda slug: int(raw_order[slug]))
                created = preset_courses_seat(
                    tournament=tournament,
                    preset=slug,
                    order=order,
                    raised={
                        k.removeprefix("raised-"): request.POST.get(k, "").splitlines()
                        for k in request.POST
                        if k.startswith("raised-")
                    },
                    by=request.user,
                )
            elif round_slug:
                names = [n for n in request.POST.get("first_round", "").splitlines() if n.strip()]
                marking_id = request.POST.get("paper", "")
                if not names and marking_id.isdigit():
                    marking = next((m for m in markings if m.pk == int(marking_id)), None)
                    if marking is not None:
                        names = [s.player for s in _paper_ranked(tournament, marking)]
                raw_groups = request.POST.get("groups", "")
                created = preset_round_seat(
                    tournament=tournament,
                    preset=slug,
                    round_slug=round_slug,
                    by=request.user,
                    first_round=names or None,
                    groups=int(raw_groups)
                    if raw_groups.isdigit() and int(raw_groups) > 0
                    else None,
                )
            else:
                created = preset_rounds_create(tournament=tournament, preset=slug, by=request.user)
        except BuzzerRefused as refused:
            messages.error(request, refused.message)
            return redirect("buzzer_presets", slug=tournament.slug)
        except EngineError as error:
            messages.error(request, error_text(error))
            return redirect("buzzer_presets", slug=tournament.slug)
        if created:
            messages.success(request, _("%(n)d個のラウンドを作成しました。") % {"n": len(created)})
        else:
            messages.info(
                request,
                _(
                    "今作成できるラウンドはありません（前のラウンドが未終了か、1R順位が未入力です）。"
                ),
            )
        return redirect("buzzer_index", slug=tournament.slug)
    return render(
        request,
        "brackets/buzzer/presets.html",
        {
            "tournament": tournament,
            "presets": presets,
            "markings": markings,
            "course_presets": [
                p.slug
                for p in presets
                if any(r.feed is not None and r.feed.grouping == "courses" for r in p.rounds)
            ],
        },
    )


@role_required(*STAFF_ROLES)
def buzzer_console(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    """The operator console: big ○/× per seat, スルー, undo, clock, sudden-death prompt."""
    round_ = _round(tournament, round_id)
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
            "standing": [p for p in payload.get("players", []) if p["status"] == "active"],
            "others": [p for p in payload.get("players", []) if p["status"] != "active"],
        },
    )


@role_required(*STAFF_ROLES)
def buzzer_console_state(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> JsonResponse:
    """The console JSON: the scoreboard state plus allowed buttons and the tap log."""
    round_ = _round(tournament, round_id)
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
    round_ = _round(tournament, round_id)
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
        # The written page's undo is a plain form: say it worked (it used to be silent).
        messages.success(request, _("直前の入力を取り消しました。"))
    return redirect("buzzer_console", slug=tournament.slug, round_id=round_.pk)


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
    return redirect("buzzer_console", slug=tournament.slug, round_id=round_.pk)


@require_POST
@role_required(*STAFF_ROLES)
def buzzer_written_entry(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """One written question for a whole hall: the standing players ticked as wrong.

    Standing players not ticked are marked correct; seat numbers typed into the quick box
    are ticked too. The engine decides who sits, who passes and who stands again.
    """
    round_ = _round(tournament, round_id)
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
    return redirect("buzzer_console", slug=tournament.slug, round_id=round_.pk)


@require_POST
@role_required(*STAFF_ROLES)
def buzzer_tiebreak_start(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """Open the sudden death (or playoff) the engine asks for as its own round."""
    round_ = _round(tournament, round_id)
    try:
        sub = buzzer_tiebreak_open(
            round=round_, side=request.POST.get("side", ""), by=request.user
        )
    except BuzzerRefused as refused:
        messages.error(request, refused.message)
        return redirect("buzzer_console", slug=tournament.slug, round_id=round_.pk)
    return redirect("buzzer_console", slug=tournament.slug, round_id=sub.pk)


@require_POST
@role_required(*STAFF_ROLES)
def buzzer_tiebreak_apply(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """Carry a finished sudden death's order back to the round that asked for it."""
    sub = _round(tournament, round_id)
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
    except EngineError as error:
        messages.error(request, error_text(error))
        return redirect("buzzer_console", slug=tournament.slug, round_id=sub.pk)
    except BuzzerRefused as refused:
        messages.error(request, refused.message)
        return redirect("buzzer_console", slug=tournament.slug, round_id=sub.pk)
    playoff = tiebreak_called(round_state(sub.parent).config) == "playoff"
    messages.success(
        request,
        _("プレーオフの結果を反映しました。") if playoff else _("サドンデスの結果を反映しました。"),
    )
    return redirect("buzzer_console", slug=tournament.slug, round_id=sub.parent.pk)


# ------------------------------------------------------------------------- paper quiz


class PaperForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("名称"), max_length=100, initial=gettext_lazy("ペーパークイズ")
    )
    questions = forms.IntegerField(
        label=gettext_lazy("問題数"), min_value=1, max_value=1000, initial=100
    )
    first_half = forms.IntegerField(
        label=gettext_lazy("前半の問題数"),
        min_value=0,
        max_value=1000,
        initial=50,
        help_text=gettext_lazy("同点のとき前半（Q1〜）の正解数で比べます"),
    )
    sheet = forms.FileField(
        label=gettext_lazy("採点シート（.xlsx / .csv）"),
        help_text=gettext_lazy("1行目: 名前, 1, 2, …。1行に1人、各問 1/0 または ○/×"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.widget.attrs["class"] = "form-control"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first_half, questions = data.get("first_half"), data.get("questions")
        if first_half is not None and questions is not None and first_half > questions:
            self.add_error("first_half", _("問題数以下にしてください。"))
        sheet = data.get("sheet")
        if sheet is not None and not sheet.name.lower().endswith((".xlsx", ".csv")):
            self.add_error("sheet", _(".xlsx か .csv のファイルを選んでください。"))
        return data


@role_required(*STAFF_ROLES)
def paper_upload(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Upload a marking sheet; a missing question column is refused naming the column."""
    form = PaperForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        sheet = form.cleaned_data["sheet"]
        try:
            marking = paper_marking_upload(
                tournament=tournament,
                name=form.cleaned_data["name"],
                questions=form.cleaned_data["questions"],
                first_half=form.cleaned_data["first_half"],
                content=sheet.read(),
                filename=sheet.name,
                by=request.user,
            )
        except BuzzerRefused as refused:
            form.add_error("sheet", refused.message)
        else:
            messages.success(
                request, _("採点を読み込みました（%(n)d人）。") % {"n": len(marking.rows)}
            )
            return redirect("paper_detail", slug=tournament.slug, marking_id=marking.pk)
    return render(
        request, "brackets/buzzer/paper_upload.html", {"tournament": tournament, "form": form}
    )


def _paper_ranked(tournament: Tournament, marking: PaperMarking) -> list[Any]:
    """The engine's M1 ranking of a marking (reproducible lottery from the stored seed)."""
    sheets = {row["name"]: [m == "1" for m in row["marks"]] for row in marking.rows}
    return paper_ranking(
        sheets,
        lottery=Lottery(marking.lottery_seed or tournament.lottery_seed, f"paper-{marking.pk}"),
        questions=marking.questions,
        first_half=marking.first_half,
    )


@role_required(*STAFF_ROLES)
def paper_detail(request: HttpRequest, tournament: Tournament, marking_id: int) -> HttpResponse:
    """The ranked list with the M1 tie-break chain (engine ``paper_ranking``)."""
    marking = get_object_or_404(PaperMarking, pk=marking_id, tournament=tournament)
    error = ""
    ranked: list[Any] = []
    try:
        ranked = _paper_ranked(tournament, marking)
    except EngineError as err:
        error = error_text(err)
    decided = {
        None: "",
        "total": _("合計"),
        "first_half": _("前半"),
        "streak1": _("第1連続正解"),
        "streak2": _("第2連続正解"),
        "lottery": _("抽選"),
    }
    rows = [{"score": s, "decided": decided.get(s.decided_by, s.decided_by),
             "lottery": s.decided_by == "lottery"} for s in ranked]
    return render(
        request,
        "brackets/buzzer/paper_detail.html",
        {"tournament": tournament, "marking": marking, "rows": rows, "error": error},
    )


# ---------------------------------------------------------------------- public pages


@public_tournament
def public_buzzer_scoreboard(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """The stage scoreboard for the projector (no login): huge type, pushed by SSE."""
    round_ = _round(tournament, round_id)
    return render(
        request,
        "brackets/buzzer/scoreboard.html",
        {"tournament": tournament, "round": round_, "payload": safe_payload(round_)},
    )


@public_tournament
def public_buzzer_state(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> JsonResponse:
    """The scoreboard state as plain JSON (the scoreboard's fallback poll; other tools)."""
    round_ = _round(tournament, round_id)
    response = JsonResponse(safe_payload(round_), json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-store"
    return response


KEEPALIVE_SECONDS = 5


def sse_message(payload: dict[str, Any]) -> str:
    """One server-sent event carrying a state (``id`` is the log's sequence number)."""
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return f"id: {payload.get('seq', 0)}\nevent: state\ndata: {body}\n\n"


def state_stream(
    round_: BuzzerRound,
    *,
    last_seen: int | None,
    seconds: float,
    interval: float,
    disconnected: Any = None,
) -> Iterator[str]:
    """Yield the round's state whenever its newest sequence number changes in the database.

    Every ``interval`` one indexed query reads the newest ``seq``; a change sends the full
    state. A comment line every ``KEEPALIVE_SECONDS`` keeps proxies from closing the
    connection and lets waitress notice a closed browser tab (its write fails), so a
    forgotten stream frees its thread within seconds. The stream
    ends after ``seconds`` (or when waitress reports the client gone), and the browser
    reconnects with ``Last-Event-ID``.
    """
    yield "retry: 500\n\n"
    seen = last_seen
    deadline = time.monotonic() + seconds
    last_write = time.monotonic()
    while True:
        seq = latest_seq(round_.pk)
        if seq != seen:
            payload = safe_payload(round_)
            seen = int(payload.get("seq", seq))
            yield sse_message(payload)
            last_write = time.monotonic()
        elif time.monotonic() - last_write > KEEPALIVE_SECONDS:
            yield ": ping\n\n"
            last_write = time.monotonic()
        if time.monotonic() >= deadline:
            return
        if disconnected is not None and disconnected():
            return
        time.sleep(interval)


@public_tournament
def public_buzzer_stream(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """Server-sent events with the scoreboard state (bounded; EventSource reconnects)."""
    round_ = _round(tournament, round_id)
    raw = request.headers.get("Last-Event-ID", "")
    response = StreamingHttpResponse(
        state_stream(
            round_,
            last_seen=int(raw) if raw.isdigit() else None,
            seconds=float(getattr(settings, "BUZZER_STREAM_SECONDS", 40)),
            interval=float(getattr(settings, "BUZZER_POLL_SECONDS", 0.15)),
            disconnected=request.META.get("waitress.client_disconnected"),
        ),
        content_type="text/event-stream; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def scoreboard_url(round_: BuzzerRound) -> str:
    """Where the projector opens a round's scoreboard."""
    return reverse(
        "public_buzzer_scoreboard", kwargs={"slug": round_.tournament.slug, "round_id": round_.pk}
    )
