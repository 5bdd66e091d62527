"""Series states built through the services: 堅田 qualifiers played to the end, as the desk
and bracket staff would play them."""

from __future__ import annotations

import datetime
import random
from typing import Any

from brackets.hosted.receive import tournament_replace_delete
from brackets.models import (
    Achievement,
    AchievementCorrection,
    BerthWithdrawal,
    Entrant,
    EntrantPlayerChange,
    Player,
    PlayerCard,
    PlayerLink,
    PlayerMerge,
    PlayerRename,
    QmaVersion,
    Series,
    SeriesBerthGrant,
    Tournament,
)
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from brackets.services.players import player_create
from brackets.services.series import series_create, tournament_series_set
from tests.floor.helpers import draw_released
from tests.players.helpers import katata, register
from tests.rounds.helpers import play_round
from tests.states import KATATA_Q_LEVELS


def kansai5(cast: dict[str, Any]) -> Series:
    return series_create(name="関西杯5", slug="kansai-cup-5", game_version="we",
                         by=cast["organiser"])


def qualifier(series: Series, slug: str, day: datetime.date, version: QmaVersion,
              cast: dict[str, Any]) -> Tournament:
    """Another 堅田 qualifier of ``series``, staffed by the cast."""
    t = katata(slug, day, version, cast)
    tournament_series_set(tournament=t, series=series)
    return t


def pool(count: int = 13) -> list[Player]:
    """Registry players with one card each (C00, C01, …) across the ranks."""
    return [player_create(name=f"常連{i:02d}", reading=f"じょうれん{i:02d}",
                          card_name=f"C{i:02d}", q_level=KATATA_Q_LEVELS[i % 13], by=None)
            for i in range(count)]


def play(tournament: Tournament, players: list[Player], cast: dict[str, Any],
         seed: int = 5) -> Player:
    """The players registered with their first card, every round played and advanced:
    the tournament ends 終了 with its podium; returns the champion."""
    for p in players:
        card = p.cards.order_by("id").first()
        register(tournament, cast["desk"], name=p.name, card=card.card_name,  # type: ignore[union-attr]
                 q=card.q_level, player=p)  # type: ignore[union-attr]
    rounds = svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    rng = random.Random(seed)
    for rnd in rounds:
        draw_released(rnd, cast["organiser"])
        play_round(rnd, cast["bracket"], rng)
        svc.round_advance(round=rnd, by=cast["organiser"])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    champion = next(r for r in sel.podium(tournament) if r.champion)
    entrant = Entrant.objects.get(pk=int(champion.player))
    assert entrant.player is not None
    return entrant.player


def forget_everything() -> None:
    """This database as a series server that never saw the series, its tournaments or
    their players (the accounts stay: the importer re-creates missing ones anyway)."""
    PlayerLink.objects.all().delete()
    for grant in SeriesBerthGrant.objects.order_by("-pk"):  # the latest follows the others
        BerthWithdrawal.objects.filter(grant=grant).delete()
        grant.delete()
    Series.objects.all().delete()
    EntrantPlayerChange.objects.all().delete()
    for t in Tournament.objects.all():
        tournament_replace_delete(t)
    PlayerMerge.objects.all().delete()
    PlayerRename.objects.all().delete()
    AchievementCorrection.objects.all().delete()
    Achievement.objects.all().delete()
    for card in PlayerCard.objects.order_by("-id"):
        card.delete()
    Player.objects.all().delete()
