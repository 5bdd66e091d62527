"""How one round is played: the composable settings a tournament stores per round.

Every choice the rule pages make (win at 5○, out at 2×, 35-question limit, judging
"○ → × → sudden death", advantages 3,2,2,1,1,1 by seat ...) is a field here, and every
behaviour is a registered piece named by slug (:mod:`brackets.engine.buzzer.rules`), so a
hidden tournament with different numbers needs new data, not new code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from brackets.engine.errors import RuleRefusal


@dataclass(frozen=True)
class Rule:
    """A registered piece and its parameters, e.g. ``Rule("wrong-at-least", {"n": 2})``."""

    slug: str
    # Left out of the hash so configs stay hashable (cache keys); equality still uses it.
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict for storage."""
        return {"slug": self.slug, "params": dict(self.params)}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Rule:
        """Inverse of :meth:`to_dict`."""
        return Rule(str(data["slug"]), dict(data.get("params", {})))

    def int_param(self, name: str, default: int | None = None) -> int:
        """An integer parameter; a missing or non-integer one is a configuration bug."""
        value = self.params.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleRefusal(
                "bad_config",
                f"rule {self.slug!r} needs integer {name!r}",
                slug=self.slug,
                param=name,
            )
        return value


@dataclass(frozen=True)
class Checkpoint:
    """A written-quiz phase end (M4): after ``question``, look at the top tie by ``keys``."""

    question: int
    keys: tuple[str, ...] = ("correct",)


@dataclass(frozen=True)
class WrittenRules:
    """Written elimination (L3, M4) settings.

    ``lives`` wrong/blank answers counted from question ``elimination_from`` make a player
    sit. ``checkpoints`` are batch phase ends before that (M4: Q10, Q15). When at most
    ``pass_max`` stand, they pass; with ``single_revives`` a lone survivor or a lone top is
    revived outright (M4). When a question would seat everybody, the players who sat on it
    stand again (L3, M4). After ``last_question`` the standing are ranked by ``final_keys``
    (then fallback rank) and the top ``pass_max`` pass.
    """

    lives: int = 2
    elimination_from: int = 1
    checkpoints: tuple[Checkpoint, ...] = ()
    last_question: int = 15
    pass_max: int = 12
    single_revives: bool = False
    final_keys: tuple[str, ...] = ("fewer_wrong",)
    restand_on_total_drop: bool = True


@dataclass(frozen=True)
class RoundConfig:
    """One round (or one set, or one sudden death) of a live quiz.

    * ``scoring`` — what a correct / wrong / board answer does (registry ``SCORING``).
    * ``win`` / ``loss`` / ``lockout`` — conditions (registry ``CONDITIONS``); ``lockout``
      stops a player answering but keeps them ranked (L7–L9); with ``sets_to_win`` the win
      condition takes a set and ``lockout`` ends the set for that player (M6).
    * ``slots`` — how many win the round; ``eliminate`` — how many are out at judging
      (``None``: everyone who does not win; ``0``: nobody, e.g. set 1 of a race).
    * ``question_limit`` / ``clock_ms`` — when judging happens. With a clock, the question
      being read at expiry still counts (M3, M5). ``clock_stops_on_win_out`` (M3).
    * ``judge_keys`` — ordered judging chain at the limit (registry ``JUDGE_KEYS``); a tie
      straddling a line then goes to ``tie_rule`` (registry ``TIE_RULES``), and any other
      tie to the players' fallback rank (L11).
    * ``rests`` — an extra rest piece after each miss (registry ``REST_RULES``), for
      combinations the scoring pieces do not bundle.
    * ``advantages`` — head start by seat (seat 1 first).
    * ``protest_window`` — how many questions after a question its judgement may still be
      protested without the organiser (seed 003: until the question two later is read).
    * ``show_answer`` — the stage and overlays show the answer of the last judged question
      of the round's question file (never of the question being read).
    * ``remaining_advance`` — when the players still in play are no more than the open
      slots, they all advance at once (M2's "7 out", M3's "3 out", M4's last one).
    """

    format: str = "buzzer"
    scoring: Rule = Rule("nomx")
    win: Rule | None = None
    loss: Rule | None = None
    lockout: Rule | None = None
    slots: int = 0
    eliminate: int | None = None
    question_limit: int | None = None
    clock_ms: int | None = None
    clock_stops_on_win_out: bool = False
    judge_keys: tuple[str, ...] = ("correct", "fewer_wrong")
    tie_rule: str = "split-1o1x"
    advantages: tuple[int, ...] = ()
    remaining_advance: bool = True
    wrong_closes_question: bool = False
    sets_to_win: int | None = None
    rests: Rule | None = None
    written: WrittenRules | None = None
    protest_window: int = 2
    show_answer: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict for storage next to the event log."""
        data: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Rule):
                data[f.name] = value.to_dict()
            elif isinstance(value, WrittenRules):
                written = {w.name: getattr(value, w.name) for w in fields(value)}
                written["checkpoints"] = [
                    {"question": c.question, "keys": list(c.keys)} for c in value.checkpoints
                ]
                written["final_keys"] = list(value.final_keys)
                data[f.name] = written
            elif isinstance(value, tuple):
                data[f.name] = list(value)
            else:
                data[f.name] = value
        return data

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> RoundConfig:
        """Inverse of :meth:`to_dict`."""
        kwargs: dict[str, Any] = {}
        for f in fields(RoundConfig):
            if f.name not in data:
                continue
            value = data[f.name]
            if f.name in ("scoring", "win", "loss", "lockout", "rests"):
                kwargs[f.name] = None if value is None else Rule.from_dict(value)
            elif f.name == "written":
                if value is None:
                    kwargs[f.name] = None
                else:
                    w = dict(value)
                    w["checkpoints"] = tuple(
                        Checkpoint(int(c["question"]), tuple(c["keys"]))
                        for c in w.get("checkpoints", [])
                    )
                    w["final_keys"] = tuple(w.get("final_keys", ()))
                    kwargs[f.name] = WrittenRules(**w)
            elif isinstance(value, list):
                kwargs[f.name] = tuple(value)
            else:
                kwargs[f.name] = value
        return RoundConfig(**kwargs)


@dataclass(frozen=True)
class PlayerSpec:
    """A player entering a round.

    ``seat`` is 1-based (seat 1 = top seat). ``rank`` is the fallback order used for any
    tie the rules send to "1st Round rank" (lower is better; defaults to the seat).
    ``advantage`` overrides the seat advantage. ``points``, ``rests`` and
    ``board_correct`` are carried from an earlier set or phase (L6, L8, M5).
    """

    id: str
    seat: int
    rank: int | None = None
    advantage: int | None = None
    points: int = 0
    rests: int = 0
    board_correct: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Plain dict for storage with the round."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> PlayerSpec:
        """Inverse of :meth:`to_dict`."""
        return PlayerSpec(**{f.name: data[f.name] for f in fields(PlayerSpec) if f.name in data})

    @property
    def fallback(self) -> int:
        """The fallback rank (seat when no rank was given)."""
        return self.rank if self.rank is not None else self.seat
