"""Reads of the player registry: the desk's lookup, a player's record, an entrant's duties.

What a record means for an event (2-d's highest card, 3-a's lots and the achievement
behind each, 6-c-iii's allowance, H0 from the tournament's series) is asked of the engine here, through
``brackets.adapters.players``; nothing below decides a rule. Results of tournaments run in
the app are read from their own facts (podium, recorded lots), never copied into the
registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from brackets import engine_adapter as ea
from brackets.adapters import players as ad
from brackets.adapters.entrants import kana_fold
from brackets.adapters.rounds import round_rules
from brackets.engine import (
    CardRecord,
    LotsOwed,
    PastWin,
    RuleRefusal,
    Violation,
    check_eligibility,
    format_lots_allowed,
    highest_card,
    holds_berth,
    mode_for_q,
)
from brackets.labels import MODE_LABELS, label
from brackets.messages import violation_text
from brackets.models import (
    Achievement,
    DutyOverride,
    Entrant,
    Player,
    PlayerCard,
    PlayerMerge,
    Round,
    Tournament,
)
from brackets.selectors import rounds as sel
from brackets.selectors.documents import LOT_REASONS
from brackets.selectors.duties import InForce, PastWinRow, in_force_of
from brackets.selectors.registry_history import History, record_history
from brackets.selectors.series import earlier_qualifier_ids, holds_series_berth, series_of

GROUNDS = ("national_title", "shiga_winner", "seed_or_invitation")


@dataclass
class PlayerMatch:
    """A registry player the desk's typing matches, with what it matched."""

    player: Player
    cards: list[PlayerCard]
    highest: CardRecord | None
    matched_card: str = ""

    def fill(self) -> dict[str, Any]:
        """The desk form's fields from the registry: the matched card (else the highest)
        and the highest card's Q level, which 2-d keys the mode on."""
        card = self.matched_card or (self.highest.card_name if self.highest else "")
        return {"player": self.player.pk, "name": self.player.name,
                "reading": self.player.reading, "card_name": card,
                "q_level": self.highest.q_level if self.highest else 0}


def player_lookup(*, name: str = "", reading: str = "", card_name: str = "",
                  limit: int = 5) -> list[PlayerMatch]:
    """Players whose card name, name or reading matches what the desk typed (folded for
    kana, width and case); merged duplicates are shown as the player they were merged into."""
    card_key = kana_fold(card_name)
    name_keys = [k for k in (kana_fold(reading), kana_fold(name)) if len(k) >= 2]
    if not card_key and not name_keys:
        return []
    by_card: dict[int, str] = {}
    if card_key:
        for row in PlayerCard.objects.filter(card_key__startswith=card_key,
                                             superseded_by__isnull=True)[:20]:
            by_card.setdefault(row.player_id, row.card_name)
    query = Q(pk__in=list(by_card))
    for key in name_keys:
        query |= Q(search_key__contains=key)
    seen: dict[int, PlayerMatch] = {}
    for player in Player.objects.filter(query).order_by("reading", "id")[:20]:
        kept = ad.canonical(player)
        if kept.pk in seen:
            continue
        cards = ad.current_cards(ad.family_ids(kept))
        seen[kept.pk] = PlayerMatch(kept, cards, highest_card([ad.card_of(c) for c in cards]),
                                    by_card.get(player.pk, ""))
        if len(seen) >= limit:
            break
    return list(seen.values())


@dataclass
class ResultRow:
    """A placement in a tournament run in the app, read from that tournament's facts."""

    tournament: Tournament
    entrant: Entrant
    place: str
    champion: bool
    lots: dict[str, Any] | None


def player_results(*, player: Player) -> list[ResultRow]:
    """Every tournament the player entered, with the place its podium gives (if any) and
    the lots drawn there: the app's results, derived, never stored in the registry."""
    entrants = list(Entrant.objects.filter(player_id__in=ad.family_ids(player))
                    .select_related("tournament").order_by("tournament__date", "id"))
    rows = []
    for entrant in entrants:
        t = entrant.tournament
        place = next((r for r in sel.podium(t) if r.player == ea.player_key(entrant.pk)), None)
        lots = sel.lots_of(t, [entrant.pk]).get(entrant.pk)
        rows.append(ResultRow(t, entrant, _(place.label) if place else "",
                              bool(place and place.champion), lots))
    return rows


