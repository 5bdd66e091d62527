"""The gates of a match: what must be true before a match, a game or a round goes on.

Each gate is decided here once, from the round's spec and plain facts, so every page,
document and write that asks gets the same answer:

* **K7 cards before selections** (:func:`cards_pending`, :func:`require_cards`): a round
  played with 下関 cards takes no selection until its match's cards are drawn, because the
  cards decide what may be chosen;
* **K8 bans revealed before selections** (:func:`bans_pending`, :func:`bans_in_force`):
  the written bans stay hidden, and restrict nobody, until they are revealed together;
* **K10 game not needed** (:func:`series_decided`, :func:`game_needed`,
  :func:`series_games`): a best-of-n series ends when a finalist has n game wins;
* **K9/K10 contenders** (:func:`contenders_source`, :func:`contenders`): the two
  contenders of a pair round are the players at given places of the round that feeds it;
* **K5 seeds enter later** (:func:`seeds_round`, :func:`seeds_play_round_1`,
  :func:`seeds_join`): seeds skip the rounds before the one their preset lets them enter.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from brackets.engine.errors import EngineBug, RuleRefusal
from brackets.engine.presets import RoundRestrictions, RoundSpec

# -- K7 ----------------------------------------------------------------------------------


def cards_pending(restrictions: RoundRestrictions, *, drawn: bool) -> bool:
    """K7: whether the match still waits for its 下関 cards.

    ``drawn``: a draw (of any cards) is recorded for this match, or for the whole round when
    the preset draws once per round. A round without cards never waits.
    """
    return restrictions.cards and not drawn


def require_cards(restrictions: RoundRestrictions, *, drawn: bool, round_name: str = "") -> None:
    """K7: refuse a selection while :func:`cards_pending` (``cards_missing``)."""
    if cards_pending(restrictions, drawn=drawn):
        raise RuleRefusal("cards_missing", "draw the 下関 cards first", round=round_name)


# -- K8 ----------------------------------------------------------------------------------


def bans_pending(restrictions: RoundRestrictions, *, revealed: bool) -> bool:
    """K8: whether the match's selections still wait for the bans to be revealed."""
    return restrictions.match_bans and not revealed


def bans_in_force(declarations: Iterable[tuple[str, str]], *, revealed: bool
                  ) -> dict[str, tuple[str, ...]]:
    """K8: genre → who named it, for the bans that restrict choices in this match.

    ``declarations`` are (player, genre) as written, in the order they are listed. Nothing
    is banned before the reveal (a written ban is secret until then); after it every named
    genre is banned for everyone in the match.
    """
    if not revealed:
        return {}
    result: dict[str, list[str]] = {}
    for player, genre in declarations:
        result.setdefault(genre, []).append(player)
    return {genre: tuple(players) for genre, players in result.items()}


# -- K10 ---------------------------------------------------------------------------------


def _require_wins_needed(wins_needed: int) -> None:
    if wins_needed < 1:
        raise EngineBug("wins_needed_invalid", "a series needs at least one game win",
                        wins_needed=wins_needed)


def series_games(wins_needed: int) -> int:
    """K10: how many games a first-to-``wins_needed`` series can take (best of 2n − 1)."""
    _require_wins_needed(wins_needed)
    return 2 * wins_needed - 1


def games_scheduled(spec: RoundSpec) -> int:
    """K9/K10: the games a pair round schedules: one (K9), or every game a first-to-n
    series can take (K10)."""
    return series_games(spec.wins_needed or 2) if spec.is_series else 1


def series_decided(game_winners: Sequence[str | None], wins_needed: int) -> str | None:
    """K10: who won the series after these games, or None while it is open.

    ``game_winners`` holds the winning contender of each game in game order, None for a
    game without a result. The first to ``wins_needed`` wins takes the series; a result
    entered for a later game cannot change that.
    """
    _require_wins_needed(wins_needed)
    wins: dict[str, int] = {}
    for winner in game_winners:
        if winner is None:
            continue
        wins[winner] = wins.get(winner, 0) + 1
        if wins[winner] >= wins_needed:
            return winner
    return None


def game_needed(game: int, game_winners: Sequence[str | None], wins_needed: int) -> bool:
    """K10: whether game ``game`` (from 1) is played: not once the games before it decided
    the series. ``game_winners`` as for :func:`series_decided`; only the games before
    ``game`` are read."""
    if game < 1:
        raise EngineBug("game_number_invalid", "games are numbered from 1", game=game)
    return series_decided(game_winners[: game - 1], wins_needed) is None


# -- K9 / K10 contenders -----------------------------------------------------------------


@dataclass(frozen=True)
class ContendersSource:
    """Where a pair round's two contenders come from: ``places`` of round ``round_number``
    (numbered from 1, as the event plays them)."""

    round_number: int
    places: tuple[int, ...]


def contenders_source(specs: Sequence[RoundSpec], index: int) -> ContendersSource | None:
    """K9/K10: the source of the contenders of round ``specs[index]`` (0-based), or None
    for a round that is not a pair round or has no round that splits into pair rounds.

    The feeding round is the first with ``losers_to`` (K8: the semi-final). The round its
    non-advancers go to (K9) takes the places below the cut; any other pair round (K10)
    takes the advancing places.
    """
    spec = specs[index]
    if not spec.is_pair:
        return None
    feeder_index = next((i for i, sp in enumerate(specs) if sp.losers_to), None)
    if feeder_index is None:
        return None
    feeder = specs[feeder_index]
    cut = feeder.advance_per_group
    if spec.key == feeder.losers_to:
        places = tuple(range(cut + 1, feeder.group_size + 1))
    else:
        places = tuple(range(1, cut + 1))
    return ContendersSource(feeder_index + 1, places)


def contenders(places: Sequence[int], table: Iterable[tuple[str, int | None]]
               ) -> tuple[str, ...]:
    """K9/K10: the players at ``places`` of the source round's table, place by place.

    ``table`` is (player, place) of everyone the source round still ranks; a place left
    empty by a disqualification or withdrawal contributes nobody, so fewer than two
    contenders means the pair round cannot be drawn (see :func:`contenders_complete`).
    """
    rows = list(table)
    found: list[str] = []
    for place in places:
        found += [player for player, at in rows if at == place]
    return tuple(found)


def contenders_complete(found: Sequence[str]) -> bool:
    """K9/K10: whether exactly the two contenders a pair round needs were found."""
    return len(found) == 2


# -- K5 ----------------------------------------------------------------------------------


def seeds_round(specs: Sequence[RoundSpec]) -> int | None:
    """K5: the number (from 1) of the round seeds enter, None when no round says so (seeds,
    if any, play from round 1 like everyone else)."""
    return next((i + 1 for i, sp in enumerate(specs) if sp.seeds_enter), None)


def seeds_play_round_1(seeds_from: int | None) -> bool:
    """K5: whether seeds are drawn into round 1 (``seeds_from`` from :func:`seeds_round`)."""
    return seeds_from in (None, 1)


def seeds_join(spec: RoundSpec) -> bool:
    """K5: whether seeds join this round without having played the rounds before it."""
    return spec.seeds_enter
