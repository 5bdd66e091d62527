"""The advancement preview: the cut line and the 惜敗率 table before staff confirm."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from brackets import engine_adapter as ea
from brackets import tables_rounds as rt
from brackets.adapters.rounds import round_rules
from brackets.messages import violation_text
from brackets.models import Round, Tournament
from brackets.permissions import role_required
from brackets.selectors import rounds as sel
from brackets.views.rounds._common import STAFF, _round


def _round_context(tournament: Tournament, rnd: Round) -> dict[str, Any]:
    rv = sel.round_view(rnd)
    return {"tournament": tournament, "round": rnd, "rv": rv,
            "names": sel.seated_names(rv.groups),
            "status_labels": sel.STATUS_LABELS, "counts": rv.counts(),
            "last_step": sel.last_step(rnd)}


@role_required(*STAFF)
def round_advance_preview(request: HttpRequest, tournament: Tournament,
                          number: int) -> HttpResponse:
    """The cut line and the 惜敗率 table, shown before staff confirm the advancers."""
    rnd = _round(tournament, number)
    rv = sel.round_view(rnd)
    ctx = _round_context(tournament, rnd)
    ctx["rv"] = rv
    ids = [s.entrant_id for g in rv.groups for s in g.seats if s.entrant_id]
    ctx["names"] = {ea.player_key(k): v for k, v in
                    ((e.id, e.name) for e in sel.entrant_map(ids).values())}
    if rv.all_done and not rv.rules.spec.is_last:
        ctx["outcomes"] = sel.advancement_preview(rnd, rv)
    elif rv.all_done:
        ctx["final_order"] = sel.final_order(rv)
        ctx["final_rows"] = list(zip(sel.place_labels(rnd, len(ctx["final_order"])),
                                     (ctx["names"].get(p, p) for p in ctx["final_order"])))
    ctx["last_round"] = rv.rules.spec.is_last
    # K8: the semi-final's 3rd and 4th are not out, they play the 3位決定戦: the round the
    # spec sends this round's non-advancers to, whose contenders (K9, engine/match) are
    # this round's lower places.
    losers_to = rv.rules.spec.losers_to
    for later in (Round.objects.filter(tournament=tournament, number__gt=rnd.number)
                  if losers_to else ()):
        later_rules = round_rules(later)
        src = later_rules.contenders_from
        if later_rules.spec.key == losers_to and src is not None and src[0] == rnd.number:
            ctx["fed_round"] = later
            ctx["fed_places"] = _("・").join(str(p) for p in src[1])
    # The engine's warnings in words (a tie at the cut line, too many or too few advancers).
    ctx["warning_texts"] = {rule: [violation_text(w, ctx["names"]) for w in outcome.warnings]
                            for rule, outcome in ctx.get("outcomes", [])}
    # The tables the round's Excel export writes (brackets.exporters.spreadsheets).
    outcomes = ctx.get("outcomes", [])
    people = rt.people_of(rv)
    advancers, wildcards = rt.advance_marks(rnd, outcomes)
    ctx["wildcard_tables"] = rt.wildcard_tables(rv, outcomes, people=people)
    ctx["cross_table"] = rt.cross_table(rv, outcomes, people=people)
    ctx["cross_order"] = sel.overall_order_note(rv)
    ctx["ratio_note"] = sel.undefined_ratio_note(rv)
    ctx["results_table"] = rt.results_table(rv, advancers=advancers, wildcards=wildcards)
    return render(request, "brackets/rounds/advance.html", ctx)
