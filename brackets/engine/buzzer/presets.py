"""Whole tournaments as data: seed 003 (``quiz-003``) and seed 004 (``abc-the25th-004``).

A preset lists its rounds in playing order. Each :class:`RoundPreset` holds the round's
:class:`~brackets.engine.buzzer.config.RoundConfig` (``None`` for a round scored outside
this engine, such as a paper quiz or an unspecified 1st Round) and a :class:`Feed` saying
which players come from which earlier rounds, in what seat order, split how, and what they
carry. :func:`entrants` evaluates a feed against finished round states.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from brackets.engine.buzzer.assignment import PaperRules, mod_split, number10_priority, snake
from brackets.engine.buzzer.config import Checkpoint, PlayerSpec, RoundConfig, Rule, WrittenRules
from brackets.engine.buzzer.registry import Registry
from brackets.engine.buzzer.state import OVER, RoundState
from brackets.engine.errors import RuleRefusal


@dataclass(frozen=True)
class Feed:
    """How a round's players are found.

    * ``sources`` — earlier round slugs (``"1r"`` = the 1st Round ranking passed in).
    * ``take`` — ``"winners"``, ``"continuing"`` (not yet decided after a set or phase), or
      ``"losers"`` (everyone ranked except the winners of ``sources``: "all losers so far").
    * ``order`` — ``"source"`` (sources in listed order, within each by win order then 1st
      Round rank), ``"rank"`` (1st Round rank), ``"state"`` (the source's own final order,
      e.g. phase-1 points), ``"number10"`` (2R pass position → 1R rank, M3).
    * ``grouping`` — ``"single"``, ``"snake"``, ``"mod"``, or ``"courses"`` (players
      choose, see :func:`~brackets.engine.buzzer.assignment.number10_courses`).
    * ``carry`` — values carried from the source state: ``"points"``, ``"rests"``,
      ``"board_correct"``.
    * ``perfect_advantage`` — ○ head start for players with no wrong in the source (L4).
    * ``fallback`` — ``"first_round"`` (ties go to 1R rank, L11) or ``"feed_order"``
      (M6: semi-final pass order).
    * ``limit`` — take only the first N (1R → 2R cut).
    """

    sources: tuple[str, ...]
    take: str = "winners"
    order: str = "source"
    grouping: str = "single"
    groups: int = 1
    carry: tuple[str, ...] = ()
    perfect_advantage: int = 0
    fallback: str = "first_round"
    limit: int | None = None


@dataclass(frozen=True)
class RoundPreset:
    """One round of a preset tournament; ``rule`` points at the domain brief (L1, M3 …).

    ``skip_when_revived_from`` names a written round whose lone-survivor revival makes this
    round unnecessary (M4): its winner then stands in for this round's winner.
    """

    slug: str
    name: str
    rule: str
    config: RoundConfig | None
    feed: Feed | None
    skip_when_revived_from: str | None = None
    paper: PaperRules | None = None

    @property
    def kind(self) -> str:
        """``"paper"``, ``"external"`` (scored elsewhere) or the config's round format."""
        if self.paper is not None:
            return "paper"
        return "external" if self.config is None else self.config.format


@dataclass(frozen=True)
class TournamentPreset:
    """A whole tournament, round by round."""

    slug: str
    name: str
    rounds: tuple[RoundPreset, ...]

    def round(self, slug: str) -> RoundPreset:
        """One round by slug."""
        for r in self.rounds:
            if r.slug == slug:
                return r
        raise RuleRefusal("unknown_round", f"no round {slug!r} in {self.slug}", round=slug)

    def next_rounds(self, slug: str) -> list[str]:
        """Rounds fed (directly) by ``slug``: which rounds its players go on to."""
        return [r.slug for r in self.rounds if r.feed is not None and slug in r.feed.sources]


PRESETS: Registry[TournamentPreset] = Registry("tournament preset")


