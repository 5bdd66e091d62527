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
    ShuraDeclaration,
    Violation,
    check_eligibility,
    format_lots_allowed,
    highest_card,
    holds_berth,
    lots_owed,
    mode_for_q,
    past_win_total,
    shura_grounds,
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
    """One 3-a ground: what the record gives, the achievements behind it, any override."""

    ground: str
    label: str
    derived: bool
    behind: list[Achievement]
    override: DutyOverride | None

    @property
    def holds(self) -> bool:
        return bool(self.override.value) if self.override else self.derived


@dataclass
class Duties:
    """What the registry gives an entrant at this event, as the engine derives it."""

    entrant: Entrant
    player: Player
    highest: CardRecord | None
    mode: str
    grounds: list[GroundLine]
    owed: LotsOwed | None
    owed_error: str
    past_wins: list[ResultRow]
    l_past: int
    l_past_override: DutyOverride | None
    format_lots: int | None
    refusals: list[str]
    overrides: list[DutyOverride] = field(default_factory=list)

    @property
    def past_win_lots(self) -> int:
        return self.l_past_override.value if self.l_past_override else self.l_past

    def declaration_fields(self) -> dict[str, Any]:
        """The entrant's 修羅 fields and Q level as the registry gives them: the values the
        rest of the app (lots, restrictions, documents) reads for this event."""
        by = {g.ground: g for g in self.grounds}
        fields: dict[str, Any] = {
            "shura_titles": _count(by["national_title"]),
            "shura_local_wins": _count(by["shiga_winner"]),
            "shura_invited": by["seed_or_invitation"].holds,
            "past_win_lots": self.past_win_lots,
        }
        if self.highest is not None:
            fields["q_level"] = self.highest.q_level
        return fields

    def reasons(self) -> list[str]:
        return [str(LOT_REASONS.get(r, r)) for r in (self.owed.reasons if self.owed else ())]


def _count(line: GroundLine) -> int:
    return (len(line.behind) or 1) if line.holds else 0


GROUND_LABELS = {"national_title": "3-a-i", "shiga_winner": "3-a-ii",
                 "seed_or_invitation": "3-a-iii"}


def _newest_overrides(entrant: Entrant) -> dict[str, DutyOverride]:
    out: dict[str, DutyOverride] = {}
    if entrant.pk is None:  # a desk preview before registering: nothing overridden yet
        return out
    for row in DutyOverride.objects.filter(entrant=entrant).select_related("by").order_by("id"):
        out[row.ground] = row
    return out


def entrant_duties(*, entrant: Entrant) -> Duties | None:
    """The duties the registry gives a linked entrant (None for one without a player)."""
    if entrant.player_id is None:
        return None
    tournament = entrant.tournament
    player = ad.canonical(entrant.player)
    ids = ad.family_ids(player)
    cards = ad.current_cards(ids)
    highest = highest_card([ad.card_of(c) for c in cards])
    rows = ad.live_achievements(ids)
    engine_rows = [ad.achievement_of(r) for r in rows]
    by_key = {ad.achievement_key(r): r for r in rows}
    grounds = shura_grounds(engine_rows, volunteer=entrant.shura_voluntary,
                            extra_lots=entrant.shura_extra_lots)
    overrides = _newest_overrides(entrant)
    lines = [GroundLine(g, GROUND_LABELS[g] + " " + str(LOT_REASONS[g]),
                        bool(grounds.achievements_for(g)),
                        [by_key[a.key] for a in grounds.achievements_for(g)], overrides.get(g))
             for g in GROUNDS]
    held = {line.ground: line.holds for line in lines}
    declaration = ShuraDeclaration(
        national_title=held["national_title"], shiga_winner=held["shiga_winner"],
        seed_or_invitation=held["seed_or_invitation"], volunteer=entrant.shura_voluntary,
        extra_lots=entrant.shura_extra_lots)
    owed: LotsOwed | None
    owed_error = ""
    try:
        owed = lots_owed(declaration)
    except RuleRefusal:
        owed, owed_error = None, _("修羅くじは1人4本までです。申告を見直してください。")
    mode = ""
    try:
        preset = ea.preset_for(tournament)
        if preset.mode_source != "fixed" and highest is not None:
            mode = label(MODE_LABELS, mode_for_q(highest.q_level, preset.thresholds).value)
    except RuleRefusal:
        preset = None
    results = [r for r in player_results(player=player) if r.tournament.pk != tournament.pk]
    same_event = [r for r in results if r.tournament.preset == tournament.preset
                  and _before(r.tournament, tournament)]
    past_wins = [r for r in same_event if r.champion]
    l_past = past_win_total([ad.past_win_of(r.lots) for r in past_wins])
    l_override = overrides.get("past_win_lots")
    format_lots = None
    first = Round.objects.filter(tournament=tournament, number=1).first()
    if first is not None and owed is not None and highest is not None:
        past = ([PastWin(l_override.value)] if l_override
                else [ad.past_win_of(r.lots) for r in past_wins])
        format_lots = format_lots_allowed(past, q_level=highest.q_level,
                                          genre_lots_now=owed.genre_lots,
                                          max_matches=round_rules(first).max_matches)
    refusals = _eligibility(entrant, player, engine_rows, results, tournament) if (
        preset is not None and preset.shura) else []
    return Duties(entrant, player, highest, mode, lines, owed, owed_error, past_wins, l_past,
                  l_override, format_lots, refusals, list(overrides.values()))


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
