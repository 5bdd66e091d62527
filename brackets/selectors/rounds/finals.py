"""K9/K10 pair games and series: contenders, partners, game wins and the podium."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.engine import (
    PartnerMatch,
    RuleRefusal,
    game_needed,
    partner_match_winner,
    series_state,
)
from brackets.models import (
    Round,
    SpecialFact,
    Tournament,
)
from brackets.selectors.rounds.group_view import DONE, UNUSED, GroupView
from brackets.selectors.rounds.groups import RoundView, _newest


def mark_series(rv: RoundView) -> None:
    """Games after the series is decided (K10: first to n wins) are not needed, even one
    whose result was entered before an earlier game was corrected: it does not count."""
    for gv in rv.groups:
        state = series_progress(rv, upto=gv.group.game - 1)
        if state is not None and state.finished:
            gv.status = UNUSED


# -------------------------------------------------------------- series / partners


def special_facts(tournament: Tournament, kind: str, **filters: Any) -> list[SpecialFact]:
    """Current facts of one kind (newest per round/group/entrant)."""
    rows = SpecialFact.objects.filter(tournament=tournament, kind=kind, **filters)
    return list(_newest(rows, lambda f: (f.round_id, f.group_id, f.entrant_id)).values())


def partner_match_of(gv: GroupView) -> PartnerMatch | None:
    seats = {s.number: s.entrant_id for s in gv.seats}
    if not all(seats.get(n) for n in (1, 2, 3, 4)):
        return None
    return PartnerMatch(ea.player_key(seats[1]), ea.player_key(seats[2]),
                        ea.player_key(seats[4]), ea.player_key(seats[3]))


def series_progress(rv: RoundView, upto: int | None = None) -> Any:
    """K10: the series after its games up to game ``upto`` (every game when None), as the
    engine replays them; None for a round whose games are not all seated with contenders.

    A game counts only while the engine says it is needed (:func:`~brackets.engine.match.
    game_needed`): a result entered after the series was decided must not void the final."""
    winners: list[str | None] = []
    players: tuple[str, str] | None = None
    needed = rv.rules.wins_needed
    for gv in rv.groups:
        if upto is not None and gv.group.game > upto:
            break
        pm = partner_match_of(gv)
        if pm is None:
            continue
        players = players or (pm.first, pm.second)
        if not game_needed(len(winners) + 1, winners, needed):
            break
        winners.append(partner_match_winner(pm, gv.result).winner
                       if gv.result is not None and gv.status == DONE else None)
    if players is None:
        return None
    try:
        return series_state(players, [w for w in winners if w is not None],
                            wins_needed=needed)
    except RuleRefusal:
        return None


def series_winners(rv: RoundView) -> str | None:
    state = series_progress(rv)
    return None if state is None else state.winner


def final_order(rv: RoundView) -> list[str]:
    """Who finished where in a last round: the champion first (engine outcomes only)."""
    if rv.rules.spec.is_series:
        state = series_progress(rv)
        if state is None or state.winner is None:
            return []
        loser = state.players[1] if state.winner == state.players[0] else state.players[0]
        return [state.winner, loser]
    if rv.rules.spec.is_partner_match:
        gv = rv.groups[0] if rv.groups else None
        pm = partner_match_of(gv) if gv else None
        if gv is None or pm is None or gv.result is None:
            return []
        o = partner_match_winner(pm, gv.result)
        return [o.winner, o.loser]
    if rv.groups and rv.groups[0].result is not None:
        return rv.groups[0].result.ranking()
    return []


#: Who takes each podium place, per kind of last round (K9: the third-place match decides
#: 3位; K10: the final decides 優勝 and 準優勝; H1: a ranked final ranks all four).
#: Marked with gettext_noop (kept Japanese: podium_from compares with 優勝); shown through
#: ``{% trans row.label %}`` / ``gettext(row.label)``.
#: Round kinds played as pair games (K9 third-place match, K10 final): two contenders,
#: each with a partner whose place does not count.
#: Keyed by the engine's kind of a last round (``RoundSpec.is_last``: a pair round, or a
#: final group that ranks all its players).
PODIUM_LABELS = {"partner_series": (gettext_noop("優勝"), gettext_noop("準優勝")),
                 "partner_match": (gettext_noop("3位"),),
                 "final_group": (gettext_noop("優勝"), gettext_noop("準優勝"),
                                 gettext_noop("3位"))}


def podium_kind(rnd: Round) -> str:
    """The kind of a last round as :data:`PODIUM_LABELS` keys it, "" for any other round."""
    spec = round_rules(rnd).spec
    return spec.kind if spec.is_last else ""


def place_labels(rnd: Round, count: int) -> list[str]:
    """The places a last round decides, best first, in the reader's language: the podium
    names (優勝, 準優勝, 3位), the rest as n位. A match for lower places counts from the
    first of them (K9: places 3 and 4 of the semi-final), so its loser is 4位, not 2位."""
    names = PODIUM_LABELS.get(podium_kind(rnd), ())
    first = round_rules(rnd).first_place
    return [_(names[i]) if i < len(names) else _("{n}位").format(n=i + first)
            for i in range(count)]


@dataclass(frozen=True)
class PodiumRow:
    label: str
    player: str
    name: str
    champion: bool


def podium_from(orders: Iterable[tuple[str, list[str]]],
                names: Mapping[str, str]) -> list[PodiumRow]:
    """The podium from each last round's engine order (kind, final_order): the final's
    places first, then the third-place match's. Nothing for a round not yet decided."""
    rows: list[PodiumRow] = []
    ranked = sorted(((k, o) for k, o in orders if k in PODIUM_LABELS and o),
                    key=lambda ko: ko[0] == "partner_match")
    for kind, order in ranked:
        for label, player in zip(PODIUM_LABELS[kind], order):
            rows.append(PodiumRow(label, player, names.get(player, player), label == "優勝"))
    return rows


def pair_roles(gv: GroupView) -> dict[str, str]:
    """K9/K10: each player's part in one pair game: "winner" / "loser" for the contenders
    (once the game has a result), "contender" before, "partner" for partners, whose
    placements do not count. Empty for a group that is not a pair game."""
    if not round_rules(gv.group.round).spec.is_pair:
        return {}
    pm = partner_match_of(gv)
    if pm is None:
        return {}
    roles = {pm.first: "contender", pm.second: "contender",
             pm.first_partner: "partner", pm.second_partner: "partner"}
    if gv.result is not None and gv.status != UNUSED:
        try:
            outcome = partner_match_winner(pm, gv.result)
        except RuleRefusal:
            return roles
        roles[outcome.winner], roles[outcome.loser] = "winner", "loser"
    return roles


