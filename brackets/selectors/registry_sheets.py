"""The registry as rows for its tables (brackets/tables_players.py): on the registry page
and in its Excel export (#14 item 6), one read for both so they cannot disagree.

A merged duplicate is not a player of its own: its cards and achievements are listed
under the player it was merged into (``brackets.adapters.players.canonical``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from brackets.adapters import players as ad
from brackets.engine import CardRecord, highest_card
from brackets.models import Achievement, Player, PlayerCard, PlayerMerge


@dataclass
class RegistrySheets:
    players: list[dict[str, Any]]
    cards: list[dict[str, Any]]
    achievements: list[dict[str, Any]]


def _kept_of() -> dict[int, int]:
    """Every merged player → the player it is read as (following merges of merges)."""
    direct = dict(PlayerMerge.objects.values_list("merged_id", "kept_id"))
    out = {}
    for merged, first in direct.items():
        seen, kept = {merged}, first
        while kept in direct and direct[kept] not in seen:
            seen.add(kept)
            kept = direct[kept]
        out[merged] = kept
    return out


def _when(at: Any) -> str:
    """Local time as text: Excel keeps no time zone, and the screen shows the venue's."""
    return timezone.localtime(at).strftime("%Y-%m-%d %H:%M") if at else ""


def _state(a: Achievement, live: set[int]) -> str:
    correction = getattr(a, "correction", None)
    if correction is not None:
        return str(_("取り下げ") if correction.withdrawn else _("訂正済み"))
    return str(_("記録中") if a.pk in live else _("重複（統合した記録）"))


def registry_rows(*, players: list[Player] | None = None) -> RegistrySheets:
    """Players (or the given ones) with their cards, current and superseded, and their
    achievements; who entered each fact and when."""
    kept_of = _kept_of()
    chosen = players if players is not None else list(
        Player.objects.filter(merge__isnull=True).order_by("reading", "id"))
    by_id = {p.pk: p for p in chosen}
    family = {pid: kept_of.get(pid, pid) for pid in
              list(by_id) + [m for m, k in kept_of.items() if k in by_id]}
    cards = list(PlayerCard.objects.filter(player_id__in=list(family))
                 .select_related("by", "superseded_by").order_by("player_id", "card_key", "id"))
    achievements = list(Achievement.objects.filter(player_id__in=list(family))
                        .select_related("by", "correction").order_by("held_on", "id"))
    # In force: not withdrawn or corrected, each fact once (ad.live_achievements); the rest
    # stay on the sheet as history, with the state that says why they do not count.
    live = {a.pk for a in ad.live_achievements(list(family))}
    card_rows = [{
        "player_id": family[c.player_id], "player": by_id[family[c.player_id]].name,
        "card_name": c.card_name, "q_level": c.q_level, "rank": c.rank,
        "game_version": c.get_game_version_display(),
        "current": not hasattr(c, "superseded_by"),
        "by": c.by.get_username() if c.by else "", "at": _when(c.at)} for c in cards]
    current: dict[int, list[dict[str, Any]]] = {}
    for row in card_rows:
        if row["current"]:
            current.setdefault(row["player_id"], []).append(row)
    counts: dict[int, int] = {}
    for a in achievements:
        if a.pk in live:
            counts[family[a.player_id]] = counts.get(family[a.player_id], 0) + 1
    player_rows = []
    for p in chosen:
        mine = current.get(p.pk, [])
        top = highest_card([CardRecord(r["card_name"], r["q_level"]) for r in mine])
        player_rows.append({
            "id": p.pk, "name": p.name, "reading": p.reading,
            "cards": "・".join(r["card_name"] for r in mine),
            "highest_q": top.q_level if top else None, "achievements": counts.get(p.pk, 0),
            "merged": sum(1 for k in family.values() if k == p.pk) - 1})
    achievement_rows = [{
        "player_id": family[a.player_id], "player": by_id[family[a.player_id]].name,
        "kind": a.get_kind_display(), "title": a.title,
        "game_version": a.get_game_version_display(), "held_on": a.held_on,
        "source": a.source, "limited": a.get_limited_display() if a.limited else "",
        "by": a.by.get_username() if a.by else "", "at": _when(a.at),
        "state": _state(a, live)} for a in achievements]
    return RegistrySheets(player_rows, card_rows, achievement_rows)
