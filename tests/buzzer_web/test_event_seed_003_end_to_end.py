"""Seed 003 run whole through the services, as staff would: the 1st Round ranking typed,
then every round seated from the rounds it follows (snake by 2R pass order, the written
step's survivors, the board phase's mod-2 split with points carried, the semi-final's
sets), every tap, the sudden deaths, to the 12○5× champion. Each round's advancers and the
final ranking are the ones the rule page's text gives for these answers (worked out in the
comments)."""

from __future__ import annotations

import pytest

from brackets.engine.buzzer import ranking
from brackets.models import BuzzerRound, Tournament
from brackets.selectors.buzzer import round_state
from tests.buzzer_web.live_event import (
    Staff,
    correct,
    key,
    names,
    seated,
    settle,
    tap,
    tap_written,
    wrong,
)

pytestmark = pytest.mark.django_db

PRESET = "quiz-003"
RANK = [f"参加者{n:02d}" for n in range(1, 71)]  # the 1st Round ranking, best first


def r(*ranks: int) -> list[str]:
    """Players by 1st Round rank."""
    return [RANK[n - 1] for n in ranks]


def _pass(round_: BuzzerRound, until: int) -> None:
    """スルー until question ``until`` is closed (the question limit)."""
    while round_state(round_).question < until:
        tap(round_, kind="thru")


def _board(round_: BuzzerRound, right: list[str], buzzer: str | None = None) -> None:
    """One board question: ``right`` wrote the answer; ``buzzer`` pressed and was right."""
    data = {"kind": "board", "correct": [key(round_, n) for n in right]}
    if buzzer is not None:
        data.update(buzzer=key(round_, buzzer), buzzer_correct=True)
    tap(round_, **data)


