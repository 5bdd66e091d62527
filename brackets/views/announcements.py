"""The organiser's announcements and timetable, and the public timetable (issue 15 item 6)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from brackets.forms.notices import AnnouncementForm, TimetableForm
from brackets.models import Announcement, Role, Tournament
from brackets.perf.page_cache import public_page
from brackets.permissions import role_required
from brackets.selectors import floor as floor_sel
from brackets.selectors.timetable import timetable_slots
from brackets.services.announcements import announcement_post, announcement_withdraw
from brackets.services.timetable import timetable_set


def _field_errors(form: AnnouncementForm, error: ValidationError) -> None:
    for field, errors in error.message_dict.items():
        for message in errors:
            form.add_error(field if field in form.fields else None, message)


@role_required(Role.ORGANISER)
def announcements(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Post an announcement; every one posted, the withdrawn ones greyed with who and when."""
    form = AnnouncementForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            announcement_post(tournament=tournament, by=request.user,
                              text=form.cleaned_data["text"])
        except ValidationError as error:
            _field_errors(form, error)
        else:
            messages.success(request, _("お知らせを掲示しました。"))
            return redirect("announcements", slug=tournament.slug)
    rows = (Announcement.objects.filter(tournament=tournament)
            .select_related("posted_by", "withdrawn_by").order_by("-id"))
    status = 422 if request.method == "POST" else 200
    return render(request, "brackets/floor/announcements.html",
                  {"tournament": tournament, "form": form, "rows": rows}, status=status)


@require_POST
@role_required(Role.ORGANISER)
def announcement_withdraw_view(request: HttpRequest, tournament: Tournament,
                               announcement_id: int) -> HttpResponse:
    get_object_or_404(Announcement, tournament=tournament, pk=announcement_id)
    _announcement, changed = announcement_withdraw(
        tournament=tournament, announcement_id=announcement_id, by=request.user)
    if changed:
        messages.success(request, _("お知らせを取り下げました。"))
    else:
        messages.info(request, _("このお知らせは取り下げ済みです。"))
    return redirect("announcements", slug=tournament.slug)


@role_required(Role.ORGANISER)
def timetable(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The planned times: reception and each round's start, estimates beside them."""
    slots = timetable_slots(tournament, floor_sel.live_estimates(tournament))
    form = TimetableForm(request.POST or None, slots=slots)
    if request.method == "POST" and form.is_valid():
        try:
            changed = timetable_set(tournament=tournament, by=request.user,
                                    times=form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            if changed:
                messages.success(request, _("タイムテーブルを保存しました。"))
            else:
                messages.info(request, _("タイムテーブルに変更はありません。"))
            return redirect("timetable", slug=tournament.slug)
    status = 422 if request.method == "POST" else 200
    return render(request, "brackets/floor/timetable.html",
                  {"tournament": tournament, "form": form}, status=status)


@public_page
def public_timetable(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "brackets/public/timetable.html",
                  {"tournament": tournament, "slots": timetable_slots(tournament, floor_sel.live_estimates(tournament))})
