"""Engine contract: events, validation codes, undo, console actions, JSON, registries."""

from __future__ import annotations

import json

import pytest
from buzzer_helpers import run, specs

from brackets.engine import EngineError
from brackets.engine.buzzer import (
    ABC_004,
    PRESETS,
    QUIZ_003,
    SCORING,
    BoardResults,
    ClockExpire,
    ClockStart,
    ClockStop,
    Correct,
    Event,
    PlayerSpec,
    Registry,
    RoundConfig,
    Rule,
    Thru,
    TieBreak,
    Undo,
    WrittenResults,
    Wrong,
    allowed_actions,
    apply,
    event_from_dict,
    ranking,
    replay,
    scoreboard,
    start,
)

NOMX = RoundConfig(
    win=Rule("correct-at-least", {"n": 3}),
    loss=Rule("wrong-at-least", {"n": 2}),
    slots=2,
    question_limit=10,
)
REST = RoundConfig(
    scoring=Rule("rest-n"), lockout=Rule("misses-at-least", {"n": 2}), slots=1, question_limit=20
)


def code_of(state: object, event: Event) -> str:
    assert not isinstance(state, Event)
    with pytest.raises(EngineError) as err:
        apply(state, event)  # type: ignore[arg-type]
    return err.value.code


ALL_EVENTS: list[Event] = [
    Correct("p1", 3, 1200),
    Wrong("p2"),
    Thru(4),
    BoardResults(frozenset({"a", "b"}), "c", True, 2, 10),
    WrittenResults.of({"a": True, "b": False}, 7),
    ClockStart(5),
    ClockStop(900),
    ClockExpire(300_000, False),
    TieBreak("loss", ("x", "y")),
    Undo(),
]


@pytest.mark.parametrize("event", ALL_EVENTS, ids=lambda e: e.kind)
def test_every_event_round_trips_through_json(event: Event) -> None:
    data = json.loads(json.dumps(event.to_dict()))
    assert event_from_dict(data) == event


def test_unknown_or_malformed_event_dict_is_refused() -> None:
    with pytest.raises(EngineError) as err:
        event_from_dict({"kind": "teleport"})
    assert err.value.code == "bad_event"
    with pytest.raises(EngineError):
        event_from_dict({"kind": "correct", "player": ""})
    with pytest.raises(EngineError):
        event_from_dict({"kind": "written", "marks": {"a": "yes"}})


def test_event_for_unknown_player() -> None:
    assert code_of(run(NOMX, 4, []), Correct("nobody")) == "unknown_player"


def test_event_for_player_who_is_out() -> None:
    s = run(NOMX, 4, [Wrong("p1"), Thru(), Wrong("p1")])
    assert code_of(s, Correct("p1")) == "player_out"
    assert code_of(s, BoardResults(frozenset({"p1"}))) == "player_out"


def test_event_for_player_who_is_resting_or_locked() -> None:
    s = run(REST, 4, [Wrong("p1"), Thru()])
    assert code_of(s, Wrong("p1")) == "player_resting"
    s = run(REST, 4, [Wrong("p1"), Thru(), Thru(), Wrong("p1")])
    assert code_of(s, Correct("p1")) == "player_locked"


def test_event_for_player_who_already_won() -> None:
    s = run(NOMX, 4, [Correct("p1")] * 3)
    assert code_of(s, Correct("p1")) == "player_won"


def test_same_player_cannot_buzz_twice_on_one_question() -> None:
    assert code_of(run(NOMX, 4, [Wrong("p1")]), Correct("p1")) == "already_answered"


def test_second_correct_on_the_same_question() -> None:
    s = run(NOMX, 4, [Correct("p1", question=1)])
    assert code_of(s, Correct("p2", question=1)) == "second_correct"
    assert code_of(s, Correct("p2", question=3)) == "question_ahead"
    s = run(NOMX, 4, [Thru(question=1)])
    assert code_of(s, Correct("p2", question=1)) == "question_closed"