@dataclass
class Record:
    player: Player
    cards: list[PlayerCard]
    card_history: list[PlayerCard]
    achievements: list[Achievement]
    results: list[ResultRow]
    merges: list[PlayerMerge]
    highest: CardRecord | None
    history: History | None = None


def player_record(*, player: Player) -> Record:
    """A player's whole record: current cards (and the rows they superseded), achievements
    entered by hand that are in force (each fact once) with the corrections behind them,
    results derived from the app's tournaments, and the merges."""
    ids = ad.family_ids(player)
    cards = ad.current_cards(ids)
    live = ad.live_achievements(ids)
    return Record(
        player=player, cards=cards,
        card_history=list(PlayerCard.objects.filter(player_id__in=ids,
                                                    superseded_by__isnull=False)
                          .select_related("by")),
        achievements=live,
        results=player_results(player=player),
        merges=list(PlayerMerge.objects.filter(Q(kept_id__in=ids) | Q(merged_id__in=ids))
                    .select_related("kept", "merged", "by")),
        highest=highest_card([ad.card_of(c) for c in cards]),
        history=record_history(ids=ids, live=live))


def player_list(*, query: str = "") -> list[Player]:
    """Registry players not merged into another, matching ``query`` when given."""
    rows = Player.objects.filter(merge__isnull=True)
    key = kana_fold(query)
    if key:
        rows = rows.filter(Q(search_key__contains=key) | Q(cards__card_key__contains=key))
    return list(rows.distinct().order_by("reading", "id")[:200])


@dataclass
class GroundLine:
    """One 3-a ground: what the record gives, the achievements behind it, what the desk
    typed, any override; ``holds`` is the ground as in force."""

    ground: str
    label: str
    derived: bool
    behind: list[Achievement]
    override: DutyOverride | None
    holds: bool = False
    typed: bool = False


@dataclass
class Duties:
    """What an entrant owes at this event, as the engine combines the desk's typing, the
    registry and the overrides (``in_force``), with the why behind each duty."""

    entrant: Entrant
    player: Player
    highest: CardRecord | None
    mode: str
    grounds: list[GroundLine]
    owed: LotsOwed | None
    owed_error: str
    past_wins: list[PastWinRow]
    l_past: int
    l_past_override: DutyOverride | None
    format_lots: int | None
    refusals: list[str]
    in_force: InForce
    overrides: list[DutyOverride] = field(default_factory=list)

    @property
    def past_win_lots(self) -> int:
        return self.in_force.duties.past_win_lots

    @property
    def q_level(self) -> int:
        return self.in_force.duties.q_level

    @property
    def warning(self) -> str:
        """A duty the record gives only after the lottery, for staff (never applied)."""
        return self.in_force.warning()

    def reasons(self) -> list[str]:
        return [str(LOT_REASONS.get(r, r)) for r in (self.owed.reasons if self.owed else ())]


GROUND_LABELS = {"national_title": "3-a-i", "shiga_winner": "3-a-ii",
                 "seed_or_invitation": "3-a-iii"}


