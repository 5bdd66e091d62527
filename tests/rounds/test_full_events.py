"""Whole tournaments through the services, from the desk to the champion (K1–K10, H1–H9),
asserting the advancers of every round against an independent reading of the facts, and
the replay of the same events from a file giving the same result."""

from __future__ import annotations

import io
import json
import random
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command

from brackets import engine_adapter as ea
from brackets.models import Entrant, Group, ResultFact, Round, Seat, SelectionFact, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from brackets.services.replay import tournament_play_export, tournament_replay, tournament_summary
from tests.floor.helpers import draw_released
from tests.rounds.helpers import add_entrants, play_group, play_round


def scores_of(rnd: Round) -> dict[str, list[tuple[int, Decimal]]]:
    """label → [(entrant id, score)] for real players, read straight from the facts."""
    out: dict[str, list[tuple[int, Decimal]]] = {}
    for g in Group.objects.filter(round=rnd):
        rows = []
        for seat in Seat.objects.filter(group=g, entrant__isnull=False):
            fact = ResultFact.objects.filter(seat=seat).order_by("-id").first()
            if fact is not None:
                rows.append((seat.entrant_id, fact.score))
        out[g.label] = sorted(rows, key=lambda r: -r[1])
    return out


def expected_top(rnd: Round, k: int, rule: str | None = None) -> set[int]:
    labels = {g.label for g in Group.objects.filter(round=rnd)
              if rule is None or g.rule == rule}
    return {eid for label, rows in scores_of(rnd).items() if label in labels
            for eid, _s in rows[:k]}


def expected_wildcards(rnd: Round, k: int, count: int) -> set[int]:
    """K3/K4 by hand: score ÷ group winner's score, best non-advancers first."""
    rest = []
    for rows in scores_of(rnd).values():
        top = rows[0][1]
        rest += [(s / top, s, eid) for eid, s in rows[k:]]
    rest.sort(key=lambda r: (-r[0], -r[1]))
    return {eid for _r, _s, eid in rest[:count]}


