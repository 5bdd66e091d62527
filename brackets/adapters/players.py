"""Registry rows → the engine's record values (``brackets.engine`` record.py and shura.py).

The one place a card, an achievement or a past win becomes engine input, so the desk, the
修羅 page and the services all ask the engine the same question.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from brackets.engine import Achievement, CardRecord, PastWin, QualifierAppearance, distinct_facts
from brackets.models import Achievement as AchievementRow
from brackets.models import Player, PlayerCard, PlayerMerge


def achievement_key(row: AchievementRow) -> str:
    return f"a{row.pk}" if row.pk else "new"


def achievement_of(row: AchievementRow) -> Achievement:
    """One hand-entered achievement as the engine weighs it."""
    return Achievement(
        key=achievement_key(row), kind=row.kind, version=row.game_version,
        held_on=row.held_on.isoformat() if row.held_on else "",
        source=row.source or "", limited=row.limited or "", title=row.title or "")


def live_achievements(ids: Iterable[int]) -> list[AchievementRow]:
    """The hand-entered achievements in force of these records (one player and the records
    merged into them): not withdrawn, not corrected, and each fact once (the first recorded
    stands for a fact both merged records held). Every rule and page reads these."""
    rows = list(AchievementRow.objects.filter(player_id__in=list(ids), correction__isnull=True)
                .select_related("by").order_by("at", "id"))
    keep = {a.key for a in distinct_facts(achievement_of(r) for r in rows)}
    return sorted((r for r in rows if achievement_key(r) in keep),
                  key=lambda r: (r.held_on, r.pk))


def card_of(row: PlayerCard) -> CardRecord:
    return CardRecord(row.card_name, row.q_level)


def past_win_of(lots: Mapping[str, Any] | None) -> PastWin:
    """A past win of this event from the lots recorded at it (0 lots when none drawn)."""
    lots = lots or {}
    return PastWin(len(lots.get("genres", ())), len(lots.get("formats", ())))


def appearance_of(tournament: Any, card_name: str) -> QualifierAppearance:
    held_on = tournament.date.isoformat() if tournament.date else ""
    return QualifierAppearance(tournament.name, held_on, card_name)


def canonical(player: Player) -> Player:
    """The player a merged duplicate is read as (itself when never merged)."""
    seen = {player.pk}
    merge = PlayerMerge.objects.filter(merged=player).select_related("kept").first()
    while merge is not None and merge.kept_id not in seen:
        player = merge.kept
        seen.add(player.pk)
        merge = PlayerMerge.objects.filter(merged=player).select_related("kept").first()
    return player


def family_ids(player: Player) -> list[int]:
    """The player and every record merged into it (directly or through another merge)."""
    ids = [player.pk]
    frontier = [player.pk]
    while frontier:
        more = list(PlayerMerge.objects.filter(kept_id__in=frontier)
                    .values_list("merged_id", flat=True))
        more = [i for i in more if i not in ids]
        ids.extend(more)
        frontier = more
    return ids


def current_cards(ids: Iterable[int]) -> list[PlayerCard]:
    """Each card's newest record (a superseded row is history, not a card).

    Two records merged into one person may each hold a current row of the same card (a
    player recorded at a venue and again here, #14 item 5): the one entered last, by its
    time stamp, is the card, as a superseding row would be.
    """
    rows = PlayerCard.objects.filter(player_id__in=list(ids), superseded_by__isnull=True)
    newest: dict[str, PlayerCard] = {}
    for row in rows.order_by("at", "id"):
        newest[row.card_key or row.card_name] = row
    return sorted(newest.values(), key=lambda row: row.pk)