def _nomx(n: int, m: int, **kw: Any) -> RoundConfig:
    return RoundConfig(
        scoring=Rule("nomx"),
        win=Rule("correct-at-least", {"n": n}),
        loss=Rule("wrong-at-least", {"n": m}),
        **kw,
    )


MINUTE = 60_000

QUIZ_003 = PRESETS.register("quiz-003")(
    TournamentPreset(
        "quiz-003",
        "Seed 003: 5○2× → 7○3× → 2-step revival → board QF → 3-set SF → 12○5×",
        (
            RoundPreset("1r", "1st Round", "-", None, None),
            RoundPreset("special", "Special Round", "-", None, None),
            RoundPreset(
                "2r",
                "2nd Round 5○2×",
                "L1",
                _nomx(5, 2, slots=5, question_limit=35, advantages=(3, 2, 2, 1, 1, 1)),
                Feed(("1r",), order="rank", grouping="snake"),
            ),
            RoundPreset(
                "3r",
                "3rd Round 7○3× (7→3)×5",
                "L2",
                _nomx(7, 3, slots=3, question_limit=45, advantages=(1,)),
                Feed(("special", "2r"), order="source", grouping="snake", groups=5),
            ),
            RoundPreset(
                "extra-1",
                "Extra Round 1st Step: 15-question written elimination",
                "L3",
                RoundConfig(
                    format="written",
                    judge_keys=("correct", "fewer_wrong"),
                    written=WrittenRules(
                        lives=2,
                        elimination_from=1,
                        last_question=15,
                        pass_max=12,
                        final_keys=("fewer_wrong",),
                    ),
                ),
                Feed(("3r",), take="losers", order="rank"),
            ),
            RoundPreset(
                "extra-2",
                "Extra Round 2nd Step 4○1×",
                "L4",
                _nomx(4, 1, slots=1, question_limit=30, judge_keys=("correct",)),
                Feed(("extra-1",), order="source", perfect_advantage=1),
            ),
            RoundPreset(
                "qf-1",
                "Quarter Final Phase 1: board quiz",
                "L5",
                RoundConfig(
                    scoring=Rule("board", {"board": 2, "bonus": 1, "bonus_max": 4}),
                    slots=0,
                    eliminate=0,
                    question_limit=15,
                    judge_keys=("points",),
                    tie_rule="rank",
                ),
                Feed(("3r", "extra-2"), order="rank"),
            ),
            RoundPreset(
                "qf-2",
                "Quarter Final Phase 2: buzz board quiz (8→4)×2",
                "L6",
                RoundConfig(
                    scoring=Rule(
                        "board", {"plus": 4, "minus": 4, "board": 2, "bonus": 1, "bonus_max": 2}
                    ),
                    win=Rule("points-at-least", {"n": 40}),
                    slots=4,
                    question_limit=15,
                    judge_keys=("points", "board_correct"),
                ),
                Feed(
                    ("qf-1",),
                    take="continuing",
                    order="state",
                    grouping="mod",
                    groups=2,
                    carry=("points", "board_correct"),
                ),
            ),
            RoundPreset(
                "sf-1",
                "Semi Final 1st Set +1/N休",
                "L7",
                RoundConfig(
                    scoring=Rule("rest-n"),
                    lockout=Rule("misses-at-least", {"n": 3}),
                    slots=1,
                    eliminate=1,
                    question_limit=35,
                    judge_keys=("points", "fewer_misses"),
                ),
                Feed(("qf-2",), order="source"),
            ),
            RoundPreset(
                "sf-2",
                "Semi Final 2nd Set +1/2休",
                "L8",
                RoundConfig(
                    scoring=Rule("rest-fixed", {"rests": 2}),
                    lockout=Rule("misses-at-least", {"n": 3}),
                    slots=1,
                    eliminate=1,
                    question_limit=30,
                    judge_keys=("points", "fewer_misses"),
                ),
                Feed(("sf-1",), take="continuing", order="state", carry=("points", "rests")),
            ),
            RoundPreset(
                "sf-3",
                "Semi Final 3rd Set +2/−1",
                "L9",
                RoundConfig(
                    scoring=Rule("plus-minus", {"plus": 2, "minus": 1}),
                    lockout=Rule("misses-at-least", {"n": 3}),
                    slots=2,
                    question_limit=25,
                    judge_keys=("points", "fewer_misses"),
                ),
                Feed(("sf-2",), take="continuing", order="state", carry=("points", "rests")),
            ),
            RoundPreset(
                "final",
                "Final 12○5×",
                "L10",
                _nomx(12, 5, slots=1, question_limit=50),
                Feed(("sf-1", "sf-2", "sf-3"), order="source"),
            ),
        ),
    )
)


