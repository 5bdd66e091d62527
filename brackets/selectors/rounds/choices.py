"""What each seated player may choose in a match, and what it makes of the sets played.

:func:`seat_choices` builds every seat's engine ``Choices`` from the player's rules, 修羅
lots, history and the match's special facts; :func:`selection_penalties` judges the sets
staff accepted as illegal against those same choices, so their H7 penalty follows every
correction upstream. Below :mod:`.groups`, which derives a group's facts through it.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Q

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.engine import Catalog, RuleRefusal, bans_in_force
from brackets.models import Entrant, Seat, SpecialFact
from brackets.selectors.rounds.group_view import GroupView
from brackets.selectors.rounds.history import (
    HistoryRow,
    _newest,
    lots_of,
    selection_history,
    selection_penalty,
)


@dataclass
class SeatChoices:
    seat: Seat
    choices: Any
    rules: Any
    history: list[HistoryRow]
    #: Everything the engine computes the choices from (catalog identity, player rules,
    #: history, match rules), frozen: equal keys give equal choices, so a page may reuse
    #: what it rendered from them.
    key: tuple[Any, ...] = ()


def frozen(value: Any) -> Any:
    """A hashable copy of an engine input (dataclasses, mappings and sequences inside)."""

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple(
            (f.name, frozen(getattr(value, f.name))) for f in dataclasses.fields(value))
    if isinstance(value, Mapping):
        return ("{}",) + tuple(sorted((frozen(k), frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return ("[]",) + tuple(frozen(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return ("{,}",) + tuple(sorted(frozen(v) for v in value))
    return value


def match_context(gv: GroupView) -> dict[str, Any]:
    """Cards drawn, bans (revealed or not) and partners of one match."""
    group = gv.group
    rnd = group.round
    # K7 per round (preset setting k7_draw_per): the round's one draw has no group.
    facts = list(SpecialFact.objects.filter(
        Q(group=group) | Q(round=rnd, group__isnull=True, kind=SpecialFact.Kind.CARD_DRAW),
        tournament_id=rnd.tournament_id))
    return _context_of(facts)


def match_contexts(views: Sequence[GroupView]) -> dict[int, dict[str, Any]]:
    """:func:`match_context` of many groups in one query (a round's documents)."""
    if not views:
        return {}
    round_ids = {gv.group.round_id for gv in views}
    facts = list(SpecialFact.objects.filter(
        Q(group_id__in=[gv.group.id for gv in views])
        | Q(round_id__in=round_ids, group__isnull=True, kind=SpecialFact.Kind.CARD_DRAW),
        tournament_id=views[0].group.round.tournament_id))
    return {gv.group.id: _context_of([f for f in facts if f.group_id == gv.group.id
                                      or (f.group_id is None
                                          and f.round_id == gv.group.round_id)])
            for gv in views}


#: The match context a document printed before the match assumes: no cards drawn, no
#: bans revealed (they are announced at the match, not printed).
BEFORE_MATCH: Mapping[str, Any] = {"cards": None, "bans": {}, "revealed": False}


def _context_of(facts: Sequence[SpecialFact]) -> dict[str, Any]:
    cards = _newest([f for f in facts if f.kind == SpecialFact.Kind.CARD_DRAW], lambda f: 0)
    bans = _newest([f for f in facts if f.kind == SpecialFact.Kind.BAN], lambda f: f.entrant_id)
    reveal = [f for f in facts if f.kind == SpecialFact.Kind.BAN_REVEAL]
    return {"cards": cards.get(0), "bans": bans, "revealed": bool(reveal)}


def seat_choices(gv: GroupView, catalog: Catalog,
                 ctx: Mapping[str, Any] | None = None, *,
                 history: Mapping[int, list[HistoryRow]] | None = None,
                 lots: Mapping[int, Mapping[str, Any]] | None = None,
                 entrants: Mapping[int, Entrant] | None = None,
                 duties: Mapping[int, Any] | None = None) -> dict[int, SeatChoices]:
    """Each real seat's legal choices for this match (the engine decides).

    ``history`` and ``lots`` (per entrant) are read for the seated entrants unless given:
    :func:`match_snapshots` reads them once for every group of a round. ``entrants`` (by
    id) stand in for seats that do not carry theirs (a write's kept rows)."""
    group = gv.group
    rnd = group.round
    tournament = rnd.tournament
    ctx = ctx if ctx is not None else match_context(gv)
    ids = [s.entrant_id for s in gv.seats if s.entrant_id]
    if history is None:
        history = selection_history(tournament, ids)
    if lots is None:
        lots = lots_of(tournament, ids)
    if duties is None:
        from brackets.selectors.duties import duties_by_id

        duties = duties_by_id(tournament, ids)
    rules_of_round = round_rules(rnd)
    conf = rules_of_round.restrictions(group.rule)
    card_genres = card_groups = None
    if ctx.get("cards") is not None:
        cards = ctx["cards"].data.get("cards", [])
        card_genres = [c[0] for c in cards]
        card_groups = [c[1] for c in cards]
    bans = {genre: list(players) for genre, players in bans_in_force(
        ((ea.player_key(eid), f.data["genre"]) for eid, f in ctx["bans"].items()),
        revealed=bool(ctx.get("revealed"))).items()}
    partner_of_seat = {1: 2, 2: 1, 3: 4, 4: 3} if rules_of_round.spec.is_pair else {}
    pair_of_entrant: dict[int, int] = {}
    if partner_of_seat:
        by_num = {s.number: s.entrant_id for s in gv.seats}
        for a, b in partner_of_seat.items():
            if by_num.get(a) and by_num.get(b):
                pair_of_entrant[by_num[a]] = by_num[b]
    out = {}
    for seat in gv.seats:
        if seat.entrant_id is None:
            continue
        entrant = entrants[seat.entrant_id] if entrants is not None else seat.entrant
        rows_input = ea.rules_input_from_entrant(entrant, lots.get(entrant.id),
                                                 duties.get(entrant.id))
        rules = ea.player_rules("preset", rows_input, rules_of_round.preset_slug,
                                settings=rules_of_round.settings)
        own = [h for h in history.get(entrant.id, []) if (h.round_number, h.group_label) !=
               (rnd.number, group.label)]
        if rules_of_round.spec.is_series:
            # K10: the pair shares one history inside the final window.
            mate = pair_of_entrant.get(entrant.id)
            own = [h for h in own if h.round_number == rnd.number]
            if mate:
                own += [h for h in history.get(mate, []) if h.round_number == rnd.number
                        and h.group_label != group.label]
        hist = ea.history_of((h.selection, h.round_name, h.window, h.recorded) for h in own
                             if h.round_number <= rnd.number)
        partner_sel = None
        if partner_of_seat:
            partner_sel = gv.facts.selections.get(partner_of_seat[seat.number])
        mr = ea.match_rules(label=rnd.name, window=conf.read_window, apply_lots=conf.lots,
                            card_genres=card_genres,
                            card_groups=card_groups, bans=bans, partner=partner_sel)
        out[seat.number] = SeatChoices(seat, ea.choices_for(catalog, rules, hist, mr), rules,
                                       history.get(entrant.id, []),
                                       key=(id(catalog), frozen(rules), frozen(hist),
                                            frozen(mr)))
    return out


def selection_penalties(views: Sequence[GroupView]) -> dict[int, dict[int, Decimal]]:
    """H7, derived: group id → seat number → the penalty of each set staff accepted as
    illegal that the engine still finds illegal, judged against the seat's choices as they
    stand now. A correction upstream (an earlier set, a 修羅 lot) that makes the set legal
    lifts its penalty on every page, document and export. Where the preset's penalty is 0
    (illegal sets refused) nothing is judged. A set the engine cannot judge (outside the
    catalog, or rules it refuses) keeps the penalty staff accepted.

    Reads nothing unless a set was accepted as illegal, then three queries for all
    ``views`` (special facts, history, 修羅 lots) and one for the seated entrants."""
    accepted = {gv.group.id: [s.number for s in gv.facts.seats if s.player is not None
                              and (row := gv.selection_rows.get(s.number)) is not None
                              and row.accepted_illegal]
                for gv in views}
    out: dict[int, dict[int, Decimal]] = defaultdict(dict)
    judged = []
    for gv in views:
        numbers = accepted[gv.group.id]
        points = selection_penalty(gv.group.round) if numbers else Decimal(0)
        if points:
            judged.append(gv)
        elif numbers:
            out[gv.group.id] = {n: points for n in numbers}
    if judged:
        tournament = judged[0].group.round.tournament
        ids = sorted({s.entrant_id for gv in judged for s in gv.seats if s.entrant_id})
        catalog = ea.catalog_for(tournament.version_id)
        contexts = match_contexts(judged)
        history, lots = selection_history(tournament, ids), lots_of(tournament, ids)
        entrants = Entrant.objects.in_bulk(ids)
        from brackets.selectors.duties import duties_by_id

        duties = duties_by_id(tournament, ids, entrants=entrants)
        for gv in judged:
            points = selection_penalty(gv.group.round)
            try:
                choices = seat_choices(gv, catalog, contexts[gv.group.id], history=history,
                                       lots=lots, entrants=entrants, duties=duties)
            except RuleRefusal:
                choices = {}
            for n in accepted[gv.group.id]:
                if n not in choices or _illegal(choices[n], gv.facts.selections[n]):
                    out[gv.group.id][n] = points
    return dict(out)


def _illegal(seat: SeatChoices, chosen: Any) -> bool:
    try:
        return not seat.choices.check(chosen).ok
    except RuleRefusal:  # outside the catalog: staff's acceptance stands
        return True
