"""What a sweep of random 九州杯IX runs through the services found (entrant counts 12–130,
seeds 0–8, ties, penalties, disqualifications, withdrawals): refusals that did not say
why or what to do, and a field too large for the rounds that only failed at round 3."""

from __future__ import annotations

import random
from typing import Any

import pytest

from brackets.models import Entrant, Group, Round, Seat, Tournament
from brackets.services import rounds as svc
from tests.rounds.helpers import add_entrants, play_group, play_round


@pytest.mark.django_db
def test_a_disqualified_semi_finalist_is_named_in_the_third_place_refusal(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    user = cast["organiser"]
    rng = random.Random(5)
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    add_entrants(tournament, 40)
    r1, r2, r3, r4, sf, third, final = svc.rounds_configure(tournament=tournament, by=user)
    for rnd in (r1, r2):
        svc.round_draw(round=rnd, by=user)
        play_round(rnd, user, rng)
        svc.round_advance(round=rnd, by=user)
    for p in svc.round_players(Round.objects.get(id=r3.id))[0]:
        svc.rule_choice_record(round=r3, entrant=Entrant.objects.get(id=p),
                               rule=rng.choice("AB"), by=user)
    svc.round_draw(round=r3, by=user)
    play_round(r3, user, rng)
    svc.round_advance(round=r3, by=user)
    svc.round_draw(round=r4, by=user)
    for g in Group.objects.filter(round=r4):
        svc.card_draw(group=g, by=user)
    play_round(r4, user, rng)
    svc.round_advance(round=r4, by=user)
    svc.round_draw(round=sf, by=user)
    svc.round_start(round=sf, by=user)
    g = Group.objects.select_related("round", "round__tournament").get(round=sf)
    for seat in Seat.objects.filter(group=g, entrant__isnull=False):
        svc.ban_record(group=g, entrant=seat.entrant, genre="芸能", by=user)
    svc.ban_reveal(group=g, by=user)
    play_group(g, user, rng)
    dq_seat = Seat.objects.filter(group=g, entrant__isnull=False).order_by("number").last()
    svc.disqualification_add(group=Group.objects.select_related(
        "round", "round__tournament").get(id=g.id), by=user, seat_number=dq_seat.number,
        reason="不正行為")
    svc.round_close(round=Round.objects.get(id=sf.id), by=user)
    finalists = svc.round_advance(round=Round.objects.get(id=sf.id), by=user)
    with pytest.raises(svc.RoundError) as info:
        svc.round_draw(round=Round.objects.get(id=third.id), by=user)
    message = info.value.message
    assert "3位決定戦の対戦者が揃っていません" in message and "準決勝の3・4位" in message
    assert "失格" in message and "1人" not in message.split("いるのは")[0]
    assert dq_seat.entrant.name not in message  # the disqualified player is not "there"
    assert Round.objects.get(id=third.id).status == Round.Status.CONFIGURED
    # The final does not wait for the third-place match.
    from brackets import engine_adapter as ea

    others = Entrant.objects.filter(tournament=tournament).exclude(id__in=finalists)
    for contender, partner in zip(finalists, others[:2]):
        svc.partner_record(round=final, contender=Entrant.objects.get(id=contender),
                           partner=partner, by=user)
    dice = svc.dice_record(round=final, players=(finalists[0], finalists[1]), by=user)
    loser = next(p for p in finalists if ea.player_key(p) != dice.data["winner"])
    svc.final_setup_record(round=final, by=user, winner_decides="question_order", first=loser,
                           question_order="simple")
    svc.round_draw(round=Round.objects.get(id=final.id), by=user)
    assert Seat.objects.get(group__round=final, group__game=1, number=1).entrant_id == loser


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
