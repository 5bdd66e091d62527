"""One match as its pages, documents and writes see it: each seat's legal choices."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.engine.catalog import Catalog
from brackets.models import (
    Seat,
    SpecialFact,
)
from brackets.selectors.rounds.groups import GroupView, _newest
from brackets.selectors.rounds.history import HistoryRow, lots_of, selection_history


@dataclass
class SeatChoices:
    seat: Seat
    choices: Any
    rules: Any
    history: list[HistoryRow]
    #: Everything the engine's choices were computed from (catalog identity, player rules,
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
    cards = _newest([f for f in facts if f.kind == SpecialFact.Kind.CARD_DRAW], lambda f: 0)
    bans = _newest([f for f in facts if f.kind == SpecialFact.Kind.BAN], lambda f: f.entrant_id)
    reveal = [f for f in facts if f.kind == SpecialFact.Kind.BAN_REVEAL]
    return {"cards": cards.get(0), "bans": bans, "revealed": bool(reveal)}


def seat_choices(gv: GroupView, catalog: Catalog,
                 ctx: dict[str, Any] | None = None) -> dict[int, SeatChoices]:
    """Each real seat's legal choices for this match (the engine decides)."""
    group = gv.group
    rnd = group.round
    tournament = rnd.tournament
    ctx = ctx if ctx is not None else match_context(gv)
    ids = [s.entrant_id for s in gv.seats if s.entrant_id]
    history = selection_history(tournament, ids)
    lots = lots_of(tournament, ids)
    rules_of_round = round_rules(rnd)
    conf = rules_of_round.restrictions(group.rule)
    card_genres = card_groups = None
    if ctx.get("cards") is not None:
        cards = ctx["cards"].data.get("cards", [])
        card_genres = [c[0] for c in cards]
        card_groups = [c[1] for c in cards]
    bans: dict[str, list[str]] = {}
    if ctx.get("revealed"):
        for eid, f in ctx["bans"].items():
            bans.setdefault(f.data["genre"], []).append(ea.player_key(eid))
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
        entrant = seat.entrant
        rows_input = ea.rules_input_from_entrant(entrant, lots.get(entrant.id))
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


