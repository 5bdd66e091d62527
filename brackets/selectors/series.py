"""Reads of a qualifier series: which series a tournament belongs to, its berths (derived
by ``brackets.engine.series_berths`` from the finished qualifiers' podiums plus the hand
grants), who still may enter, and what H0 at a qualifier's desk needs.

Nothing here decides a rule: the berths are the engine's, from facts read here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from brackets.adapters import players as ad
from brackets.adapters import series as sa
from brackets.adapters.entrants import kana_fold
from brackets.engine import (
    CERTAIN,
    Berth,
    PlayerKeys,
    QualifierResult,
    berth_holders,
    registry_match,
    series_berths,
)
from brackets.models import (
    BerthWithdrawal,
    Entrant,
    Player,
    PlayerCard,
    Series,
    SeriesBerthGrant,
    Tournament,
)
from brackets.selectors import rounds as sel

QUALIFIER, MAIN_EVENT = "qualifier", "main"


@dataclass(frozen=True)
class Membership:
    """The series a tournament belongs to and its part in it (qualifier or main event)."""

    series: Series
    role: str

    @property
    def is_qualifier(self) -> bool:
        return self.role == QUALIFIER


def series_of(*, tournament: Tournament) -> Membership | None:
    """The tournament's series (None when it belongs to none)."""
    found = Series.objects.filter(qualifiers=tournament).first()
    if found is not None:
        return Membership(found, QUALIFIER)
    found = Series.objects.filter(main_events=tournament).first()
    return Membership(found, MAIN_EVENT) if found is not None else None


def qualifiers(series: Series) -> list[Tournament]:
    """The series' qualifiers in the order they were held (undated ones by creation)."""
    rows = list(series.qualifiers.select_related("version"))
    return sorted(rows, key=lambda t: (sa.held_on(t), t.pk))


def before(t: Tournament, now: Tournament) -> bool:
    """``t`` was held before ``now`` (by date; by creation when a date is missing)."""
    if t.date and now.date:
        return t.date < now.date
    return t.pk < now.pk


def _podium_entrants(tournament: Tournament) -> list[Entrant]:
    ids = [int(row.player) for row in sel.podium(tournament)]
    rows = Entrant.objects.select_related("player").in_bulk(ids)
    return [rows[i] for i in ids if i in rows]


@dataclass
class SeriesBerths:
    """The series' berths as the engine derives them, with the rows behind the keys."""

    berths: tuple[Berth, ...]
    results: list[QualifierResult]
    names: dict[str, str]
    players: dict[str, Player]
    entrants: dict[str, Entrant]
    grants: dict[str, SeriesBerthGrant]

    def name(self, key: str) -> str:
        """A player's name, or a qualifier's (``t<id>``), for a key the engine returned."""
        if key in self.names:
            return self.names[key]
        if key in self.players:
            return self.players[key].name
        return self.entrants[key].name if key in self.entrants else key


def series_berths_of(*, series: Series, upto: Tournament | None = None) -> SeriesBerths:
    """Every berth of the series; with ``upto``, only those of qualifiers finished before it
    and of grants dated before it (0-a: "今大会開催時点で保有")."""
    results = []
    names: dict[str, str] = {}
    players: dict[str, Player] = {}
    entrants: dict[str, Entrant] = {}
    for t in qualifiers(series):
        if t.status != Tournament.Status.FINISHED or (upto is not None and not before(t, upto)):
            continue
        podium = _podium_entrants(t)
        for e in podium:
            key = sa.entrant_key(e)
            entrants.setdefault(key, e)
            if e.player_id:
                players.setdefault(key, ad.canonical(e.player))
        results.append(sa.qualifier_result(t, podium))
        names[results[-1].key] = t.name
    # A withdrawn grant (BerthWithdrawal) counts nowhere; the series page lists it apart.
    grant_rows = list(SeriesBerthGrant.objects.filter(series=series, withdrawal__isnull=True)
                      .select_related("player", "by"))
    if upto is not None and upto.date:
        grant_rows = [g for g in grant_rows if g.held_on < upto.date]
    grants = {}
    for row in grant_rows:
        players.setdefault(sa.player_key(row.player), ad.canonical(row.player))
        grants[f"g{row.pk}"] = row
    berths = series_berths(results, [sa.grant_of(g) for g in grant_rows])
    return SeriesBerths(berths, results, names, players, entrants, grants)


def holds_series_berth(*, tournament: Tournament, player: Player) -> bool:
    """0-a at a qualifier: the player holds a berth of its series won before it."""
    member = series_of(tournament=tournament)
    if member is None or not member.is_qualifier:
        return False
    derived = series_berths_of(series=member.series, upto=tournament)
    return sa.player_key(player) in berth_holders(derived.berths)


def main_event_series(*, tournament: Tournament) -> Series | None:
    """The series whose main event this tournament is (None otherwise)."""
    member = series_of(tournament=tournament)
    return member.series if member is not None and not member.is_qualifier else None