def test_event_after_the_round_is_over() -> None:
    s = run(NOMX, 4, [Correct("p1")] * 3 + [Correct("p2")] * 3)
    assert s.over
    assert code_of(s, Thru()) == "round_over"
    assert code_of(s, Correct("p3")) == "round_over"
    assert apply(s, Undo()).phase == "playing"


def test_undo_past_the_start_is_refused() -> None:
    s = run(NOMX, 4, [])
    assert code_of(s, Undo()) == "undo_past_start"
    s = run(NOMX, 4, [Correct("p1"), Undo()])
    assert s == run(NOMX, 4, [])
    assert code_of(s, Undo()) == "undo_past_start"


def test_undo_undoes_the_previous_non_undo_event() -> None:
    s = run(NOMX, 4, [Correct("p1"), Wrong("p2"), Thru(), Undo(), Undo()])
    assert s == run(NOMX, 4, [Correct("p1")])


def test_a_refused_event_changes_nothing() -> None:
    s = run(NOMX, 4, [Correct("p1"), Wrong("p2")])
    before = json.dumps(scoreboard(s))
    for bad in (Correct("p2"), Correct("zz"), TieBreak("win", ("p1",)), ClockStart(0)):
        with pytest.raises(EngineError):
            apply(s, bad)
    assert json.dumps(scoreboard(s)) == before


def test_board_and_written_events_in_the_wrong_round_kind() -> None:
    s = run(NOMX, 4, [])
    assert code_of(s, WrittenResults.of({"p1": True})) == "wrong_event_kind"
    written = QUIZ_003.round("extra-1").config
    assert written is not None
    assert code_of(run(written, 20, []), Correct("p1")) == "wrong_event_kind"


def test_board_buzzer_is_not_also_on_the_board() -> None:
    cfg = QUIZ_003.round("qf-2").config
    assert cfg is not None
    s = run(cfg, 8, [])
    assert (
        code_of(s, BoardResults(frozenset({"p1"}), buzzer="p1", buzzer_correct=True))
        == "buzzer_on_board"
    )


def test_clock_errors() -> None:
    assert code_of(run(NOMX, 3, []), ClockStart(0)) == "no_clock"
    cfg = ABC_004.round("3r-freeze").config
    assert cfg is not None
    s = run(cfg, 5, [ClockStart(0)])
    assert code_of(s, ClockStart(10)) == "clock_running"
    s = apply(s, ClockStop(5000))
    assert code_of(s, ClockStop(6000)) == "clock_not_running"
    assert code_of(s, ClockStart(4000)) == "clock_backwards"


def test_bad_players_are_refused() -> None:
    with pytest.raises(EngineError) as err:
        start(NOMX, [PlayerSpec("a", 1), PlayerSpec("a", 2)])
    assert err.value.code == "duplicate_player"
    with pytest.raises(EngineError) as err:
        start(NOMX, [PlayerSpec("a", 1), PlayerSpec("b", 1)])
    assert err.value.code == "duplicate_seat"
    with pytest.raises(EngineError) as err:
        start(RoundConfig(scoring=Rule("no-such-rule")), specs(2))
    assert err.value.code == "unknown_rule"


def test_remaining_not_more_than_open_slots_all_advance() -> None:
    s = run(NOMX, 4, [Wrong("p1"), Thru(), Wrong("p1"), Wrong("p2"), Thru(), Wrong("p2")])
    assert s.over and s.end_reason == "remaining_advance" and s.winners == ("p3", "p4")


def test_in_progress_ranking_win_order_then_correct_fewer_wrong_earliest_last_correct() -> None:
    cfg = RoundConfig(win=Rule("correct-at-least", {"n": 5}), slots=3, question_limit=50)
    s = run(
        cfg,
        5,
        [Correct("p4"), Correct("p3"), Correct("p2"), Wrong("p2"), Thru()] + [Correct("p5")] * 5,
    )
    order = [r.player for r in ranking(s)]
    # p5 won; p4 and p3 1○0× (p4 answered earlier), p2 1○1×, p1 nothing.
    assert order == ["p5", "p4", "p3", "p2", "p1"]
    rows = ranking(s)
    assert rows[1].tied and rows[2].tied and not rows[3].tied


