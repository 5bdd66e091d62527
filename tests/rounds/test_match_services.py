"""Bad input is refused with nothing saved; stale saves are refused with what changed (or
merged); a double submit records once; selections are checked by the engine."""

from __future__ import annotations

from typing import Any

import pytest

from brackets import engine_adapter as ea
from brackets.models import (
    Group,
    ResultFact,
    Round,
    Seat,
    SelectionFact,
    Submission,
    Tournament,
)
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc

pytestmark = pytest.mark.django_db

GOOD = {1: ("310.50", 1), 2: ("290.00", 2), 3: ("250.00", 3), 4: ("180.00", 4)}


def counts() -> tuple[int, int, int]:
    return (SelectionFact.objects.count(), ResultFact.objects.count(),
            Submission.objects.count())


def refused(match: str, **kwargs: Any) -> svc.RoundError:
    before = counts()
    with pytest.raises(svc.RoundError) as info:
        svc.results_save(**kwargs)
    assert match in info.value.message
    assert counts() == before
    return info.value


def test_score_out_of_range_is_refused(group: Group, cast: dict[str, Any]) -> None:
    rows = {**GOOD, 2: ("1200.00", 2)}
    refused("範囲外", group=group, by=cast["bracket"], rows=rows)
    refused("小数2桁", group=group, by=cast["bracket"], rows={**GOOD, 3: ("1.234", 3)})
    refused("数値ではありません", group=group, by=cast["bracket"],
            rows={**GOOD, 1: ("abc", 1)})


def test_placement_used_twice_is_refused_unless_the_screen_shows_a_tie(
        group: Group, cast: dict[str, Any]) -> None:
    """H9: 1, 2, 2, 4 is a tie the screen can show (tests/rules/test_h9_screen_ties.py);
    a place used twice in any other shape is refused."""
    refused("1・2・2・4位", group=group, by=cast["bracket"],
            rows={**GOOD, 3: ("250.00", 2), 4: ("180.00", 3)})
    refused("1・2・2・4位", group=group, by=cast["bracket"], rows={**GOOD, 2: ("290.00", 3)})


def test_result_for_a_seat_not_in_the_group(round_one: Round, cast: dict[str, Any]) -> None:
    g = Group.objects.filter(round=round_one).order_by("number").last()
    # A group of 13 entrants' last group plays with a dummy; here every group is full, so
    # a fifth seat is someone not in the group.
    refused("この組にいない", group=g, by=cast["bracket"], rows={**GOOD, 5: ("1", 1)})


def test_selection_not_in_catalog_is_refused(group: Group, cast: dict[str, Any]) -> None:
    before = counts()
    with pytest.raises(svc.RoundError) as info:
        svc.selection_save(group=group, by=cast["bracket"], seat_number=1, genre="料理",
                           format="四択", difficulty="HARD")
    assert "カタログにありません" in info.value.message
    with pytest.raises(svc.RoundError):
        svc.selection_save(group=group, by=cast["bracket"], seat_number=1, genre="芸能",
                           format="四択", difficulty="LUNATIC")
    assert counts() == before


def test_kyushu_refuses_an_illegal_selection_even_when_confirmed(
        round_one: Round, cast: dict[str, Any]) -> None:
    """九州杯IX validates sets before the match: its preset refuses illegal ones (K1)."""
    user = cast["bracket"]
    g = Group.objects.filter(round=round_one).order_by("number").first()
    for n in range(1, 5):
        svc.selection_save(group=g, by=user, seat_number=n, genre="芸能", format="四択",
                           difficulty="HARD")
    svc.results_save(group=g, by=user, rows=GOOD)
    for other in Group.objects.filter(round=round_one).exclude(id=g.id):
        svc.results_save(group=other, by=user, rows=GOOD)
    svc.round_close(round=round_one, by=user)
    svc.round_advance(round=round_one, by=user)
    r2 = Round.objects.get(tournament=round_one.tournament, number=2)
    svc.round_draw(round=r2, by=user)
    svc.round_start(round=r2, by=user)
    entrant_id = Seat.objects.get(group=g, number=1).entrant_id
    seat = Seat.objects.filter(group__round=r2, entrant_id=entrant_id).first()
    assert seat is not None  # the winner of group A advanced
    gv = sel.group_view(seat.group)
    choices = sel.seat_choices(gv, ea.catalog_for(round_one.tournament.version_id))
    reasons = choices[seat.number].choices.reasons("芸能", "○×")
    assert {v.code for v in reasons} == {"genre_used", "group_used"}  # K1 example
    before = counts()
    for confirm in (False, True):
        with pytest.raises(svc.RoundError) as info:
            svc.selection_save(group=seat.group, by=user, seat_number=seat.number,
                               genre="芸能", format="○×", difficulty="EASY",
                               confirm_illegal=confirm)
        assert "芸能 は1回戦で使用済み" in info.value.message
    assert counts() == before


