"""What ``manage.py replay`` prints: a tournament's derived state, keyed by card name.

:func:`tournament_summary` lists each round's groups, placements, 惜敗率, advancers and
penalties, and every player's remaining options (docs/replay.md, "The output"); the
replay command prints it and the tests compare a replay's with the run done through the
pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.models import Entrant, Tournament
from brackets.selectors import rounds as sel
from brackets.selectors.duties import duties_by_id


def _dec(value: Decimal | None) -> str | None:
    return None if value is None else f"{value}"


def tournament_summary(tournament: Tournament) -> dict[str, Any]:
    """Each round's groups, placements, 惜敗率, advancers, penalties, and every player's
    remaining options, keyed by card name (stable across databases)."""
    catalog = ea.catalog_for(tournament.version_id)
    entrants = {e.id: e for e in Entrant.objects.filter(tournament=tournament)}
    card = {ea.player_key(i): e.card_name for i, e in entrants.items()}
    out: dict[str, Any] = {"tournament": tournament.name, "lottery_seed": tournament.lottery_seed,
                           "preset": tournament.preset, "rounds": []}
    lots = sel.lots_of(tournament, list(entrants))
    out["shura_lots"] = {entrants[i].card_name: {"genres": d["genres"], "formats": d["formats"]}
                         for i, d in sorted(lots.items())}
    for rnd in sel.tournament_rounds(tournament):
        rv = sel.round_view(rnd)
        groups = []
        for gv in rv.groups:
            g: dict[str, Any] = {"label": gv.label, "rule": gv.group.rule,
                                 "status": gv.status,
                                 "seats": {str(s.number): (s.entrant.card_name if s.entrant
                                                           else "dummy") for s in gv.seats}}
            if gv.result is not None:
                g["placements"] = [
                    {"player": card[p.player], "place": p.place, "score": _dec(p.score),
                     "screen_score": _dec(p.screen_score), "penalty": _dec(p.penalty),
                     "ratio": _dec(gv.ratios[p.player].display()),
                     "disqualified": p.disqualified} for p in gv.result.players]
            g["selections"] = {
                entrants[s.entrant_id].card_name: [x.genre, x.format, x.difficulty]
                for s in gv.seats if s.entrant_id and (x := gv.facts.selections.get(s.number))}
            g["penalties"] = [{"seat": n, "points": _dec(pts), "reason": reason}
                              for n, pts, reason in gv.facts.penalties]
            groups.append(g)
        advancers = sel.advancers_of(rnd)
        rules = round_rules(rnd)
        # The summary keeps the kinds docs/replay.md publishes (``series`` …).
        entry: dict[str, Any] = {"number": rnd.number, "name": rnd.name,
                                 "kind": rules.published_kind,
                                 "status": rnd.status, "groups": groups,
                                 "advancers": None if advancers is None else
                                 [entrants[a].card_name for a in advancers]}
        step = rnd.steps.filter(action="advance", undone_by__isnull=True).order_by("-id").first()
        if step is not None:
            entry["wildcards"] = [card[p] for p in step.data.get("wildcards", [])]
            if "final_order" in step.data:
                entry["final_order"] = [card[p] for p in step.data["final_order"]]
        if rv.all_done and not rules.spec.is_last:
            entry["ratio_table"] = [
                {"rule": rule, "cut": outcome.cut,
                 "rows": [{"player": card[r.standing.player], "group": r.standing.group,
                           "place": r.standing.place, "ratio": _dec(r.standing.ratio.display()),
                           "rank": r.rank, "status": r.status} for r in outcome.table]}
                for rule, outcome in sel.advancement_preview(rnd, rv)]
        out["rounds"].append(entry)
    out["remaining"] = _remaining(tournament, entrants, catalog)
    return out


def _remaining(tournament: Tournament, entrants: Mapping[int, Entrant],
               catalog: Any) -> dict[str, Any]:
    """Every player's remaining options for the main window (the engine's summary)."""
    history = sel.selection_history(tournament, list(entrants))
    lots = sel.lots_of(tournament, list(entrants))
    duties = duties_by_id(tournament, list(entrants), entrants=dict(entrants))
    restriction, preset, settings = "basic", tournament.preset, tournament.preset_settings
    rounds = sel.tournament_rounds(tournament)
    if rounds:
        first = round_rules(rounds[0])
        restriction, preset, settings = "preset", first.preset_slug, dict(first.settings)
    out = {}
    for eid, e in sorted(entrants.items()):
        rules = ea.player_rules(restriction, ea.rules_input_from_entrant(e, lots.get(eid),
                                                                         duties.get(eid)),
                                preset, settings=settings)
        hist = ea.history_of((h.selection, h.round_name, h.window, h.recorded)
                             for h in history.get(eid, []))
        choices = ea.choices_for(catalog, rules, hist, ea.match_rules(label="", window="main"))
        summary = choices.summary()
        out[e.card_name] = {"legal_genres": summary["legal_genres"],
                            "legal_units": summary["legal_units"],
                            "genre_fallback": summary["genre_fallback"],
                            "format_fallback": summary["format_fallback"]}
    return out