def test_seed_003_runs_from_the_1st_round_ranking_to_the_12o5x_champion(
    tournament: Tournament,
) -> None:
    staff = Staff(tournament, PRESET)

    # 2nd Round (L1): 70 by snake into 7 groups of 10; 3,2,2,1,1,1○ from the top seat.
    groups = staff.seat("2r", first_round=RANK, groups=7)
    for g, group in enumerate(groups):
        laps = [g + 1, 14 - g, 15 + g, 28 - g, 29 + g, 42 - g, 43 + g, 56 - g, 57 + g, 70 - g]
        assert seated(group) == r(*laps)
    # Groups A–F: seats 6–10 miss twice each; the five left take the five places, by ○
    # (head starts 3,2,2,1,1), so in seat order (seat 6's 1○ head start is out with it).
    for group in groups[:6]:
        s = seated(group)
        state = wrong(group, *[n for n in s[5:] for _twice in range(2)])
        assert state.phase == "over" and names(group, state.winners) == s[:5]
    # Group G reaches the 35-question limit: seats 1 and 2 are out first (5○); seat 3 has
    # 3○; seats 4, 5 and 6 (1○ head start + 1 each) share 2○ 0× for the last two places:
    # a sudden death of 3 + 2 = 5 questions, 1○1×, in which seat 6 then seat 4 answer.
    g7 = groups[6]
    s7 = seated(g7)
    correct(g7, s7[0], s7[0], s7[1], s7[1], s7[1], s7[2], s7[3], s7[4], s7[5])
    _pass(g7, 35)
    state = round_state(g7)
    assert state.phase == "deciding"
    (decision,) = state.pending
    assert decision.side == "win" and set(names(g7, decision.candidates)) == {
        s7[3], s7[4], s7[5]}
    state = settle(g7, "win", [("correct", s7[5]), ("correct", s7[3])])
    assert names(g7, state.winners) == [s7[0], s7[1], s7[2], s7[5], s7[3]]
    assert g7.tiebreaks.get().config["question_limit"] == 5  # 3 in the sudden death + 2

    # 3rd Round (L2): the 35 by 2R pass order, then 1R rank (no Special Round here), snaked
    # into five groups of 7. First out of each group: ranks 1–7; second: 8–14; third:
    # 15–21; fourth: 23–28 and group G's 36; fifth: G's 22, then 29–34.
    order = r(*range(1, 22), 23, 24, 25, 26, 27, 28, 36, 22, 29, 30, 31, 32, 33, 34)
    third = staff.seat("3r")
    assert len(third) == 5
    for g, group in enumerate(third):
        laps = [g, 9 - g, 10 + g, 19 - g, 20 + g, 29 - g, 30 + g]
        assert seated(group) == [order[i] for i in laps]
    # Group A by answers: seat 1 (1○ head start) six, seats 2 and 3 seven each (7○).
    a = seated(third[0])
    correct(third[0], *[a[0]] * 6, *[a[1]] * 7)
    state = correct(third[0], *[a[2]] * 7)
    assert names(third[0], state.winners) == a[:3]
    # The other groups: seats 4–7 miss three times each; the three left pass.
    for group in third[1:]:
        s = seated(group)
        state = wrong(group, *[n for n in s[3:] for _thrice in range(3)])
        assert state.phase == "over" and names(group, state.winners) == s[:3]
    qf_from_3r = {n for group in third for n in seated(group)[:3]}

    # Extra Round 1st Step (L3): the 55 out so far. Q1 and Q2: the 40 lowest-ranked miss
    # both and sit; Q3: five more miss once; Q4: three of them miss again and sit: twelve
    # stand, and the 2nd Step begins.
    (step1,) = staff.seat("extra-1")
    losers = seated(step1)
    assert len(losers) == 55 and not qf_from_3r & set(losers)
    keys = {p.name: p.key for p in step1.players.all()}
    low, top = losers[15:], losers[:15]
    misses = {1: low, 2: low, 3: top[10:], 4: top[12:]}
    for q in range(1, 5):
        state = tap_written(step1, {k: n not in misses[q] for n, k in keys.items()}, q)
    assert state.phase == "over" and set(names(step1, state.winners)) == set(top[:12])

    # 2nd Step (L4): the ten with every answer right start on 1○; one miss is out; four ○
    # revive.
    (step2,) = staff.seat("extra-2")
    start = round_state(step2)
    heads = {p.name: start.players[p.key].correct for p in step2.players.all()}
    assert heads == {**{n: 1 for n in top[:10]}, top[10]: 0, top[11]: 0}
    wrong(step2, top[10])
    state = correct(step2, top[0], top[0], top[0])
    assert names(step2, state.winners) == [top[0]]

    # Quarter Final Phase 1 (L5): the 16, by 1R rank. Question q is right for the first
    # 16 − q of them, so everyone stays in that order; +2 a board, +1 when four or fewer.
    (phase1,) = staff.seat("qf-1")
    p = seated(phase1)
    assert set(p) == qf_from_3r | {top[0]} and len(p) == 16
    for q in range(1, 16):
        _board(phase1, p[: 16 - q])
    state = round_state(phase1)
    points = [state.players[key(phase1, n)].points for n in p]
    assert points == [34, 31, 28, 25, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0]
    assert state.phase == "over" and len(state.continuing) == 16

    # Phase 2 (L6): mod 2 on the phase-1 order, points and board counts carried; a buzz
    # right is +4, 40 points pass, 15 questions.
    qa, qb = staff.seat("qf-2")
    assert seated(qa) == p[0::2] and seated(qb) == p[1::2]
    for who in [p[0]] * 2 + [p[2]] * 3:
        _board(qa, [], buzzer=who)
    _pass_board(qa)
    state = round_state(qa)
    assert names(qa, state.winners) == [p[0], p[2], p[4], p[6]]
    # Group B: p[1] and p[3] pass on points; at the limit p[5], p[7] and p[9] share 20
    # points for two places; total board answers right (10, 8, 6 in phase 1) decide.
    for who in [p[1]] * 3 + [p[3]] * 4 + [p[7]] + [p[9]] * 2:
        _board(qb, [], buzzer=who)
    _pass_board(qb)
    state = round_state(qb)
    assert [state.players[key(qb, n)].points for n in (p[5], p[7], p[9])] == [20, 20, 20]
    assert names(qb, state.winners) == [p[1], p[3], p[5], p[7]]

    # Semi Final 1st Set (L7): the eight by pass order then 1R rank (p[0]…p[7]). At 35
    # questions p[0] leads; p[6] and p[7] share 0 points and one miss on the line of the
    # one eliminated: a sudden death, which p[6] answers.
    (set1,) = staff.seat("sf-1")
    t = seated(set1)
    assert t == p[:8]
    correct(set1, t[0], t[0], t[0], t[1], t[1], t[2], t[2], t[3], t[4], t[5])
    wrong(set1, t[6], t[7])
    _pass(set1, 35)
    state = settle(set1, "loss", [("correct", t[6])])
    assert names(set1, state.winners) == [t[0]] and names(set1, state.outs) == [t[7]]

    # 2nd Set (L8): six, points carried; p[1] reaches 4 and passes at 30, p[6] (a miss,
    # 0 points) is out.
    (set2,) = staff.seat("sf-2")
    assert {pl.name: pl.carried["points"] for pl in set2.players.all()} == {
        t[1]: 2, t[2]: 2, t[3]: 1, t[4]: 1, t[5]: 1, t[6]: 0}
    correct(set2, t[1], t[1])
    wrong(set2, t[6])
    _pass(set2, 30)
    state = round_state(set2)
    assert names(set2, state.winners) == [t[1]] and names(set2, state.outs) == [t[6]]

    # 3rd Set (L9): +2/−1 on the whole semi-final's points; p[4] 1 + 4 and p[5] 1 + 2
    # pass at 25, ahead of p[2] (2) and p[3] (1 − 1).
    (set3,) = staff.seat("sf-3")
    correct(set3, t[4], t[4], t[5])
    wrong(set3, t[3])
    _pass(set3, 25)
    state = round_state(set3)
    assert names(set3, state.winners) == [t[4], t[5]]

    # Final (L10): 12○ wins; the others by ○, then ×.
    (final,) = staff.seat("final")
    f = seated(final)
    assert f == [t[0], t[1], t[4], t[5]]
    correct(final, *[f[3]] * 5, *[f[1]] * 3)
    wrong(final, f[2], f[2])
    state = correct(final, *[f[0]] * 12)
    assert state.phase == "over"
    assert names(final, [row.player for row in ranking(state)]) == [f[0], f[3], f[1], f[2]]


def _pass_board(round_: BuzzerRound) -> None:
    """Boards nobody got right until the 15-question limit."""
    while round_state(round_).phase == "playing":
        _board(round_, [])