def test_illegal_selection_needs_confirmation_and_records_penalty(
        tournament: Any, cast: dict[str, Any]) -> None:
    """堅田 (H7): an illegal set may be played, with confirmation, for −400."""
    from brackets.models import Entrant
    from tests.rounds.conftest import running_round_one

    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    rnd = running_round_one(tournament, 8, cast["organiser"],
                            preset="katata-kansai5-qualifier")
    user = cast["bracket"]
    seat = Seat.objects.filter(group__round=rnd, entrant__isnull=False).first()
    entrant = seat.entrant
    Entrant.objects.filter(id=entrant.id).update(shura_titles=1)
    # Lots are drawn at the desk before round 1; here the draw is undone and redone.
    svc.round_undo(round=rnd, by=user)
    svc.round_undo(round=Round.objects.get(id=rnd.id), by=user)
    svc.shura_lots_draw(tournament=tournament, entrant=Entrant.objects.get(id=entrant.id),
                        by=cast["desk"], genres=["芸能"])
    rnd = Round.objects.get(id=rnd.id)
    svc.round_draw(round=rnd, by=user)
    svc.round_start(round=rnd, by=user)
    seat = Seat.objects.get(group__round=rnd, entrant_id=entrant.id)
    g = seat.group
    before = counts()
    with pytest.raises(svc.RoundError) as info:
        svc.selection_save(group=g, by=user, seat_number=seat.number, genre="芸能",
                           format="四択", difficulty="EASY")
    assert "芸能 は修羅くじで使用不可" in info.value.message
    assert counts() == before
    fact = svc.selection_save(group=g, by=user, seat_number=seat.number, genre="芸能",
                              format="四択", difficulty="EASY", confirm_illegal=True)
    # Stored: the set and that staff accepted it; the engine derives why and what it costs.
    snap = sel.match_snapshot(g)
    check = snap.selection_check(seat.number)
    assert fact.accepted_illegal and check.penalty == 400
    assert snap.view.selection_penalties[seat.number] == 400
    assert {v.code for v in check.violations} == {"genre_lot"}
    rows = {s.number: (f"{300 - 10 * s.number}.00", s.number)
            for s in Seat.objects.filter(group=g)}
    svc.results_save(group=g, by=user, rows=rows)
    placed = sel.group_view(g).row_of(ea.player_key(entrant.id))
    assert placed.penalty == 400 and placed.score == placed.screen_score - 400


def test_advance_before_every_group_is_done_is_refused(round_one: Round,
                                                        cast: dict[str, Any]) -> None:
    user = cast["organiser"]
    first = Group.objects.filter(round=round_one).first()
    svc.results_save(group=first, by=user, rows=GOOD)
    with pytest.raises(svc.RoundError) as info:
        svc.round_close(round=round_one, by=user)
    assert "まだ結果が揃っていない組" in info.value.message
    with pytest.raises(svc.RoundError):
        svc.round_advance(round=round_one, by=user)
    assert Round.objects.get(id=round_one.id).status == Round.Status.RUNNING
    assert sel.advancers_of(round_one) is None


def test_placements_contradicting_scores_warn(group: Group, cast: dict[str, Any]) -> None:
    rows = {1: ("200.00", 1), 2: ("290.00", 2), 3: ("250.00", 3), 4: ("180.00", 4)}
    svc.results_save(group=group, by=cast["bracket"], rows=rows)
    gv = sel.group_view(group)
    assert gv.result is not None and gv.warnings
    assert "サテ1" in gv.warnings[0]


