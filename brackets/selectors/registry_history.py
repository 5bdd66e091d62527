"""Reads of the corrections made to a player's record (#14): withdrawn and corrected
achievements, renames, entrants linked and unlinked, and the facts both merged records
held. Shown on the player's page beside what is in force; nothing here decides a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from brackets.adapters import players as ad
from brackets.engine import fact_key
from brackets.models import (
    Achievement,
    AchievementCorrection,
    Entrant,
    EntrantPlayerChange,
    PlayerRename,
    Tournament,
)


@dataclass
class History:
    """What was superseded, with who, when and why (newest first)."""

    corrections: list[AchievementCorrection]
    renames: list[PlayerRename]
    links: list[EntrantPlayerChange]
    #: Live achievement id → how many records hold that fact (2 after a merge of two).
    copies: dict[int, int] = field(default_factory=dict)


def record_history(*, ids: list[int], live: list[Achievement]) -> History:
    corrections = list(AchievementCorrection.objects.filter(achievement__player_id__in=ids)
                       .select_related("achievement", "replacement", "by").order_by("-at", "-id"))
    renames = list(PlayerRename.objects.filter(player_id__in=ids).select_related("by")
                   .order_by("-at", "-id"))
    links = list(EntrantPlayerChange.objects.filter(Q(player_id__in=ids) | Q(was_player_id__in=ids))
                 .select_related("entrant__tournament", "player", "was_player", "by")
                 .order_by("-at", "-id"))
    in_force = Achievement.objects.filter(player_id__in=ids, correction__isnull=True)
    keys: dict[tuple[str, ...], int] = {}
    for row in in_force:
        k = fact_key(ad.achievement_of(row))
        keys[k] = keys.get(k, 0) + 1
    copies = {row.pk: keys.get(fact_key(ad.achievement_of(row)), 1) for row in live}
    return History(corrections, renames, links, copies)


@dataclass
class TournamentLinks:
    """The player's entrant in this tournament (if any) and the entrants an organiser may
    link to them: those of this tournament linked to no player."""

    mine: list[Entrant]
    unlinked: list[Entrant]


def tournament_links(*, tournament: Tournament, ids: list[int]) -> TournamentLinks:
    rows = Entrant.objects.filter(tournament=tournament)
    return TournamentLinks(list(rows.filter(player_id__in=ids).order_by("id")),
                           list(rows.filter(player__isnull=True).order_by("reading", "name", "id")))
