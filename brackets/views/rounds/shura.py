"""The 修羅 desk: each 修羅 entrant's lots (H4/H5)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from brackets import engine_adapter as ea
from brackets.forms.players import DutyOverrideForm
from brackets.forms.special import ShuraLotsForm
from brackets.models import Entrant, Role, Round, Tournament
from brackets.permissions import role_required
from brackets.selectors import rounds as sel
from brackets.selectors.duties import in_force_for
from brackets.selectors.registry import entrant_duties
from brackets.services import rounds as svc


def _selects(posted: list[str], count: int) -> list[str]:
    """What each of ``count`` selects shows: the posted value at its place, else blank."""
    return [posted[i] if i < len(posted) else "" for i in range(count)]


@role_required(Role.ORGANISER, Role.DESK)
def shura_desk(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """H4/H5: each 修羅 entrant's lots, drawn by the app or recorded from the box.

    A refused record comes back beside its entrant's row with every select as it was
    posted, so one wrong lot is changed without choosing the others again.
    """
    error = ""
    posted: dict[str, Any] = {}
    if request.method == "POST":
        form = ShuraLotsForm(request.POST)
        posted = {"entrant": request.POST.get("entrant", ""),
                  "genres": request.POST.getlist("genre"),
                  "formats": request.POST.getlist("format"),
                  "format_lots": request.POST.get("format_lots", "")}
        if not form.is_valid():
            error = form.refusal()[0]
        else:
            entrant = get_object_or_404(Entrant, id=form.cleaned_data["entrant"],
                                        tournament=tournament)
            genres = form.physical_genres()
            # H5: the app draws the number declared; a box draw declares what it lists.
            declared = form.cleaned_data["format_lots"] if genres is None else None
            try:
                svc.shura_lots_draw(tournament=tournament, entrant=entrant, by=request.user,
                                    genres=genres, formats=form.formats(),
                                    format_lots=declared)
                return redirect(reverse("shura_desk", kwargs={"slug": tournament.slug}))
            except svc.RoundError as exc:
                error = exc.message
    entrants = list(Entrant.objects.filter(tournament=tournament).select_related("tournament")
                    .order_by("id"))
    lots = sel.lots_of(tournament, [e.id for e in entrants])
    # Each entrant's duties in force: the desk's typing combined with the registry's, read
    # as of the entrant's lottery once it is drawn.
    found = in_force_for(tournament=tournament, entrants=entrants)
    rows = []
    row_error = False
    for e in entrants:
        owed = found[e.id].owed
        if owed is None:  # over the cap of 4: shown as an error row
            rows.append({"entrant": e, "owed": None, "lots": lots.get(e.id),
                         "warning": found[e.id].warning()})
            continue
        if not owed.shura and found[e.id].warning():
            # A duty the record gives only after the lottery: shown, never drawn.
            rows.append({"entrant": e, "owed": owed, "lots": lots.get(e.id),
                         "warning": found[e.id].warning()})
            continue
        if owed.shura:
            from brackets.selectors.documents import LOT_REASONS

            # Why each lot is owed, in the desk's words (not the engine's codes).
            reasons = [LOT_REASONS.get(str(r), str(r)) for r in owed.reasons]
            # H5: a past champion may add up to k format lots; the desk asks how many.
            k = svc.shura_format_lots_allowed(tournament=tournament, entrant=e,
                                              genre_lots=owed.genre_lots,
                                              duties=found[e.id].duties)
            mine = error and posted.get("entrant") == str(e.id)
            row_error = row_error or bool(mine)
            rows.append({"entrant": e, "owed": owed, "lots": lots.get(e.id), "reasons": reasons,
                         "warning": found[e.id].warning(),
                         "format_lots_allowed": k, "format_lot_choices": range(k + 1),
                         "error": error if mine else "",
                         "format_lots_chosen": (posted["format_lots"] if mine else str(k)),
                         "genre_selects": _selects(posted["genres"] if mine else [],
                                                   owed.genre_lots),
                         "format_selects": _selects(posted["formats"] if mine else [], k)})
    catalog = ea.catalog_for(tournament.version_id)
    # What the registry gives each linked entrant, derived by the engine, with the why.
    # What the registry gives each linked entrant, with the why: those whose record gives
    # something (a ground, past wins, an override, a later duty, an H0 refusal), the rest
    # named in one line so the page stays short.
    registry, plain = [], []
    for e in entrants:
        d = entrant_duties(entrant=e, in_force=found[e.id]) if e.player_id else None
        if d is None:
            continue
        if (any(g.derived or g.override for g in d.grounds) or d.past_wins or d.overrides
                or d.warning or d.refusals):
            registry.append(d)
        else:
            plain.append(d)
    return render(request, "brackets/rounds/shura.html",
                  {"tournament": tournament, "rows": rows, "error": "" if row_error else error,
                   "lot_genres": catalog.lot_genres,
                   "format_lot_pool": svc.shura_format_lot_pool(tournament=tournament),
                   "has_rounds": Round.objects.filter(tournament=tournament, number=1).exists(),
                   "registry": registry, "registry_plain": plain,
                   "override_form": DutyOverrideForm()},
                  status=400 if error else 200)
