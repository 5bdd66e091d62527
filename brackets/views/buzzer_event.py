"""A whole live event from a preset: every round laid out in order (staff), and one round
seated from the rounds it follows, previewed, then confirmed (organiser)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from brackets.engine import EngineError
from brackets.engine.buzzer import RoundPreset, TournamentPreset, setting_fields
from brackets.forms.buzzer_settings import RoundSettingsForm, field_name
from brackets.labels import round_name
from brackets.models import PaperMarking, Role, Tournament
from brackets.permissions import role_required
from brackets.selectors.buzzer_event import SeatPlan, event_layout, preset_round_plan
from brackets.selectors.buzzer_paper import paper_ranked
from brackets.services.buzzer import BuzzerRefused
from brackets.services.buzzer_presets import available_presets, preset_plan_confirm
from brackets.views.buzzer import STAFF_ROLES

#: Groups are lettered A–Z on the stage.
MAX_GROUPS = 26


def _preset(slug: str) -> TournamentPreset:
    preset = next((p for p in available_presets() if p.slug == slug), None)
    if preset is None:
        raise Http404
    return preset


def _is_organiser(request: HttpRequest) -> bool:
    return Role.ORGANISER in request.roles  # type: ignore[attr-defined]


@role_required(*STAFF_ROLES)
def buzzer_event(request: HttpRequest, tournament: Tournament, preset: str) -> HttpResponse:
    """Every round of the event in playing order: created (console links), ready to seat,
    or waiting for the rounds it follows. Bracket staff see it and run created rounds."""
    tp = _preset(preset)
    return render(request, "brackets/buzzer/event.html", {
        "tournament": tournament, "preset": tp, "layout": event_layout(tournament, preset),
        "is_organiser": _is_organiser(request),
        # The paper round is played off the consoles: its markings are linked from its row.
        "markings": PaperMarking.objects.filter(tournament=tournament).order_by("-at", "-id"),
    })


class SeatingForm(forms.Form):
    """What a round's seating depends on besides the rounds already played: the 1st Round
    ranking (first rounds), the number of groups, or Number10's drawn order and raised
    plates. The same fields travel with the confirm, with the previewed plan's digest."""

    first_round = forms.CharField(
        label=gettext_lazy("1R順位（1行に1人、上位から）"), required=False, max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 6, "class": "form-control"}))
    paper = forms.TypedChoiceField(label=gettext_lazy("またはペーパークイズの順位"), coerce=int,
                                   required=False, empty_value=None,
                                   widget=forms.Select(attrs={"class": "form-select"}))
    groups = forms.IntegerField(
        label=gettext_lazy("組数（空欄でルールどおり）"), required=False, min_value=1,
        max_value=MAX_GROUPS, widget=forms.NumberInput(attrs={"class": "form-control"}),
        error_messages={"min_value": gettext_lazy("組数は1〜26で入力してください。"),
                        "max_value": gettext_lazy("組数は1〜26で入力してください。")})
    expect = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args: Any, tournament: Tournament, rp: RoundPreset,
                 courses: list[RoundPreset], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.markings = list(PaperMarking.objects.filter(tournament=tournament))
        self.fields["paper"].choices = [("", "---")] + [
            (m.pk, f"{m.name} ({m.at:%m/%d %H:%M})") for m in self.markings]
        self.courses = courses
        assert rp.feed is not None
        if "1r" not in rp.feed.sources:
            del self.fields["first_round"], self.fields["paper"]
        if rp.feed.grouping not in ("snake", "mod"):
            del self.fields["groups"]
        for index, course in enumerate(courses, start=1):
            self.fields[f"order-{course.slug}"] = forms.IntegerField(
                label=_("%(name)s の実施順（抽選）") % {"name": round_name(course.name)}, min_value=1,
                max_value=len(courses), initial=index, required=False,
                widget=forms.NumberInput(attrs={"class": "form-control"}))
            self.fields[f"raised-{course.slug}"] = forms.CharField(
                label=_("%(name)s で札を挙げた人（1行に1人）") % {"name": round_name(course.name)},
                required=False, max_length=5_000,
                widget=forms.Textarea(attrs={"rows": 4, "class": "form-control"}))

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.courses:
            numbers = [cleaned.get(f"order-{c.slug}") for c in self.courses]
            if None not in numbers and len(set(numbers)) != len(numbers):
                raise forms.ValidationError(_("コースの順番が重複しています。"))
        return cleaned

    def plan_kwargs(self) -> dict[str, Any]:
        """The seating inputs as :func:`preset_round_plan` takes them."""
        data = self.cleaned_data
        names = [n for n in (data.get("first_round") or "").splitlines() if n.strip()]
        marking = next((m for m in self.markings if m.pk == data.get("paper")), None)
        if not names and marking is not None:
            names = [s.player for s in paper_ranked(self.tournament, marking)]
        kwargs: dict[str, Any] = {"first_round": names or None, "groups": data.get("groups")}
        if self.courses:
            numbers = {c.slug: data.get(f"order-{c.slug}") for c in self.courses}
            if None not in numbers.values():
                kwargs["course_order"] = sorted(numbers, key=lambda slug: numbers[slug])
                kwargs["raised"] = {c.slug: (data.get(f"raised-{c.slug}") or "").splitlines()
                                    for c in self.courses}
        return kwargs


