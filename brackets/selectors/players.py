"""Reads for one player: which match or round they play next and what the engine lets
them choose there (the public player page's 「まだ選べるもの」).

Why not the whole history: what a player may choose depends on the match. The final
resets the history (K10, preset setting ``history_reset_at_final``: the final reads its own
window, per pair), the third-place match ignores it (K9), round 4 narrows it to the drawn
下関 cards (K7). So the answer is the one the match page gives: for a seated match the very
same :func:`brackets.selectors.rounds.match_snapshot`; for a round not drawn yet the same
engine inputs built from that round's stored spec (its history window, lots, rules), with
no match facts (cards, bans, partner) yet. Nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.engine import Catalog, ChoicesSummary, cards_pending, contenders, seeds_join
from brackets.models import Entrant, Round, Seat, SpecialFact, Tournament
from brackets.selectors import rounds as sel
from brackets.selectors.duties import rules_input


@dataclass
class NextChoices:
    """What the engine allows a player in their current match or next round."""

    round: Round
    #: The seated match, or None for a round that is not drawn yet.
    group: Any
    choices: Any
    rules: Any
    #: The history window the round reads (None: the round ignores history, K9 / K6 B).
    window: str | None
    #: K7: the round's 下関 cards are not drawn yet, so the cards will narrow this further.
    cards_pending: bool
    #: The player is in this round only if they advance from the round they are in.
    prospective: bool = False

    def summary(self) -> ChoicesSummary:
        """The engine's used / left for this match (the tablet's own summary)."""
        summary: ChoicesSummary = self.choices.summary()
        return summary


def next_choices(tournament: Tournament, entrant: Entrant, catalog: Catalog, *,
                 seats: Sequence[Seat], views: Mapping[int, sel.GroupView],
                 rounds: Sequence[Round], history: Sequence[sel.HistoryRow],
                 lots: Mapping[str, Any] | None) -> NextChoices | None:
    """The player's current match (seated, round open, no result yet) or, failing that,
    the next round they will (or, if they advance, may) play; None when there is none.

    ``seats`` are the player's current seats in round/game order and ``views`` their
    groups' views (the player page has both already); ``history`` their selection history.
    """
    if entrant.id in sel.withdrawn_ids(tournament):
        return None
    key = ea.player_key(entrant.id)
    for seat in seats:
        gv = views[seat.group_id]
        rnd = seat.group.round
        if (rnd.status in (Round.Status.DRAWN, Round.Status.RUNNING)
                and gv.row_of(key) is None and gv.status not in (sel.DONE, sel.UNUSED)):
            return _seated(gv, seat, catalog)
    last = max((s.group.round.number for s in seats), default=0)
    for rnd in rounds:
        if rnd.number <= last or rnd.status != Round.Status.CONFIGURED:
            continue
        plays = _plays(tournament, rnd, entrant, last, rounds)
        if plays is None:
            continue
        return _unseated(rnd, entrant, catalog, history, lots, prospective=not plays)
    return None


def standing_rules(entrant: Entrant, rounds: Sequence[Round],
                   lots: Mapping[str, Any] | None) -> Any:
    """The player's standing rules (K1's fixed rule, or H2–H5's mode by rank with 修羅
    lots), as the first round's spec gives them: shown even when no match is ahead."""
    if not rounds:
        return None
    first = round_rules(rounds[0])
    return ea.player_rules("preset", rules_input(entrant, lots),
                           first.preset_slug, settings=first.settings)


def _seated(gv: sel.GroupView, seat: Seat, catalog: Catalog) -> NextChoices:
    """The match page's own answer for this seat: the same match snapshot."""
    snap = sel.match_snapshot(gv, catalog)
    sc = snap.choices[seat.number]
    return NextChoices(round=gv.group.round, group=gv.group, choices=sc.choices,
                       rules=sc.rules, window=snap.restrictions.read_window,
                       cards_pending=snap.gates.cards_pending)


def _unseated(rnd: Round, entrant: Entrant, catalog: Catalog,
              history: Sequence[sel.HistoryRow], lots: Mapping[str, Any] | None, *,
              prospective: bool) -> NextChoices:
    """The engine's choices for a round not drawn yet: the inputs seat_choices builds for a
    seat of that round, from the round's stored spec, without match facts (no group yet:
    a K6 round's top-level pieces, since the A/B assignment is made by the draw)."""
    of_round = round_rules(rnd)
    rules = ea.player_rules("preset", rules_input(entrant, lots),
                            of_round.preset_slug, settings=of_round.settings)
    hist = ea.history_of((h.selection, h.round_name, h.window, h.recorded) for h in history
                         if h.round_number < rnd.number)
    conf = of_round.spec.restrictions
    window = conf.read_window
    match = ea.match_rules(label=rnd.name, window=window, apply_lots=conf.lots)
    return NextChoices(round=rnd, group=None, choices=ea.choices_for(catalog, rules, hist, match),
                       rules=rules, window=window,
                       cards_pending=cards_pending(conf, drawn=False),
                       prospective=prospective)


def _plays(tournament: Tournament, rnd: Round, entrant: Entrant, last: int,
           rounds: Sequence[Round]) -> bool | None:
    """Whether the entrant plays ``rnd`` (not drawn yet): True when settled, False when only
    if they advance from the round they are playing, None when they do not (or it is not
    known yet, e.g. final or third-place match before the semi-final's result)."""
    by_number = {r.number: r for r in rounds}
    of_round = round_rules(rnd)
    source = of_round.contenders_from
    if source is not None:
        partners = sel.special_facts(tournament, SpecialFact.Kind.PARTNER, round=rnd)
        if any(f.entrant_id == entrant.id or str(f.data.get("partner")) == str(entrant.id)
               for f in partners):
            return True
        src = by_number.get(source[0])
        if src is None or src.status not in (Round.Status.CLOSED, Round.Status.ADVANCED):
            return None
        places = tuple(source[1])
        table = sel.round_table(sel.round_view(src))
        found = contenders(places, [(row.player, row.place) for row in table])
        return True if ea.player_key(entrant.id) in found else None
    if rnd.number == 1:
        return True if entrant.checked_in and not (of_round.seeds_later and entrant.seed) \
            else None
    if last == 0:
        # Not seated yet: a seed joins the round its preset says seeds enter (K5).
        return True if (entrant.seed is not None and seeds_join(of_round.spec)
                        and entrant.checked_in) else None
    prev = by_number.get(rnd.number - 1)
    if prev is None or prev.number != last:
        return None
    advanced = sel.advancers_of(prev)
    if advanced is None:
        return False  # still to be decided: the round they play if they advance
    return True if entrant.id in advanced else None
