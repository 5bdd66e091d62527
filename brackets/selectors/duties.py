"""An entrant's 修羅 duties and Q level as they are in force when read (#14).

Nothing the registry gives is copied into the entrant: every reader (the desk, the 修羅
page and its lottery, usage cards, the player page, the match pages) asks here, and the
engine's :func:`~brackets.engine.duties_in_force` combines what the desk typed, what the
player's record gives (3-a grounds with the achievements behind them, 2-d's highest card,
6-c-iii's L_past) and the organiser's overrides. An achievement recorded after registration
therefore reaches the entrant without any button.

What was drawn is a stored fact: once an entrant's 修羅 lots are drawn (or round 1 is
drawn, after which no lot can be drawn), their record is read as it stood at that moment,
so neither the lots nor the mode they force can move. A duty the record gives only later
is kept beside it (``later``) for the staff pages to show as a warning, never applied.

Non-修羅 events read only what the desk typed: their presets do not weigh a record.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Min
from django.utils.translation import gettext as _

from brackets import engine_adapter as ea
from brackets.adapters import players as ad
from brackets.engine import (
    CardRecord,
    DeskDuties,
    LotsOwed,
    RecordGives,
    RuleRefusal,
    ShuraGrounds,
    distinct_facts,
    duties_in_force,
    highest_card,
    lots_owed,
    past_win_total,
    shura_grounds,
)
from brackets.models import (
    Achievement,
    AchievementCorrection,
    DutyOverride,
    Entrant,
    PlayerCard,
    PlayerMerge,
    Round,
    RoundStep,
    SpecialFact,
    Tournament,
)


def entered_of(entrant: Entrant) -> DeskDuties:
    """What the desk typed for the entrant, as the engine reads it."""
    return DeskDuties(titles=entrant.shura_titles or 0, local_wins=entrant.shura_local_wins or 0,
                      invited=bool(entrant.shura_invited), volunteer=bool(entrant.shura_voluntary),
                      extra_lots=entrant.shura_extra_lots or 0,
                      past_win_lots=entrant.past_win_lots or 0, q_level=entrant.q_level or 0)


@dataclass
class PastWinRow:
    """A win of this event in an earlier edition, with the lots drawn there."""

    tournament: Tournament
    entrant: Entrant
    lots: dict[str, Any] | None


@dataclass
class InForce:
    """An entrant's duties in force, with what they were derived from.

    ``gives`` is the record as read (at ``frozen_at`` once frozen); ``later`` is what the
    record gives now when it differs after the freeze (the staff warning), else None.
    """

    entrant: Entrant
    entered: DeskDuties
    duties: DeskDuties
    gives: RecordGives | None = None
    achievements: dict[str, Achievement] = field(default_factory=dict)
    cards: list[PlayerCard] = field(default_factory=list)
    overrides: dict[str, DutyOverride] = field(default_factory=dict)
    past_wins: list[PastWinRow] = field(default_factory=list)
    frozen_at: datetime.datetime | None = None
    later: DeskDuties | None = None
    #: Achievements recorded after the freeze (named in the warning).
    recorded_later: list[Achievement] = field(default_factory=list)

    @property
    def owed(self) -> LotsOwed | None:
        """3-a's lots owed as in force (None over the cap of 4)."""
        return _owed(self.duties)

    def warning(self) -> str:
        """The staff warning about a duty the record gives only after the lottery ("")."""
        if self.later is None:
            return ""
        now, later = _owed(self.duties), _owed(self.later)
        parts = [a.title for a in self.recorded_later]
        if (now.genre_lots if now else None) != (later.genre_lots if later else None):
            parts.append(_("ジャンルくじ %(a)s本 → %(b)s本") % {
                "a": now.genre_lots if now else "—", "b": later.genre_lots if later else "—"})
        if self.duties.q_level != self.later.q_level:
            parts.append(_("最高Qレベル %(a)d → %(b)d") % {"a": self.duties.q_level,
                                                          "b": self.later.q_level})
        if self.duties.past_win_lots != self.later.past_win_lots:
            parts.append(_("過去優勝時のくじ数 %(a)d → %(b)d") % {
                "a": self.duties.past_win_lots, "b": self.later.past_win_lots})
        if not parts:
            parts.append(_("修羅の判定の根拠"))
        return _("修羅くじの抽選後に登録簿へ記録された内容があります（%(what)s）。抽選した"
                 "くじと判定は変わりません。必要なら主催者が確認してください。") % {
                     "what": "、".join(parts)}


def _owed(duties: DeskDuties) -> LotsOwed | None:
    try:
        return lots_owed(duties.declaration())
    except RuleRefusal:
        return None


def weighs_record(tournament: Tournament) -> bool:
    """The tournament's preset weighs a player's record (a 修羅 event such as 堅田)."""
    try:
        return bool(ea.preset_for(tournament).shura)
    except RuleRefusal:
        return False


