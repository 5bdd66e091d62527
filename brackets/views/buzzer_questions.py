"""The question file of a buzzer round (staff): load, preview, confirm, and its history.

GET shows the file in effect and every earlier one; a POST with a file shows the preview
(the questions as read, or every bad row with its number and reason; nothing stored);
confirming stores the previewed questions through
:func:`brackets.services.buzzer_questions.buzzer_questions_confirm`; withdrawing the file in
effect records a withdrawal (the round then runs without questions).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from brackets.forms.buzzer import QuestionConfirmForm, QuestionFileForm, QuestionWithdrawForm
from brackets.models import BuzzerRound, Tournament
from brackets.permissions import role_required
from brackets.selectors.buzzer_questions import current_question_file, question_file_history
from brackets.services.buzzer import BuzzerRefused
from brackets.services.buzzer_questions import (
    buzzer_questions_confirm,
    buzzer_questions_withdraw,
    question_file_read,
)
from brackets.views.buzzer import STAFF_ROLES, round_or_404


def _page(request: HttpRequest, tournament: Tournament, round_: BuzzerRound,
          **context: Any) -> HttpResponse:
    current = current_question_file(round_)
    return render(
        request,
        "brackets/buzzer/questions.html",
        {
            "tournament": tournament,
            "round": round_,
            "current": current,
            "current_rows": current.questions if current else [],
            "history": question_file_history(round_),
            "show_answer": bool(round_.config.get("show_answer")),
            "withdraw": QuestionWithdrawForm(initial={"file": current.pk}) if current else None,
            **context,
        },
    )


@role_required(*STAFF_ROLES)
def buzzer_questions(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    """The round's question file; a POST with a file shows its preview (stores nothing)."""
    round_ = round_or_404(tournament, round_id)
    form = QuestionFileForm(request.POST or None, request.FILES or None)
    preview = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        preview = question_file_read(round=round_, filename=upload.name, content=upload.read())
    return _page(request, tournament, round_, form=form, preview=preview,
                 confirm=QuestionConfirmForm(initial={"token": preview.token}) if preview else None)


@require_POST
@role_required(*STAFF_ROLES)
def buzzer_questions_confirm_view(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """Store the previewed file; a stale or unreadable confirmation stores nothing."""
    round_ = round_or_404(tournament, round_id)
    form = QuestionConfirmForm(request.POST)
    if form.is_valid():
        try:
            stored = buzzer_questions_confirm(
                round=round_, token=form.cleaned_data["token"], by=request.user
            )
        except BuzzerRefused as refused:
            messages.error(request, refused.message)
        else:
            messages.success(
                request,
                _("問題ファイル「%(name)s」を読み込みました（%(n)d問）。")
                % {"name": stored.filename, "n": len(stored.questions)},
            )
            return redirect("buzzer_questions", slug=tournament.slug, round_id=round_.pk)
    else:
        messages.error(request, _("確認画面の内容が読めません。もう一度ファイルを選んでください。"))
    return redirect("buzzer_questions", slug=tournament.slug, round_id=round_.pk)


@require_POST
@role_required(*STAFF_ROLES)
def buzzer_questions_withdraw_view(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """Withdraw the file in effect; a stale page or a round without a file stores nothing."""
    round_ = round_or_404(tournament, round_id)
    form = QuestionWithdrawForm(request.POST)
    if form.is_valid():
        try:
            withdrawn = buzzer_questions_withdraw(
                round=round_, file_id=form.cleaned_data["file"], by=request.user)
        except BuzzerRefused as refused:
            messages.error(request, refused.message)
        else:
            messages.success(
                request,
                _("問題ファイル「%(name)s」を取り下げました。このラウンドは問題なしで進行します"
                  "（ファイルは履歴に残ります）。") % {"name": withdrawn.filename})
    else:
        messages.error(request, _("画面を開き直してください。問題ファイルは取り下げていません。"))
    return redirect("buzzer_questions", slug=tournament.slug, round_id=round_.pk)
