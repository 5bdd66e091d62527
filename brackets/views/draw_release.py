"""The organiser's release of a round's draw (brackets/services/draw_release.py)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from brackets.models import Role, Round, Tournament
from brackets.permissions import role_required
from brackets.services.draw_release import round_draw_release
from brackets.services.rounds import RoundError


@require_POST
@role_required(Role.ORGANISER)
def round_release(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    try:
        round_draw_release(round=rnd, by=request.user)
        messages.success(request, _("{round}の組分けを公開しました。").format(round=rnd.name))
    except RoundError as exc:
        messages.error(request, exc.message)
    return redirect("round_detail", slug=tournament.slug, number=number)