def _frozen_moments(tournament: Tournament, entrant_ids: list[int]
                    ) -> dict[int, datetime.datetime]:
    """When each entrant's duties became a stored fact: their first lots drawn, or the
    draw of round 1 (after which no lot can be drawn), whichever came first."""
    out: dict[int, datetime.datetime] = dict(
        SpecialFact.objects.filter(tournament=tournament, kind=SpecialFact.Kind.SHURA_LOTS,
                                   entrant_id__in=entrant_ids)
        .values("entrant_id").annotate(first=Min("at")).values_list("entrant_id", "first"))
    first = (Round.objects.filter(tournament=tournament, number=1)
             .exclude(status=Round.Status.CONFIGURED).first())
    if first is not None:
        step = (RoundStep.objects.filter(round=first, action="draw", undone_by__isnull=True)
                .order_by("-id").first())
        drawn = step.at if step is not None else first.created_at
        for eid in entrant_ids:
            out[eid] = min(out.get(eid, drawn), drawn)
    return out


class _Merges:
    """Every merge, loaded once, so a batch reads each player's family without a query."""

    def __init__(self) -> None:
        self.rows = list(PlayerMerge.objects.values_list("merged_id", "kept_id", "at"))

    def _in(self, as_of: datetime.datetime | None) -> list[tuple[int, int]]:
        return [(m, k) for m, k, at in self.rows if as_of is None or at <= as_of]

    def family(self, player_id: int, as_of: datetime.datetime | None) -> list[int]:
        rows = self._in(as_of)
        kept_of = dict(rows)
        top, seen = player_id, {player_id}
        while top in kept_of and kept_of[top] not in seen:
            top = kept_of[top]
            seen.add(top)
        ids, frontier = [top], [top]
        while frontier:
            more = [m for m, k in rows if k in frontier and m not in ids]
            ids.extend(more)
            frontier = more
        return ids


def _newest_cards(rows: Iterable[PlayerCard], ids: list[int],
                  as_of: datetime.datetime | None) -> list[PlayerCard]:
    """Each card's newest record among ``ids`` as it stood at ``as_of`` (now when None)."""
    newest: dict[str, PlayerCard] = {}
    for row in sorted(rows, key=lambda r: (r.at, r.pk)):
        if row.player_id in ids and (as_of is None or row.at <= as_of):
            newest[row.card_key or row.card_name] = row
    return sorted(newest.values(), key=lambda r: r.pk)


def _past_wins(tournament: Tournament, family: dict[int, list[int]]) -> dict[int, list[PastWinRow]]:
    """6-c-iii: per entrant, the earlier editions of this event they won, with the lots
    drawn then; each earlier edition's podium is read once for the whole batch."""
    from brackets.selectors.rounds import lots_of, podium

    player_ids = {pid for ids in family.values() for pid in ids}
    event = ea.event_key(tournament)
    rows = (Entrant.objects.filter(player_id__in=player_ids, tournament__preset=tournament.preset)
            .exclude(tournament=tournament).select_related("tournament"))
    champions: dict[int, str] = {}
    out: dict[int, list[PastWinRow]] = {eid: [] for eid in family}
    for row in rows.order_by("tournament__date", "id"):
        t = row.tournament
        if not _before(t, tournament) or ea.event_key(t) != event:
            continue
        if t.pk not in champions:
            champions[t.pk] = next((p.player for p in podium(t) if p.champion), "")
        if champions[t.pk] != ea.player_key(row.pk):
            continue
        lots = lots_of(t, [row.pk]).get(row.pk)
        for eid, ids in family.items():
            if row.player_id in ids:
                out[eid].append(PastWinRow(t, row, lots))
    return out


def _before(t: Tournament, now: Tournament) -> bool:
    if t.date and now.date:
        return t.date < now.date
    return t.pk < now.pk


def _in_force(achievements: list[Achievement], ids: Iterable[int],
              ended: dict[int, datetime.datetime], as_of: datetime.datetime | None,
              ) -> list[Achievement]:
    """The achievements of these records in force at ``as_of`` (now when None): recorded by
    then, not withdrawn or corrected by then (``ended``: when each was), each fact once, as
    ``adapters.players.live_achievements`` reads the record now."""
    ids = set(ids)
    mine = [a for a in achievements if a.player_id in ids
            and (as_of is None or a.at <= as_of)
            and (a.pk not in ended or (as_of is not None and ended[a.pk] > as_of))]
    keep = {f.key for f in distinct_facts(ad.achievement_of(a) for a in mine)}
    return [a for a in mine if ad.achievement_key(a) in keep]


def _gives(achievements: list[Achievement], cards: list[PlayerCard],
           past: list[PastWinRow]) -> tuple[RecordGives, ShuraGrounds]:
    grounds = shura_grounds([ad.achievement_of(a) for a in achievements])
    highest: CardRecord | None = highest_card([ad.card_of(c) for c in cards])
    l_past = past_win_total([ad.past_win_of(p.lots) for p in past])
    return RecordGives(grounds=grounds, highest=highest, past_win_lots=l_past), grounds