def _course(scoring: Rule, win: Rule, loss: Rule | None, keys: tuple[str, ...]) -> RoundConfig:
    return RoundConfig(
        scoring=scoring,
        win=win,
        loss=loss,
        slots=2,
        clock_ms=15 * MINUTE,
        clock_stops_on_win_out=True,
        judge_keys=keys,
        tie_rule="playoff",
    )


def _race_set(plus: int, minus: int) -> RoundConfig:
    return RoundConfig(
        scoring=Rule("plus-minus", {"plus": plus, "minus": minus}),
        slots=1,
        eliminate=2,
        clock_ms=5 * MINUTE,
        judge_keys=("points",),
        tie_rule="playoff",
    )


_COURSE_FEED = Feed(("2r",), order="number10", grouping="courses")

ABC_004 = PRESETS.register("abc-the25th-004")(
    TournamentPreset(
        "abc-the25th-004",
        "Seed 004 (abc the25th rules): paper → 連答5○2× → Number10 → revival → Nine Hundred → Triple Seven",
        (
            RoundPreset(
                "1r",
                "1st Round 100-question paper quiz",
                "M1",
                None,
                None,
                paper=PaperRules(questions=100, first_half=50, advance=48),
            ),
            RoundPreset(
                "2r",
                "2nd Round 連答つき5○2× (12→5)×4",
                "M2",
                RoundConfig(
                    scoring=Rule("rentou"),
                    win=Rule("points-at-least", {"n": 5}),
                    loss=Rule("wrong-at-least", {"n": 2}),
                    slots=5,
                    judge_keys=("points", "fewer_wrong"),
                    tie_rule="rank",
                    advantages=(3, 2, 2, 1, 1, 1),
                ),
                Feed(("1r",), order="rank", grouping="snake", groups=4, limit=48),
            ),
            RoundPreset(
                "3r-updown",
                "3rd Round Number10: 10 up-down",
                "M3",
                _course(
                    Rule("updown"),
                    Rule("points-at-least", {"n": 10}),
                    Rule("wrong-at-least", {"n": 2}),
                    ("points",),
                ),
                _COURSE_FEED,
            ),
            RoundPreset(
                "3r-freeze",
                "3rd Round Number10: Freeze10",
                "M3",
                _course(
                    Rule("rest-n"),
                    Rule("correct-at-least", {"n": 10}),
                    None,
                    ("correct", "fewer_wrong"),
                ),
                _COURSE_FEED,
            ),
            RoundPreset(
                "3r-swedish",
                "3rd Round Number10: Swedish10",
                "M3",
                _course(
                    Rule("swedish"),
                    Rule("correct-at-least", {"n": 10}),
                    Rule("wrong-at-least", {"n": 10}),
                    ("correct", "fewer_wrong"),
                ),
                _COURSE_FEED,
            ),
            RoundPreset(
                "3r-10by10",
                "3rd Round Number10: 10by10",
                "M3",
                _course(
                    Rule("by", {"n": 10}),
                    Rule("points-at-least", {"n": 100}),
                    Rule("wrong-at-least", {"n": 6}),
                    ("points",),
                ),
                _COURSE_FEED,
            ),
            RoundPreset(
                "extra-1",
                "Extra Round First Step: written phases and survival",
                "M4",
                RoundConfig(
                    format="written",
                    judge_keys=("correct", "later_first_miss"),
                    written=WrittenRules(
                        lives=1,
                        elimination_from=16,
                        checkpoints=(
                            Checkpoint(10, ("correct",)),
                            Checkpoint(15, ("correct", "later_first_miss")),
                        ),
                        last_question=20,
                        pass_max=12,
                        single_revives=True,
                        final_keys=(),
                    ),
                ),
                Feed(
                    ("3r-updown", "3r-freeze", "3r-swedish", "3r-10by10"),
                    take="losers",
                    order="rank",
                ),
            ),
            RoundPreset(
                "extra-2",
                "Extra Round Second Step: first to 5, one wrong out",
                "M4",
                _nomx(5, 1, slots=1, judge_keys=("correct",)),
                Feed(("extra-1",), order="source"),
                skip_when_revived_from="extra-1",
            ),
            RoundPreset(
                "sf-1",
                "Semi Final Nine Hundred set 1 (+1/−1)",
                "M5",
                _race_set(1, 1),
                Feed(
                    ("3r-updown", "3r-freeze", "3r-swedish", "3r-10by10", "extra-2"), order="source"
                ),
            ),
            RoundPreset(
                "sf-2",
                "Semi Final Nine Hundred set 2 (+1/−2)",
                "M5",
                _race_set(1, 2),
                Feed(("sf-1",), take="continuing", order="state", carry=("points",)),
            ),
            RoundPreset(
                "sf-3",
                "Semi Final Nine Hundred set 3 (+2/−2)",
                "M5",
                _race_set(2, 2),
                Feed(("sf-2",), take="continuing", order="state", carry=("points",)),
            ),
            RoundPreset(
                "final",
                "Final Triple Seven",
                "M6",
                RoundConfig(
                    scoring=Rule("nomx"),
                    win=Rule("correct-at-least", {"n": 7}),
                    lockout=Rule("misses-at-least", {"n": 3}),
                    sets_to_win=3,
                    slots=1,
                    judge_keys=("sets", "correct"),
                    tie_rule="rank",
                ),
                Feed(("sf-1", "sf-2", "sf-3"), order="source", fallback="feed_order"),
            ),
        ),
    )
)


