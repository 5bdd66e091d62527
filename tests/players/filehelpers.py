"""A venue's tournament with registry players, its file, and a series server that never
saw them: the venue's rows are removed after the export, as if the file travelled."""

from __future__ import annotations

import datetime
import json
from typing import Any

from brackets.exporters.tournament_file import tournament_file_export
from brackets.models import (
    Achievement,
    AchievementCorrection,
    DutyOverride,
    Entrant,
    EntrantPlayerChange,
    Player,
    PlayerCard,
    PlayerLink,
    PlayerMerge,
    PlayerRename,
    Tournament,
)
from brackets.services.players import (
    achievement_add,
    player_card_record,
    player_create,
    player_merge,
)
from tests.players.helpers import register


def venue_tournament(tournament: Tournament, cast: dict[str, Any]) -> dict[str, Player]:
    """Three linked entrants: 山田 (card ヤマダ, Q raised 70 → 85 at the desk, a title),
    鈴木 (card スズキ, merged with a duplicate record holding card スズキ2), 佐藤 (サトウ)."""
    desk = cast["desk"]
    yamada = player_create(name="山田太郎", reading="やまだたろう", card_name="ヤマダ", q_level=70,
                           by=desk)
    player_card_record(player=yamada, card_name="ヤマダ", q_level=85, by=desk)
    achievement_add(player=yamada, by=desk, data={
        "kind": "national_title", "title": "賢帝", "game_version": "tg",
        "held_on": datetime.date(2016, 3, 1), "source": "QMA公式 全国大会結果"})
    suzuki = player_create(name="鈴木一郎", reading="すずきいちろう", card_name="スズキ",
                           q_level=60, by=desk)
    duplicate = player_create(name="鈴木一郎", reading="", card_name="スズキ2", q_level=40, by=desk)
    player_merge(kept=suzuki, merged=duplicate, reason="同じ人（本人に確認）", by=cast["organiser"])
    sato = player_create(name="佐藤花子", reading="さとうはなこ", card_name="サトウ", q_level=50,
                         by=desk)
    for player, card, q in ((yamada, "ヤマダ", 85), (suzuki, "スズキ", 60), (sato, "サトウ", 50)):
        register(tournament, desk, name=player.name, card=card, q=q, player=player)
    return {"yamada": yamada, "suzuki": suzuki, "sato": sato}


def travel(tournament: Tournament) -> dict[str, Any]:
    """The file, then the venue's tournament and registry gone from this database."""
    data = json.loads(tournament_file_export(tournament=tournament))
    forget(tournament)
    return data


def forget(tournament: Tournament) -> None:
    PlayerLink.objects.filter(tournament=tournament).delete()
    DutyOverride.objects.filter(entrant__tournament=tournament).delete()
    EntrantPlayerChange.objects.all().delete()
    Entrant.objects.filter(tournament=tournament).delete()
    tournament.delete()
    PlayerMerge.objects.all().delete()
    PlayerRename.objects.all().delete()
    AchievementCorrection.objects.all().delete()
    Achievement.objects.all().delete()
    for card in PlayerCard.objects.order_by("-id"):
        card.delete()
    Player.objects.all().delete()


def registry_counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Player, PlayerCard, Achievement, PlayerMerge,
                                             PlayerLink, Entrant, Tournament))
