"""The registered rule pieces: scoring, conditions, judging keys and tie rules.

Each piece is small and named by a stable slug so a round is assembled from data
(:class:`~brackets.engine.buzzer.config.RoundConfig`). Scoring pieces are pure functions of
one player's state; the engine decides who may answer and when a question closes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from brackets.engine.buzzer.config import PlayerSpec, RoundConfig, Rule
from brackets.engine.buzzer.params import REST_PARAMS, SCORING_PARAMS, param_default
from brackets.engine.buzzer.registry import Registry
from brackets.engine.buzzer.state import PlayerState
from brackets.engine.errors import RuleRefusal


def _int(params: Mapping[str, Any], name: str, default: int) -> int:
    value = params.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleRefusal("bad_config", f"parameter {name!r} must be an integer", param=name)
    return value


def _default(slug: str, name: str) -> int:
    value: int = param_default(SCORING_PARAMS[slug], name)
    return value


# --------------------------------------------------------------------------- scoring


class Scoring:
    """What answers do to a player. Subclasses override only what their rule changes.

    The default is plain n○m×: a correct adds one ○ (and one point), a wrong one ×.
    """

    #: whether an advantage is given as ○ (n○m×) or only as points (連答, +N/−M).
    advantage_as_correct = True

    #: whether the screens show a player's points ("P") or the ○ count: points whenever
    #: the rule's points differ from the ○ count (連答, up-down, +a/−b, boards, NbyN).
    shows_points = False

    #: whether the screens show the two numbers the points are the product of (NbyN).
    shows_factors = False

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.params = dict(params)

    def start(self, p: PlayerState) -> PlayerState:
        """Apply the head start (advantage) at the beginning of the round."""
        if self.advantage_as_correct:
            return dataclasses.replace(
                p, correct=p.correct + p.advantage, points=p.points + p.advantage
            )
        return dataclasses.replace(p, points=p.points + p.advantage)

    def correct(self, p: PlayerState) -> PlayerState:
        """A correct buzz by this player."""
        return dataclasses.replace(p, correct=p.correct + 1, points=p.points + 1)

    def wrong(self, p: PlayerState) -> PlayerState:
        """A wrong buzz by this player."""
        return _missed(p, 1)

    def other_correct(self, p: PlayerState) -> PlayerState:
        """Somebody else answered correctly (連答 clears)."""
        return p

    def board(self, p: PlayerState, ok: bool, n_correct: int) -> PlayerState:
        """A board answer; ``n_correct`` is how many boards were correct on the question."""
        if not ok:
            return p
        return dataclasses.replace(
            p, correct=p.correct + 1, points=p.points + 1, board_correct=p.board_correct + 1
        )

    def reset_set(self, p: PlayerState) -> PlayerState:
        """A new set starts (M6): the per-set counters go back to zero."""
        return dataclasses.replace(p, correct=0, wrong=0, misses=0, points=0, rests=0, streak=False)

    def factors(self, p: PlayerState) -> tuple[int, int] | None:
        """The two numbers the points are the product of, when ``shows_factors``."""
        return None


def _missed(p: PlayerState, marks: int) -> PlayerState:
    return dataclasses.replace(p, wrong=p.wrong + marks, misses=p.misses + 1, streak=False)


SCORING: Registry[type[Scoring]] = Registry("scoring")


@SCORING.register("nomx")
class NomX(Scoring):
    """n○m×: +1○ per correct, +1× per wrong (L1, L2, L4, L10, M6, sudden deaths)."""


@SCORING.register("rentou")
class Rentou(Scoring):
    """連答つき (M2): +1 and the 連答 right; +2 while holding it, which then clears.

    The right also clears on one's own wrong and on anybody else's correct.
    """

    shows_points = True

    advantage_as_correct = False

    def correct(self, p: PlayerState) -> PlayerState:
        gain = _int(self.params, "streak_points", _default("rentou", "streak_points")) if p.streak else _int(self.params, "points", _default("rentou", "points"))
        return dataclasses.replace(
            p, correct=p.correct + 1, points=p.points + gain, streak=not p.streak
        )

    def other_correct(self, p: PlayerState) -> PlayerState:
        return dataclasses.replace(p, streak=False) if p.streak else p


@SCORING.register("updown")
class UpDown(Scoring):
    """N up-down (M3): a wrong sends the points back to 0."""

    shows_points = True

    def wrong(self, p: PlayerState) -> PlayerState:
        return dataclasses.replace(_missed(p, 1), points=0)


@SCORING.register("freeze")
@SCORING.register("rest-n")
class RestN(Scoring):
    """+1 / N休 and Freeze (L7, M3): the k-th wrong rests k questions."""

    def wrong(self, p: PlayerState) -> PlayerState:
        q = _missed(p, 1)
        return dataclasses.replace(q, rests=q.misses * _int(self.params, "factor", _default("rest-n", "factor")))


@SCORING.register("rest-fixed")
class RestFixed(Scoring):
    """+1 / k休 (L8): every wrong rests ``rests`` questions."""

    def wrong(self, p: PlayerState) -> PlayerState:
        return dataclasses.replace(_missed(p, 1), rests=_int(self.params, "rests", _default("rest-fixed", "rests")))


@SCORING.register("swedish")
class Swedish(Scoring):
    """SwedishN (M3): a wrong adds ×s by the ladder of correct answers so far.

    ``ladder`` lists (minimum correct, × added); default 0→1, 1–2→2, 3–5→3, 6+→4.
    """

    DEFAULT_LADDER: tuple[tuple[int, int], ...] = ((0, 1), (1, 2), (3, 3), (6, 4))

    def marks_for(self, correct: int) -> int:
        """× added by a wrong at ``correct`` correct answers."""
        ladder: Sequence[Sequence[int]] = self.params.get("ladder", self.DEFAULT_LADDER)
        marks = 1
        for threshold, value in ladder:
            if correct >= threshold:
                marks = value
        return marks

    def wrong(self, p: PlayerState) -> PlayerState:
        return _missed(p, self.marks_for(p.correct))


@SCORING.register("by")
class ByN(Scoring):
    """NbyN (M3 10by10): points = correct × (N − wrong); starts at 0 × N."""

    advantage_as_correct = True
    shows_points = True
    shows_factors = True

    def _points(self, correct: int, wrong: int) -> int:
        return correct * (_int(self.params, "n", _default("by", "n")) - wrong)

    def factors(self, p: PlayerState) -> tuple[int, int] | None:
        """正解ポイント and 誤答ポイント (N − wrong), shown beside the product (M3)."""
        return (p.correct, _int(self.params, "n", _default("by", "n")) - p.wrong)

    def start(self, p: PlayerState) -> PlayerState:
        c = p.correct + p.advantage
        return dataclasses.replace(p, correct=c, points=self._points(c, p.wrong))

    def correct(self, p: PlayerState) -> PlayerState:
        return dataclasses.replace(
            p, correct=p.correct + 1, points=self._points(p.correct + 1, p.wrong)
        )

    def wrong(self, p: PlayerState) -> PlayerState:
        q = _missed(p, 1)
        return dataclasses.replace(q, points=self._points(q.correct, q.wrong))


@SCORING.register("plus-minus")
class PlusMinus(Scoring):
    """+a / −b (L9, M5): points move by ``plus`` on a correct and ``minus`` on a wrong."""

    shows_points = True

    advantage_as_correct = False

    def correct(self, p: PlayerState) -> PlayerState:
        return dataclasses.replace(
            p, correct=p.correct + 1, points=p.points + _int(self.params, "plus", _default("plus-minus", "plus"))
        )

    def wrong(self, p: PlayerState) -> PlayerState:
        return dataclasses.replace(_missed(p, 1), points=p.points - _int(self.params, "minus", _default("plus-minus", "minus")))


@SCORING.register("board")
class Board(Scoring):
    """Board quizzes (L5, L6).

    A correct board scores ``board`` points, plus ``bonus`` when at most ``bonus_max``
    boards were correct on the question. A buzz scores ``plus`` / −``minus``. Points may go
    negative (L6).
    """

    shows_points = True

    advantage_as_correct = False

    def correct(self, p: PlayerState) -> PlayerState:
        return dataclasses.replace(
            p, correct=p.correct + 1, points=p.points + _int(self.params, "plus", _default("board", "plus"))
        )

    def wrong(self, p: PlayerState) -> PlayerState:
        return dataclasses.replace(_missed(p, 1), points=p.points - _int(self.params, "minus", _default("board", "minus")))

    def board(self, p: PlayerState, ok: bool, n_correct: int) -> PlayerState:
        if not ok:
            return dataclasses.replace(p, points=p.points - _int(self.params, "board_minus", _default("board", "board_minus")))
        gain = _int(self.params, "board", _default("board", "board"))
        if n_correct <= _int(self.params, "bonus_max", _default("board", "bonus_max")):
            gain += _int(self.params, "bonus", _default("board", "bonus"))
        return dataclasses.replace(
            p, correct=p.correct + 1, points=p.points + gain, board_correct=p.board_correct + 1
        )


def scoring_for(config: RoundConfig) -> Scoring:
    """The scoring piece of a round."""
    return SCORING.get(config.scoring.slug)(config.scoring.params)


# ------------------------------------------------------------------------ conditions

Condition = Callable[[PlayerState, Rule], bool]
CONDITIONS: Registry[Condition] = Registry("condition")


@CONDITIONS.register("correct-at-least")
def _correct_at_least(p: PlayerState, rule: Rule) -> bool:
    """n○ (includes the ○ advantage)."""
    return p.correct >= rule.int_param("n")


@CONDITIONS.register("points-at-least")
def _points_at_least(p: PlayerState, rule: Rule) -> bool:
    """n points (連答, up-down, board 40P, 10by10's product)."""
    return p.points >= rule.int_param("n")


@CONDITIONS.register("wrong-at-least")
def _wrong_at_least(p: PlayerState, rule: Rule) -> bool:
    """m× marks (Swedish counts its ladder marks)."""
    return p.wrong >= rule.int_param("n")


@CONDITIONS.register("misses-at-least")
def _misses_at_least(p: PlayerState, rule: Rule) -> bool:
    """m wrong answers (the 3× lockout of L7–L9)."""
    return p.misses >= rule.int_param("n")


@CONDITIONS.register("points-at-most")
def _points_at_most(p: PlayerState, rule: Rule) -> bool:
    """Points fell to n or below (minus-point knock-outs)."""
    return p.points <= rule.int_param("n")


def check(rule: Rule | None, p: PlayerState) -> bool:
    """Whether a configured condition holds (no condition: never)."""
    return rule is not None and CONDITIONS.get(rule.slug)(p, rule)


# ---------------------------------------------------------------------- rest pieces

RestRule = Callable[[PlayerState, Rule], int]
REST_RULES: Registry[RestRule] = Registry("rest rule")


@REST_RULES.register("nth")
def _rest_nth(p: PlayerState, rule: Rule) -> int:
    """The k-th miss rests k questions (× ``factor``): N休, Freeze."""
    return p.misses * _int(rule.params, "factor", param_default(REST_PARAMS["nth"], "factor"))


@REST_RULES.register("fixed")
def _rest_fixed(p: PlayerState, rule: Rule) -> int:
    """Every miss rests ``n`` questions: k休."""
    return rule.int_param("n")


def rests_after_miss(rule: Rule | None, p: PlayerState) -> PlayerState:
    """Apply a round's separate rest piece (``RoundConfig.rests``) after a miss.

    It composes with any scoring, e.g. 連答 with 1休; the scoring pieces ``rest-n`` and
    ``rest-fixed`` are the same rests bundled with +1 scoring.
    """
    if rule is None:
        return p
    return p.evolve(rests=REST_RULES.get(rule.slug)(p, rule))


# ------------------------------------------------------------------------ judge keys

JudgeKey = Callable[[PlayerState], float]
JUDGE_KEYS: Registry[JudgeKey] = Registry("judge key")


def _key(slug: str, fn: JudgeKey) -> None:
    JUDGE_KEYS.register(slug)(fn)


# Every key returns a number where larger is better.
_key("correct", lambda p: p.correct)
_key("points", lambda p: p.points)
_key("fewer_wrong", lambda p: -p.wrong)
_key("fewer_misses", lambda p: -p.misses)
_key("board_correct", lambda p: p.board_correct)
_key("sets", lambda p: p.sets)
_key("later_first_miss", lambda p: float("inf") if p.first_miss is None else p.first_miss)
_key(
    "earliest_last_correct",
    lambda p: float("-inf") if p.last_correct_seq is None else -p.last_correct_seq,
)


def key_tuple(keys: Sequence[str], p: PlayerState) -> tuple[float, ...]:
    """The judging values of a player (larger is better)."""
    return tuple(JUDGE_KEYS.get(k)(p) for k in keys)


# ------------------------------------------------------------------------- tie rules


@dataclass(frozen=True)
class TieRule:
    """What happens to a tie straddling a line (L11, M3, M5).

    ``decides`` False sends the tie straight to fallback rank. ``question_limit`` builds
    the sudden death's limit from the number of participants (L11: n + 2; None: no limit).
    ``called`` is what the rules call the deciding round: M3/M5 an 早押しプレーオフ
    (``"playoff"``), L11 a サドンデス (``"sudden_death"``).
    """

    decides: bool
    limit_extra: int | None = None
    called: str = "sudden_death"

    def subround(
        self, candidates: Sequence[PlayerState], side: str, places: int
    ) -> tuple[RoundConfig, list[PlayerSpec]]:
        """The 1○1× round that settles one decision; its final ranking is the order."""
        n = len(candidates)
        config = RoundConfig(
            scoring=Rule("nomx"),
            win=Rule("correct-at-least", {"n": 1}),
            loss=Rule("wrong-at-least", {"n": 1}),
            slots=places,
            question_limit=None if self.limit_extra is None else n + self.limit_extra,
            judge_keys=("correct", "fewer_wrong"),
            tie_rule="rank",
        )
        specs = [PlayerSpec(p.id, seat, p.rank) for seat, p in enumerate(candidates, start=1)]
        return config, specs


TIE_RULES: Registry[TieRule] = Registry("tie rule")
TIE_RULES.register("split-1o1x")(TieRule(True, 2))
TIE_RULES.register("playoff")(TieRule(True, None, "playoff"))
TIE_RULES.register("rank")(TieRule(False))
