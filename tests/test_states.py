"""Each named tournament state (tests/states.py) is what its name says.

A test that starts from a state relies on these facts; if a change to the services makes a
state mean something else, it fails here first, by name.
"""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import (
    BuzzerRound,
    Entrant,
    EntrantRevision,
    Group,
    ResultFact,
    Round,
    Seat,
    SelectionFact,
    SpecialFact,
    Tournament,
)
from brackets.selectors import rounds as sel
from brackets.selectors.buzzer import round_state
from brackets.services import rounds as svc

pytestmark = pytest.mark.django_db

ADVANCED = Round.Status.ADVANCED
CONFIGURED = Round.Status.CONFIGURED


def _statuses(t: Tournament) -> list[str]:
    return list(Round.objects.filter(tournament=t).order_by("number")
                .values_list("status", flat=True))


def _seated(rnd: Round) -> list[int]:
    return list(Seat.objects.filter(group__round=rnd, entrant__isnull=False,
                                    superseded_by__isnull=True)
                .values_list("entrant_id", flat=True))


def _round(t: Tournament, number: int) -> Round:
    return Round.objects.get(tournament=t, number=number)


# ------------------------------------------------------------------------- 九州杯IX


def test_entry_open_is_twenty_checked_in_entrants_and_no_rounds(entry_open: Tournament) -> None:
    t = entry_open
    assert t.preset == "kyushu-cup-ix"
    entrants = Entrant.objects.filter(tournament=t)
    assert entrants.count() == 20
    assert all(e.checked_in for e in entrants)
    assert sorted(e.seed for e in entrants if e.seed) == [1, 2, 3, 4]
    # Registered and checked in at the desk: each has both revisions, with who did it.
    actions = set(EntrantRevision.objects.filter(entrant__tournament=t)
                  .values_list("action", flat=True))
    assert actions == {"register", "checked_in:on"}
    assert not Round.objects.filter(tournament=t).exists()
    assert t.status != Tournament.Status.RUNNING


def test_round_1_running_seats_the_non_seeds_in_four_groups(round_1_running: Tournament) -> None:
    t = round_1_running
    r1 = _round(t, 1)
    assert _statuses(t) == [Round.Status.RUNNING] + [CONFIGURED] * 6
    assert t.status == Tournament.Status.RUNNING
    groups = Group.objects.filter(round=r1)
    assert groups.count() == 4
    seated = _seated(r1)
    assert len(seated) == len(set(seated)) == 16
    seeds = set(Entrant.objects.filter(tournament=t, seed__isnull=False)
                .values_list("id", flat=True))
    assert not seeds & set(seated)  # K5: seeds start in round 2
    assert not SelectionFact.objects.filter(group__round=r1).exists()
    assert not ResultFact.objects.filter(group__round=r1).exists()


def test_after_round_2_has_round_3_configured_with_its_twenty(after_round_2: Tournament) -> None:
    t = after_round_2
    assert _statuses(t) == [ADVANCED, ADVANCED] + [CONFIGURED] * 5
    r2, r3 = _round(t, 2), _round(t, 3)
    # K5: every seed played round 2, in different groups.
    seeds = set(Entrant.objects.filter(tournament=t, seed__isnull=False)
                .values_list("id", flat=True))
    assert seeds <= set(_seated(r2))
    seed_groups = Seat.objects.filter(group__round=r2, entrant_id__in=seeds).values_list(
        "group_id", flat=True)
    assert len(set(seed_groups)) == len(seeds)
    players, _seeds = svc.round_players(r3)
    assert len(players) == 20  # K6: A 12 + B 8
    assert not Group.objects.filter(round=r3).exists()
    assert not SpecialFact.objects.filter(round=r3, kind="rule_choice").exists()


def test_semi_final_done_sends_two_to_the_final_and_two_to_third_place(
        semi_final_done: Tournament) -> None:
    t = semi_final_done
    assert _statuses(t) == [ADVANCED] * 5 + [CONFIGURED] * 2
    sf = _round(t, 5)
    places = {r.place: int(r.player) for r in sel.round_table(sel.round_view(sf))}
    assert sorted(places) == [1, 2, 3, 4]
    assert set(sel.advancers_of(sf)) == {places[1], places[2]}  # K8: top 2 to the final
    assert not SpecialFact.objects.filter(tournament=t, kind="partner").exists()
    assert not Group.objects.filter(round__tournament=t, round__number__gte=6).exists()