def in_force_for(*, tournament: Tournament, entrants: Iterable[Entrant],
                 past_wins: bool = True) -> dict[int, InForce]:
    """Every entrant's duties in force (see the module), in a fixed number of queries plus
    one podium per earlier edition of the event. ``past_wins`` False skips 6-c-iii's L_past
    (the restrictions of a match do not read it), keeping match pages light."""
    entrants = list(entrants)
    out = {e.pk: InForce(e, entered_of(e), entered_of(e)) for e in entrants}
    # An entrant not saved yet (the desk's preview of a returning player) has no lots,
    # overrides or freeze: only the record is read.
    linked = [e for e in entrants if e.player_id]
    if not weighs_record(tournament):
        return out
    # The event's composed 修羅 (what each ground owes, 修羅の道, past champions' format
    # lots) weighs every duty read here, the typed ones of an unlinked entrant too.
    rules = ea.preset_for(tournament).shura_rules
    for item in out.values():
        item.duties = duties_in_force(item.entered, None, rules=rules)
    if not linked:
        return out
    merges = _Merges()
    frozen = _frozen_moments(tournament, [e.pk for e in linked if e.pk is not None])
    family_now = {e.pk: merges.family(e.player_id, None) for e in linked}
    family_then = {e.pk: merges.family(e.player_id, frozen[e.pk]) if e.pk in frozen
                   else family_now[e.pk] for e in linked}
    every = {pid for ids in family_now.values() for pid in ids}
    achievements = list(Achievement.objects.filter(player_id__in=every).order_by("at", "id"))
    ended = dict(AchievementCorrection.objects.filter(achievement__player_id__in=every)
                 .values_list("achievement_id", "at"))
    cards = list(PlayerCard.objects.filter(player_id__in=every))
    overrides: dict[int, dict[str, DutyOverride]] = {}
    for row in (DutyOverride.objects.filter(entrant_id__in=[e.pk for e in linked if e.pk])
                .select_related("by").order_by("id")):
        overrides.setdefault(row.entrant_id, {})[row.ground] = row
    wins = _past_wins(tournament, family_now) if past_wins else {}
    for e in linked:
        as_of = frozen.get(e.pk)
        ids = family_then[e.pk]
        mine = _in_force(achievements, ids, ended, as_of)
        own_cards = _newest_cards(cards, ids, as_of)
        past = wins.get(e.pk, [])
        gives, _grounds = _gives(mine, own_cards, past)
        ov = {g: r for g, r in overrides.get(e.pk, {}).items() if as_of is None or r.at <= as_of}
        values = {g: r.value for g, r in ov.items()}
        item = out[e.pk]
        item.gives, item.overrides, item.past_wins, item.cards = gives, ov, past, own_cards
        item.achievements = {ad.achievement_key(a): a for a in mine}
        item.duties = duties_in_force(item.entered, gives, values, rules=rules)
        if as_of is not None:
            item.frozen_at = as_of
            ids_now = family_now[e.pk]
            live_now = _in_force(achievements, ids_now, ended, None)
            now_gives, _g = _gives(live_now,
                                   _newest_cards(cards, ids_now, None), past)
            now = duties_in_force(item.entered, now_gives,
                                  {g: r.value for g, r in overrides.get(e.pk, {}).items()},
                                  rules=rules)
            item.later = now if now != item.duties else None
            item.recorded_later = [a for a in live_now if a.at > as_of]
    return out


def in_force_of(entrant: Entrant, *, past_wins: bool = True) -> InForce:
    """One entrant's duties in force (see :func:`in_force_for`)."""
    return in_force_for(tournament=entrant.tournament, entrants=[entrant],
                        past_wins=past_wins)[entrant.pk]


def rules_input(entrant: Entrant, lots: dict[str, Any] | None) -> ea.EntrantRulesInput:
    """The engine's restriction input for one entrant, from their duties in force."""
    return ea.rules_input_from_entrant(entrant, lots, in_force_of(entrant, past_wins=False).duties)


def duties_by_id(tournament: Tournament, entrant_ids: Iterable[int], *,
                 entrants: dict[int, Entrant] | None = None) -> dict[int, DeskDuties]:
    """The duties in force by entrant id, for the restrictions of a match (no L_past);
    empty where the preset weighs no record, so such events read what the desk typed."""
    ids = sorted(set(entrant_ids))
    if not ids or not weighs_record(tournament):
        return {}
    rows = entrants if entrants is not None else Entrant.objects.in_bulk(ids)
    found = in_force_for(tournament=tournament, entrants=[rows[i] for i in ids if i in rows],
                         past_wins=False)
    return {eid: item.duties for eid, item in found.items()}
