"""Home, tournament settings and staff: the organiser's pages."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from brackets.forms import StaffForm, TournamentForm
from brackets.forms.tournament import without_series
from brackets.models import Membership, Role, Round, Series, Tournament
from brackets.perf.page_cache import public_page
from brackets.permissions import role_required, user_roles
from brackets.selectors import rounds as sel
from brackets.services.logins import locked_usernames
from brackets.services.preset_settings import settings_preset_changed
from brackets.services.series import tournament_series_set
from brackets.services.tournaments import staff_add, staff_remove, tournament_create


def home(request: HttpRequest) -> HttpResponse:
    """Every tournament, with links to the staff pages the user may open."""
    tournaments = list(Tournament.objects.select_related("version"))
    rows = [(t, user_roles(request.user, t)) for t in tournaments]
    return render(request, "brackets/home.html", {"rows": rows})


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    if not request.user.is_superuser:
        raise PermissionDenied
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                tournament = tournament_create(creator=request.user,
                                               ruleset=form.cleaned_data.get("ruleset"),
                                               **without_series(form.cleaned_data))
                _series_save(tournament, form.cleaned_data)
        except ValidationError as error:
            _form_errors(form, error)
        else:
            messages.success(request, _("大会を作成しました。"))
            return redirect("tournament_dashboard", slug=tournament.slug)
    return render(request, "brackets/tournament_form.html", {"form": form, "creating": True})


def _series_save(tournament: Tournament, data: dict[str, Any]) -> bool:
    series = Series.objects.filter(pk=data.get("series")).first() if data.get("series") else None
    return tournament_series_set(tournament=tournament, series=series,
                                 role=data.get("series_role") or "qualifier")


def _form_errors(form: Any, error: ValidationError) -> None:
    for name, texts in error.message_dict.items():
        for text in texts:
            form.add_error(name if name in form.fields else None, text)


@role_required(Role.ORGANISER, Role.DESK, Role.BRACKET)
def tournament_dashboard(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "brackets/dashboard.html",
        {"tournament": tournament, "roles": request.roles},  # type: ignore[attr-defined]
    )


@role_required(Role.ORGANISER)
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    old_preset = tournament.preset
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        if not form.has_changed():
            messages.info(request, _("大会設定に変更はありません。"))
            return redirect("tournament_dashboard", slug=tournament.slug)
        try:
            # The series link is refused as a whole with the rest (nothing saved then).
            with transaction.atomic():
                form.save()
                _series_save(tournament, form.cleaned_data)
        except ValidationError as error:
            _form_errors(form, error)
        else:
            # Rule settings belong to a preset: switching it starts from its defaults.
            settings_preset_changed(tournament=tournament, by=request.user,
                                    old_preset=old_preset)
            messages.success(request, _("大会設定を保存しました。"))
            return redirect("tournament_dashboard", slug=tournament.slug)
    return render(
        request, "brackets/tournament_form.html", {"form": form, "tournament": tournament}
    )


@role_required(Role.ORGANISER)
def staff_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = StaffForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        already = Membership.objects.filter(tournament=tournament, role=data["role"],
                                            user__username=data["username"]).exists()
        staff_add(tournament=tournament, **data)
        if already:
            messages.info(request, _("%(name)s は既にこの役割です。変更はありません。")
                          % {"name": data["username"]})
        else:
            messages.success(request, _("スタッフを追加しました。"))
        return redirect("staff_list", slug=tournament.slug)
    members = Membership.objects.filter(tournament=tournament).select_related("user")
    return render(
        request,
        "brackets/staff.html",
        {"tournament": tournament, "form": form, "members": members,
         "locked": locked_usernames(tournament=tournament)},
    )


@require_POST
@role_required(Role.ORGANISER)
def staff_delete(request: HttpRequest, tournament: Tournament, membership_id: int) -> HttpResponse:
    staff_remove(tournament=tournament, membership_id=membership_id)
    messages.success(request, _("スタッフ権限を外しました。"))
    return redirect("staff_list", slug=tournament.slug)


@public_page
def public_tournament_home(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The public front page of a tournament: read-only, no staff data. Each drawn round
    links its page; once the event is over, the podium comes first (what people open the
    page for), instead of being one tap away on the bracket. Cached for visitors like the
    other public pages (it shows only what the tournament's revision covers)."""
    rounds = [r for r in sel.tournament_rounds(tournament)
              if r.status != Round.Status.CONFIGURED]
    podium = (sel.podium(tournament) if tournament.status == Tournament.Status.FINISHED
              else [])
    return render(request, "brackets/public/tournament.html",
                  {"tournament": tournament, "rounds": rounds, "podium": podium})
