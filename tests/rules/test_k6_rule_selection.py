"""K6: round 3's rule selection (A 12 / B 8), its processing order and a rule left too small
to make groups."""

from __future__ import annotations

import random
from typing import Any

import pytest

from brackets.models import Entrant, Group, Round, Tournament
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.helpers import add_entrants, play_round

pytestmark = pytest.mark.django_db


def test_rule_assignment_shows_what_made_the_order(tournament: Tournament,
                                                   cast: dict[str, Any]) -> None:
    """Round 3's assignment table listed 処理順 1–20 with no reason: staff checking a
    complaint could not see that winners come by score and runners-up by 惜敗率, nor how
    full each rule was. Each row now shows the round-2 group, place and score/惜敗率, with
    the rule and each rule's count against its capacity."""
    from tests.printing.world import build_kyushu

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=2)
    html = client_for(user).get(f"/t/{tournament.slug}/rounds/3/special/").content.decode()
    assert "処理順は2回戦の各組1位を得点順、続いて2位を惜敗率順" in html
    assert "ルールA：12名（定員12）" in html and "ルールB：8名（定員8）" in html
    table = html[html.index('id="assignment"'):]
    table = table[:table.index("</table>")]
    rows = table.split("<tr")[2:]
    assert len(rows) == 20
    assert all("1位 · 得点" in r for r in rows[:10])  # 10 group winners first, by score
    assert all("2位 · 惜敗率" in r for r in rows[10:])


@pytest.mark.django_db
def test_a_rule_left_with_five_players_says_to_change_a_form(tournament: Tournament,
                                                             cast: dict[str, Any]) -> None:
    """K6 with fewer than 20 players (three withdrew after round 2): everyone wants A, A
    takes its 12 and B is left with 5, which no groups of 3–4 make. Found by the sweep:
    the refusal only said 「5人では2組を作れません」, not which rule nor what to change."""
    user = cast["organiser"]
    rng = random.Random(8)
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    add_entrants(tournament, 64)
    r1, r2, r3, *_rest = svc.rounds_configure(tournament=tournament, by=user)
    for rnd in (r1, r2):
        svc.round_draw(round=rnd, by=user)
        play_round(rnd, user, rng)
        svc.round_advance(round=rnd, by=user)
    players = svc.round_players(Round.objects.get(id=r3.id))[0]
    assert len(players) == 20
    for gone in players[:3]:
        svc.withdrawal_record(tournament=tournament, entrant=Entrant.objects.get(id=gone),
                              by=user, reason="棄権")
    for p in players[3:]:
        svc.rule_choice_record(round=r3, entrant=Entrant.objects.get(id=p), rule="A", by=user)
    with pytest.raises(svc.RoundError) as info:
        svc.round_draw(round=Round.objects.get(id=r3.id), by=user)
    assert "ルールBは5人になり、組を作れません" in info.value.message
    assert "1・2・5人では組めません" in info.value.message
    assert "ルール選択用紙の記録を変更" in info.value.message
    assert not Group.objects.filter(round=r3).exists()
    # A 12 + B 5 cannot be drawn; with six forms changed to B it is A 11 + B 6 (three
    # groups, two groups of 3), and the draw goes ahead.
    for p in players[3:9]:
        svc.rule_choice_record(round=r3, entrant=Entrant.objects.get(id=p), rule="B", by=user)
    svc.round_draw(round=Round.objects.get(id=r3.id), by=user)
    assert Group.objects.filter(round=r3, rule="B").count() == 2
