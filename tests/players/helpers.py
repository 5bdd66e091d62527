"""Registry states built through the services, as the desk builds them."""

from __future__ import annotations

import datetime
import random
from typing import Any

from brackets.models import Entrant, Player, QmaVersion, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from brackets.services.entrants import entrant_check_in
from brackets.services.players import achievement_add, entrant_register_linked, player_create
from tests.floor.helpers import draw_released
from tests.rounds.helpers import play_round
from tests.states import KATATA, KATATA_Q_LEVELS


def katata(slug: str, day: datetime.date, version: QmaVersion, cast: dict[str, Any]
           ) -> Tournament:
    """Another 堅田 qualifier, staffed by the same cast."""
    from brackets.models import Membership, Role

    t = Tournament.objects.create(slug=slug, name=f"堅田大会 {day:%m/%d}", date=day,
                                  version=version, preset=KATATA, lottery_seed=f"seed-{slug}")
    for role, user in ((Role.ORGANISER, "organiser"), (Role.DESK, "desk"),
                       (Role.BRACKET, "bracket")):
        Membership.objects.create(tournament=t, user=cast[user], role=role)
    return t


def register(tournament: Tournament, user: Any, *, name: str, card: str, q: int,
             player: Player | None = None, **extra: Any) -> Entrant:
    data = {"name": name, "reading": "", "card_name": card, "q_level": q, **extra}
    entrant = entrant_register_linked(tournament=tournament, by=user, data=data,
                                      player_id=player.pk if player else None)
    entrant_check_in(tournament=tournament, entrant_id=entrant.pk, by=user)
    return entrant


def title(player: Player, user: Any, version: str = "tg", **extra: Any) -> None:
    data = {"kind": "national_title", "title": "賢帝", "game_version": version,
            "held_on": datetime.date(2016, 3, 1), "source": "QMA公式 全国大会結果", **extra}
    achievement_add(player=player, data=data, by=user)


def katata_won_with_four_lots(tournament: Tournament, cast: dict[str, Any]) -> Entrant:
    """A 堅田 qualifier played to the end in which every player walked 修羅の道 with three
    extra lots (4 genre lots each, drawn by the app before round 1); returns the champion."""
    for i, q in enumerate(KATATA_Q_LEVELS):
        player = player_create(name=f"選手{tournament.slug}{i}", reading="", card_name=f"K{i:03d}",
                               q_level=q, by=cast["desk"])
        register(tournament, cast["desk"], name=player.name, card=f"K{i:03d}", q=q,
                 player=player, shura_voluntary=True, shura_extra_lots=3)
    rounds = svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    for entrant in Entrant.objects.filter(tournament=tournament).order_by("id"):
        svc.shura_lots_draw(tournament=tournament, entrant=entrant, by=cast["desk"])
    rng = random.Random(3)
    for rnd in rounds[:-1]:
        draw_released(rnd, cast["organiser"])
        play_round(rnd, cast["bracket"], rng)
        svc.round_advance(round=rnd, by=cast["organiser"])
    draw_released(rounds[-1], cast["organiser"])
    play_round(rounds[-1], cast["bracket"], rng)
    champion = next(r for r in sel.podium(tournament) if r.champion)
    return Entrant.objects.get(pk=int(champion.player))
