"""Main-event berths of a qualifier series (関西杯5), derived from what the qualifiers recorded.

Seed 002 is one qualifier of 関西杯5: 0-a refuses a player who "holds a main-event berth at
the time of this event", 0-b fixes the card of a player's first qualifier. The page never
says how many berths a qualifier grants, nor what happens when a player who already holds
one places again. The readings here (**inference**, each a parameter or a preset setting):

* a qualifier grants ``berths`` berths (堅田's preset setting ``berths``, default 1: the
  champion);
* they go to the top ``berths`` placements *not already holding a berth* when that
  qualifier was held: a holder who places again passes the berth down to the next placement
  (the usual practice of Japanese qualifier series: "権利取得済みの場合は繰り下げ");
* a berth granted by hand (a qualifier run elsewhere) is a fact with its own date; it is
  ordered among the app's qualifiers by that date, so a berth won elsewhere earlier makes a
  later qualifier of the app pass its berth down too.

Plain data in, plain data out: the caller names qualifiers and players by keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from brackets.engine.errors import RuleRefusal

#: 0-a (inference): a qualifier grants one berth, to its champion, unless its preset says more.
DEFAULT_BERTHS = 1


@dataclass(frozen=True)
class QualifierResult:
    """A finished qualifier run in the app: its finishing order, best first.

    ``held_on`` is an ISO date ("" when unknown: such a qualifier sorts first, then by
    ``order``); ``placements`` are player keys, 1st first, as far as the event ranked them
    (its podium); ``berths`` is how many berths it grants.
    """

    key: str
    held_on: str
    placements: tuple[str, ...]
    berths: int = DEFAULT_BERTHS
    order: int = 0


@dataclass(frozen=True)
class BerthGrant:
    """A berth granted by hand for a qualifier run elsewhere: who, at which place, when."""

    key: str
    qualifier: str
    held_on: str
    place: int
    player: str


@dataclass(frozen=True)
class Berth:
    """One main-event berth: the qualifier and place it came from and who holds it.

    ``by_hand`` for a granted berth; ``passed_over`` are the better-placed players of that
    qualifier who already held a berth, so the berth went down to this one.
    """

    qualifier: str
    held_on: str
    place: int
    player: str
    by_hand: bool = False
    grant: str = ""
    passed_over: tuple[str, ...] = ()


def _events(qualifiers: Iterable[QualifierResult], grants: Iterable[BerthGrant]
            ) -> list[tuple[tuple[str, int, int, str], QualifierResult | BerthGrant]]:
    rows: list[tuple[tuple[str, int, int, str], QualifierResult | BerthGrant]] = []
    for q in qualifiers:
        rows.append(((q.held_on, 0, q.order, q.key), q))
    for g in grants:
        rows.append(((g.held_on, 1, g.place, g.key), g))
    return sorted(rows, key=lambda row: row[0])


def series_berths(qualifiers: Iterable[QualifierResult],
                  grants: Iterable[BerthGrant] = ()) -> tuple[Berth, ...]:
    """Every main-event berth of a series, in the order they were won.

    Qualifiers and hand grants are taken in date order (on one date, the app's qualifiers
    first). A qualifier's ``berths`` go to its top placements not already holding a berth:
    a holder who places again passes the berth down (the default reading, see the module).
    A qualifier that ranked fewer players than it grants berths gives what it can. A hand
    grant to a player who already holds a berth adds none (``check_berth_grant`` refuses
    recording one); a second grant for the same qualifier and place is ignored likewise.
    """
    held: set[str] = set()
    taken: set[tuple[str, int]] = set()
    out: list[Berth] = []
    for _key, event in _events(qualifiers, grants):
        if isinstance(event, BerthGrant):
            spot = (event.qualifier.strip(), event.place)
            if event.player in held or spot in taken:
                continue
            taken.add(spot)
            held.add(event.player)
            out.append(Berth(event.qualifier, event.held_on, event.place, event.player,
                             by_hand=True, grant=event.key))
            continue
        given = 0
        skipped: list[str] = []
        for place, player in enumerate(event.placements, start=1):
            if given >= max(event.berths, 0):
                break
            if player in held:
                skipped.append(player)
                continue
            held.add(player)
            given += 1
            out.append(Berth(event.key, event.held_on, place, player,
                             passed_over=tuple(skipped)))
    return tuple(out)


def berth_holders(berths: Iterable[Berth], *, before: str | None = None) -> frozenset[str]:
    """0-a: the players holding a berth; with ``before`` (ISO date), only berths won before
    that date ("今大会開催時点で保有"), so a later qualifier's berth does not refuse an
    earlier event's entry."""
    return frozenset(b.player for b in berths
                     if before is None or (b.held_on and b.held_on < before))


def check_berth_grant(grant: BerthGrant, *, qualifiers: Sequence[QualifierResult] = (),
                      grants: Sequence[BerthGrant] = ()) -> None:
    """Refuse a hand grant the record cannot take; nothing is recorded then.

    ``berth_place_taken``: that qualifier's place already has a berth granted by hand (a
    berth cannot be granted twice for one place). ``berth_already_held``: the player holds
    a berth of the series before the grant's date. ``berth_place_invalid``: a place below 1.
    ``berth_qualifier_missing`` / ``berth_date_missing``: the qualifier or date is blank.
    """
    if not grant.qualifier.strip():
        raise RuleRefusal("berth_qualifier_missing", "a berth names its qualifier")
    if not grant.held_on.strip():
        raise RuleRefusal("berth_date_missing", "a berth needs the qualifier's date")
    if grant.place < 1:
        raise RuleRefusal("berth_place_invalid", "places start at 1", place=grant.place)
    spot = (grant.qualifier.strip(), grant.place)
    if any((g.qualifier.strip(), g.place) == spot for g in grants):
        raise RuleRefusal("berth_place_taken", "that place's berth is already granted",
                          qualifier=grant.qualifier, place=grant.place)
    earlier = [b for b in series_berths(qualifiers, grants)
               if b.player == grant.player and b.held_on <= grant.held_on]
    if earlier:
        raise RuleRefusal("berth_already_held", "the player already holds a berth",
                          qualifier=earlier[0].qualifier, place=earlier[0].place)


def check_main_event_entry(player: str, *, holders: frozenset[str], series: str,
                           overridden: bool = False) -> None:
    """The main event is for berth holders: refuse a player who holds none of ``series``'
    berths (``holders``, from :func:`berth_holders`), unless an organiser admitted them
    against the record with a reason (``overridden``). ``player`` is "" for someone the
    registry does not know yet, who holds no berth."""
    if overridden or (player and player in holders):
        return
    raise RuleRefusal("no_main_event_berth", "the player holds no berth of the series",
                      series=series)
