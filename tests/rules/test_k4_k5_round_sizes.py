"""K4 and K5: round 1's wildcards fill round 2 to its size, seeds join in round 2, and a
field too large for the later rounds is refused when the rounds are planned."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Round, Tournament
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.helpers import add_entrants

pytestmark = pytest.mark.django_db


@pytest.mark.django_db
def test_a_field_too_large_for_round_two_is_refused_before_round_one(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """66 round-1 players and 7 seeds would make round 2 41 and round 3 22 (K6 has room for
    20): refused when the rounds are planned, with the most round 1 can take."""
    tournament.preset = "kyushu-cup-ix"
    tournament.capacity = 80  # the organiser raised the desk's limit
    tournament.save()
    add_entrants(tournament, 73, seeds=7)
    with pytest.raises(svc.RoundError) as info:
        svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    message = info.value.message
    assert "1回戦66人・シード7人では2回戦が41人になり、定員40人を超えます" in message
    assert "64人まで" in message
    assert not Round.objects.filter(tournament=tournament).exists()


def test_public_round_explains_the_wc_mark(tournament: Tournament,
                                           cast: dict[str, Any]) -> None:
    """Round 1's public page marked K4's three wildcards 「WC」 with nothing on the page
    saying what WC means (the bracket page had a legend, the round page none)."""
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, cast["organiser"], upto=1)
    html = client_for(None).get(f"/p/{tournament.slug}/r/1/").content.decode()
    assert html.count('<span class="wildcard-mark">WC</span>') == 3 + 1  # 3 rows + legend
    assert '<span class="wildcard-mark">WC</span> = 追加勝ち抜け（惜敗率）' in html
    html = client_for(None).get(f"/p/{tournament.slug}/r/2/").content.decode()
    assert "= 追加勝ち抜け（惜敗率）" not in html  # round 2: no wildcards, no legend