@dataclass(frozen=True)
class HeldBerth:
    """A berth a player holds for a main event, in the desk's words."""

    qualifier: str
    place: int
    by_hand: bool


def main_event_berth(*, tournament: Tournament, player: Player | None) -> HeldBerth | None:
    """The berth ``player`` holds for the main event ``tournament`` (None when none, or
    when the tournament is no series' main event): berths of qualifiers held before it
    and grants dated before it, as the engine derives them."""
    series = main_event_series(tournament=tournament)
    if series is None or player is None:
        return None
    derived = series_berths_of(series=series, upto=tournament)
    key = sa.player_key(ad.canonical(player))
    berth = next((b for b in derived.berths if b.player == key), None)
    if berth is None:
        return None
    return HeldBerth(derived.name(berth.qualifier), berth.place, berth.by_hand)


def main_event_holders(*, series: Series, tournament: Tournament) -> frozenset[str]:
    """0-a at the main event: the player keys holding a berth of ``series`` before it."""
    return berth_holders(series_berths_of(series=series, upto=tournament).berths)


def earlier_qualifier_ids(*, tournament: Tournament) -> set[int]:
    """H0-b: the other qualifiers of the tournament's series held before it."""
    member = series_of(tournament=tournament)
    if member is None or not member.is_qualifier:
        return set()
    return {t.pk for t in qualifiers(member.series)
            if t.pk != tournament.pk and before(t, tournament)}


@dataclass
class BerthLine:
    place: int
    name: str
    by_hand: bool
    passed_over: list[str]
    grant: SeriesBerthGrant | None = None


@dataclass
class QualifierLine:
    tournament: Tournament | None
    title: str
    held_on: str
    status: str
    berths: list[BerthLine] = field(default_factory=list)


@dataclass
class SeriesView:
    """What the series pages show: each qualifier with its berth winners, the hand grants
    (qualifiers run elsewhere), the main events, and who still may enter."""

    series: Series
    qualifiers: list[QualifierLine]
    main_events: list[Tournament]
    holders: int
    eligible: list[Player]
    withdrawn: list[BerthWithdrawal] = field(default_factory=list)


def series_view(*, series: Series) -> SeriesView:
    derived = series_berths_of(series=series)
    by_qualifier: dict[str, list[BerthLine]] = {}
    for b in derived.berths:
        grant = derived.grants.get(b.grant) if b.by_hand else None
        by_qualifier.setdefault(b.qualifier, []).append(BerthLine(
            b.place, derived.name(b.player), b.by_hand,
            [derived.name(k) for k in b.passed_over], grant))
    lines = [QualifierLine(t, t.name, sa.held_on(t), t.get_status_display(),
                           by_qualifier.get(f"t{t.pk}", [])) for t in qualifiers(series)]
    for g in derived.grants.values():
        key = g.qualifier.strip()
        if key in by_qualifier and not any(line.title == key for line in lines):
            lines.append(QualifierLine(None, key, g.held_on.isoformat(), "", by_qualifier[key]))
    lines.sort(key=lambda line: line.held_on)
    holders = berth_holders(derived.berths)
    played = (Entrant.objects.filter(tournament__in=series.qualifiers.all(),
                                     player__isnull=False).select_related("player"))
    eligible: dict[int, Player] = {}
    for e in played:
        kept = ad.canonical(e.player)
        if sa.player_key(kept) not in holders:
            eligible.setdefault(kept.pk, kept)
    withdrawn = list(BerthWithdrawal.objects.filter(grant__series=series)
                     .select_related("grant__player", "grant__by", "by").order_by("-at", "-id"))
    return SeriesView(series, lines, list(series.main_events.order_by("date", "id")),
                      len(holders), sorted(eligible.values(),
                                           key=lambda p: (p.reading or p.name, p.pk)), withdrawn)


def series_list() -> list[Series]:
    return list(Series.objects.order_by("name"))


def registry_player_certain(*, name: str, reading: str, card_name: str) -> Player | None:
    """The registry player a row of an entry file is with certainty (the engine's
    ``registry_match``: exactly one player holding that card under that name or reading),
    or None: an entry file names people by card and name only."""
    card = kana_fold(card_name)[:40]
    if not card:
        return None
    owners = {ad.canonical(c.player).pk for c in PlayerCard.objects.filter(
        card_key=card, superseded_by__isnull=True).select_related("player")}
    candidates = []
    for player in Player.objects.filter(pk__in=owners).order_by("pk"):
        cards = frozenset(c.card_key for c in ad.current_cards(ad.family_ids(player)))
        candidates.append(PlayerKeys(str(player.pk), kana_fold(player.name),
                                     kana_fold(player.reading), cards))
    verdict = registry_match(PlayerKeys("row", kana_fold(name), kana_fold(reading),
                                        frozenset({card})), candidates)
    return Player.objects.get(pk=int(verdict.key)) if verdict.kind == CERTAIN else None
