"""The organiser's corrections on a player's page (#14): withdraw or correct an achievement,
rename the player, link an entrant of this tournament to the player or unlink it; and the
withdrawal of a berth granted by hand on the series page.

Thin views: a form coerces, one service records the correction with who, when and why
(``brackets.services.registry_corrections``, ``brackets.services.series``); a refusal comes
back beside the form in Japanese (422) with nothing changed.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from brackets.adapters.players import canonical
from brackets.forms.players import (
    AchievementCorrectForm,
    CorrectionReasonForm,
    EntrantLinkForm,
    PlayerRenameForm,
)
from brackets.models import Player, Role, SeriesBerthGrant, Tournament
from brackets.permissions import role_required
from brackets.services.registry_corrections import (
    achievement_correct,
    achievement_withdraw,
    entrant_link,
    entrant_unlink,
    player_rename,
)
from brackets.services.series import berth_withdraw
from brackets.views.players import _detail, _errors
from brackets.views.series import _edit_page, _editable


def _player(player_id: int) -> Player:
    return canonical(get_object_or_404(Player, pk=player_id))


def _back(tournament: Tournament, player: Player) -> HttpResponse:
    return redirect("registry_player", slug=tournament.slug, player_id=player.pk)


@require_POST
@role_required(Role.ORGANISER)
def registry_achievement_withdraw(request: HttpRequest, tournament: Tournament, player_id: int,
                                  achievement_id: int) -> HttpResponse:
    player = _player(player_id)
    form = CorrectionReasonForm(request.POST, auto_id=f"id_w{achievement_id}_%s")
    if form.is_valid():
        try:
            achievement_withdraw(player=player, achievement_id=achievement_id,
                                 reason=form.cleaned_data["reason"], by=request.user)
        except ValidationError as error:
            _errors(form, error)
        else:
            messages.success(request, _("実績を取り下げました（理由とともに記録しました）。"))
            return _back(tournament, player)
    return _detail(request, tournament, player, status=422, achievement_id=achievement_id,
                   withdraw_form=form)


@require_POST
@role_required(Role.ORGANISER)
def registry_achievement_correct(request: HttpRequest, tournament: Tournament, player_id: int,
                                 achievement_id: int) -> HttpResponse:
    player = _player(player_id)
    form = AchievementCorrectForm(request.POST, auto_id=f"id_c{achievement_id}_%s")
    if form.is_valid():
        data = form.cleaned_data
        try:
            achievement_correct(player=player, achievement_id=achievement_id, data=data,
                                reason=data["reason"], by=request.user)
        except ValidationError as error:
            _errors(form, error)
        else:
            messages.success(request, _("実績を訂正しました（元の記録は履歴に残ります）。"))
            return _back(tournament, player)
    return _detail(request, tournament, player, status=422, achievement_id=achievement_id,
                   correct_form=form)


@require_POST
@role_required(Role.ORGANISER)
def registry_player_rename(request: HttpRequest, tournament: Tournament,
                           player_id: int) -> HttpResponse:
    player = _player(player_id)
    form = PlayerRenameForm(request.POST, auto_id="id_rn_%s")
    if form.is_valid():
        try:
            player_rename(player=player, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            _errors(form, error)
        else:
            messages.success(request, _("名前を変更しました（前の名前は履歴に残ります）。"))
            return _back(tournament, player)
    return _detail(request, tournament, player, status=422, rename_form=form)


@require_POST
@role_required(Role.ORGANISER)
def registry_entrant_link(request: HttpRequest, tournament: Tournament,
                          player_id: int) -> HttpResponse:
    player = _player(player_id)
    form = EntrantLinkForm(request.POST, auto_id="id_lk_%s")
    if form.is_valid():
        try:
            row = entrant_link(tournament=tournament, entrant_id=form.cleaned_data["entrant"],
                               player=player, reason=form.cleaned_data["reason"],
                               override=form.cleaned_data["override"], by=request.user)
        except ValidationError as error:
            _errors(form, error)
        else:
            messages.success(request, _("%(e)s さんをこの選手に結び付けました（記録済み）。")
                             % {"e": row.entrant.name})
            return _back(tournament, player)
    return _detail(request, tournament, player, status=422, link_form=form)


@require_POST
@role_required(Role.ORGANISER)
def registry_entrant_unlink(request: HttpRequest, tournament: Tournament,
                            player_id: int) -> HttpResponse:
    player = _player(player_id)
    form = EntrantLinkForm(request.POST, auto_id="id_u_%s")
    if form.is_valid():
        try:
            row = entrant_unlink(tournament=tournament, entrant_id=form.cleaned_data["entrant"],
                                 reason=form.cleaned_data["reason"], by=request.user)
        except ValidationError as error:
            _errors(form, error)
        else:
            messages.success(request, _("%(e)s さんと選手の結び付けを外しました（記録済み）。")
                             % {"e": row.entrant.name})
            return _back(tournament, player)
    return _detail(request, tournament, player, status=422, unlink_form=form)


@require_POST
@role_required(Role.ORGANISER)
def series_berth_withdraw(request: HttpRequest, tournament: Tournament, series_slug: str,
                          grant_id: int) -> HttpResponse:
    """A berth granted by hand withdrawn with the reason; it no longer counts (H0, the
    series pages) and the place may be granted again."""
    series = _editable(request, tournament, series_slug)
    grant = get_object_or_404(SeriesBerthGrant, series=series, pk=grant_id)
    form = CorrectionReasonForm(request.POST, auto_id=f"id_bw{grant_id}_%s")
    if form.is_valid():
        try:
            berth_withdraw(series=series, grant_id=grant.pk, reason=form.cleaned_data["reason"],
                           by=request.user)
        except ValidationError as error:
            _errors(form, error)
        else:
            messages.success(request, _("%(p)s さんの本戦出場権（%(q)s %(n)d位）を取り下げました。")
                             % {"p": grant.player.name, "q": grant.qualifier, "n": grant.place})
            return redirect("series_edit", slug=tournament.slug, series_slug=series.slug)
    return _edit_page(request, tournament, series, status=422, withdraw_form=form,
                      withdraw_grant=grant.pk)