def test_allowed_actions_for_the_console() -> None:
    s = run(NOMX, 3, [Wrong("p1")])
    assert allowed_actions(s).blocked["p1"] == "already_answered"
    s = run(REST, 3, [Wrong("p1")])
    a = allowed_actions(s)
    assert a.players["p1"] == frozenset() and a.blocked["p1"] == "player_resting"
    assert a.players["p2"] == {"correct", "wrong"}
    assert {"thru", "undo"} <= a.round
    s = apply(s, Thru())
    assert allowed_actions(s).blocked["p1"] == "player_resting"
    fresh = allowed_actions(run(REST, 3, []))
    assert "undo" not in fresh.round
    cfg = ABC_004.round("3r-updown").config
    assert cfg is not None
    timed = allowed_actions(run(cfg, 5, []))
    assert {"clock_start", "clock_expire"} <= timed.round
    deciding = run(NOMX, 4, [Thru()] * 10)
    assert allowed_actions(deciding).round == {"tiebreak", "undo"}
    assert all(v == "decision_pending" for v in allowed_actions(deciding).blocked.values())
    written = QUIZ_003.round("extra-1").config
    assert written is not None
    assert allowed_actions(run(written, 15, [])).players["p1"] == {"written"}


def test_scoreboard_is_json() -> None:
    cfg = ABC_004.round("2r").config
    assert cfg is not None
    s = run(cfg, 12, [Correct("p7"), Wrong("p8")])
    data = json.loads(json.dumps(scoreboard(s)))
    assert data["question"] == 1
    row = next(p for p in data["players"] if p["id"] == "p7")
    assert row["streak"] is True and row["points"] == 1
    assert data["ranking"][0]["player"] == "p1"


def test_round_config_round_trips_through_json() -> None:
    for preset in (QUIZ_003, ABC_004):
        for rp in preset.rounds:
            if rp.config is not None:
                data = json.loads(json.dumps(rp.config.to_dict()))
                assert RoundConfig.from_dict(data) == rp.config


def test_player_spec_round_trips_through_json() -> None:
    sp = PlayerSpec("a", 3, rank=7, advantage=1, points=5, rests=2, board_correct=4)
    assert PlayerSpec.from_dict(json.loads(json.dumps(sp.to_dict()))) == sp


def test_registries_list_pieces_and_refuse_duplicates() -> None:
    assert {
        "nomx",
        "rentou",
        "updown",
        "rest-n",
        "rest-fixed",
        "swedish",
        "by",
        "plus-minus",
        "board",
    } <= set(SCORING.slugs())
    assert {"quiz-003", "abc-the25th-004"} <= set(PRESETS)
    reg: Registry[int] = Registry("thing")
    reg.register("a")(1)
    with pytest.raises(EngineError):
        reg.register("a")(2)


def test_a_question_closes_when_nobody_is_left_to_answer() -> None:
    cfg = RoundConfig(win=Rule("correct-at-least", {"n": 3}), slots=1, question_limit=10)
    s = run(cfg, 2, [Wrong("p1"), Wrong("p2")])
    assert s.question == 1 and s.open_wrongs == frozenset()


def test_wrong_closes_question_setting() -> None:
    cfg = RoundConfig(win=Rule("correct-at-least", {"n": 3}), slots=1, wrong_closes_question=True)
    s = run(cfg, 3, [Wrong("p1")])
    assert s.question == 1


