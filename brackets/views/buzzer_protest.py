"""The protest page of a live buzzer round (審議): change an earlier judgement or throw a
question out, after seeing what it will change.

GET shows the form; a POST without ``confirm`` shows the engine's preview (players before
→ after, answers that no longer stand, whether the organiser must allow it); a POST with
``confirm`` records it through :func:`brackets.services.buzzer_protests.buzzer_protest_record`.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from brackets.engine import EngineError
from brackets.forms.buzzer import ProtestForm
from brackets.models import Role, Tournament
from brackets.permissions import has_role, role_required
from brackets.selectors.buzzer import round_log, round_players, round_state
from brackets.selectors.buzzer_protests import protest_preview_data
from brackets.services.buzzer import BuzzerRefused
from brackets.services.buzzer_protests import buzzer_protest_record, protest_event
from brackets.views.buzzer import STAFF_ROLES, refusal_text, round_or_404


@role_required(*STAFF_ROLES)
def buzzer_protest(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    """The protest form, its preview, and the write once confirmed."""
    round_ = round_or_404(tournament, round_id)
    players = round_players(round_)
    seats = [(p.key, f"{p.seat}. {p.name}") for p in players]
    organiser = has_role(request.user, tournament, Role.ORGANISER)
    records = round_log(round_)
    state = round_state(round_, records, players)
    preview = None
    if request.method == "POST":
        form = ProtestForm(request.POST, seats=seats)
        if form.is_valid():
            data = form.cleaned_data
            event = protest_event(kind=data["kind"], question=data["question"],
                                  player=data["player"], correct=bool(data["correct"]))
            try:
                if request.POST.get("confirm") == "1":
                    raw = request.POST.get("expected_seq", "")
                    buzzer_protest_record(
                        round=round_, event=event,
                        expected_seq=int(raw) if raw.isdigit() else None,
                        by=request.user, organiser=organiser,
                        idempotency_key=request.POST.get("key", ""),
                    )
                    messages.success(request, _("審議の結果を反映しました。"))
                    return redirect("buzzer_console", slug=tournament.slug, round_id=round_.pk)
                preview = protest_preview_data(round_, event, organiser=organiser)
            except (BuzzerRefused, EngineError) as refused:
                form.add_error(None, refusal_text(refused))
    else:
        form = ProtestForm(initial={"question": max(state.question, 1)}, seats=seats)
    return render(request, "brackets/buzzer/protest.html", {
        "tournament": tournament,
        "round": round_,
        "form": form,
        "preview": preview,
        "organiser": organiser,
        "question": state.question,
        "window": state.config.protest_window,
        "over": state.over,
        "seq": len(records),
    })