def run_kyushu(tournament: Tournament, user: Any, rng: random.Random) -> dict[str, Any]:
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    entrants = add_entrants(tournament, 65, seeds=7)
    seeds = {e.id for e in entrants if e.seed}
    # Two entrants never checked in: left out of round 1 (they are extra to the 58).
    extra = add_entrants(tournament, 2, prefix="X", checked_in=False)
    rounds = svc.rounds_configure(tournament=tournament, by=user)
    assert [r.name for r in rounds] == ["1回戦", "2回戦", "3回戦", "4回戦", "準決勝",
                                        "3位決定戦", "決勝"]
    r1, r2, r3, r4, sf, third, final = rounds

    draw_released(r1, user)
    r1_players = set(Seat.objects.filter(group__round=r1, entrant__isnull=False)
                     .values_list("entrant_id", flat=True))
    assert len(r1_players) == 58 and not (r1_players & seeds)
    assert not (r1_players & {e.id for e in extra})
    groups = list(Group.objects.filter(round=r1))
    assert len(groups) == 15
    assert sum(1 for g in groups if Seat.objects.filter(group=g, entrant__isnull=True)
               .exists()) == 2
    play_round(r1, user, rng)
    adv1 = svc.round_advance(round=r1, by=user)
    assert len(adv1) == 33  # 30 group tops + 3 wildcards; the 7 seeds make 40 (K4)
    assert set(adv1) == expected_top(r1, 2) | expected_wildcards(r1, 2, 3)

    draw_released(r2, user)
    r2_groups = list(Group.objects.filter(round=r2))
    assert len(r2_groups) == 10
    for g in r2_groups:  # K5: seeds never share a group
        assert Seat.objects.filter(group=g, entrant__seed__isnull=False).count() <= 1
    assert set(Seat.objects.filter(group__round=r2, entrant__isnull=False)
               .values_list("entrant_id", flat=True)) == set(adv1) | seeds
    play_round(r2, user, rng)
    adv2 = svc.round_advance(round=r2, by=user)
    assert len(adv2) == 20 and set(adv2) == expected_top(r2, 2)

    wishes = {}
    for p in adv2:
        wishes[p] = rng.choice("AB")
        svc.rule_choice_record(round=r3, entrant=Entrant.objects.get(id=p), rule=wishes[p],
                               by=user)
    assignment = svc.rule_assignment_preview(r3)
    assert len(assignment.players_of("A")) == 12 and len(assignment.players_of("B")) == 8
    for choice in assignment.choices:  # K6: a wish is honoured while its rule has room
        taken = [c for c in assignment.choices if c.position < choice.position
                 and c.assigned == choice.wished]
        cap = 12 if choice.wished == "A" else 8
        assert (choice.assigned == choice.wished) == (len(taken) < cap)
    draw_released(r3, user)
    assert Group.objects.filter(round=r3, rule="A").count() == 3
    assert Group.objects.filter(round=r3, rule="B").count() == 2
    play_round(r3, user, rng)
    adv3 = svc.round_advance(round=r3, by=user)
    assert set(adv3) == expected_top(r3, 2, "A") | expected_top(r3, 1, "B")
    assert len(adv3) == 8

    draw_released(r4, user)
    for i, g in enumerate(Group.objects.filter(round=r4).order_by("number")):
        if i == 0:
            svc.card_draw(group=g, by=user)
        else:
            svc.card_draw(group=g, by=user, cards=[("芸能", "セレクト"), ("社会", "パネル")])
    play_round(r4, user, rng)
    for g in Group.objects.filter(round=r4):  # K7: only what the cards allow
        cards = sel.match_context(sel.group_view(g))["cards"].data["cards"]
        catalog = ea.catalog_for(tournament.version_id)
        for fact in SelectionFact.objects.filter(group=g):
            assert fact.genre in {c[0] for c in cards} or fact.genre == "ノンジャンル"
            assert catalog.group_of(fact.format) in {c[1] for c in cards} | {"ランダム"}
    adv4 = svc.round_advance(round=r4, by=user)
    assert len(adv4) == 4 and set(adv4) == expected_top(r4, 2)

    draw_released(sf, user)
    g = Group.objects.get(round=sf)
    for seat in Seat.objects.filter(group=g, entrant__isnull=False):
        svc.ban_record(group=g, entrant=seat.entrant, genre="芸能", by=user)
    svc.ban_reveal(group=g, by=user)
    play_round(sf, user, rng)
    assert not SelectionFact.objects.filter(group=g, genre="芸能").exists()  # K8
    adv_sf = svc.round_advance(round=sf, by=user)
    order_sf = [eid for eid, _s in scores_of(sf)["A"]]
    assert adv_sf == order_sf[:2]

    others = [e for e in entrants if e.id not in order_sf]
    for contender, partner in zip(order_sf[2:], others[:2]):
        svc.partner_record(round=third, contender=Entrant.objects.get(id=contender),
                           partner=partner, by=user)
    draw_released(third, user)
    tg = Group.objects.get(round=third)
    assert {Seat.objects.get(group=tg, number=n).entrant_id for n in (1, 4)} == set(order_sf[2:])
    play_round(third, user, rng)
    third_winner = svc.round_advance(round=third, by=user)
    contenders = {eid: s for eid, s in scores_of(third)["3位決定戦"] if eid in order_sf[2:]}
    assert third_winner == [max(contenders, key=lambda e: contenders[e])]  # K9

    for contender, partner in zip(order_sf[:2], others[2:4]):
        svc.partner_record(round=final, contender=Entrant.objects.get(id=contender),
                           partner=partner, by=user)
    dice = svc.dice_record(round=final, players=(order_sf[0], order_sf[1]), by=user)
    loser = [p for p in order_sf[:2] if ea.player_key(p) != dice.data["winner"]][0]
    svc.final_setup_record(round=final, by=user, winner_decides="question_order", first=loser,
                           question_order="alternating")
    draw_released(final, user)
    assert Seat.objects.get(group__round=final, group__game=1, number=1).entrant_id == loser
    svc.round_start(round=final, by=user)
    wins: dict[int, int] = {}
    for game in Group.objects.filter(round=final).order_by("game"):
        if max(wins.values(), default=0) == 2:
            break
        play_group(game, user, rng)
        a = Seat.objects.get(group=game, number=1).entrant_id
        b = Seat.objects.get(group=game, number=4).entrant_id
        sc = dict(scores_of(final)[game.label])
        winner = a if sc[a] > sc[b] else b
        wins[winner] = wins.get(winner, 0) + 1
    svc.round_close(round=final, by=user)
    statuses = [g.status for g in sel.round_view(final).groups]
    played = sum(wins.values())
    assert statuses[:played] == [sel.DONE] * played
    assert statuses[played:] == [sel.UNUSED] * (3 - played)  # a 2–0 series skips game 3
    champion = svc.round_advance(round=final, by=user)
    assert champion == [max(wins, key=lambda p: wins[p])] and max(wins.values()) == 2
    return {"champion": champion}


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [9, 11])
def test_kyushu_cup_ix_from_desk_to_champion(seed: int, tournament: Tournament,
                                             cast: dict[str, Any]) -> None:
    run_kyushu(tournament, cast["organiser"], random.Random(seed))


