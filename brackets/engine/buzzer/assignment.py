"""Who plays where: paper-quiz ranking, group splits, Number10 courses, seat advantages.

These run between rounds. They take plain ids and numbers and return plain lists, so the
web layer can show the result for confirmation before the next round's log starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from brackets.engine.errors import RuleRefusal
from brackets.engine.lottery import Lottery

# ------------------------------------------------------------------- paper quiz (M1)


@dataclass(frozen=True)
class PaperRules:
    """A paper quiz's settings (M1): size, the half used as 2nd key, the cut, streak reading."""

    questions: int = 100
    first_half: int = 50
    advance: int | None = None
    second_streak: str = "after_first_miss"


@dataclass(frozen=True)
class PaperScore:
    """One marked sheet, with the M1 tie-break values.

    ``streak1`` is the run of correct answers from Q1; ``streak2`` the run after the first
    miss (default: starting right after it). ``position`` is the final place (1 = best);
    ``decided_by`` names the key that separated this player from the one above
    (``"lottery"`` when only the draw did).
    """

    player: str
    total: int
    first_half: int
    streak1: int
    streak2: int
    position: int = 0
    decided_by: str | None = None


def _marks_list(
    player: str, sheet: Sequence[bool] | Mapping[int, bool], questions: int
) -> list[bool]:
    if isinstance(sheet, Mapping):
        missing = [q for q in range(1, questions + 1) if q not in sheet]
        if missing:
            raise RuleRefusal(
                "missing_question",
                f"sheet of {player!r} has no mark for question {missing[0]}",
                player=player,
                questions=missing,
            )
        extra = sorted(q for q in sheet if not 1 <= q <= questions)
        if extra:
            raise RuleRefusal(
                "unknown_question",
                f"sheet of {player!r} marks question {extra[0]}",
                player=player,
                questions=extra,
            )
        return [bool(sheet[q]) for q in range(1, questions + 1)]
    if len(sheet) != questions:
        raise RuleRefusal(
            "missing_question" if len(sheet) < questions else "unknown_question",
            f"sheet of {player!r} has {len(sheet)} marks, expected {questions}",
            player=player,
            marks=len(sheet),
            questions=questions,
        )
    return [bool(m) for m in sheet]


def paper_score(
    player: str,
    sheet: Sequence[bool] | Mapping[int, bool],
    *,
    questions: int = 100,
    first_half: int = 50,
    second_streak: str = "after_first_miss",
) -> PaperScore:
    """Score one sheet (True = correct). A sheet missing a question column is an error.

    ``second_streak``: ``"after_first_miss"`` counts the run starting right after the first
    miss (default reading); ``"next_run"`` skips further misses to the next run.
    """
    marks = _marks_list(player, sheet, questions)
    streak1 = 0
    while streak1 < len(marks) and marks[streak1]:
        streak1 += 1
    i = streak1 + 1
    if second_streak == "next_run":
        while i < len(marks) and not marks[i]:
            i += 1
    elif second_streak != "after_first_miss":
        raise RuleRefusal(
            "bad_config", f"unknown second_streak {second_streak!r}", value=second_streak
        )
    streak2 = 0
    while i + streak2 < len(marks) and marks[i + streak2]:
        streak2 += 1
    return PaperScore(player, sum(marks), sum(marks[:first_half]), streak1, streak2)


PAPER_KEYS: tuple[str, ...] = ("total", "first_half", "streak1", "streak2")


def paper_ranking(
    sheets: Mapping[str, Sequence[bool] | Mapping[int, bool]],
    *,
    lottery: Lottery,
    questions: int = 100,
    first_half: int = 50,
    second_streak: str = "after_first_miss",
) -> list[PaperScore]:
    """Rank a paper quiz (M1): total → Q1–first_half → 1st streak → 2nd streak → lottery.

    The lottery only orders players equal on every key; its draw is reproducible from the
    tournament seed and purpose.
    """
    scores = [
        paper_score(p, s, questions=questions, first_half=first_half, second_streak=second_streak)
        for p, s in sorted(sheets.items())
    ]
    return paper_scores_ranking(scores, lottery=lottery)


def check_paper_score(score: PaperScore, *, questions: int = 100, first_half: int = 50) -> None:
    """Refuse tie-break data no sheet of ``questions`` could give (``bad_paper_score``):
    the first-half count above the total or the half, a run longer than the right answers
    it is made of, two runs longer than the total."""
    half = min(first_half, questions)
    fits = (
        0 <= score.total <= questions
        and 0 <= score.first_half <= min(score.total, half)
        and score.total - score.first_half <= questions - half
        and 0 <= score.streak1 <= score.total
        and (score.streak1 <= score.first_half or score.first_half == half)
        and 0 <= score.streak2 <= score.total - score.streak1
        and (score.streak1 < questions or score.streak2 == 0)
    )
    if not fits:
        raise RuleRefusal(
            "bad_paper_score",
            f"scores of {score.player!r} do not fit a {questions}-question sheet",
            player=score.player,
            questions=questions,
        )


