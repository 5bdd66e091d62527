"""One headless run of a whole event under a compiled rule set (the rehearsal's player).

Every outcome comes from a :class:`Lottery` (draws, scores, selections, rule wishes, bans,
下関 cards, 修羅 lots, partners), so a run is reproducible from its seed. Players choose
only among their legal choices (the restriction engine's :class:`Choices`), as a
rule-abiding field does; what a run records per round is what the rehearsal reports:
groups, dummies, advancers, wildcards, matches, each player's count of open genres and
formats at each match, and each match where a player had none (the fallback played).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from ..advancement import AdvancementOutcome, TieContext, advance, processing_order
from ..cards import CardDraw, draw_cards
from ..catalog import Catalog, Selection
from ..draws import Group, Method, draw_groups
from ..lottery import Lottery
from ..presets.kyushu_cup_ix import extra_card_rule, shimonoseki_deck
from ..presets.spec import Preset, RoundRestrictions, RoundSpec
from ..restrictions import HistoryEntry, MatchRules, PlayerRules, legal_choices
from ..results import MatchResult, SeatEntry, match_result
from ..shura import ShuraDeclaration, draw_lots, lots_owed
from ..special import (
    assign_rules,
    partner_match,
    partner_match_winner,
    reveal_bans,
    series_state,
)

#: Q levels a rehearsal field is drawn from: every band of H2/H3 (free, 低火力 and 高火力,
#: pinpoint, bomber) at its edges, so a threshold moved by the organiser shows.
Q_LEVELS = (20, 34, 35, 40, 49, 50, 55, 62, 79, 80, 95)
#: One player in this many declares 修羅 when the rules have lots.
SHURA_ONE_IN = 6


@dataclass(frozen=True)
class Spot:
    """Where in a round a match is: the K6 rule it is played under (its name, "" for none),
    the group's number, or the game of a K10 series (0 for none)."""

    variant: str = ""
    number: int = 1
    game: int = 0

    @property
    def label(self) -> str:
        """The match's name in the rehearsal's lottery purposes: fixed text whatever the
        reader's language, so the same seed plays the same event."""
        if self.game:
            return f"第{self.game}戦"
        return f"{self.variant}{self.number}組"


@dataclass(frozen=True)
class Shortfall:
    """A match where a player had no legal choice on an axis: the rule's fallback was played.

    ``axis``: ``genre`` (ノンジャンル), ``format`` (ランダム) or ``forced`` (both).
    ``played``: sets the player had played in the event before this match. ``group`` is
    the match's fixed label; ``spot`` the same place as data, for a page to word.
    """

    run: int
    round: str
    group: str
    player: str
    mode: str
    q_level: int
    lots: int
    axis: str
    played: int
    spot: Spot = Spot()


@dataclass
class RoundRun:
    """What one round did in one run."""

    players: int = 0
    groups: int = 0
    dummies: int = 0
    advancers: int = 0
    wildcards: int = 0
    matches: int = 0
    genres_left: list[int] = field(default_factory=list)
    formats_left: list[int] = field(default_factory=list)
    shortfalls: list[Shortfall] = field(default_factory=list)


@dataclass
class _Player:
    rules: PlayerRules
    q_level: int
    lots: int
    history: list[HistoryEntry] = field(default_factory=list)


