"""The match snapshot (selectors.rounds.match_snapshot): one match's seats, facts, choices,
verdict and gates, each gate as the engine decides it."""

from __future__ import annotations

from typing import Any

import pytest

from brackets import engine_adapter as ea
from brackets.models import Group, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc

pytestmark = pytest.mark.django_db


def _games(tournament: Tournament) -> list[Group]:
    return list(Group.objects.filter(round__tournament=tournament,
                                     round__kind="partner_series").order_by("game"))


def test_k10_game_3_is_not_needed_after_a_2_0_series(final_won_2_0: Tournament) -> None:
    game1, game2, game3 = _games(final_won_2_0)
    snap = sel.match_snapshot(Group.objects.get(id=game3.id))
    assert snap.gates.series and snap.gates.pair
    assert not snap.game_needed
    assert snap.series_winner == snap.series_before.winner
    assert snap.series_before.wins in ((2, 0), (0, 2))
    assert sel.match_snapshot(Group.objects.get(id=game2.id)).game_needed


def test_k9_k10_contenders_are_the_seated_pair_game_contenders(final_game_2: Tournament
                                                               ) -> None:
    game2 = _games(final_game_2)[1]
    snap = sel.match_snapshot(Group.objects.get(id=game2.id))
    assert len(snap.gates.contenders) == 2
    assert {p for p, role in snap.roles.items() if role == "contender"} == set(
        snap.gates.contenders)
    assert snap.game_needed and snap.series_winner is None


def test_the_snapshot_gives_the_match_page_s_choices_and_verdict(
        round_1_running: Tournament, cast: dict[str, Any]) -> None:
    group = Group.objects.filter(round__tournament=round_1_running,
                                 round__number=1).order_by("number").first()
    assert group is not None
    svc.results_save(group=group, by=cast["organiser"],
                     rows={1: ("300.00", 1), 2: ("200.00", 2), 3: ("100.00", 3),
                           4: ("50.00", 4)})
    group = Group.objects.select_related("round__tournament").get(id=group.id)
    snap = sel.match_snapshot(group)
    gv = sel.group_view(group)
    assert snap.verdict is not None and snap.verdict.ranking() == gv.result.ranking()
    catalog = ea.catalog_for(round_1_running.version_id)
    tablet = sel.seat_choices(gv, catalog)
    assert set(snap.choices) == set(tablet)
    for number, sc in snap.choices.items():
        assert sc.key == tablet[number].key
    assert not snap.gates.cards_pending and not snap.gates.bans_pending
    assert not snap.gates.series and snap.game_needed


def test_k7_cards_pending_until_the_draw_and_k8_bans_until_the_reveal(
        tournament_finished: Tournament) -> None:
    """After the event every K7 match has its cards and every K8 match its reveal; the
    before-the-match snapshot (what the usage card prints) has neither."""
    for kind_round in (4, 5):
        group = Group.objects.filter(round__tournament=tournament_finished,
                                     round__number=kind_round).first()
        assert group is not None
        snap = sel.match_snapshot(group)
        before = sel.match_snapshot(group, before_match=True)
        if snap.gates.cards:
            assert snap.gates.cards_drawn and not snap.gates.cards_pending
            assert before.gates.cards_pending
        if snap.gates.bans:
            assert snap.gates.bans_revealed and snap.gates.bans_in_force
            assert not snap.gates.bans_pending and before.gates.bans_pending
        assert snap.gates.cards or snap.gates.bans
