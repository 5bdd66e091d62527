"""H8 disqualification: a disqualified player keeps a place in the final ranking."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Tournament

pytestmark = pytest.mark.django_db


def test_final_ranking_keeps_a_disqualified_player(tournament: Tournament,
                                                   cast: dict[str, Any]) -> None:
    """A player disqualified in round 1 vanished from 最終順位 (12 of 13 listed)."""
    import random

    from brackets.models import Group, Round
    from brackets.selectors.round_documents import final_ranking
    from brackets.services import rounds as svc
    from tests.rounds.helpers import add_entrants, play_group

    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    add_entrants(tournament, 13, q_levels=[40] * 13)
    user = cast["bracket"]
    svc.rounds_configure(tournament=tournament, by=user)
    rnd = Round.objects.get(tournament=tournament, number=1)
    svc.round_draw(round=rnd, by=user)
    svc.round_start(round=rnd, by=user)
    rng = random.Random(7)
    groups = list(Group.objects.filter(round=rnd).order_by("number"))
    for group in groups:
        play_group(group, user, rng)
    first = groups[0]
    seat = min(s.number for s in first.seats.all() if s.entrant_id)
    svc.disqualification_add(group=first, by=user, seat_number=seat, reason="バグ技")
    svc.round_close(round=rnd, by=user)
    svc.round_advance(round=rnd, by=user)
    rows = final_ranking(tournament)
    assert len(rows) == 13 - 8  # the 8 advancers are still playing
    assert any(r.detail.endswith("失格") for r in rows)
