"""Seed 004 (abc the25th rules) run whole through the services, as staff would: the paper
round from a mark sheet (and once typed as totals and tie-break data), each later round seated from the rounds it follows (snake, Number10
course entry, the written step's survivors, Nine Hundred's sets), every tap, the playoffs,
to the Triple Seven champion. Each round's advancers and the final ranking are the ones the
rule page's text gives for these answers (worked out by hand in the comments)."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.engine.buzzer import ranking
from brackets.models import BuzzerRound, PaperMarking, Tournament
from brackets.selectors.buzzer import round_state
from brackets.selectors.buzzer_paper import paper_ranked
from brackets.services.buzzer_paper import paper_marking_upload, paper_scores_enter
from tests.buzzer_web.live_event import (
    Staff,
    correct,
    names,
    seated,
    settle,
    tap_written,
    time_up,
    wrong,
)

pytestmark = pytest.mark.django_db

PRESET = "abc-the25th-004"


def _sheet_row(name: str, right: set[int]) -> str:
    return ",".join([name, *("○" if q in right else "×" for q in range(1, 101))])


def _paper_sheet() -> bytes:
    """52 sheets. 選手01–46 score 99…54 (a straight run from Q1). Four tie on 50 at the cut
    (M1: total → Q1–50 → 1st run → 2nd run): 選手49 has 30 in the first half; 選手47, 48 and
    50 have 25, 選手47 with a first run of 25, 選手48 and 50 of 10, then a second run of 15
    (選手48) and 5 (選手50). 選手51 and 52 wrote the same sheet: only the lottery parts them."""
    rows = [_sheet_row(f"選手{i:02d}", set(range(1, 101 - i))) for i in range(1, 47)]
    second_half = set(range(51, 76))
    rows += [
        _sheet_row("選手47", set(range(1, 26)) | second_half),
        _sheet_row("選手48", set(range(1, 11)) | set(range(12, 27)) | second_half),
        _sheet_row("選手49", set(range(1, 31)) | set(range(51, 71))),
        _sheet_row("選手50", set(range(1, 11)) | set(range(12, 17)) | set(range(18, 28))
                   | second_half),
        _sheet_row("選手51", set(range(1, 41))),
        _sheet_row("選手52", set(range(1, 41))),
    ]
    header = ",".join(["名前", *(str(q) for q in range(1, 101))])
    return "\n".join([header, *rows]).encode()


def _paper(tournament: Tournament, cast: dict[str, Any]) -> list[str]:
    marking = paper_marking_upload(tournament=tournament, name="1st Round", questions=100,
                                   first_half=50, content=_paper_sheet(),
                                   filename="marks.csv", by=cast["organiser"])
    ranked = paper_ranked(tournament, PaperMarking.objects.get(pk=marking.pk))
    order = [s.player for s in ranked]
    assert order[:46] == [f"選手{i:02d}" for i in range(1, 47)]
    assert order[46:50] == ["選手49", "選手47", "選手48", "選手50"]
    assert [s.decided_by for s in ranked[46:50]] == ["total", "first_half", "streak1", "streak2"]
    assert ranked[46].total == 50 and ranked[47].first_half == 25 and ranked[48].streak2 == 15
    assert sorted(order[50:]) == ["選手51", "選手52"] and ranked[51].decided_by == "lottery"

    # The same round typed as each player's total and tie-break data (marked by hand).
    typed = "\n".join(f"{s.player},{s.total},{s.first_half},{s.streak1},{s.streak2}"
                      for s in reversed(ranked))
    by_hand = paper_scores_enter(tournament=tournament, name="1st Round（手入力）",
                                 questions=100, first_half=50, text=typed, by=cast["organiser"])
    again = paper_ranked(tournament, PaperMarking.objects.get(pk=by_hand.pk))
    assert [s.player for s in again][:50] == order[:50]
    assert [s.decided_by for s in again][46:50] == ["total", "first_half", "streak1", "streak2"]
    return order


def _snake_group(rank: list[str], group: int) -> list[str]:
    """The 2nd Round group ``group`` (0 = A) of four by 蛇腹 from the 48 who passed."""
    seats = [1 + group, 8 - group, 9 + group, 16 - group, 17 + group, 24 - group,
             25 + group, 32 - group, 33 + group, 40 - group, 41 + group, 48 - group]
    return [rank[r - 1] for r in seats]


def _play_2nd_round(group: BuzzerRound) -> list[str]:
    """M2 in one group: seat 4 (1 point head start) answers three in a row: 2, then 4 with
    the 連答権, then 5 (the right was spent) and wins first; seat 1 (3) answers twice: 4,
    then 6 with the right, and wins second. Seats 6–12 each miss twice: at the 7th out the
    quiz ends and the three left pass by points (seats 2 and 3 on 2, seat 5 on 1), then
    fewer misses, then 1R rank (seat 2 above seat 3)."""
    s = seated(group)
    correct(group, s[3], s[3], s[3], s[0], s[0])
    for name in s[5:]:
        state = wrong(group, name, name)
    assert state.phase == "over"
    return names(group, state.winners)


def test_seed_004_runs_from_the_paper_round_to_the_triple_seven_champion(
    tournament: Tournament, cast: dict[str, Any]
) -> None:
    staff = Staff(tournament, PRESET, by=cast["organiser"])
    rank = _paper(tournament, cast)

    # 2nd Round: the top 48 in four groups of 12 by snake, 3,2,2,1,1,1 from the top seat.
    groups = staff.seat("2r", first_round=rank)
    assert [g.group_name for g in groups] == ["A組", "B組", "C組", "D組"]
    for index, group in enumerate(groups):
        assert seated(group) == _snake_group(rank, index)
        start = round_state(group)
        assert [start.players[p.key].points for p in group.players.order_by("seat")] == [
            3, 2, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    passed = {g.group_name: _play_2nd_round(g) for g in groups}
    for index, group in enumerate(groups):
        s = _snake_group(rank, index)
        assert passed[group.group_name] == [s[3], s[0], s[1], s[2], s[4]]
    assert "選手48" not in rank[:48] and all(
        "選手48" not in p and "選手50" not in p for p in passed.values())

    # 3rd Round Number10 (M3). Priority: 2R pass position, then 1R rank. The four who
    # passed first held 1R ranks 13–16, the second ones 1–4, the third 5–8, the fourth
    # 9–12, the fifth 17–20.
    by_rank = [13, 14, 15, 16, *range(1, 13), 17, 18, 19, 20]
    priority = [rank[r - 1] for r in by_rank]
    order = ["3r-freeze", "3r-updown", "3r-swedish", "3r-10by10"]
    raised = {"3r-freeze": priority[:7], "3r-updown": priority[7:9]}
    courses = {r.round_slug: r for r in staff.seat("3r-updown", course_order=order,
                                                    raised=raised)}
    # Freeze10 (drawn first): seven plates up, the five best by priority play. 10 up-down:
    # two plates up; the three places left go to the lowest priority among those without
    # one (priority 18–20). Swedish10: no plate; the lowest five left (13–17). 10by10: the
    # five left.
    assert seated(courses["3r-freeze"]) == priority[:5]
    assert seated(courses["3r-updown"]) == [*priority[7:9], *priority[17:20]]
    assert seated(courses["3r-swedish"]) == priority[12:17]
    assert seated(courses["3r-10by10"]) == [*priority[5:7], *priority[9:12]]

    freeze = seated(courses["3r-freeze"])
    wrong(courses["3r-freeze"], freeze[2])  # one miss: one question's rest (Freeze10)
    correct(courses["3r-freeze"], *[freeze[1]] * 10)
    state = correct(courses["3r-freeze"], *[freeze[0]] * 10)
    assert names(courses["3r-freeze"], state.winners) == [freeze[1], freeze[0]]

    updown = seated(courses["3r-updown"])
    correct(courses["3r-updown"], updown[0], updown[0], updown[1], updown[0])
    # Three out (two misses each): the quiz ends and the two left pass, more points first.
    state = wrong(courses["3r-updown"], *[n for n in updown[2:] for _twice in range(2)])
    assert state.phase == "over" and names(courses["3r-updown"], state.winners) == updown[:2]

    swedish = seated(courses["3r-swedish"])
    state = wrong(courses["3r-swedish"], swedish[4])
    assert state.players[courses["3r-swedish"].players.get(name=swedish[4]).key].wrong == 1
    correct(courses["3r-swedish"], *[swedish[3]] * 10)
    state = correct(courses["3r-swedish"], *[swedish[2]] * 10)
    assert names(courses["3r-swedish"], state.winners) == [swedish[3], swedish[2]]

    # 10by10: seat 1 reaches 10 × 10 = 100; seats 2 and 3 stand on 5 × 10 = 50 at 15
    # minutes, so an 早押しプレーオフ decides the second place: seat 3 answers it.
    by10 = seated(courses["3r-10by10"])
    correct(courses["3r-10by10"], *[by10[0]] * 10)
    correct(courses["3r-10by10"], *[by10[1], by10[2]] * 5)
    state = time_up(courses["3r-10by10"])
    assert state.phase == "deciding" and state.pending[0].side == "win"
    state = settle(courses["3r-10by10"], "win", [("correct", by10[2])])
    assert names(courses["3r-10by10"], state.winners) == [by10[0], by10[2]]
    semi = {*freeze[:2], *updown[:2], *swedish[2:4], by10[0], by10[2]}

    # Extra Round First Step: everyone else so far (44, paper-round losers included). Three
    # answer Q1–10 right, the others miss Q1: a top tie of three (2–12) goes to the Second
    # Step. 選手51, cut by the paper round, is one of them.
    (step1,) = staff.seat("extra-1")
    assert len(seated(step1)) == 44 and not semi & set(seated(step1))
    top = ["選手51", rank[20], rank[30]]
    keys = {p.name: p.key for p in step1.players.all()}
    for question in range(1, 11):
        state = tap_written(step1, {k: (n in top or question > 1) for n, k in keys.items()},
                            question)
    assert state.phase == "over" and set(names(step1, state.winners)) == set(top)

    # Second Step: five right to revive, one miss out.
    (step2,) = staff.seat("extra-2")
    second = seated(step2)
    assert sorted(second) == sorted(top)
    wrong(step2, second[0])
    state = correct(step2, *[second[1]] * 5)
    revived = names(step2, state.winners)
    assert revived == [second[1]]

    # Semi-final Nine Hundred set 1 (+1/−1): nine, the courses' winners in the preset's
    # course order, then the revived one. S1 leads on 3; S7, S8, S9 share −1 on the line
    # of the two eliminated: an 早押しプレーオフ among them, S9 answers and stays.
    (set1,) = staff.seat("sf-1")
    s = seated(set1)
    assert s == [*updown[:2], freeze[1], freeze[0], swedish[3], swedish[2], by10[0], by10[2],
                 *revived]
    correct(set1, s[0], s[0], s[0], s[1], s[1], s[2], s[2], s[3], s[4])
    wrong(set1, s[6], s[7], s[8])
    state = time_up(set1)
    assert state.pending[0].side == "loss"
    state = settle(set1, "loss", [("correct", s[8])])
    assert names(set1, state.winners) == [s[0]]
    assert set(names(set1, state.outs)) == {s[6], s[7]}

    # Set 2 (+1/−2): the six left, points carried. S4 reaches 4; S6 (−2) and S9 (−1) out.
    (set2,) = staff.seat("sf-2")
    carried = {p.name: p.carried["points"] for p in set2.players.all()}
    assert carried == {s[1]: 2, s[2]: 2, s[3]: 1, s[4]: 1, s[5]: 0, s[8]: -1}
    correct(set2, s[3], s[3], s[3])
    wrong(set2, s[1], s[2], s[5])
    state = time_up(set2)
    assert names(set2, state.winners) == [s[3]]
    assert set(names(set2, state.outs)) == {s[5], s[8]}

    # Set 3 (+2/−2): S3 on 0 + 4 wins; S5 (1) and S2 (0) are out.
    (set3,) = staff.seat("sf-3")
    correct(set3, s[2], s[2])
    state = time_up(set3)
    assert names(set3, state.winners) == [s[2]]
    assert set(names(set3, state.outs)) == {s[4], s[1]}

    # Final Triple Seven: the three semi-final winners in pass order. Sets go to S1, S4,
    # S3, S1; in the fifth S4 and S3 answer three each and S1 takes it: champion. S4 and
    # S3 have one set and three in the last set each: the earlier semi-final pass (S4)
    # is runner-up.
    (final,) = staff.seat("final")
    f = seated(final)
    assert f == [s[0], s[3], s[2]]
    for winner in (f[0], f[1], f[2], f[0]):
        correct(final, *[winner] * 7)
    correct(final, *[f[1], f[2]] * 3)
    state = correct(final, *[f[0]] * 7)
    assert state.phase == "over"
    assert names(final, [r.player for r in ranking(state)]) == [f[0], f[1], f[2]]
    assert BuzzerRound.objects.filter(tournament=tournament, preset=PRESET,
                                      parent__isnull=True).count() == 4 + 4 + 2 + 3 + 1