def entrant_duties(*, entrant: Entrant, in_force: InForce | None = None) -> Duties | None:
    """The duties of a linked entrant, with the why (None for one without a player).

    ``in_force`` is the entrant's :func:`~brackets.selectors.duties.in_force_for` result
    when a page has read it for many entrants at once."""
    if entrant.player_id is None:
        return None
    tournament = entrant.tournament
    player = ad.canonical(entrant.player)
    item = in_force if in_force is not None else in_force_of(entrant)
    duties = item.duties
    grounds = item.gives.grounds if item.gives is not None else None
    typed = {"national_title": item.entered.titles > 0,
             "shiga_winner": item.entered.local_wins > 0,
             "seed_or_invitation": item.entered.invited}
    held = {"national_title": duties.titles > 0, "shiga_winner": duties.local_wins > 0,
            "seed_or_invitation": duties.invited}
    lines = []
    for g in GROUNDS:
        behind = grounds.achievements_for(g) if grounds is not None else ()
        lines.append(GroundLine(g, GROUND_LABELS[g] + " " + str(LOT_REASONS[g]), bool(behind),
                                [item.achievements[a.key] for a in behind
                                 if a.key in item.achievements],
                                item.overrides.get(g), held[g], typed[g]))
    owed = item.owed
    owed_error = "" if owed is not None else _("修羅くじは1人4本までです。申告を見直してください。")
    mode = ""
    try:
        preset = ea.preset_for(tournament)
        if preset.mode_source != "fixed":
            mode = label(MODE_LABELS, mode_for_q(duties.q_level, preset.thresholds).value)
    except RuleRefusal:
        preset = None
    format_lots = None
    first = Round.objects.filter(tournament=tournament, number=1).first()
    if first is not None and owed is not None:
        format_lots = format_lots_allowed([PastWin(duties.past_win_lots)],
                                          q_level=duties.q_level,
                                          genre_lots_now=owed.genre_lots,
                                          max_matches=round_rules(first).max_matches)
    refusals: list[str] = []
    if preset is not None and preset.shura:
        ids = ad.family_ids(player)
        engine_rows = [ad.achievement_of(r) for r in ad.live_achievements(ids)]
        results = [r for r in player_results(player=player) if r.tournament.pk != tournament.pk]
        refusals = _eligibility(entrant, player, engine_rows, results, tournament)
    l_past = item.gives.past_win_lots if item.gives is not None else 0
    return Duties(entrant, player, item.gives.highest if item.gives else None, mode, lines,
                  owed, owed_error, item.past_wins, l_past, item.overrides.get("past_win_lots"),
                  format_lots, refusals, item, list(item.overrides.values()))


def _before(t: Tournament, now: Tournament) -> bool:
    if t.date and now.date:
        return t.date < now.date
    return t.pk < now.pk


def _eligibility(entrant: Entrant, player: Player, achievements: list[Any],
                 results: list[ResultRow], tournament: Tournament) -> list[str]:
    """H0 in words: a berth of the series refuses the entry; an earlier qualifier of the
    series fixes the card of the first appearance."""
    return [violation_text(v) for v in _violations(entrant, player, achievements, results,
                                                   tournament)]


def _violations(entrant: Entrant, player: Player, achievements: list[Any],
                results: list[ResultRow], tournament: Tournament) -> tuple[Violation, ...]:
    """H0 from the tournament's series (nothing at a main event or outside any series):
    berths derived from the earlier qualifiers and granted by hand (plus a 本戦出場権
    achievement naming the series, as recorded before series existed), and the cards of
    the player's earlier qualifiers of the series."""
    member = series_of(tournament=tournament)
    if member is None or not member.is_qualifier:
        return ()
    earlier = earlier_qualifier_ids(tournament=tournament)
    appearances = [ad.appearance_of(r.tournament, r.entrant.card_name) for r in results
                   if r.tournament.pk in earlier]
    holds = (holds_berth(achievements, series=member.series.name)
             or holds_series_berth(tournament=tournament, player=player))
    return check_eligibility(card=entrant.card_name, holds_main_berth=holds,
                             appearances=appearances, series=member.series.name)


def first_appearance_card(*, tournament: Tournament, player: Player) -> str:
    """H0-b: the card a returning player must bring here ("" when any card will do), as
    the engine names it when the desk offers none."""
    try:
        if not ea.preset_for(tournament).shura:
            return ""
    except RuleRefusal:
        return ""
    kept = ad.canonical(player)
    found = _violations(Entrant(tournament=tournament, card_name=""), kept, [],
                        player_results(player=kept), tournament)
    return next((str(v.params["first_card"]) for v in found
                 if v.code == "card_not_first_appearance"), "")


def eligibility_for(*, tournament: Tournament, player: Player, card_name: str) -> list[str]:
    """H0 for a player about to be registered with ``card_name`` (no entrant yet)."""
    try:
        if not ea.preset_for(tournament).shura:
            return []
    except RuleRefusal:
        return []
    kept = ad.canonical(player)
    ids = ad.family_ids(kept)
    rows = [ad.achievement_of(r) for r in ad.live_achievements(ids)]
    probe = Entrant(tournament=tournament, card_name=card_name)
    return _eligibility(probe, kept, rows, player_results(player=kept), tournament)
