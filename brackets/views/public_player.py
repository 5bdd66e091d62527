"""A player's public page (no login): what a player asks staff at the venue — their rounds,
sets, scores, places, 惜敗率, penalties, 修羅 lots, where they finished, and what the engine
still allows them in their next match."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.labels import MODE_LABELS, translated
from brackets.models import Entrant, Seat, SpecialFact, Tournament
from brackets.perf.page_cache import public_page
from brackets.selectors import players as player_sel
from brackets.selectors import rounds as sel


@public_page
def public_player(request: HttpRequest, tournament: Tournament, entrant_id: int) -> HttpResponse:
    """Everything a player asks staff: rounds, sets, scores, places, 惜敗率, penalties,
    修羅 lots, and what genres and format groups remain."""
    entrant = get_object_or_404(Entrant, id=entrant_id, tournament=tournament)
    catalog = ea.catalog_for(tournament.version_id)
    history = sel.selection_history(tournament, [entrant.id]).get(entrant.id, [])
    rounds = sel.tournament_rounds(tournament)
    key = ea.player_key(entrant.id)
    played = []
    seats = list(Seat.objects.filter(entrant=entrant, superseded_by__isnull=True,
                                     group__round__draw_released_at__isnull=False)
                 .select_related("group", "group__round").order_by("group__round__number",
                                                                   "group__game"))
    groups = [s.group for s in seats]
    views = {gv.group.id: gv for gv in sel.group_views(groups, tournament)} if groups else {}
    for rnd in {g.round.id: g.round for g in groups
                if round_rules(g.round).spec.is_series}.values():
        # A finalist or partner sits in every game of the final: its games are all here,
        # so a game after the series was decided reads 不要, not 待機 (K10).
        sel.mark_series(sel.RoundView(rnd, [v for v in views.values()
                                            if v.group.round_id == rnd.id],
                                      round_rules(rnd)))
    for seat in seats:
        gv = views[seat.group_id]
        row = gv.row_of(key)
        sel_row = gv.selection_rows.get(seat.number)
        # K9/K10: a pair game is won or lost by the pair; 惜敗率 means nothing there.
        pair_role = sel.pair_roles(gv).get(key, "")
        played.append({"round": seat.group.round, "group": seat.group, "seat": seat.number,
                       "selection": sel_row, "row": row,
                       "selection_penalty": gv.selection_penalties.get(seat.number),
                       "ratio": None if pair_role else gv.ratios.get(key),
                       "pair_role": pair_role,
                       "penalties": [p for p in gv.penalty_rows if p.seat_id == seat.id],
                       "status": sel.STATUS_LABELS[gv.status]})
    used = sel.used_summary(history, catalog)
    windows = sel.used_by_window(history, catalog)
    # One heading while only the main window was played; per window once the final (a
    # fresh history, K10) has sets, so pre-final use is not read as the final's.
    used_windows = [(_(sel.WINDOW_LABELS.get(w, w)) if len(windows) > 1 else "", u)
                    for w, u in windows]
    lots = sel.lots_of(tournament, [entrant.id]).get(entrant.id)
    withdrawn = entrant.id in sel.withdrawn_ids(tournament)
    # What the engine allows in the player's current match or next round, as the match
    # page computes it: not the whole history, since the final resets it (K10), the
    # third-place match ignores it (K9) and round 4's cards narrow it (K7).
    upcoming = player_sel.next_choices(tournament, entrant, catalog, seats=seats, views=views,
                                       rounds=rounds, history=history, lots=lots)
    standing = None
    rules = (upcoming.rules if upcoming is not None
             else player_sel.standing_rules(entrant, rounds, lots))
    if upcoming is not None:
        standing = {**upcoming.summary(), "round": upcoming.round, "group": upcoming.group,
                    "prospective": upcoming.prospective,
                    "cards_pending": upcoming.cards_pending,
                    "window": upcoming.window,
                    "window_label": (_(sel.WINDOW_LABELS[upcoming.window])
                                     if upcoming.window in sel.WINDOW_LABELS else "")}
    return render(request, "brackets/public/player.html",
                  {"tournament": tournament, "entrant": entrant, "played": played,
                   # The ペナルティ column only when there is one: on a phone an empty
                   # column squeezed the others to a character per line.
                   "any_penalty": any(p["selection_penalty"] is not None
                                      or p["penalties"]
                                      or (p["row"] is not None and p["row"].disqualified)
                                      for p in played),
                   # Where the player finished (優勝, 準優勝, 3位): the champion's own page
                   # did not say so. The built views of their last rounds are reused.
                   "finish": next((row.label for row in sel.podium(tournament, [
                       sel.RoundView(r, [v for v in views.values() if v.group.round_id == r.id],
                                     round_rules(r)) for r in {
                           g.round.id: g.round for g in groups
                           if round_rules(g.round).spec.is_last}.values()])
                       if row.player == key), ""),
                   "used": used, "used_windows": used_windows,
                   "lots": lots, "rounds": rounds,
                   "withdrawn": withdrawn, "standing": standing,
                   "mode": str(rules.mode) if rules is not None else "",
                   "mode_label": translated(MODE_LABELS),
                   "private_rounds": [r for r in rounds if r.draw_private],
                   "kinds": SpecialFact.Kind})
