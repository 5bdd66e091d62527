"""The paper quiz (staff): upload a marking sheet, and the M1 ranking with its tie-break chain."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from brackets.engine import EngineError
from brackets.engine.buzzer import TournamentPreset
from brackets.messages import error_text
from brackets.models import BuzzerRound, PaperMarking, Tournament
from brackets.permissions import role_required
from brackets.selectors.buzzer_paper import paper_ranked
from brackets.services.buzzer import BuzzerRefused
from brackets.services.buzzer_paper import paper_marking_upload, paper_scores_enter
from brackets.services.buzzer_presets import available_presets
from brackets.views.buzzer import STAFF_ROLES


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
        required=False,
    )
    scores = forms.CharField(
        label=gettext_lazy("または点数を入力（手で採点したとき）"),
        required=False,
        max_length=50_000,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=gettext_lazy("1行に1人: 名前,合計,前半,第1連答,第2連答（例: 山田,72,40,5,3）"),
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
        typed = (data.get("scores") or "").strip()
        if sheet is None and not typed and "sheet" not in self.errors:
            self.add_error("sheet", _("採点シートを選ぶか、点数を入力してください。"))
        elif sheet is not None and typed:
            self.add_error("scores", _("採点シートと点数の入力は、どちらか一方にしてください。"))
        return data


@role_required(*STAFF_ROLES)
def paper_upload(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Upload a marking sheet, or type each player's total and tie-break data; a missing
    question column or a line that cannot be read is refused naming it."""
    form = PaperForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        sheet = form.cleaned_data["sheet"]
        common = {"tournament": tournament, "name": form.cleaned_data["name"],
                  "questions": form.cleaned_data["questions"],
                  "first_half": form.cleaned_data["first_half"], "by": request.user}
        try:
            if sheet is None:
                marking = paper_scores_enter(text=form.cleaned_data["scores"], **common)
            else:
                marking = paper_marking_upload(content=sheet.read(), filename=sheet.name,
                                               **common)
        except BuzzerRefused as refused:
            form.add_error("sheet" if sheet is not None else "scores", refused.message)
        else:
            messages.success(
                request, _("採点を読み込みました（%(n)d人）。") % {"n": len(marking.rows)}
            )
            return redirect("paper_detail", slug=tournament.slug, marking_id=marking.pk)
    return render(
        request, "brackets/buzzer/paper_upload.html", {"tournament": tournament, "form": form}
    )


@role_required(*STAFF_ROLES)
def paper_detail(request: HttpRequest, tournament: Tournament, marking_id: int) -> HttpResponse:
    """The ranked list with the M1 tie-break chain (engine ``paper_ranking``)."""
    marking = get_object_or_404(PaperMarking, pk=marking_id, tournament=tournament)
    error = ""
    ranked: list[Any] = []
    try:
        ranked = paper_ranked(tournament, marking)
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
        {"tournament": tournament, "marking": marking, "rows": rows, "error": error,
         "presets": _event_presets(tournament)},
    )


def _event_presets(tournament: Tournament) -> list[TournamentPreset]:
    """The whole-event presets a paper round leads back to: those the tournament's rounds
    came from, or every one while no round is made yet."""
    used = set(BuzzerRound.objects.filter(tournament=tournament).exclude(preset="")
               .values_list("preset", flat=True))
    return [p for p in available_presets() if not used or p.slug in used]

