"""Shared machinery of the round formats: the working copy, judging and input checks.

Not public API: :mod:`brackets.engine.buzzer.engine` is. Kept apart so each format module
(:mod:`.formats.buzz`, :mod:`.formats.written`) builds on it without importing the engine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from brackets.engine.buzzer.events import (
    Event,
)
from brackets.engine.buzzer.rules import TIE_RULES, key_tuple
from brackets.engine.buzzer.state import (
    DECIDING,
    LOCKED,
    OUT,
    OVER,
    WON,
    Decision,
    PlayerState,
    RoundState,
)
from brackets.engine.errors import RuleRefusal


@dataclass(frozen=True)
class Format:
    """A round format: how events change the state and which buttons make sense."""

    apply: Callable[[RoundState, Event], RoundState]
    allowed: Callable[[RoundState], Allowed]
    after_start: Callable[[RoundState], RoundState]


@dataclass(frozen=True)
class Allowed:
    """Which operator buttons are enabled now.

    ``players`` maps each player to the actions allowed for them (``"correct"``,
    ``"wrong"``, ``"board"``, ``"written"``); ``blocked`` gives the error code explaining
    why a player has none. ``round`` holds round-level actions (``"thru"``, ``"board"``,
    ``"written"``, ``"clock_start"``, ``"clock_stop"``, ``"clock_expire"``,
    ``"tiebreak"``, ``"undo"``).
    """

    players: dict[str, frozenset[str]]
    blocked: dict[str, str]
    round: frozenset[str]


# -------------------------------------------------------------------------- helpers


def sort_key(keys: Sequence[str], p: PlayerState) -> tuple[float, ...]:
    """Ascending sort key: judging keys (best first), then fallback rank, then seat."""
    return tuple(-v for v in key_tuple(keys, p)) + (p.rank, p.seat)


def pending(state: RoundState, side: str) -> Decision:
    """The unresolved decision on ``side``, or ``no_such_decision``."""
    for d in state.decisions:
        if d.side == side and d.order is None:
            return d
    raise RuleRefusal("no_such_decision", f"no pending {side} decision", side=side)


def resolved_blocks(state: RoundState) -> list[tuple[str, ...]]:
    """The judged tie blocks with any tie-break orders already applied."""
    by_members = {frozenset(d.candidates): d.order for d in state.decisions if d.order is not None}
    return [by_members.get(frozenset(block), block) or block for block in state.judged]


class Work:
    """A mutable copy of a state for one event; ``freeze`` gives the next state."""

    def __init__(self, s: RoundState) -> None:
        self.s = s
        self.config = s.config
        self.players = dict(s.players)
        self.phase = s.phase
        self.question = s.question
        self.open_wrongs = set(s.open_wrongs)
        self.correct_questions = s.correct_questions
        self.clock = s.clock
        self.winners = list(s.winners)
        self.outs = list(s.outs)
        self.continuing: list[str] = list(s.continuing)
        self.decisions = list(s.decisions)
        self.judged = list(s.judged)
        self.end_reason = s.end_reason
        self.changed_status = False
        self.set_awarded = False
        self.seq = s.seq + 1

    # -- players
    def get(self, pid: str) -> PlayerState:
        """Current working state of a player."""
        return self.players[pid]

    def put(self, p: PlayerState) -> None:
        """Replace a player's working state."""
        self.players[p.id] = p

    def remaining(self) -> list[str]:
        """Players still in play, in seat order."""
        return [pid for pid in self.s.seat_order if self.players[pid].in_play]

    def open_slots(self) -> int:
        """Win places not yet taken."""
        return max(self.config.slots - len(self.winners), 0)

    def win(self, pid: str) -> None:
        """Record the next winner (win order = arrival)."""
        self.put(
            dataclasses.replace(self.get(pid), status=WON, win_order=len(self.winners) + 1, rests=0)
        )
        self.winners.append(pid)
        self.changed_status = True

    def out(self, pid: str) -> None:
        """Record the next elimination."""
        self.put(
            dataclasses.replace(self.get(pid), status=OUT, out_order=len(self.outs) + 1, rests=0)
        )
        self.outs.append(pid)
        self.changed_status = True

    def sort(self, pids: Iterable[str], keys: Sequence[str] | None = None) -> list[str]:
        """Players best first by ``keys`` (default: the round's judging keys)."""
        k = self.config.judge_keys if keys is None else keys
        return sorted(pids, key=lambda pid: sort_key(k, self.players[pid]))

    def finish(self, reason: str) -> None:
        """Close the round; the clock stops for good."""
        self.phase = OVER
        self.end_reason = reason
        self.clock = dataclasses.replace(self.clock, running=False)

    # -- judging
    def judge(self, reason: str, segments: Sequence[Sequence[str]] | None = None) -> None:
        """Order the players in play, settle the lines, or ask for a sudden death (L11)."""
        keys = self.config.judge_keys
        if segments is None:
            segments = [self.remaining()]
        blocks: list[tuple[str, ...]] = []
        for segment in segments:
            ordered = self.sort(segment)
            current: list[str] = []
            for pid in ordered:
                if current and key_tuple(keys, self.players[current[0]]) != key_tuple(
                    keys, self.players[pid]
                ):
                    blocks.append(tuple(current))
                    current = []
                current.append(pid)
            if current:
                blocks.append(tuple(current))
        n = sum(len(b) for b in blocks)
        open_ = min(self.open_slots(), n)
        elim = n - open_ if self.config.eliminate is None else min(self.config.eliminate, n - open_)
        win_line = open_
        loss_line = n - elim
        rule = TIE_RULES.get(self.config.tie_rule)
        decisions: list[Decision] = []
        start = 0
        for block in blocks:
            end = start + len(block)
            crosses_win = start < win_line < end
            crosses_loss = loss_line != win_line and start < loss_line < end
            if rule.decides and crosses_win and crosses_loss:
                decisions.append(Decision("both", block, win_line - start, end - loss_line))
            elif rule.decides and crosses_win:
                decisions.append(Decision("win", block, win_line - start, end - win_line))
            elif rule.decides and crosses_loss:
                decisions.append(Decision("loss", block, loss_line - start, end - loss_line))
            start = end
        self.judged = blocks
        self.decisions = decisions
        self.end_reason = reason
        if decisions:
            self.phase = DECIDING
            self.clock = dataclasses.replace(self.clock, running=False)
        else:
            self.settle()

    def settle(self) -> None:
        """Apply the judged order (with tie-break results) to winners, outs, continuing."""
        by_members = {
            frozenset(d.candidates): d.order for d in self.decisions if d.order is not None
        }
        order = [
            pid for block in self.judged for pid in (by_members.get(frozenset(block)) or block)
        ]
        n = len(order)
        open_ = min(self.open_slots(), n)
        elim = n - open_ if self.config.eliminate is None else min(self.config.eliminate, n - open_)
        for pid in order[:open_]:
            self.win(pid)
        self.continuing = order[open_ : n - elim]
        for pid in reversed(order[n - elim :]):
            self.out(pid)
        self.finish(self.end_reason or "judged")

    # -- freeze
    def freeze(self) -> RoundState:
        """The immutable next state."""
        return dataclasses.replace(
            self.s,
            players=self.players,
            phase=self.phase,
            question=self.question,
            open_wrongs=frozenset(self.open_wrongs),
            correct_questions=self.correct_questions,
            clock=self.clock,
            winners=tuple(self.winners),
            outs=tuple(self.outs),
            continuing=tuple(self.continuing),
            decisions=tuple(self.decisions),
            judged=tuple(self.judged),
            end_reason=self.end_reason,
        )