def test_a_preset_round_is_playable_with_fed_players() -> None:
    from brackets.engine.buzzer import entrants

    ranks = {f"e{i}": i for i in range(1, 49)}
    groups = entrants(ABC_004, "2r", {}, ranks)
    cfg = ABC_004.round("2r").config
    assert cfg is not None
    states = [
        replay(
            cfg,
            g,
            [Correct(g[0].id), Correct(g[0].id)]
            + [Correct(g[1].id)] * 2
            + [Correct(g[2].id)] * 2
            + [Correct(g[3].id)] * 3
            + [Correct(g[4].id)] * 3,
        )
        for g in groups
    ]
    assert all(s.over and len(s.winners) == 5 for s in states)
    (pool,) = entrants(ABC_004, "3r-updown", {"2r": states}, ranks)
    assert len(pool) == 20
    assert [sp.id for sp in pool[:4]] == [g[0].id for g in groups]  # group firsts, by 1R rank
    losers = entrants(
        ABC_004,
        "extra-1",
        {"3r-updown": [], "3r-freeze": [], "3r-swedish": [], "3r-10by10": []},
        ranks,
    )
    assert len(losers[0]) == 48
    assert QUIZ_003.next_rounds("sf-1") == ["sf-2", "final"]


def test_replay_accepts_bare_ids_and_stored_event_dicts() -> None:
    log = [Correct("a").to_dict(), Wrong("b").to_dict(), {"kind": "thru"}]
    s = replay(NOMX, ["a", "b", "c"], log)
    assert s.players["a"].correct == 1 and s.players["b"].wrong == 1 and s.question == 2
    assert s.players["c"].seat == 3 and s.players["c"].rank == 3


def test_preset_round_kinds() -> None:
    assert ABC_004.round("1r").kind == "paper"
    assert ABC_004.round("1r").paper is not None and ABC_004.round("1r").paper.advance == 48  # type: ignore[union-attr]
    assert ABC_004.round("extra-1").kind == "written"
    assert ABC_004.round("2r").kind == "buzzer"
    assert QUIZ_003.round("1r").kind == "external"


def test_pieces_compose_rentou_with_a_fixed_rest_and_a_points_floor() -> None:
    cfg = RoundConfig(
        scoring=Rule("rentou"),
        win=Rule("points-at-least", {"n": 5}),
        loss=Rule("points-at-most", {"n": -2}),
        rests=Rule("fixed", {"n": 1}),
        slots=1,
    )
    s = run(cfg, 3, [Correct("p1"), Wrong("p1"), Thru()])
    assert s.players["p1"].rests == 1 and s.players["p1"].points == 1 and not s.players["p1"].streak
    pm = RoundConfig(
        scoring=Rule("plus-minus", {"plus": 1, "minus": 1}),
        loss=Rule("points-at-most", {"n": -2}),
        slots=1,
    )
    s = run(pm, 3, [Wrong("p2"), Thru(), Wrong("p2")])
    assert s.outs == ("p2",)


def test_tiebreak_errors() -> None:
    assert code_of(run(NOMX, 4, []), TieBreak("win", ("p1",))) == "no_decision"
    deciding = run(NOMX, 4, [Thru()] * 10)
    assert code_of(deciding, TieBreak("loss", ("p1",))) == "no_such_decision"
    assert code_of(deciding, TieBreak("win", ("p1", "p2"))) == "bad_tiebreak_order"
    assert code_of(deciding, Thru()) == "decision_pending"


def test_written_errors() -> None:
    cfg = QUIZ_003.round("extra-1").config
    assert cfg is not None
    s = run(cfg, 15, [WrittenResults.of({}), WrittenResults.of({})])
    assert s.players["p1"].status == "active"  # everybody sat: all stand again
    s = run(cfg, 15, [WrittenResults.of({f"p{i}": i > 1 for i in range(1, 16)})] * 2)
    assert s.players["p1"].status == "out"
    assert code_of(s, WrittenResults.of({"p1": True})) == "player_out"
    assert code_of(s, WrittenResults((("p2", True), ("p2", False)))) == "duplicate_mark"
    assert code_of(s, WrittenResults.of({"p2": True}, question=2)) == "question_closed"
