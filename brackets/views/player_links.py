"""The organiser's review of an imported tournament's players (#14 item 5): uncertain
matches are never linked silently; each is confirmed as the same person (recorded as a
merge, who and when) or as a different person (the imported player stays its own)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from brackets.forms.players import PlayerLinkDecisionForm
from brackets.models import Role, Tournament
from brackets.permissions import role_required
from brackets.selectors.player_links import player_links_review as review_rows
from brackets.services.player_links import player_link_decide as link_decide


def _page(request: HttpRequest, tournament: Tournament, *, status: int = 200,
          form: PlayerLinkDecisionForm | None = None, link_id: int = 0) -> HttpResponse:
    rows = review_rows(tournament=tournament)
    return render(request, "brackets/players/links.html",
                  {"tournament": tournament, "rows": rows, "form": form, "form_link": link_id,
                   "pending": sum(1 for r in rows
                                  if r.link.match == "uncertain" and r.decision is None)},
                  status=status)


@require_GET
@role_required(Role.ORGANISER)
def player_links_review(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _page(request, tournament)


@require_POST
@role_required(Role.ORGANISER)
def player_link_decide(request: HttpRequest, tournament: Tournament,
                       link_id: int) -> HttpResponse:
    form = PlayerLinkDecisionForm(request.POST)
    if form.is_valid():
        same = form.cleaned_data["decision"] == "same"
        try:
            decision = link_decide(tournament=tournament, link_id=link_id, by=request.user,
                                   same_as=form.cleaned_data["same_as"] if same else None)
        except ValidationError as error:
            for name, texts in error.message_dict.items():
                for text in texts:
                    form.add_error(name if name in form.fields else None, text)
        else:
            name = decision.link.entrant.name
            messages.success(request, _("%(name)s さんを登録簿の選手と同一人物として記録しました。")
                             % {"name": name} if same else
                             _("%(name)s さんを別人（新しい選手）として記録しました。") % {"name": name})
            return redirect("player_links_review", slug=tournament.slug)
    return _page(request, tournament, status=422, form=form, link_id=link_id)