def test_final_game_2_has_game_1_played_and_game_2_waiting(final_game_2: Tournament) -> None:
    t = final_game_2
    assert _statuses(t) == [ADVANCED] * 6 + [Round.Status.RUNNING]
    final = _round(t, 7)
    game1, game2, _game3 = Group.objects.filter(round=final).order_by("game")
    assert ResultFact.objects.filter(group=game1, superseded_by__isnull=True).count() == 4
    assert not ResultFact.objects.filter(group=game2).exists()
    assert not SelectionFact.objects.filter(group=game2).exists()
    state = sel.series_progress(sel.round_view(final))
    assert state is not None and not state.finished
    kinds = set(SpecialFact.objects.filter(round=final).values_list("kind", flat=True))
    assert {"partner", "dice", "final_setup"} <= kinds
    # Contenders at seats 1 and 4 (K10): the semi-final's top 2.
    contenders = {s.entrant_id for s in Seat.objects.filter(group=game1, number__in=(1, 4))}
    assert contenders == set(sel.advancers_of(_round(t, 5)))


def test_tournament_finished_names_a_champion(tournament_finished: Tournament) -> None:
    t = tournament_finished
    assert t.status == Tournament.Status.FINISHED
    assert set(_statuses(t)) == {ADVANCED}
    assert {row.label for row in sel.podium(t)} == {"優勝", "準優勝", "3位"}


# ------------------------------------------------------------------------- 堅田大会


def test_katata_entry_open_has_every_mode_and_two_shura_players(
        katata_entry_open: Tournament) -> None:
    t = katata_entry_open
    assert t.preset == "katata-kansai5-qualifier"
    entrants = list(Entrant.objects.filter(tournament=t).order_by("id"))
    assert len(entrants) == 13 and all(e.checked_in for e in entrants)
    q = [e.q_level for e in entrants]
    assert any(x >= 80 for x in q) and any(50 <= x < 80 for x in q) and any(x < 50 for x in q)
    assert entrants[0].shura_titles == 1
    assert entrants[1].shura_voluntary and entrants[1].shura_extra_lots == 1
    assert entrants[8].opt_up == "bomber" and entrants[8].q_level < 50
    assert not Round.objects.filter(tournament=t).exists()


def test_katata_round_1_running_has_the_lots_drawn_and_every_entrant_seated(
        katata_round_1_running: Tournament) -> None:
    t = katata_round_1_running
    r1 = _round(t, 1)
    assert r1.status == Round.Status.RUNNING
    lots = {f.entrant_id: f.data for f in SpecialFact.objects.filter(
        tournament=t, kind="shura_lots")}
    entrants = list(Entrant.objects.filter(tournament=t).order_by("id"))
    assert set(lots) == {entrants[0].id, entrants[1].id}
    assert len(lots[entrants[0].id]["genres"]) == 1  # a title: one lot
    assert len(lots[entrants[1].id]["genres"]) == 2  # volunteer + one extra lot
    assert sorted(_seated(r1)) == sorted(e.id for e in entrants)
    assert Group.objects.filter(round=r1).count() == 4  # H1: 13 = 4 + 3 × (3 + a dummy)


def test_katata_final_running_ranks_four_with_nothing_entered(
        katata_final_running: Tournament) -> None:
    t = katata_final_running
    statuses = _statuses(t)
    assert statuses[:-1] == [ADVANCED] * (len(statuses) - 1)
    assert statuses[-1] == Round.Status.RUNNING
    final = Round.objects.filter(tournament=t).order_by("number").last()
    assert Group.objects.filter(round=final).count() == 1
    assert len(_seated(final)) == 4
    assert not ResultFact.objects.filter(group__round=final).exists()


# ------------------------------------------------------------------------- buzzer


def test_buzzer_round_running_is_live_with_four_taps(buzzer_round_running: Any) -> None:
    round_ = buzzer_round_running
    assert round_.status == BuzzerRound.Status.LIVE
    state = round_state(round_)
    assert state.question == 3
    assert (state.players["s1"].correct, state.players["s2"].wrong) == (2, 1)
    assert not state.winners and not state.outs


def test_final_won_2_0_leaves_game_3_unneeded(final_won_2_0: Tournament) -> None:
    from tests.states import game_winner

    t = final_won_2_0
    final = _round(t, 7)
    game1, game2, game3 = Group.objects.filter(round=final).order_by("game")
    assert game_winner(game1) == game_winner(game2)
    state = sel.series_progress(sel.round_view(final))
    assert state is not None and state.finished
    assert not ResultFact.objects.filter(group=game3).exists()
    assert final.status == Round.Status.RUNNING  # decided, not yet closed
