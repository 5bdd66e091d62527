"""The call queue's rules (brackets.engine.floor), on plain values."""

from __future__ import annotations

import pytest

from brackets.engine import (
    DEFAULT_MATCH_MINUTES,
    FloorCall,
    FloorGroup,
    FloorSet,
    FloorState,
    RuleRefusal,
    call_check,
    estimate_starts,
    floor_plan,
    match_minutes,
)

A, B = FloorSet(1, "A台"), FloorSet(2, "B台")


def group(key: int, *players: str, done: bool = False) -> FloorGroup:
    return FloorGroup(key=key, label=f"{chr(64 + key)}組", players=players, done=done)


G1, G2, G3 = group(1, "p1", "p2"), group(2, "p3", "p4"), group(3, "p5", "p6")
EVERYONE = frozenset(f"p{i}" for i in range(1, 10))


def test_free_sets_call_the_first_groups_in_draw_order() -> None:
    plan = floor_plan(FloorState(groups=(G1, G2, G3), sets=(A, B), present=EVERYONE))
    assert plan.next_calls == (FloorCall(1, 1), FloorCall(2, 2))
    assert plan.queue == (1, 2, 3)


def test_a_group_with_a_player_missing_waits_behind_complete_groups() -> None:
    plan = floor_plan(FloorState(groups=(G1, G2, G3), sets=(A,),
                                 present=EVERYONE - {"p2"}))
    assert plan.queue == (2, 3, 1)
    assert plan.next_calls == (FloorCall(2, 1),)


def test_done_groups_and_groups_in_play_do_not_wait() -> None:
    done = group(1, "p1", "p2", done=True)
    plan = floor_plan(FloorState(groups=(done, G2, G3), sets=(A, B), on_set={1: 2},
                                 present=EVERYONE))
    assert plan.playing == {1: 2}
    assert plan.queue == (3,)
    assert plan.next_calls == (FloorCall(3, 2),)


def test_a_player_in_play_is_never_called_to_a_second_set() -> None:
    game_2 = group(2, "p1", "p2")  # a final's next game: the same players
    plan = floor_plan(FloorState(groups=(G1, game_2, G3), sets=(A, B), on_set={1: 1},
                                 present=EVERYONE))
    assert plan.next_calls == (FloorCall(3, 2),)
    with pytest.raises(RuleRefusal) as refused:
        call_check(FloorState(groups=(G1, game_2), sets=(A, B), on_set={1: 1}), 2, 2)
    assert refused.value.code == "floor_player_busy"
    assert refused.value.params == {"player": "p1", "group": "A組", "set": "A台"}


def test_a_set_out_of_service_frees_its_group_back_into_the_queue() -> None:
    broken = FloorSet(1, "A台", in_service=False)
    plan = floor_plan(FloorState(groups=(G1, G2), sets=(broken, B), on_set={1: 1},
                                 present=EVERYONE))
    assert plan.playing == {}
    assert plan.next_calls == (FloorCall(1, 2),)


@pytest.mark.parametrize(("state", "group_key", "set_key", "code"), [
    (FloorState(groups=(G1,), sets=(FloorSet(1, "A台", False),)), 1, 1,
     "floor_set_out_of_service"),
    (FloorState(groups=(G1, G2), sets=(A,), on_set={1: 1}), 2, 1, "floor_set_busy"),
    (FloorState(groups=(G1,), sets=(A, B), on_set={1: 1}), 1, 2, "floor_group_elsewhere"),
    (FloorState(groups=(group(1, "p1", done=True),), sets=(A,)), 1, 1, "floor_group_done"),
    (FloorState(groups=(G1,), sets=(A,)), 1, 9, "floor_set_unknown"),
])
def test_call_check_refuses_with_the_reason(state: FloorState, group_key: int, set_key: int,
                                            code: str) -> None:
    with pytest.raises(RuleRefusal) as refused:
        call_check(state, group_key, set_key)
    assert refused.value.code == code


def test_match_minutes_is_the_median_of_measured_lengths() -> None:
    assert match_minutes([10, 11, 40]) == 11
    assert match_minutes([]) == DEFAULT_MATCH_MINUTES


def test_estimates_fill_each_set_as_it_frees() -> None:
    state = FloorState(groups=(G1, G2, G3, group(4, "p7", "p8")), sets=(A, B),
                       on_set={1: 1}, present=EVERYONE)
    starts = {e.group: (e.set, e.start) for e in estimate_starts(state, 10, {1: 4})}
    # B is free now; A frees after the 6 minutes left of group 1.
    assert starts == {2: (2, 0.0), 3: (1, 6.0), 4: (2, 10.0)}


def test_no_set_in_service_estimates_nothing() -> None:
    state = FloorState(groups=(G1,), sets=(FloorSet(1, "A台", False),))
    assert estimate_starts(state, 10) == ()