# ------------------------------------------------------------------------- feeding


def _as_list(value: RoundState | Sequence[RoundState]) -> list[RoundState]:
    return [value] if isinstance(value, RoundState) else list(value)


def round_winners(
    preset: TournamentPreset, slug: str, results: Mapping[str, RoundState | Sequence[RoundState]]
) -> list[str]:
    """Winners of a round (all groups), in win order group by group.

    A round skipped because of an earlier revival (M4) yields that revival's winner.
    """
    rp = preset.round(slug)
    if rp.skip_when_revived_from is not None:
        earlier = results.get(rp.skip_when_revived_from)
        if earlier is not None and any(s.end_reason == "revived" for s in _as_list(earlier)):
            return round_winners(preset, rp.skip_when_revived_from, results)
    if slug not in results:
        raise RuleRefusal("missing_result", f"round {slug!r} has no result yet", round=slug)
    states = _as_list(results[slug])
    for s in states:
        if s.phase != OVER:
            raise RuleRefusal("round_not_over", f"round {slug!r} is not over", round=slug)
    return [pid for s in states for pid in s.winners]


def is_skipped(
    preset: TournamentPreset, slug: str, results: Mapping[str, RoundState | Sequence[RoundState]]
) -> bool:
    """Whether a round need not be played (M4: step 1 already revived someone)."""
    rp = preset.round(slug)
    if rp.skip_when_revived_from is None:
        return False
    earlier = results.get(rp.skip_when_revived_from)
    return earlier is not None and any(s.end_reason == "revived" for s in _as_list(earlier))


