"""One match as its pages, documents and writes see it: :func:`match_snapshot`.

The snapshot holds the group and its round's rules, the seats and current facts, each
seat's engine ``Choices`` (with the reasons of every refusal), the engine's verdict, and
the gates of :mod:`brackets.engine.match` (K7 cards, K8 bans, K9/K10 contenders, K10
game needed), each decided once by the engine function. It is built from the group's
view, which reads the rows kept at the group's version and the memoised verdict
(:mod:`.groups`), so building it costs what the match page cost before it existed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from brackets import engine_adapter as ea
from brackets.adapters.rounds import RoundRules, round_rules
from brackets.engine import (
    Catalog,
    MatchResult,
    RoundRestrictions,
    bans_in_force,
    bans_pending,
    cards_pending,
    require_cards,
)
from brackets.models import Group, Seat, Tournament
from brackets.selectors.rounds.advancement import round_view
from brackets.selectors.rounds.choices import (
    BEFORE_MATCH,
    SeatChoices,
    match_context,
    match_contexts,
    seat_choices,
)
from brackets.selectors.rounds.finals import pair_roles, partner_match_of, series_progress
from brackets.selectors.rounds.group_view import GroupView
from brackets.selectors.rounds.groups import RoundView, group_view
from brackets.selectors.rounds.history import HistoryRow, lots_of, selection_history

# -------------------------------------------------------------- the match snapshot


@dataclass(frozen=True)
class MatchGates:
    """What must be true before this match goes on, as :mod:`brackets.engine.match`
    decides it from the round's spec and the match's facts."""

    #: K7: the round plays with 下関 cards; the cards drawn for the match (or the round).
    cards: bool
    cards_drawn: tuple[tuple[str, str], ...]
    #: K7: no selection until the cards are drawn (:func:`~brackets.engine.match.
    #: cards_pending`).
    cards_pending: bool
    #: K8: the round bans the genres its players name; whether they are revealed.
    bans: bool
    bans_revealed: bool
    #: K8: no selection until the bans are revealed (:func:`~brackets.engine.match.
    #: bans_pending`).
    bans_pending: bool
    #: K8: genre → who named it, for the bans that restrict choices in this match.
    bans_in_force: Mapping[str, tuple[str, ...]]
    #: K9/K10: the match is a pair game; its two contenders (player keys, seats 1 and 2),
    #: empty until all four seats are filled.
    pair: bool
    contenders: tuple[str, ...]
    #: K10: the match is a game of a first-to-n series.
    series: bool


@dataclass(frozen=True)
class MatchSnapshot:
    """Everything a match's page, documents and writes need, derived once from its facts.

    ``view`` carries the seats, current facts, fact rows, the engine's verdict (result,
    惜敗率, warnings, or the error that stops it) and the status; :attr:`choices` each
    seated player's engine ``Choices`` (``choices[n].choices.reasons()`` says why a set is
    refused); :attr:`gates` the gates the engine decides from the spec and match facts.
    Each derived part is computed when first asked, once: a write checking only K10 reads
    no special facts, a document printing only the gates computes no choices.
    """

    group: Group
    rules: RoundRules
    #: The restriction pieces of this group (of its K6 rule, if it has one).
    restrictions: RoundRestrictions
    view: GroupView
    #: The tournament's catalog (None: the tournament's, looked up when the choices are).
    catalog: Catalog | None
    #: The seated players' history and 修羅 lots, read when the choices are first asked.
    inputs: _PlayerInputs
    #: The match context when the builder read it already (a batch, or before the match).
    given_context: Mapping[str, Any] | None = None

    @cached_property
    def context(self) -> Mapping[str, Any]:
        """The match's special facts: the card draw, the written bans, whether revealed."""
        if self.given_context is not None:
            return self.given_context
        return match_context(self.view)

    @cached_property
    def gates(self) -> MatchGates:
        return _gates(self.view, self.rules, self.restrictions, self.context)

    @cached_property
    def choices(self) -> Mapping[int, SeatChoices]:
        """Each seated player's engine choices (seat number → :class:`SeatChoices`)."""
        catalog = self.catalog or ea.catalog_for(self.group.round.tournament.version_id)
        return seat_choices(self.view, catalog, self.context,
                            history=self.inputs.history, lots=self.inputs.lots,
                            duties=self.inputs.duties)

    @property
    def seats(self) -> list[Seat]:
        return self.view.seats

    @property
    def facts(self) -> ea.GroupFacts:
        return self.view.facts

    @property
    def verdict(self) -> MatchResult | None:
        """The engine's result (placements, penalties, disqualifications), None while
        scores are missing or the facts are refused (:attr:`GroupView.error`)."""
        return self.view.result

    def selection_check(self, seat_number: int) -> Any:
        """H7: the engine's judgement of the seat's current selection (violations, and the
        penalty a set accepted as illegal carries); None without a selection."""
        chosen = self.facts.selections.get(seat_number)
        if chosen is None or seat_number not in self.choices:
            return None
        return self.choices[seat_number].choices.check(chosen, penalty=self.rules.penalty)

    def require_cards(self) -> None:
        """K7: refuse a selection while the cards are pending (the engine's
        ``cards_missing``, :func:`~brackets.engine.match.require_cards`)."""
        require_cards(self.restrictions, drawn=self.context.get("cards") is not None,
                            round_name=self.group.round.name)

    @cached_property
    def roles(self) -> dict[str, str]:
        """K9/K10: each player's part in the pair game (:func:`.finals.pair_roles`)."""
        return pair_roles(self.view)

    @cached_property
    def _games(self) -> RoundView:
        """Every game of the round (K10 reads the games before this one)."""
        return round_view(self.group.round)

    @cached_property
    def series_before(self) -> Any:
        """K10: the series after the games before this one (None outside a series, or
        for its first game)."""
        if not self.rules.spec.is_series or self.group.game <= 1:
            return None
        return series_progress(self._games, upto=self.group.game - 1)

    @cached_property
    def series_now(self) -> Any:
        """K10: the series after this game (None outside a series)."""
        if not self.rules.spec.is_series:
            return None
        return series_progress(self._games, upto=self.group.game)

    @property
    def series_winner(self) -> str | None:
        """K10: who won the series before this game; the game is then not played."""
        state = self.series_before
        return None if state is None else state.winner

    @property
    def game_needed(self) -> bool:
        """K10: whether this game is played: not once the games before it decided the
        series (the series state counts games by :func:`~brackets.engine.match.
        game_needed`)."""
        return self.series_winner is None


