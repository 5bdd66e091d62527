"""Whole preset tournaments played end to end through their feeds."""

from __future__ import annotations

from brackets.engine.buzzer import (
    ABC_004,
    QUIZ_003,
    BoardResults,
    ClockExpire,
    Correct,
    PlayerSpec,
    RoundConfig,
    RoundState,
    Thru,
    TieBreak,
    TournamentPreset,
    WrittenResults,
    allowed_actions,
    apply,
    entrants,
    is_skipped,
    number10_courses,
    start,
)


def autoplay(config: RoundConfig, players: list[PlayerSpec], max_events: int = 500) -> RoundState:
    """Play a round to its end the dull way: the last allowed seat answers correctly.

    Written rounds: only the first 12 standing get each question right. Sudden deaths are
    settled in seat order.
    """
    s = start(config, players)
    for _ in range(max_events):
        if s.over:
            return s
        if s.pending:
            d = s.pending[0]
            s = apply(s, TieBreak(d.side, d.candidates))
            continue
        if config.format == "written":
            standing = [p for p in s.seat_order if s.players[p].status == "active"]
            s = apply(s, WrittenResults.of({p: i < 12 for i, p in enumerate(standing)}))
            continue
        allowed = allowed_actions(s)
        able = [p for p in s.seat_order if "correct" in allowed.players[p]]
        if config.clock_ms is not None and s.question >= 20 and not s.clock.expired:
            s = apply(s, ClockExpire(None, False))  # time is up after 20 questions
        elif config.scoring.slug == "board":
            s = apply(s, BoardResults(frozenset(able[-2:])))
        elif able:
            s = apply(s, Correct(able[-1]))
        else:
            s = apply(s, Thru())
    raise AssertionError("round did not end")


def play_all(
    preset: TournamentPreset, ranks: dict[str, int], skip: set[str]
) -> dict[str, RoundState | list[RoundState]]:
    results: dict[str, RoundState | list[RoundState]] = {}
    course_slugs = [
        r.slug for r in preset.rounds if r.feed is not None and r.feed.grouping == "courses"
    ]
    courses: dict[str, list[str]] = {}
    for rp in preset.rounds:
        if rp.config is None or rp.slug in skip or is_skipped(preset, rp.slug, results):
            continue
        if rp.feed is not None and rp.feed.grouping == "courses":
            if not courses:
                (pool,) = entrants(preset, rp.slug, results, ranks)
                ids = [sp.id for sp in pool]
                courses = number10_courses(
                    course_slugs, {c: ids[i::4] for i, c in enumerate(course_slugs)}, ids
                )
                by_id = {sp.id: sp for sp in pool}
            group = [
                PlayerSpec(pid, seat, by_id[pid].rank)
                for seat, pid in enumerate(courses[rp.slug], start=1)
            ]
            results[rp.slug] = autoplay(rp.config, group)
            continue
        groups = entrants(preset, rp.slug, results, ranks)
        states = [autoplay(rp.config, g) for g in groups]
        results[rp.slug] = states[0] if len(states) == 1 else states
    return results


def test_quiz_003_from_3rd_round_to_the_final() -> None:
    ranks = {f"e{i}": i for i in range(1, 101)}
    # 2R: 7 groups of 7 from the top 49 of the 1st Round (group count not published).
    twor = QUIZ_003.round("2r")
    assert twor.config is not None
    groups = entrants(QUIZ_003, "2r", {}, {k: v for k, v in ranks.items() if v <= 49}, groups=7)
    results: dict[str, RoundState | list[RoundState]] = {
        "2r": [autoplay(twor.config, g) for g in groups]
    }
    assert sum(len(s.winners) for s in results["2r"]) == 35  # type: ignore[union-attr]
    for slug in ("3r", "extra-1", "extra-2", "qf-1", "qf-2", "sf-1", "sf-2", "sf-3", "final"):
        rp = QUIZ_003.round(slug)
        assert rp.config is not None
        gs = entrants(QUIZ_003, slug, results, ranks)
        states = [autoplay(rp.config, g) for g in gs]
        results[slug] = states[0] if len(states) == 1 else states
    sizes = {
        slug: sum(len(g) for g in entrants(QUIZ_003, slug, results, ranks))
        for slug in ("3r", "extra-2", "qf-1", "sf-1", "sf-2", "sf-3", "final")
    }
    assert sizes == {
        "3r": 35,
        "extra-2": 12,
        "qf-1": 16,
        "sf-1": 8,
        "sf-2": 6,
        "sf-3": 4,
        "final": 4,
    }
    final = results["final"]
    assert isinstance(final, RoundState) and len(final.winners) == 1


def test_abc_the25th_004_from_2nd_round_to_triple_seven() -> None:
    ranks = {f"e{i}": i for i in range(1, 81)}
    results = play_all(ABC_004, ranks, skip=set())
    final = results["final"]
    assert isinstance(final, RoundState) and final.over and len(final.winners) == 1
    assert final.players[final.winners[0]].sets == 3
    sf1 = entrants(ABC_004, "sf-1", results, ranks)[0]
    assert len(sf1) == 9
