"""The tournament's status follows round 1's draw and the final's advance, and undo puts it back."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Round, Tournament
from brackets.services import rounds as svc
from tests.printing.world import build_kyushu

pytestmark = pytest.mark.django_db


def test_tournament_status_follows_round_one_and_the_final(tournament: Tournament,
                                                           cast: dict[str, Any]) -> None:
    """The tournament stayed 「準備中」 all day: drawing round 1 did not make it 進行中 and
    deciding the final did not make it 終了 (and an undo must put it back)."""
    from brackets.models import RoundStep

    t = tournament
    user = cast["organiser"]
    assert t.status == Tournament.Status.PREPARING
    build_kyushu(t, user, count=20, seeds=4, upto=0)  # round 1 drawn, nothing played
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    r1 = Round.objects.get(tournament=t, number=1)
    draw = RoundStep.objects.get(round=r1, action="draw")
    assert draw.data["tournament_status"] == ["preparing", "running"]
    svc.round_undo(round=r1, by=user)
    t.refresh_from_db()
    assert t.status == Tournament.Status.PREPARING


def test_tournament_finishes_with_the_final_and_reopens_on_undo(tournament_finished: Tournament,
                                                                cast: dict[str, Any]) -> None:

    t = tournament_finished
    user = cast["organiser"]
    assert t.status == Tournament.Status.FINISHED
    third = Round.objects.get(tournament=t, kind="partner_match")
    assert "tournament_status" not in third.steps.get(action="advance").data  # not the last
    final = Round.objects.get(tournament=t, kind="partner_series")
    svc.round_undo(round=final, by=user)
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    undo = final.steps.filter(action="undo").latest("id")
    assert undo.data["tournament_status"] == ["finished", "running"]
    svc.round_advance(round=Round.objects.get(id=final.id), by=user)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
