"""The player registry's pages: the desk's lookup as it types, the registry list, one
player's record (cards, achievements, results, merges), and the organiser's 修羅 overrides.

Thin views: a form coerces, one service writes (``brackets.services.players``), selectors
read (``brackets.selectors.registry``); every refusal comes back in Japanese beside the
form with nothing changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from brackets.adapters.players import family_ids
from brackets.forms.players import (
    AchievementCorrectForm,
    AchievementForm,
    CorrectionReasonForm,
    DutyOverrideForm,
    EntrantLinkForm,
    PlayerCardForm,
    PlayerLookupForm,
    PlayerMergeForm,
    PlayerRenameForm,
)
from brackets.models import Entrant, Player, Role, Tournament
from brackets.permissions import role_required
from brackets.selectors.registry import (
    entrant_duties,
    first_appearance_card,
    player_list,
    player_lookup,
    player_record,
)
from brackets.selectors.registry_history import tournament_links
from brackets.selectors.registry_sheets import registry_rows
from brackets.selectors.series import main_event_berth, main_event_series
from brackets.services.players import (
    achievement_add,
    duty_override_record,
    player_card_record,
    player_merge,
)
from brackets.tables_players import RegistryPlayerTable

DESK_ROLES = (Role.ORGANISER, Role.DESK)


def _errors(form: Any, error: ValidationError) -> None:
    for name, texts in error.message_dict.items():
        for text in texts:
            form.add_error(name if name in form.fields else None, text)


@require_GET
@role_required(*DESK_ROLES)
def desk_player_lookup(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The registry players matching what the desk typed, with what the registry gives
    each of them at this event (2-d, 3-a, 6-c-iii, H0), as an htmx fragment."""
    form = PlayerLookupForm(request.GET)
    matches = []
    if form.is_valid():
        data = form.cleaned_data
        for match in player_lookup(name=data["name"], reading=data["reading"],
                                   card_name=data["card_name"]):
            fill = match.fill()
            # H0-b: a returning qualifier player brings the card of their first appearance.
            first_card = first_appearance_card(tournament=tournament, player=match.player)
            fill["card_name"] = first_card or fill["card_name"]
            probe = Entrant(tournament=tournament, player=match.player,
                            card_name=fill["card_name"], q_level=fill["q_level"])
            matches.append({"match": match, "fill": fill, "first_card": first_card,
                            "duties": entrant_duties(entrant=probe),
                            "berth": main_event_berth(tournament=tournament,
                                                      player=match.player)})
    prefix = form.cleaned_data.get("prefix", "") if form.is_valid() else ""
    return render(request, "brackets/players/_lookup.html",
                  {"tournament": tournament, "matches": matches, "prefix": prefix,
                   "main_event": main_event_series(tournament=tournament)})


@require_GET
@role_required(*DESK_ROLES)
def registry_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    rows = registry_rows(players=player_list(query=query))
    return render(request, "brackets/players/list.html",
                  {"tournament": tournament, "query": query,
                   "table": RegistryPlayerTable(rows.players, slug=tournament.slug)})


