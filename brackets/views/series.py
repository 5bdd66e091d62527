"""Series pages: the public page of a series (each qualifier, its berth winners, who is
still eligible) and the organiser's pages to create a series, edit it, attach tournaments
and grant a berth won at a qualifier run elsewhere.

Thin views: a form coerces, one service writes (``brackets.services.series``), selectors
read (``brackets.selectors.series``). The organiser pages hang under a tournament the user
organises (``role_required``); a series is edited from a tournament in it, or by the one
who created it, so an organiser of an unrelated event cannot rewrite another's series.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from brackets.forms.series import BerthGrantForm, SeriesAttachForm, SeriesForm
from brackets.models import Membership, Player, Role, Series, Tournament
from brackets.permissions import public_series, role_required
from brackets.selectors.series import QUALIFIER, series_list, series_of, series_view
from brackets.services.series import (
    berth_grant,
    series_create,
    series_update,
    tournament_series_set,
)


def _errors(form: Any, error: ValidationError) -> None:
    for name, texts in error.message_dict.items():
        for text in texts:
            form.add_error(name if name in form.fields else None, text)


@require_GET
@public_series
def public_series_page(request: HttpRequest, series: Series) -> HttpResponse:
    """Read-only, no login: the qualifiers with their dates, status and berth winners, the
    main event, and the registry players still eligible."""
    return render(request, "brackets/series/public.html",
                  {"series": series, "view": series_view(series=series)})


@role_required(Role.ORGANISER)
def series_index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's series, every series, and a form to create one (which this
    tournament then joins as a qualifier)."""
    form = SeriesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            series = series_create(by=request.user, **form.cleaned_data)
            if series_of(tournament=tournament) is None:
                tournament_series_set(tournament=tournament, series=series, role=QUALIFIER)
        except ValidationError as error:
            _errors(form, error)
        else:
            messages.success(request, _("シリーズ「%(s)s」を作成しました。") % {"s": series.name})
            return redirect("series_edit", slug=tournament.slug, series_slug=series.slug)
    status = 422 if request.method == "POST" else 200
    return render(request, "brackets/series/index.html",
                  {"tournament": tournament, "member": series_of(tournament=tournament),
                   "all_series": series_list(), "form": form}, status=status)


def _editable(request: HttpRequest, tournament: Tournament, series_slug: str) -> Series:
    series = get_object_or_404(Series, slug=series_slug)
    member = series_of(tournament=tournament)
    mine = member is not None and member.series.pk == series.pk
    if not (mine or request.user.is_superuser or series.by_id == request.user.pk):
        raise PermissionDenied
    return series


def _organised(request: HttpRequest) -> list[Tournament]:
    """The tournaments the user may put in a series: those they organise."""
    if request.user.is_superuser:
        return list(Tournament.objects.order_by("-date", "name"))
    ids = Membership.objects.filter(user_id=request.user.pk, role=Role.ORGANISER
                                    ).values_list("tournament_id", flat=True)
    return list(Tournament.objects.filter(pk__in=list(ids)).order_by("-date", "name"))


def _edit_page(request: HttpRequest, tournament: Tournament, series: Series, *,
               status: int = 200, **forms_: Any) -> HttpResponse:
    context = {
        "tournament": tournament, "series": series, "view": series_view(series=series),
        "form": forms_.get("form") or SeriesForm(initial={
            "name": series.name, "slug": series.slug, "game_version": series.game_version}),
        "attach_form": forms_.get("attach_form") or SeriesAttachForm(
            tournaments=_organised(request), initial={"tournament": tournament.pk}),
        "grant_form": forms_.get("grant_form") or BerthGrantForm(),
        # A refused withdrawal comes back under its grant with the reason's error.
        "withdraw_form": forms_.get("withdraw_form"),
        "withdraw_grant": forms_.get("withdraw_grant"),
    }
    return render(request, "brackets/series/edit.html", context, status=status)


@role_required(Role.ORGANISER)
def series_edit(request: HttpRequest, tournament: Tournament, series_slug: str) -> HttpResponse:
    """A series' details, its tournaments and berths, with the forms that change them."""
    series = _editable(request, tournament, series_slug)
    if request.method != "POST":
        return _edit_page(request, tournament, series)
    form = SeriesForm(request.POST)
    if form.is_valid():
        try:
            series = series_update(series=series, **form.cleaned_data)
        except ValidationError as error:
            _errors(form, error)
        else:
            messages.success(request, _("シリーズを保存しました。"))
            return redirect("series_edit", slug=tournament.slug, series_slug=series.slug)
    return _edit_page(request, tournament, series, status=422, form=form)


@require_POST
@role_required(Role.ORGANISER)
def series_attach(request: HttpRequest, tournament: Tournament,
                  series_slug: str) -> HttpResponse:
    """Put a tournament the user organises in this series (or take it out)."""
    series = _editable(request, tournament, series_slug)
    form = SeriesAttachForm(request.POST, tournaments=_organised(request))
    if form.is_valid():
        target = Tournament.objects.get(pk=form.cleaned_data["tournament"])
        role = form.cleaned_data["role"]
        member = series_of(tournament=target)
        try:
            if role == "none":
                changed = (member is not None and member.series.pk == series.pk
                           and tournament_series_set(tournament=target, series=None))
            else:
                changed = tournament_series_set(tournament=target, series=series, role=role)
        except ValidationError as error:
            _errors(form, error)
        else:
            if changed:
                messages.success(request, _("「%(t)s」のシリーズを変更しました。") % {"t": target.name})
            else:
                messages.info(request, _("変更はありません。"))
            return redirect("series_edit", slug=tournament.slug, series_slug=series.slug)
    return _edit_page(request, tournament, series, status=422, attach_form=form)


@require_POST
@role_required(Role.ORGANISER)
def series_berth_grant(request: HttpRequest, tournament: Tournament,
                       series_slug: str) -> HttpResponse:
    """A berth won at a qualifier run elsewhere, recorded with its source; refused (nothing
    recorded) for a place already granted or a player already holding a berth."""
    series = _editable(request, tournament, series_slug)
    form = BerthGrantForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        player = get_object_or_404(Player, pk=data["player"])
        try:
            berth_grant(series=series, player=player, qualifier=data["qualifier"],
                        held_on=data["held_on"], place=data["place"], source=data["source"],
                        by=request.user)
        except ValidationError as error:
            _errors(form, error)
        else:
            messages.success(request, _("%(p)s さんの本戦出場権（%(q)s %(n)d位）を記録しました。")
                             % {"p": player.name, "q": data["qualifier"], "n": data["place"]})
            return redirect("series_edit", slug=tournament.slug, series_slug=series.slug)
    return _edit_page(request, tournament, series, status=422, grant_form=form)