def paper_scores_ranking(scores: Sequence[PaperScore], *, lottery: Lottery) -> list[PaperScore]:
    """Rank paper-quiz scores already counted (M1): total → first half → 1st run → 2nd run →
    lottery. Staff who mark by hand type these numbers instead of every answer; a ranking
    from sheets (:func:`paper_ranking`) goes through here too, so both rank alike."""
    scores = sorted(scores, key=lambda s: s.player)

    def key(s: PaperScore) -> tuple[int, ...]:
        return tuple(-getattr(s, k) for k in PAPER_KEYS)

    ordered = sorted(scores, key=key)
    result: list[PaperScore] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and key(ordered[j]) == key(ordered[i]):
            j += 1
        group = ordered[i:j]
        if len(group) > 1:
            group = lottery.child("tie-" + "-".join(str(-v) for v in key(group[0]))).shuffled(group)
        result.extend(group)
        i = j
    ranked: list[PaperScore] = []
    for pos, s in enumerate(result, start=1):
        decided = None
        if pos > 1:
            prev = result[pos - 2]
            decided = next((k for k in PAPER_KEYS if getattr(prev, k) != getattr(s, k)), "lottery")
        ranked.append(
            PaperScore(s.player, s.total, s.first_half, s.streak1, s.streak2, pos, decided)
        )
    return ranked


def paper_ranks(ranked: Sequence[PaperScore]) -> dict[str, int]:
    """Player → place, the "1st Round rank" every later fallback uses."""
    return {s.player: s.position for s in ranked}


# ------------------------------------------------------------------------- grouping


def snake(players: Sequence[str], groups: int) -> list[list[str]]:
    """蛇腹 split (L2, M2): 1→A … k→last, then back from last to A, and so on.

    35 into 5 gives A = 1,10,11,20,21,30,31 and E = 5,6,15,16,25,26,35.
    """
    if groups < 1:
        raise RuleRefusal("bad_config", "need at least one group", groups=groups)
    result: list[list[str]] = [[] for _ in range(groups)]
    for i, pid in enumerate(players):
        lap, pos = divmod(i, groups)
        result[pos if lap % 2 == 0 else groups - 1 - pos].append(pid)
    return result


def mod_split(players: Sequence[str], groups: int = 2) -> list[list[str]]:
    """mod-k split (L6): rank r goes to group (r − 1) mod k, so 1,3,5… and 2,4,6…."""
    if groups < 1:
        raise RuleRefusal("bad_config", "need at least one group", groups=groups)
    return [list(players[g::groups]) for g in range(groups)]


def advantages_by_seat(players: Sequence[str], advantages: Sequence[int]) -> dict[str, int]:
    """Head starts by seat (L1: 3,2,2,1,1,1 from the top seat; L2: top seat +1)."""
    return {pid: (advantages[i] if i < len(advantages) else 0) for i, pid in enumerate(players)}


# ------------------------------------------------------------------- Number10 (M3)


def number10_priority(
    pass_position: Mapping[str, int], first_round_rank: Mapping[str, int]
) -> list[str]:
    """Course-choice priority (M3): earlier 2R win first, then better 1R rank.

    ``pass_position`` is each player's win order within their 2R group (1 = first out).
    """
    missing = [p for p in pass_position if p not in first_round_rank]
    if missing:
        raise RuleRefusal("unknown_player", "no 1st Round rank for some players", players=missing)
    return sorted(pass_position, key=lambda p: (pass_position[p], first_round_rank[p]))


def number10_course_entry(
    raised: Sequence[str] | set[str] | frozenset[str],
    unassigned: Sequence[str],
    priority: Sequence[str],
    size: int = 5,
) -> list[str]:
    """One course's players after the entry time (M3).

    With ``size`` or more plates raised, the top ``size`` raised by priority play. With
    fewer, all raised play and the gap is filled by the *lowest*-priority players who did
    not raise. ``unassigned`` are those without a course yet.
    """
    rank = {p: i for i, p in enumerate(priority)}
    unknown = [p for p in unassigned if p not in rank]
    if unknown:
        raise RuleRefusal(
            "unknown_player", "players missing from the priority list", players=unknown
        )
    stray = [p for p in raised if p not in unassigned]
    if stray:
        raise RuleRefusal(
            "player_assigned", "a raised plate belongs to a player already placed", players=stray
        )
    if len(unassigned) < size:
        raise RuleRefusal(
            "too_few_players", "not enough players left to fill the course", left=len(unassigned)
        )
    up = sorted(raised, key=rank.__getitem__)
    if len(up) >= size:
        return up[:size]
    down = sorted((p for p in unassigned if p not in raised), key=rank.__getitem__)
    return up + down[len(down) - (size - len(up)) :]


def number10_courses(
    courses: Sequence[str],
    raised: Mapping[str, Sequence[str] | set[str] | frozenset[str]],
    priority: Sequence[str],
    size: int = 5,
) -> dict[str, list[str]]:
    """All courses in drawn order; ``raised[course]`` is who held a plate up for it.

    A player already placed cannot raise again, so plates from placed players are ignored
    here (at the venue they sit down).
    """
    unassigned = list(priority)
    result: dict[str, list[str]] = {}
    for course in courses:
        up = [p for p in raised.get(course, ()) if p in unassigned]
        chosen = number10_course_entry(up, unassigned, priority, size)
        result[course] = chosen
        unassigned = [p for p in unassigned if p not in chosen]
    return result