def check_question(s: RoundState, number: int | None, *, is_correct: bool = False) -> None:
    """Guard against double clicks: a numbered event must target the question in play."""
    if number is None:
        return
    expected = s.question + 1
    if number == expected:
        return
    if number < expected:
        if is_correct and number in s.correct_questions:
            raise RuleRefusal(
                "second_correct", f"question {number} already has a correct answer", question=number
            )
        raise RuleRefusal(
            "question_closed", f"question {number} is already closed", question=number
        )
    raise RuleRefusal(
        "question_ahead",
        f"question {number} is not in play yet",
        question=number,
        expected=expected,
    )


def check_known(s: RoundState, pid: str) -> PlayerState:
    """The player, or ``unknown_player``."""
    p = s.players.get(pid)
    if p is None:
        raise RuleRefusal("unknown_player", f"no player {pid!r} in this round", player=pid)
    return p


def blocked_reason(s: RoundState, p: PlayerState) -> str | None:
    """Why ``p`` may not answer the question in play (an error code), or None."""
    if p.status == WON:
        return "player_won"
    if p.status == OUT:
        return "player_out"
    if p.status == LOCKED:
        return "player_locked"
    if p.rests > 0:
        return "player_resting"
    if p.id in s.open_wrongs:
        return "already_answered"
    return None


def check_can_answer(s: RoundState, pid: str) -> PlayerState:
    """The player if they may answer the question in play; otherwise a clear error."""
    p = check_known(s, pid)
    reason = blocked_reason(s, p)
    if reason is not None:
        raise RuleRefusal(reason, f"player {pid!r} cannot answer now ({reason})", player=pid)
    return p