def _gates(gv: GroupView, rules: RoundRules, restrictions: RoundRestrictions,
           ctx: Mapping[str, Any]) -> MatchGates:
    card_fact = ctx.get("cards")
    drawn = (() if card_fact is None
             else tuple((c[0], c[1]) for c in card_fact.data.get("cards", [])))
    revealed = bool(ctx.get("revealed"))
    pm = partner_match_of(gv) if rules.spec.is_pair else None
    return MatchGates(
        cards=rules.cards, cards_drawn=drawn,
        cards_pending=cards_pending(restrictions, drawn=card_fact is not None),
        bans=rules.bans, bans_revealed=revealed,
        # K8 is a round's rule (the semi-final), never a K6 variant's.
        bans_pending=bans_pending(rules.spec.restrictions, revealed=revealed),
        bans_in_force=bans_in_force(
            ((ea.player_key(eid), f.data["genre"]) for eid, f in ctx.get("bans", {}).items()),
            revealed=revealed),
        pair=rules.spec.is_pair,
        contenders=() if pm is None else (pm.first, pm.second),
        series=rules.spec.is_series)


class _PlayerInputs:
    """The history and 修羅 lots of the players seated in one or more groups, each read in
    one query when first needed and shared by the snapshots built together."""

    def __init__(self, tournament: Tournament, entrant_ids: Iterable[int]) -> None:
        self.tournament = tournament
        self.ids = sorted(set(entrant_ids))

    @cached_property
    def history(self) -> dict[int, list[HistoryRow]]:
        return selection_history(self.tournament, self.ids)

    @cached_property
    def lots(self) -> dict[int, dict[str, Any]]:
        return lots_of(self.tournament, self.ids)

    @cached_property
    def duties(self) -> dict[int, Any]:
        """Each player's 修羅 duties and Q level in force (the desk's typing with the
        registry's), read once for all the groups; empty where the preset weighs no record."""
        from brackets.selectors.duties import duties_by_id

        return duties_by_id(self.tournament, self.ids)


def _snapshot(gv: GroupView, catalog: Catalog | None, ctx: Mapping[str, Any] | None,
              inputs: _PlayerInputs) -> MatchSnapshot:
    group = gv.group
    rules = round_rules(group.round)
    return MatchSnapshot(group=group, rules=rules, restrictions=rules.restrictions(group.rule),
                         view=gv, catalog=catalog, inputs=inputs, given_context=ctx)


def _seated_ids(views: Iterable[GroupView]) -> list[int]:
    return [s.entrant_id for gv in views for s in gv.seats if s.entrant_id]


def match_snapshot(group: Group | GroupView, catalog: Catalog | None = None, *,
                   before_match: bool = False) -> MatchSnapshot:
    """One match's snapshot: the group's view (kept rows at its version); when asked, its
    special facts (one query) and the seated players' history and 修羅 lots (one query
    each), as the match page always read them.

    ``group`` may be the group's view already built. ``before_match``: the choices a
    document printed before the match shows (:data:`BEFORE_MATCH`: no cards, no bans)."""
    gv = group if isinstance(group, GroupView) else group_view(group)
    tournament = gv.group.round.tournament
    ctx = BEFORE_MATCH if before_match else None
    return _snapshot(gv, catalog, ctx, _PlayerInputs(tournament, _seated_ids([gv])))


def match_snapshots(views: Sequence[GroupView], catalog: Catalog, *,
                    before_match: bool = False) -> dict[int, MatchSnapshot]:
    """Snapshots of many groups of one tournament (group id → snapshot) in at most three
    queries whatever their number (special facts, then history and lots if the choices
    are asked): a round's documents."""
    if not views:
        return {}
    tournament = views[0].group.round.tournament
    contexts = ({gv.group.id: BEFORE_MATCH for gv in views} if before_match
                else match_contexts(views))
    inputs = _PlayerInputs(tournament, _seated_ids(views))
    return {gv.group.id: _snapshot(gv, catalog, contexts[gv.group.id], inputs)
            for gv in views}