def test_stale_save_on_the_same_fields_is_refused_with_the_change(
        group: Group, cast: dict[str, Any]) -> None:
    v0 = group.version
    svc.results_save(group=group, by=cast["bracket"], rows=GOOD, base_version=v0)
    before = counts()
    other = {**GOOD, 1: ("300.00", 1)}
    with pytest.raises(svc.StaleVersion) as info:
        svc.results_save(group=group, by=cast["organiser"], rows=other, base_version=v0)
    assert any("サテ1 結果 → 310.50点 1位" in c for c in info.value.changes)
    assert counts() == before


def test_stale_save_on_other_fields_is_merged(group: Group, cast: dict[str, Any]) -> None:
    v0 = group.version
    svc.selection_save(group=group, by=cast["bracket"], seat_number=1, genre="芸能",
                       format="四択", difficulty="HARD", base_version=v0)
    svc.selection_save(group=group, by=cast["organiser"], seat_number=2, genre="社会",
                       format="連想", difficulty="HARD", base_version=v0)
    gv = sel.group_view(Group.objects.get(id=group.id))
    assert set(gv.facts.selections) == {1, 2}
    assert Group.objects.get(id=group.id).version == v0 + 2


def test_double_submit_records_once(group: Group, cast: dict[str, Any]) -> None:
    v0 = group.version
    svc.results_save(group=group, by=cast["bracket"], rows=GOOD, base_version=v0, key="k1")
    with pytest.raises(svc.Duplicate):
        svc.results_save(group=group, by=cast["bracket"], rows=GOOD, base_version=v0, key="k1")
    assert ResultFact.objects.filter(group=group).count() == 4


def test_double_submit_through_the_page_records_once(group: Group, clients: Any) -> None:
    from django.urls import reverse

    url = reverse("match_results", kwargs={"slug": group.round.tournament.slug,
                                           "group_id": group.id})
    data = {"version": group.version, "key": "same-key"}
    for n, (score, place) in GOOD.items():
        data[f"score_{n}"] = score
        data[f"place_{n}"] = place
    first = clients["bracket"].post(url, data)
    second = clients["bracket"].post(url, data)
    assert first.status_code == second.status_code == 302
    assert ResultFact.objects.filter(group=group).count() == 4


def test_correction_supersedes_and_history_keeps_both(group: Group, cast: dict[str, Any]) -> None:
    svc.results_save(group=group, by=cast["bracket"], rows=GOOD)
    svc.results_save(group=group, by=cast["organiser"], rows={**GOOD, 4: ("185.00", 4)})
    facts = list(ResultFact.objects.filter(group=group, seat__number=4).order_by("id"))
    assert [f.score for f in facts] == [180, 185] and facts[1].supersedes_id == facts[0].id
    history = sel.group_history(group)
    assert sum(1 for e in history if e["kind"] == "結果") == 5
    gv = sel.group_view(group)
    assert gv.result_rows[4].score == 185


def test_penalty_dq_and_rematch(group: Group, cast: dict[str, Any]) -> None:
    user = cast["bracket"]
    svc.results_save(group=group, by=user, rows=GOOD)
    with pytest.raises(svc.RoundError):
        svc.penalty_add(group=group, by=user, seat_number=1, points="400", reason="  ")
    svc.penalty_add(group=group, by=user, seat_number=1, points="400", reason="バグ技")
    gv = sel.group_view(group)
    first = gv.result.players[0]
    assert first.seat == 2  # H7: 310.50 − 400 = −89.50 drops to last
    assert gv.result.players[-1].score == -89.5
    svc.disqualification_add(group=group, by=user, seat_number=2, reason="不正")
    gv = sel.group_view(group)
    assert gv.result.players[-1].seat == 2 and gv.result.players[-1].disqualified
    svc.rematch_record(group=group, by=user, reason="筐体トラブル")
    gv = sel.group_view(group)
    assert gv.result is None and gv.status != sel.DONE