def _achievement_rows(record: Any, forms_: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each achievement in force with its withdraw and correct forms (a refused one comes
    back bound, its panel open); field ids per achievement so the page's labels hold."""
    rows = []
    for a in record.achievements:
        refused = forms_.get("achievement_id") == a.pk
        withdraw = forms_.get("withdraw_form") if refused else None
        correct = forms_.get("correct_form") if refused else None
        rows.append({
            "a": a, "copies": record.history.copies.get(a.pk, 1) if record.history else 1,
            "open": refused,
            "withdraw_form": withdraw or CorrectionReasonForm(auto_id=f"id_w{a.pk}_%s"),
            "correct_form": correct or AchievementCorrectForm(auto_id=f"id_c{a.pk}_%s", initial={
                "kind": a.kind, "title": a.title, "game_version": a.game_version,
                "held_on": a.held_on, "source": a.source, "limited": a.limited})})
    return rows


def _detail(request: HttpRequest, tournament: Tournament, player: Player, *,
            status: int = 200, **forms_: Any) -> HttpResponse:
    record = player_record(player=player)
    ids = family_ids(player)
    links = tournament_links(tournament=tournament, ids=ids)
    link_form = forms_.get("link_form") or EntrantLinkForm(auto_id="id_lk_%s")
    context = {"tournament": tournament, "record": record,
               "achievement_rows": _achievement_rows(record, forms_),
               "can_correct": Role.ORGANISER in request.roles,  # type: ignore[attr-defined]
               "rename_form": forms_.get("rename_form") or PlayerRenameForm(auto_id="id_rn_%s", initial={
                   "name": player.name, "reading": player.reading}),
               "links": links, "link_form": link_form,
               "unlink_form": forms_.get("unlink_form") or EntrantLinkForm(auto_id="id_u_%s"),
               "achievement_form": forms_.get("achievement_form") or AchievementForm(),
               "card_form": forms_.get("card_form") or PlayerCardForm(),
               "merge_form": forms_.get("merge_form") or PlayerMergeForm(),
               "can_merge": Role.ORGANISER in request.roles,  # type: ignore[attr-defined]
               "merge_candidates": [p for p in player_list(query=player.reading or player.name)
                                    if p.pk != player.pk]}
    return render(request, "brackets/players/detail.html", context, status=status)


@require_GET
@role_required(*DESK_ROLES)
def registry_player(request: HttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
    """One player's record. A merged duplicate's page shows the player it was merged into."""
    from brackets.adapters.players import canonical

    player = canonical(get_object_or_404(Player, pk=player_id))
    if player.pk != player_id:
        return redirect("registry_player", slug=tournament.slug, player_id=player.pk)
    return _detail(request, tournament, player)


@require_POST
@role_required(*DESK_ROLES)
def registry_achievement_add(request: HttpRequest, tournament: Tournament,
                             player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    form = AchievementForm(request.POST)
    if form.is_valid():
        try:
            achievement_add(player=player, data=form.cleaned_data, by=request.user)
        except ValidationError as error:
            _errors(form, error)
        else:
            messages.success(request, _("実績を記録しました。"))
            return redirect("registry_player", slug=tournament.slug, player_id=player.pk)
    return _detail(request, tournament, player, status=422, achievement_form=form)


@require_POST
@role_required(*DESK_ROLES)
def registry_card_record(request: HttpRequest, tournament: Tournament,
                         player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    form = PlayerCardForm(request.POST)
    if form.is_valid():
        try:
            player_card_record(player=player, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            _errors(form, error)
        else:
            messages.success(request, _("カードを記録しました。"))
            return redirect("registry_player", slug=tournament.slug, player_id=player.pk)
    return _detail(request, tournament, player, status=422, card_form=form)


@require_POST
@role_required(Role.ORGANISER)
def registry_merge(request: HttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
    """Merge a duplicate into this player; refused (nothing changed) when both played one
    tournament."""
    player = get_object_or_404(Player, pk=player_id)
    form = PlayerMergeForm(request.POST)
    if form.is_valid():
        other = Player.objects.filter(pk=form.cleaned_data["merged"]).first()
        if other is None:
            form.add_error("merged", _("統合する選手が見つかりません。"))
        else:
            try:
                player_merge(kept=player, merged=other, reason=form.cleaned_data["reason"],
                             by=request.user)
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, _("%(b)s さんを %(a)s さんに統合しました（記録済み）。")
                                 % {"a": player.name, "b": other.name})
                return redirect("registry_player", slug=tournament.slug, player_id=player.pk)
    return _detail(request, tournament, player, status=422, merge_form=form)


def _back_to_shura(tournament: Tournament) -> HttpResponse:
    return redirect(reverse("shura_desk", kwargs={"slug": tournament.slug}) + "#registry")


@require_POST
@role_required(Role.ORGANISER)
def shura_override(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """An organiser's decision against what the record gives, recorded with its reason."""
    form = DutyOverrideForm(request.POST)
    if form.is_valid():
        get_object_or_404(Entrant, tournament=tournament, pk=form.cleaned_data["entrant"])
        try:
            duty_override_record(tournament=tournament, entrant_id=form.cleaned_data["entrant"],
                                 ground=form.cleaned_data["ground"],
                                 value=form.cleaned_data["value"],
                                 reason=form.cleaned_data["reason"], by=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("判定の変更を理由とともに記録しました。"))
    else:
        messages.error(request, " ".join(str(e) for errs in form.errors.values() for e in errs))
    return _back_to_shura(tournament)