def run_katata(tournament: Tournament, user: Any, rng: random.Random) -> None:
    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    q = [95, 85, 82, 70, 65, 60, 55, 45, 40, 33, 30, 20, 10]
    entrants = add_entrants(tournament, 13, q_levels=q)
    # 修羅: a national title holder + a Shiga winner (2 lots), a volunteer with 1 extra (2).
    Entrant.objects.filter(id=entrants[0].id).update(shura_titles=1, shura_local_wins=1)
    Entrant.objects.filter(id=entrants[4].id).update(shura_voluntary=True, shura_extra_lots=1)
    Entrant.objects.filter(id=entrants[8].id).update(opt_up="bomber")
    rounds = svc.rounds_configure(tournament=tournament, by=user)
    assert [r.name for r in rounds] == ["1回戦", "準決勝", "決勝"]
    lots0 = svc.shura_lots_draw(tournament=tournament, entrant=Entrant.objects.get(
        id=entrants[0].id), by=user)
    assert len(lots0.data["genres"]) == 2
    svc.shura_lots_draw(tournament=tournament, entrant=Entrant.objects.get(id=entrants[4].id),
                        by=user, genres=["スポーツ", "社会"])
    with pytest.raises(svc.RoundError):  # not a 修羅 player
        svc.shura_lots_draw(tournament=tournament, entrant=entrants[5], by=user)
    r1, semi, final = rounds
    draw_released(r1, user)
    groups = list(Group.objects.filter(round=r1))
    assert len(groups) == 4 and Seat.objects.filter(group__round=r1,
                                                     entrant__isnull=True).count() == 3
    play_round(r1, user, rng)
    adv1 = svc.round_advance(round=r1, by=user)
    assert len(adv1) == 8 and set(adv1) == expected_top(r1, 2)
    draw_released(semi, user)
    play_round(semi, user, rng)
    adv2 = svc.round_advance(round=semi, by=user)
    assert len(adv2) == 4 and set(adv2) == expected_top(semi, 2)
    draw_released(final, user)
    play_round(final, user, rng)
    champion = svc.round_advance(round=final, by=user)
    order = [eid for eid, _s in scores_of(final)["A"]]
    assert champion == order[:1]
    # H4: a 修羅 player never played a genre drawn by lot; BOMBER never reused a genre.
    for entrant_id in (entrants[0].id, entrants[4].id):
        banned = set(sel.lots_of(tournament, [entrant_id])[entrant_id]["genres"])
        played = set(SelectionFact.objects.filter(seat__entrant_id=entrant_id)
                     .values_list("genre", flat=True))
        assert not (banned & played)
    for entrant_id in (entrants[0].id, entrants[1].id, entrants[8].id):
        genres = list(SelectionFact.objects.filter(seat__entrant_id=entrant_id)
                      .values_list("genre", flat=True))
        assert len(genres) == len(set(genres))


@pytest.mark.django_db
def test_katata_from_desk_to_champion(tournament: Tournament, cast: dict[str, Any]) -> None:
    run_katata(tournament, cast["organiser"], random.Random(3))


@pytest.mark.django_db
@pytest.mark.parametrize("runner", [run_kyushu, run_katata])
def test_replay_matches_the_services_run(runner: Any, tournament: Tournament,
                                         cast: dict[str, Any], tmp_path: Any) -> None:
    runner(tournament, cast["organiser"], random.Random(5))
    expected = tournament_summary(tournament)
    data = tournament_play_export(tournament)
    replayed = tournament_replay(data=data, slug="replayed")
    assert tournament_summary(replayed) == expected
    path = tmp_path / "event.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    assert json.loads(out.getvalue()) == expected