def test_two_person_confirmation(group: Group, cast: dict[str, Any]) -> None:
    t = group.round.tournament
    t.two_person_confirmation = True
    t.save()
    svc.results_save(group=group, by=cast["bracket"], rows=GOOD)
    group.refresh_from_db()
    assert sel.group_view(group).status == sel.CONFIRMING
    with pytest.raises(svc.RoundError):
        svc.result_confirm(group=group, by=cast["bracket"], version=group.version)
    svc.result_confirm(group=group, by=cast["organiser"], version=group.version)
    assert sel.group_view(group).status == sel.DONE


def test_undo_draw_only_while_nothing_entered(round_one: Round, cast: dict[str, Any]) -> None:
    user = cast["organiser"]
    svc.round_undo(round=round_one, by=user)  # undo start
    assert Round.objects.get(id=round_one.id).status == Round.Status.DRAWN
    g = Group.objects.filter(round=round_one).first()
    # A tablet may record a selection while the round is drawn, before the start.
    svc.selection_save(group=g, by=user, seat_number=1, genre="芸能", format="四択",
                       difficulty="HARD")
    assert Round.objects.get(id=round_one.id).status == Round.Status.DRAWN
    with pytest.raises(svc.RoundError) as info:
        svc.round_undo(round=Round.objects.get(id=round_one.id), by=user)
    assert "取り消せません" in info.value.message


def test_draw_is_reproducible_from_the_stored_seed(tournament: Any, cast: dict[str, Any]) -> None:
    from brackets.engine import Lottery, draw_groups
    from tests.rounds.conftest import running_round_one

    rnd = running_round_one(tournament, 13, cast["organiser"])
    players = sorted(Seat.objects.filter(group__round=rnd, entrant__isnull=False)
                     .values_list("entrant_id", flat=True))
    again = draw_groups([str(p) for p in players],
                        lottery=Lottery(rnd.lottery_seed, rnd.lottery_purpose))
    stored = [tuple(None if s.entrant_id is None else str(s.entrant_id)
                    for s in Seat.objects.filter(group=g).order_by("number"))
              for g in Group.objects.filter(round=rnd).order_by("number")]
    assert stored == [g.seats for g in again.groups]


def test_unchecked_entrants_are_left_out_and_withdrawal_refills(
        tournament: Any, cast: dict[str, Any]) -> None:
    from brackets.models import Entrant
    from tests.rounds.helpers import add_entrants, play_round

    user = cast["organiser"]
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    add_entrants(tournament, 58)
    add_entrants(tournament, 7, seeds=0, prefix="S")
    for i, e in enumerate(Entrant.objects.filter(card_name__startswith="S").order_by("id")):
        Entrant.objects.filter(id=e.id).update(seed=i + 1)
    late = add_entrants(tournament, 3, prefix="L", checked_in=False)
    rounds = svc.rounds_configure(tournament=tournament, by=user)
    svc.round_draw(round=rounds[0], by=user)
    drawn = set(Seat.objects.filter(group__round=rounds[0]).values_list("entrant_id", flat=True))
    assert not drawn & {e.id for e in late}
    import random

    play_round(rounds[0], user, random.Random(4))
    first_group = Group.objects.filter(round=rounds[0]).order_by("number").first()
    winner = sel.group_view(first_group).result.players[0].player
    svc.withdrawal_record(tournament=tournament, entrant=Entrant.objects.get(id=int(winner)),
                          by=user, reason="体調不良")
    outcome = sel.advancement_preview(rounds[0])[0][1]
    assert winner not in outcome.players
    assert sum(1 for a in outcome.advancers if a.reason == "wildcard") == 4  # refilled