class EventRun:
    """One run of the event: ``rounds`` of the plan, played in order by :meth:`play`."""

    def __init__(self, preset: Preset, rounds: Sequence[RoundSpec], entrants: int, seeds: int,
                 lot: Lottery, number: int) -> None:
        self.preset = preset
        self.catalog: Catalog = preset.catalog
        self.rounds = tuple(rounds)
        self.lot = lot
        self.number = number
        self.entrants = [f"P{i:04d}" for i in range(1, entrants + 1)]
        self.seeds = [f"S{i:02d}" for i in range(1, seeds + 1)]
        self.players = {p: self._player(p) for p in self.entrants + self.seeds}
        self.stats: dict[str, RoundRun] = defaultdict(RoundRun)
        # Who is waiting for a round: K8 losers for their round (key), winners for the next.
        self.waiting: dict[str, list[str]] = {}
        self.previous: dict[str, MatchResult] = {}

    # -- the field ----------------------------------------------------------------------

    def _player(self, name: str) -> _Player:
        lot = self.lot.child(f"player/{name}")
        preset = self.preset
        if preset.mode_source == "fixed":
            return _Player(preset.player_rules(), 0, 0)
        q_level = lot.choice(Q_LEVELS)
        if preset.shura and preset.max_lots and lot.die(SHURA_ONE_IN) == 1:
            # A 修羅 player with 1…cap lots, whatever owes them: the restrictions only see
            # how many genres are gone, so the declaration stands for any ground's lots.
            extra = lot.die(preset.max_lots) - 1
            owed = lots_owed(ShuraDeclaration(volunteer=True, extra_lots=extra),
                             cap=preset.max_lots)
            drawn = draw_lots(lot, self.catalog, name, genre_lots=owed.genre_lots,
                              cap=preset.max_lots)
            rules = preset.player_rules(q_level=q_level, owed=owed, drawn=drawn)
            return _Player(rules, q_level, owed.genre_lots)
        return _Player(preset.player_rules(q_level=q_level), q_level, 0)

    # -- the event ----------------------------------------------------------------------

    def play(self) -> dict[str, RoundRun]:
        """Play every round; the per-round record, keyed by round key. A podium (K9) may
        come before another (K10): each round plays whoever is waiting for it."""
        later = any(spec.seeds_enter for spec in self.rounds)
        field_ = list(self.entrants) + ([] if later else list(self.seeds))
        for index, spec in enumerate(self.rounds):
            if index:
                field_ = self.waiting.pop(spec.key, [])
            if spec.seeds_enter:
                field_ = field_ + list(self.seeds)
            stats = self.stats[spec.key]
            stats.players = len(field_)
            if spec.is_pair:
                self._pair_round(spec, field_)
            elif spec.is_rule_selection:
                self._rule_selection(index, spec, field_)
            else:
                self._group_round(index, spec, field_)
        return dict(self.stats)

    def _next_key(self, index: int) -> str | None:
        """The round this round's winners go to: the next one that is not its losers'."""
        spec = self.rounds[index]
        for following in self.rounds[index + 1:]:
            if following.key != spec.losers_to:
                return following.key
        return None

    def _send(self, key: str | None, players: Sequence[str]) -> None:
        if key is not None:
            self.waiting.setdefault(key, []).extend(players)

    def _joining(self, index: int) -> int:
        key = self._next_key(index)
        following = next((s for s in self.rounds if s.key == key), None)
        return len(self.seeds) if following is not None and following.seeds_enter else 0

    # -- group rounds ---------------------------------------------------------------------

    def _draw(self, spec: RoundSpec, players: Sequence[str], purpose: str) -> tuple[Group, ...]:
        # A final group drawn "fixed" keeps the order it arrives in (snake over one group).
        method: Method = spec.draw if spec.draw != "fixed" else "snake"
        # Seeds are kept apart where they enter (K5): round 1, or the round they join.
        entering = spec.seeds_enter or spec.key == self.rounds[0].key
        seeds = ([p for p in players if p in set(self.seeds)]
                 if spec.seed_separation and entering else [])
        draw = draw_groups(players, method=method, lottery=self.lot.child(purpose),
                           seeds=seeds, size=spec.group_size)
        return draw.groups

    def _group_round(self, index: int, spec: RoundSpec, players: Sequence[str]) -> None:
        groups = self._draw(spec, players, f"{spec.key}/draw")
        results = self._play_groups(spec, spec.restrictions, groups, "")
        self.previous = results
        if spec.is_last:
            return
        chain = self.preset.tie_break
        rule = spec.advancement_rule(already_in=self._joining(index), chain=chain)
        outcome = advance(results, rule, context=self._ties(spec.key))
        self._advanced(spec, outcome)
        self._send(self._next_key(index), outcome.players)
        if spec.losers_to is not None:
            chosen = set(outcome.players)
            ranked = [p for result in results.values() for p in result.ranking()]
            self._send(spec.losers_to, [p for p in ranked if p not in chosen])

    def _rule_selection(self, index: int, spec: RoundSpec, players: Sequence[str]) -> None:
        """K6: wishes in the previous round's order, each rule its own groups."""
        known = [p for p in players if any(p in r.ranking() for r in self.previous.values())]
        order = [row.player for row in processing_order(
            self.previous, players=known, context=self._ties(f"{spec.key}/order"))]
        order += self.lot.child(f"{spec.key}/newcomers").shuffled(
            [p for p in players if p not in set(known)])
        keys = [v.key for v in spec.variants]
        wishes = {p: self.lot.child(f"{spec.key}/wish/{p}").choice(keys) for p in order}
        assignment = assign_rules(order, wishes, {v.key: v.capacity for v in spec.variants})
        advancing: list[str] = []
        results_all: dict[str, MatchResult] = {}
        for variant in spec.variants:
            members = assignment.players_of(variant.key)
            if not members:
                continue
            groups = self._draw(spec, members, f"{spec.key}/{variant.key}/draw")
            results = self._play_groups(spec, variant.restrictions, groups, variant.name)
            results_all.update(results)
            outcome = advance(results, spec.advancement_rule(variant=variant.key),
                              context=self._ties(f"{spec.key}/{variant.key}"))
            self._advanced(spec, outcome)
            advancing.extend(outcome.players)
        self.previous = results_all
        self._send(self._next_key(index), advancing)

    def _advanced(self, spec: RoundSpec, outcome: AdvancementOutcome) -> None:
        stats = self.stats[spec.key]
        stats.advancers += len(outcome.advancers)
        stats.wildcards += sum(1 for a in outcome.advancers if a.reason == "wildcard")

    def _ties(self, purpose: str) -> TieContext:
        return TieContext(lottery=self.lot.child(f"ties/{purpose}"))

    def _cards(self, purpose: str) -> CardDraw:
        settings = self.preset.settings
        deck = shimonoseki_deck(self.catalog, settings.get("k7_deck",
                                                           "lot_genres_x_format_groups"))
        rule = extra_card_rule(settings.get("k7_extra_card", "share_genre_or_group"))
        return draw_cards(deck, self.lot.child(purpose), extra_if=rule,
                          base=int(settings.get("k7_cards_per_draw", 2)))

    def _play_groups(self, spec: RoundSpec, restrictions: RoundRestrictions,
                     groups: Sequence[Group], prefix: str) -> dict[str, MatchResult]:
        stats = self.stats[spec.key]
        per_round = self.preset.settings.get("k7_draw_per") == "round"
        round_cards = (self._cards(f"{spec.key}/{prefix}/cards")
                       if restrictions.cards and per_round else None)
        results: dict[str, MatchResult] = {}
        for group in groups:
            spot = Spot(variant=prefix, number=group.number)
            label = spot.label
            glot = self.lot.child(f"{spec.key}/{label}")
            cards = None
            if restrictions.cards:
                cards = round_cards or self._cards(f"{spec.key}/{label}/cards")
            bans: frozenset[str] = frozenset()
            if restrictions.match_bans:
                bans = reveal_bans(group.players, {
                    p: glot.child(f"ban/{p}").choice(self.catalog.lot_genres)
                    for p in group.players})
            match = restrictions.match_rules(spec.name, cards=cards, bans=bans)
            for player in group.players:
                selection = self._choose(spec, spot, player, self.players[player].history,
                                         match, glot.child(player))
                self.players[player].history.append(
                    restrictions.history_entry(selection, spec.name))
            results[f"{spec.key}-{label}"] = self._score(group.seats, glot.child("scores"))
            stats.groups += 1
            stats.dummies += group.dummies
            stats.matches += 1
        return results

    def _choose(self, spec: RoundSpec, spot: Spot, player: str,
                history: Sequence[HistoryEntry], match: MatchRules, lot: Lottery,
                rules: PlayerRules | None = None) -> Selection:
        """A legal set chosen by lot, with the open genres and formats counted (0 on an
        axis left only to its fallback) and the shortfall noted."""
        who = self.players[player]
        choices = legal_choices(self.catalog, rules or who.rules, history, match)
        stats = self.stats[spec.key]
        forced = choices.forced is not None
        no_genre = forced or choices.genre_fallback
        no_format = forced or choices.format_fallback
        stats.genres_left.append(0 if no_genre else len(choices.legal_genres))
        stats.formats_left.append(0 if no_format else len(choices.legal_units))
        if no_genre or no_format:
            axis = "forced" if forced or (no_genre and no_format) else (
                "genre" if no_genre else "format")
            stats.shortfalls.append(Shortfall(
                self.number, spec.name, spot.label, player, str(choices.rules.mode),
                who.q_level, who.lots, axis, sum(1 for e in history if e.recorded), spot))
        genre = lot.choice(choices.legal_genres)
        fmt = lot.choice(choices.legal_formats(genre))
        return Selection(genre, fmt, lot.choice(self.catalog.difficulties))

    def _score(self, seats: Sequence[str | None], lot: Lottery) -> MatchResult:
        """Distinct random scores (the dummy's too): the screen order is the score order."""
        order = lot.shuffled(list(range(len(seats))))
        score = 250 + lot.die(150)
        points: dict[int, int] = {}
        for seat in order:
            points[seat] = score
            score -= lot.die(60)
        place = {seat: rank + 1 for rank, seat in enumerate(order)}
        entries = [SeatEntry(i + 1, seats[i], Decimal(points[i]), place[i])
                   for i in range(len(seats))]
        return match_result(entries, group=[p for p in seats if p is not None])

    # -- pair rounds (K9, K10) --------------------------------------------------------------

    def _pair_round(self, spec: RoundSpec, contenders: Sequence[str]) -> None:
        stats = self.stats[spec.key]
        stats.groups = 1
        if len(contenders) < 2:
            return
        pair = (contenders[0], contenders[1])
        others = [p for p in self.players if p not in pair]
        lot = self.lot.child(f"{spec.key}/pair")
        picked = lot.child("partners").sample(others, 2)
        match = partner_match(pair, dict(zip(pair, picked)))
        wins_needed = spec.wins_needed or 1
        pair_history: dict[str, list[HistoryEntry]] = {c: [] for c in pair}
        winners: list[str] = []
        state = series_state(pair, winners, wins_needed=wins_needed)
        game = 0
        while not state.finished:
            game += 1
            spot = Spot(game=game) if spec.is_series else Spot()
            glot = lot.child(f"game{game}")
            restr = spec.restrictions
            for contender in pair:
                partner = match.partner_of(contender)
                own = self.players[contender]
                history = own.history + pair_history[contender]
                first = self._choose(spec, spot, contender, history,
                                     restr.match_rules(spec.name), glot.child(contender))
                second = self._choose(spec, spot, partner, history,
                                      restr.match_rules(spec.name, partner=first),
                                      glot.child(partner), rules=own.rules)
                entries = [restr.history_entry(s, spec.name) for s in (first, second)]
                if restr.pair_history:
                    pair_history[contender].extend(entries)
                else:
                    own.history.append(entries[0])
            seats = [match.seats[s] for s in (1, 2, 3, 4)]
            result = self._score(seats, glot.child("scores"))
            winners.append(partner_match_winner(match, result).winner)
            stats.matches += 1
            state = series_state(pair, winners, wins_needed=wins_needed)


def play_event(preset: Preset, rounds: Sequence[RoundSpec], entrants: int, seeds: int,
               lot: Lottery, number: int) -> Mapping[str, RoundRun]:
    """Play the planned ``rounds`` once; what each round did, keyed by round key."""
    return EventRun(preset, rounds, entrants, seeds, lot, number).play()
