"""The buzzer format: buzz, board and set rounds (L1, L2, L4–L10, M2, M3, M5, M6).

A question stays open after a wrong (others may still buzz) until a correct, a thru, or
nobody is left who may answer; with ``wrong_closes_question`` a wrong closes it at once.
Rests count down as questions close; the question of the wrong itself is not a rest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from brackets.engine.buzzer.core import (
    Allowed,
    Format,
    Work,
    blocked_reason,
    check_can_answer,
    check_question,
    pending,
)
from brackets.engine.buzzer.events import (
    BoardResults,
    ClockExpire,
    ClockStart,
    ClockStop,
    Correct,
    Event,
    Thru,
    TieBreak,
    Wrong,
)
from brackets.engine.buzzer.rules import Scoring, check, rests_after_miss, scoring_for
from brackets.engine.buzzer.state import (
    ACTIVE,
    DECIDING,
    LOCKED,
    OVER,
    PLAYING,
    RoundState,
)
from brackets.engine.errors import RuleRefusal

# ---------------------------------------------------------------------- buzzer format


def _buzzer_apply(s: RoundState, e: Event) -> RoundState:
    if isinstance(e, (ClockStart, ClockStop, ClockExpire)):
        return _clock(s, e)
    if isinstance(e, TieBreak):
        return _tiebreak(s, e)
    if s.phase != PLAYING:
        raise RuleRefusal("decision_pending", "a sudden death must be settled first", event=e.kind)
    if isinstance(e, Correct):
        return _correct(s, e)
    if isinstance(e, Wrong):
        return _wrong(s, e)
    if isinstance(e, Thru):
        check_question(s, e.question)
        w = Work(s)
        _touch_clock(w, e.clock_ms)
        _close_question(w, by_correct=False)
        return w.freeze()
    if isinstance(e, BoardResults):
        return _board(s, e)
    raise RuleRefusal(
        "wrong_event_kind", f"{e.kind} events do not belong in a buzzer round", event=e.kind
    )


def _touch_clock(w: Work, clock_ms: int | None) -> None:
    if clock_ms is not None and w.clock.running and clock_ms >= w.clock.elapsed_ms:
        w.clock = dataclasses.replace(w.clock, elapsed_ms=clock_ms)


def _correct(s: RoundState, e: Correct) -> RoundState:
    check_question(s, e.question, is_correct=True)
    check_can_answer(s, e.player)
    w = Work(s)
    _touch_clock(w, e.clock_ms)
    scoring = scoring_for(w.config)
    for pid in s.seat_order:
        if pid != e.player and w.get(pid).in_play:
            w.put(scoring.other_correct(w.get(pid)))
    p = scoring.correct(w.get(e.player))
    w.put(dataclasses.replace(p, last_correct_seq=w.seq))
    if check(w.config.win, w.get(e.player)):
        if w.config.sets_to_win is not None:
            _award_set(w, e.player, scoring)
        else:
            _admit_winners(w, [e.player])
    _close_question(w, by_correct=True)
    return w.freeze()


def _wrong(s: RoundState, e: Wrong) -> RoundState:
    check_question(s, e.question)
    check_can_answer(s, e.player)
    w = Work(s)
    _touch_clock(w, e.clock_ms)
    scoring = scoring_for(w.config)
    w.put(rests_after_miss(w.config.rests, scoring.wrong(w.get(e.player))))
    w.open_wrongs.add(e.player)
    _after_miss(w, e.player, scoring)
    if w.phase == PLAYING:
        nobody_left = not any(_blocked_reason_work(w, pid) is None for pid in s.seat_order)
        if w.config.wrong_closes_question or nobody_left or w.set_awarded:
            _close_question(w, by_correct=False)
        else:
            _end_checks(w)
    _auto_stop(w, e.clock_ms)
    return w.freeze()


def _blocked_reason_work(w: Work, pid: str) -> str | None:
    p = w.get(pid)
    if p.status != ACTIVE:
        return p.status
    if p.rests > 0:
        return "resting"
    if pid in w.open_wrongs:
        return "answered"
    return None


def _after_miss(w: Work, pid: str, scoring: Scoring) -> None:
    p = w.get(pid)
    if w.config.sets_to_win is not None:
        if check(w.config.loss, p) or check(w.config.lockout, p):
            w.put(dataclasses.replace(p, status=LOCKED))
            w.changed_status = True
            in_set = [q for q in w.s.seat_order if w.get(q).status == ACTIVE]
            if len(in_set) == 1 and len(w.remaining()) > 1:
                _award_set(w, in_set[0], scoring)
        return
    if check(w.config.loss, p):
        w.out(pid)
    elif check(w.config.lockout, p):
        # A lockout ends the player's answering, not the rest the same wrong earned: it
        # still counts down over the set's remaining questions and carries into the
        # next set (L7, L8: 休みはセットをまたぐ).
        w.put(dataclasses.replace(p, status=LOCKED))
        w.changed_status = True


def _award_set(w: Work, pid: str, scoring: Scoring) -> None:
    """A set is taken (M6): first to ``sets_to_win`` wins, else everyone starts afresh."""
    p = w.get(pid)
    w.put(dataclasses.replace(p, sets=p.sets + 1))
    w.set_awarded = True
    assert w.config.sets_to_win is not None
    if p.sets + 1 >= w.config.sets_to_win:
        _admit_winners(w, [pid])
        return
    for q in w.remaining():
        reset = scoring.reset_set(w.get(q))
        w.put(dataclasses.replace(reset, status=ACTIVE))
    w.open_wrongs.clear()
    w.changed_status = True


def _admit_winners(w: Work, candidates: Sequence[str]) -> None:
    """Players reaching the win condition on the same event take the open slots.

    If more reach it than there are slots, they are judged among themselves (L6: points
    → board corrects → sudden death) and the round closes.
    """
    if not candidates:
        return
    if len(candidates) <= w.open_slots():
        for pid in w.sort(candidates):
            w.win(pid)
        return
    others = [pid for pid in w.remaining() if pid not in candidates]
    w.judge("simultaneous_win", [list(candidates), others])


def _close_question(w: Work, *, by_correct: bool) -> None:
    w.question += 1
    if by_correct:
        w.correct_questions = w.correct_questions | {w.question}
    for pid, p in list(w.players.items()):
        if p.rests > 0 and pid not in w.open_wrongs:
            w.put(dataclasses.replace(p, rests=p.rests - 1))
    w.open_wrongs.clear()
    _end_checks(w)
    if w.phase == PLAYING:
        limit = w.config.question_limit
        if w.clock.last_question:
            w.clock = dataclasses.replace(w.clock, last_question=False)
            w.judge("time")
        elif limit is not None and w.question >= limit:
            w.judge("limit")
    _auto_stop(w, None)


def _end_checks(w: Work) -> None:
    """Slots filled, or no more players in play than open slots (all advance)."""
    if w.phase != PLAYING:
        return
    remaining = w.remaining()
    if w.config.slots > 0 and w.open_slots() == 0:
        w.judge("slots_filled")
    elif not remaining:
        w.finish("no_players")
    elif w.config.remaining_advance and w.config.slots > 0 and len(remaining) <= w.open_slots():
        for pid in w.sort(remaining):
            w.win(pid)
        w.finish("remaining_advance")


def _auto_stop(w: Work, clock_ms: int | None) -> None:
    if w.config.clock_stops_on_win_out and w.changed_status and w.clock.running:
        elapsed = w.clock.elapsed_ms if clock_ms is None else max(clock_ms, w.clock.elapsed_ms)
        w.clock = dataclasses.replace(w.clock, running=False, elapsed_ms=elapsed)


def _board(s: RoundState, e: BoardResults) -> RoundState:
    check_question(s, e.question)
    for pid in sorted(e.correct):
        check_can_answer(s, pid)
    if e.buzzer is not None:
        check_can_answer(s, e.buzzer)
        if e.buzzer in e.correct:
            raise RuleRefusal(
                "buzzer_on_board",
                "the buzzing player is judged by the buzz, not the board",
                player=e.buzzer,
            )
    w = Work(s)
    _touch_clock(w, e.clock_ms)
    scoring = scoring_for(w.config)
    n_correct = len(e.correct)
    if (
        e.buzzer is not None
        and e.buzzer_correct
        and scoring.params.get("bonus_counts_buzzer", False)
    ):
        n_correct += 1
    for pid in s.seat_order:
        p = w.get(pid)
        if pid == e.buzzer or blocked_reason(s, p) is not None:
            continue
        w.put(scoring.board(p, pid in e.correct, n_correct))
    if e.buzzer is not None:
        if e.buzzer_correct:
            w.put(dataclasses.replace(scoring.correct(w.get(e.buzzer)), last_correct_seq=w.seq))
        else:
            w.put(rests_after_miss(w.config.rests, scoring.wrong(w.get(e.buzzer))))
            _after_miss(w, e.buzzer, scoring)
    for pid in e.correct:
        w.put(dataclasses.replace(w.get(pid), last_correct_seq=w.seq))
    if w.phase == PLAYING:
        reached = [
            pid
            for pid in s.seat_order
            if w.get(pid).status == ACTIVE and check(w.config.win, w.get(pid))
        ]
        _admit_winners(w, reached)
    _close_question(w, by_correct=bool(e.correct) or (e.buzzer is not None and e.buzzer_correct))
    return w.freeze()


def _clock(s: RoundState, e: ClockStart | ClockStop | ClockExpire) -> RoundState:
    if s.config.clock_ms is None:
        raise RuleRefusal("no_clock", "this round has no clock", event=e.kind)
    if s.phase != PLAYING:
        raise RuleRefusal("decision_pending", "a sudden death must be settled first", event=e.kind)
    c = s.clock
    if c.expired:
        raise RuleRefusal("clock_expired", "the clock has already expired", event=e.kind)
    elapsed = e.elapsed_ms if e.elapsed_ms is not None else (c.limit_ms or 0)
    if elapsed < c.elapsed_ms:
        raise RuleRefusal("clock_backwards", "the clock cannot run backwards", elapsed_ms=elapsed)
    w = Work(s)
    if isinstance(e, ClockStart):
        if c.running:
            raise RuleRefusal("clock_running", "the clock is already running")
        w.clock = dataclasses.replace(c, running=True, elapsed_ms=elapsed)
    elif isinstance(e, ClockStop):
        if not c.running:
            raise RuleRefusal("clock_not_running", "the clock is not running")
        w.clock = dataclasses.replace(c, running=False, elapsed_ms=elapsed)
    else:
        w.clock = dataclasses.replace(
            c, running=False, expired=True, elapsed_ms=elapsed, last_question=e.question_in_play
        )
        if not e.question_in_play:
            w.judge("time")
    return w.freeze()


def _tiebreak(s: RoundState, e: TieBreak) -> RoundState:
    if s.phase != DECIDING:
        raise RuleRefusal("no_decision", "no sudden death is pending", side=e.side)
    decision = pending(s, e.side)
    if sorted(e.order) != sorted(decision.candidates):
        raise RuleRefusal(
            "bad_tiebreak_order",
            "the tie-break order must list exactly the tied players",
            expected=sorted(decision.candidates),
            got=list(e.order),
        )
    w = Work(s)
    w.decisions = [
        dataclasses.replace(d, order=e.order) if d is decision else d for d in s.decisions
    ]
    if all(d.order is not None for d in w.decisions):
        w.phase = PLAYING
        w.settle()
    return w.freeze()


def _buzzer_allowed(s: RoundState) -> Allowed:
    players: dict[str, frozenset[str]] = {}
    blocked: dict[str, str] = {}
    board = s.config.scoring.slug == "board"
    for pid in s.seat_order:
        reason = (
            "round_over" if s.phase == OVER else "decision_pending" if s.phase == DECIDING else None
        )
        reason = reason or blocked_reason(s, s.players[pid])
        if reason is None:
            players[pid] = frozenset(
                {"correct", "wrong", "board"} if board else {"correct", "wrong"}
            )
        else:
            players[pid] = frozenset()
            blocked[pid] = reason
    actions: set[str] = set()
    if s.phase == PLAYING:
        actions.add("thru")
        if board:
            actions.add("board")
        if s.config.clock_ms is not None and not s.clock.expired:
            actions.add("clock_stop" if s.clock.running else "clock_start")
            actions.add("clock_expire")
    elif s.phase == DECIDING:
        actions.add("tiebreak")
    return Allowed(players, blocked, frozenset(actions))


def _buzzer_after_start(s: RoundState) -> RoundState:
    w = Work(s)
    w.seq = 0
    _end_checks(w)
    return w.freeze()


#: Registered as ``"buzzer"`` in :mod:`brackets.engine.buzzer.formats`.
FORMAT = Format(_buzzer_apply, _buzzer_allowed, _buzzer_after_start)