def test_reseat_through_the_page_and_withdraw(group: Group, clients: Any) -> None:
    from django.urls import reverse

    seats = {s.number: s.entrant_id for s in Seat.objects.filter(group=group)}
    url = reverse("match_action", kwargs={"slug": group.round.tournament.slug,
                                          "group_id": group.id})
    data = {"action": "reseat", "version": group.version,
            "seat_order_1": seats[4], "seat_order_2": seats[3], "seat_order_3": seats[2],
            "seat_order_4": seats[1]}
    assert clients["bracket"].post(url, data).status_code == 302
    now = {s.number: s.entrant_id for s in Seat.objects.filter(group=group,
                                                               superseded_by__isnull=True)}
    assert now == {1: seats[4], 2: seats[3], 3: seats[2], 4: seats[1]}
    assert Seat.objects.filter(group=group).count() == 8  # the old seats are kept
    special = reverse("round_special", kwargs={"slug": group.round.tournament.slug,
                                               "number": group.round.number})
    response = clients["bracket"].post(special, {"action": "withdraw", "entrant": seats[1],
                                                 "reason": "体調不良"})
    assert response.status_code == 302
    assert seats[1] in sel.withdrawn_ids(group.round.tournament)


def test_rounds_are_replanned_when_check_ins_change_before_the_draw(
        tournament: Any, cast: dict[str, Any]) -> None:
    from brackets.models import Entrant
    from tests.rounds.helpers import add_entrants

    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    add_entrants(tournament, 7)
    late = add_entrants(tournament, 9, prefix="L", checked_in=False)
    rounds = svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    assert [r.name for r in rounds] == ["準決勝", "決勝"]
    Entrant.objects.filter(id__in=[e.id for e in late]).update(checked_in=True)
    drawn = svc.round_draw(round=rounds[0], by=cast["organiser"])
    assert [r.name for r in sel.tournament_rounds(tournament)] == ["1回戦", "準決勝", "決勝"]
    assert drawn.number == 1 and Group.objects.filter(round=drawn).count() == 4


def test_stale_save_through_the_page_shows_what_changed(group: Group, clients: Any) -> None:
    from django.urls import reverse

    url = reverse("match_results", kwargs={"slug": group.round.tournament.slug,
                                           "group_id": group.id})
    base = group.version

    def form(first_score: str, key: str) -> dict[str, Any]:
        data: dict[str, Any] = {"version": base, "key": key}
        for n, (score, place) in GOOD.items():
            data[f"score_{n}"] = first_score if n == 1 else score
            data[f"place_{n}"] = place
        return data

    assert clients["bracket"].post(url, form("310.50", "tablet-1")).status_code == 302
    response = clients["organiser"].post(url, form("301.00", "tablet-2"))
    assert response.status_code == 409
    text = response.content.decode()
    assert "他の端末がこの組を先に更新しました" in text and "サテ1 結果 → 310.50点 1位" in text
    assert 'value="301.00"' in text  # what the second tablet typed is kept on screen
    assert ResultFact.objects.filter(group=group, seat__number=1).count() == 1


def test_every_kind_of_write_moves_the_public_fingerprint(group: Group,
                                                          cast: dict[str, Any]) -> None:
    from brackets.models import Entrant

    t = group.round.tournament
    t.two_person_confirmation = True
    t.save()
    seen = {sel.tournament_version(Tournament.objects.get(pk=t.pk))}

    def moved() -> None:
        # As a page does: the tournament loaded afresh by the request.
        now = sel.tournament_version(Tournament.objects.get(pk=t.pk))
        assert now not in seen
        seen.add(now)

    svc.selection_save(group=group, by=cast["bracket"], seat_number=1, genre="芸能",
                       format="四択", difficulty="HARD")
    moved()
    svc.results_save(group=group, by=cast["bracket"], rows=GOOD)
    moved()
    group.refresh_from_db()
    svc.result_confirm(group=group, by=cast["organiser"], version=group.version)
    moved()
    svc.withdrawal_record(tournament=t, entrant=Entrant.objects.filter(tournament=t).first(),
                          by=cast["organiser"], reason="x")
    moved()
    # Desk edits change names on every page: they move it too (the old aggregate
    # fingerprint missed them).
    entrant = Entrant.objects.filter(tournament=t).last()
    entrant.name = "改名した人"
    entrant.save()
    moved()
    # A rolled-back write moves nothing.
    from django.db import transaction
    before = sel.tournament_version(Tournament.objects.get(pk=t.pk))
    with pytest.raises(RuntimeError), transaction.atomic():
        svc.results_save(group=group, by=cast["bracket"], rows=GOOD)
        raise RuntimeError("abort")
    assert sel.tournament_version(Tournament.objects.get(pk=t.pk)) == before
