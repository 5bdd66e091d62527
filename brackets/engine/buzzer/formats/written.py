"""Written elimination rounds (L3, M4): everyone writes, the standing thin out.

The same :class:`~brackets.engine.buzzer.state.RoundState` is used: ``active`` means
standing, ``out`` seated, ``won`` passed on (to step 2, or revived outright). One
:class:`~brackets.engine.buzzer.events.WrittenResults` event per question.
"""

from __future__ import annotations

from collections.abc import Sequence

from brackets.engine.buzzer.config import Checkpoint, WrittenRules
from brackets.engine.buzzer.core import Allowed, Format, Work, check_known, check_question
from brackets.engine.buzzer.events import Event, WrittenResults
from brackets.engine.buzzer.rules import key_tuple
from brackets.engine.buzzer.state import ACTIVE, OVER, PLAYING, RoundState
from brackets.engine.errors import RuleRefusal


def _rules(s: RoundState) -> WrittenRules:
    return s.config.written or WrittenRules()


def _apply(s: RoundState, e: Event) -> RoundState:
    if not isinstance(e, WrittenResults):
        raise RuleRefusal(
            "wrong_event_kind", f"{e.kind} events do not belong in a written round", event=e.kind
        )
    check_question(s, e.question)
    marks = dict(e.marks)
    if len(marks) != len(e.marks):
        raise RuleRefusal("duplicate_mark", "a player is marked twice on one question")
    for pid in sorted(marks):
        p = check_known(s, pid)
        if p.status != ACTIVE:
            code = "player_won" if p.status == "won" else "player_out"
            raise RuleRefusal(code, f"player {pid!r} is not standing", player=pid)
    rules = _rules(s)
    w = Work(s)
    q = s.question + 1
    w.question = q
    before = dict(w.players)
    standing = [pid for pid in s.seat_order if w.get(pid).status == ACTIVE]
    for pid in standing:
        p = w.get(pid)
        if marks.get(pid, False):
            w.put(p.evolve(correct=p.correct + 1, points=p.points + 1, last_correct_seq=w.seq))
        else:
            counts = q >= rules.elimination_from
            w.put(
                p.evolve(
                    wrong=p.wrong + 1,
                    misses=p.misses + (1 if counts else 0),
                    first_miss=p.first_miss if p.first_miss is not None else q,
                )
            )
    if q >= rules.elimination_from:
        sitting = [pid for pid in standing if w.get(pid).misses >= rules.lives]
        if sitting and len(sitting) == len(standing) and rules.restand_on_total_drop:
            # Everyone would sit: the question does not count for them (L3, M4).
            for pid in sitting:
                w.put(before[pid])
            sitting = []
        for pid in reversed(w.sort(sitting, ("correct", "fewer_wrong"))):
            w.out(pid)
        left = [pid for pid in standing if pid not in sitting]
        if len(left) <= rules.pass_max:
            _pass(
                w, left, rules, "revived" if rules.single_revives and len(left) == 1 else "passed"
            )
    else:
        checkpoint = next((c for c in rules.checkpoints if c.question == q), None)
        if checkpoint is not None:
            _checkpoint(w, standing, checkpoint, rules)
    if w.phase == PLAYING and q >= rules.last_question:
        left = [pid for pid in s.seat_order if w.get(pid).status == ACTIVE]
        ordered = w.sort(left, rules.final_keys)
        for pid in reversed(ordered[rules.pass_max :]):
            w.out(pid)
        _pass(w, ordered[: rules.pass_max], rules, "limit")
    return w.freeze()


def _pass(w: Work, pids: Sequence[str], rules: WrittenRules, reason: str) -> None:
    for pid in w.sort(pids, ("correct", "fewer_wrong")):
        w.win(pid)
    w.finish(reason)


def _checkpoint(w: Work, standing: list[str], c: Checkpoint, rules: WrittenRules) -> None:
    """M4 phase end: a lone top is revived, a top tie of 2..pass_max passes, else it goes on."""
    best = max(key_tuple(c.keys, w.get(pid)) for pid in standing)
    top = [pid for pid in standing if key_tuple(c.keys, w.get(pid)) == best]
    rest = [pid for pid in standing if pid not in top]
    for pid in reversed(w.sort(rest, c.keys)):
        w.out(pid)
    if len(top) == 1 and rules.single_revives:
        _pass(w, top, rules, "revived")
    elif len(top) <= rules.pass_max:
        _pass(w, top, rules, "passed")


def _allowed(s: RoundState) -> Allowed:
    players: dict[str, frozenset[str]] = {}
    blocked: dict[str, str] = {}
    for pid in s.seat_order:
        p = s.players[pid]
        if s.phase == OVER:
            players[pid], blocked[pid] = frozenset(), "round_over"
        elif p.status == ACTIVE:
            players[pid] = frozenset({"written"})
        else:
            players[pid], blocked[pid] = (
                frozenset(),
                "player_won" if p.status == "won" else "player_out",
            )
    return Allowed(players, blocked, frozenset({"written"} if s.phase == PLAYING else set()))


def _after_start(s: RoundState) -> RoundState:
    rules = _rules(s)
    if rules.lives < 1 or rules.pass_max < 1:
        raise RuleRefusal("bad_config", "written rounds need lives >= 1 and pass_max >= 1")
    if rules.elimination_from <= 1 and not rules.checkpoints and len(s.players) <= rules.pass_max:
        # L3: "12 or fewer standing → step 2" already holds before the first question.
        w = Work(s)
        w.seq = 0
        _pass(w, list(s.seat_order), rules, "passed")
        return w.freeze()
    return s


#: Registered as ``"written"`` in :mod:`brackets.engine.buzzer.formats`.
FORMAT = Format(_apply, _allowed, _after_start)