def entrants(
    preset: TournamentPreset,
    slug: str,
    results: Mapping[str, RoundState | Sequence[RoundState]],
    first_round_rank: Mapping[str, int],
    *,
    groups: int | None = None,
) -> list[list[PlayerSpec]]:
    """Players of round ``slug`` per group, seated in order, with carried values.

    ``results`` maps earlier round slugs to their final state (or one state per group);
    ``first_round_rank`` is every entrant's 1st Round rank (1 = best), the fallback of
    L11 and the input of ``"1r"``. ``groups`` overrides the preset's group count (seed 003
    does not publish the 2nd Round's). For ``"courses"`` (Number10) one list in priority
    order is returned; split it with ``number10_courses``.
    """
    rp = preset.round(slug)
    if rp.feed is None:
        raise RuleRefusal("no_feed", f"round {slug!r} is not fed by this engine", round=slug)
    feed = rp.feed
    rank = dict(first_round_rank)

    def r1(pid: str) -> int:
        if pid not in rank:
            raise RuleRefusal("unknown_player", f"no 1st Round rank for {pid!r}", player=pid)
        return rank[pid]

    source_states: dict[str, RoundState] = {}
    ordered: list[str] = []
    if feed.take == "losers":
        winners = {pid for src in feed.sources for pid in round_winners(preset, src, results)}
        ordered = sorted((p for p in rank if p not in winners), key=r1)
    else:
        for src in feed.sources:
            if src == "1r":
                ordered += sorted(rank, key=r1)
                continue
            if src not in results and preset.round(src).config is None:
                continue  # an optional round not run (e.g. a Special Round)
            if feed.take == "winners":
                states = [] if is_skipped(preset, src, results) else _as_list(results.get(src, []))
                ids = round_winners(preset, src, results)
            elif feed.take == "continuing":
                states = _as_list(results.get(src, []))
                ids = [pid for s in states for pid in s.continuing]
            else:
                raise RuleRefusal("bad_config", f"unknown feed take {feed.take!r}", take=feed.take)
            for s in states:
                for pid in s.players:
                    source_states[pid] = s
            if feed.order == "source":
                ids = sorted(ids, key=lambda p: (_win_order(source_states.get(p), p), r1(p)))
            ordered += ids
        if feed.order == "rank":
            ordered = sorted(ordered, key=r1)
        elif feed.order == "number10":
            ordered = number10_priority(
                {p: _win_order(source_states.get(p), p) for p in ordered}, rank
            )
    if feed.limit is not None:
        ordered = ordered[: feed.limit]
    if feed.grouping == "snake":
        split = snake(ordered, groups or feed.groups)
    elif feed.grouping == "mod":
        split = mod_split(ordered, groups or feed.groups)
    else:
        split = [ordered]
    result: list[list[PlayerSpec]] = []
    for group in split:
        specs: list[PlayerSpec] = []
        for seat, pid in enumerate(group, start=1):
            src_state = source_states.get(pid)
            prior = src_state.players[pid] if src_state is not None else None
            advantage = None
            if feed.perfect_advantage and prior is not None and prior.wrong == 0:
                advantage = feed.perfect_advantage
            specs.append(
                PlayerSpec(
                    pid,
                    seat,
                    rank=ordered.index(pid) + 1 if feed.fallback == "feed_order" else r1(pid),
                    advantage=advantage,
                    points=prior.points if prior is not None and "points" in feed.carry else 0,
                    rests=prior.rests if prior is not None and "rests" in feed.carry else 0,
                    board_correct=prior.board_correct
                    if prior is not None and "board_correct" in feed.carry
                    else 0,
                )
            )
        result.append(specs)
    return result


def _win_order(state: RoundState | None, pid: str) -> int:
    if state is None:
        return 0
    order = state.players[pid].win_order
    return order if order is not None else len(state.players) + 1
