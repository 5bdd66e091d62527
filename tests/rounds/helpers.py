"""Driving whole tournaments through the services, as the desk and the tablets would."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from brackets import engine_adapter as ea
from brackets.models import Entrant, Group, Round, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc


def add_entrants(tournament: Tournament, count: int, *, seeds: int = 0, prefix: str = "P",
                 q_levels: list[int] | None = None, checked_in: bool = True) -> list[Entrant]:
    """``count`` entrants; the first ``seeds`` of them are seeds 1..seeds."""
    rows = []
    for i in range(count):
        rows.append(Entrant(tournament=tournament, name=f"選手{prefix}{i + 1:04d}",
                            card_name=f"{prefix}{i + 1:04d}"[:8],
                            q_level=q_levels[i] if q_levels else 90,
                            seed=i + 1 if i < seeds else None, checked_in=checked_in))
    Entrant.objects.bulk_create(rows)
    cards = [r.card_name for r in rows]
    return list(Entrant.objects.filter(tournament=tournament, card_name__in=cards)
                .order_by("id"))


def play_group(group: Group, user: Any, rng: random.Random, *,
               record: list[dict[str, Any]] | None = None) -> None:
    """Choose the first legal set for every seat, then enter distinct random scores."""
    catalog = ea.catalog_for(group.round.tournament.version_id)
    gv = sel.group_view(group)
    for number in sorted(s.number for s in gv.seats if s.entrant_id):
        gv = sel.group_view(Group.objects.get(id=group.id))
        choices = sel.seat_choices(gv, catalog)[number].choices
        options = [o for o in choices.options() if o.legal]
        option = options[rng.randrange(len(options))]
        difficulty = catalog.difficulties[rng.randrange(len(catalog.difficulties))]
        svc.selection_save(group=group, by=user, seat_number=number, genre=option.genre,
                           format=option.format, difficulty=difficulty)
    seats = sorted(s.number for s in gv.seats)
    scores = rng.sample(range(5000, 40000), len(seats))
    ordered = sorted(zip(seats, scores), key=lambda p: -p[1])
    rows = {n: (str(Decimal(sc) / 100), place) for place, (n, sc) in enumerate(ordered, 1)}
    svc.results_save(group=group, by=user, rows=rows)


def play_round(rnd: Round, user: Any, rng: random.Random) -> None:
    svc.round_start(round=rnd, by=user)
    for group in Group.objects.filter(round=rnd).order_by("number"):
        play_group(group, user, rng)
    svc.round_close(round=rnd, by=user)