@role_required(Role.ORGANISER)
def buzzer_event_round(
    request: HttpRequest, tournament: Tournament, preset: str, round_slug: str
) -> HttpResponse:
    """Preview who a round seats (from the rounds it follows), adjust its settings, confirm.

    GET with the seating inputs shows the preview; POST creates exactly the previewed
    seating (the plan's digest must still match) with the settings as the form says.
    """
    tp = _preset(preset)
    try:
        rp = tp.round(round_slug)
    except EngineError:
        raise Http404 from None
    if rp.config is None or rp.feed is None:
        raise Http404
    courses = [r for r in tp.rounds if r.feed is not None and r.feed.grouping == "courses"]
    is_course = rp.feed.grouping == "courses"
    data = request.POST if request.method == "POST" else (request.GET or None)
    seating = SeatingForm(data, tournament=tournament, rp=rp,
                          courses=courses if is_course else [])
    posted = request.POST if request.method == "POST" else None
    # One settings form per round created: each Number10 course is its own round with its
    # own rules (10 up-down, Freeze10 …), so each gets its form, prefixed by its slug.
    settings_forms = [
        RoundSettingsForm(_posted_settings(posted, c.slug if is_course else None),
                          config=c.config, prefix=c.slug if is_course else None)
        for c in (courses if is_course else [rp])
    ]
    for form, course in zip(settings_forms, courses if is_course else [rp]):
        form.title = round_name(course.name)
    plan: SeatPlan | None = None
    problem = ""
    if data is None or seating.is_valid():
        kwargs = seating.plan_kwargs() if data is not None else {}
        try:
            plan = preset_round_plan(tournament=tournament, preset=preset,
                                     round_slug=round_slug, **kwargs)
        except BuzzerRefused as refused:
            problem = refused.message
        # Every form is validated (not all() over a generator) so each shows its errors.
        checked = [form.is_valid() for form in settings_forms if form.is_bound]
        valid = all(checked)
        if request.method == "POST" and plan is not None and valid:
            configs = {slug: form.cleaned_data["config"] for slug, form in zip(
                [c.slug for c in courses] if is_course else [round_slug], settings_forms)
                if form.is_bound}
            try:
                created = preset_plan_confirm(
                    tournament=tournament, preset=preset, round_slug=round_slug,
                    expect=seating.cleaned_data.get("expect") or "",
                    configs=configs, by=request.user, **kwargs)
            except BuzzerRefused as refused:
                problem = refused.message
            else:
                messages.success(request, _("%(name)s を作成しました（%(n)d組）。") % {
                    "name": round_name(rp.name), "n": len(created)})
                return redirect("buzzer_event", slug=tournament.slug, preset=preset)
    elif request.method == "POST":
        problem = _("入力を確認してください。ラウンドは作成していません。")
    return render(request, "brackets/buzzer/event_round.html", {
        "tournament": tournament, "preset": tp, "rp": rp, "seating": seating,
        "settings_forms": settings_forms, "settings_form": settings_forms[0],
        "settings_errors": any(form.errors for form in settings_forms), "plan": plan, "problem": problem, "is_course": is_course,
        "priority": _priority_names(plan), "courses": courses if is_course else [],
    })


def _posted_settings(posted: Any, prefix: str | None) -> Any:
    """The POST for one settings form, or None when the post carries none of its fields:
    such a confirm (a script, the course page before it had forms) keeps the rule page's
    settings for that round instead of failing on every missing field."""
    if posted is None:
        return None
    mark = f"{prefix}-" if prefix else ""
    names = {field_name(sf.key) for sf in setting_fields()}
    for key in posted:
        rest = key[len(mark):] if key.startswith(mark) else ""
        if rest in names or rest.rsplit("_", 1)[0] in names:  # a judging chain posts name_0 …
            return posted
    return None


def _priority_names(plan: SeatPlan | None) -> list[str]:
    if plan is None:
        return []
    names = {row["key"]: row["name"] for row in plan.first_round}
    return [names.get(key, key) for key in plan.priority]
