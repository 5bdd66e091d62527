"""Group draws: dummies (K2), seed separation (K5), methods, seats, reproducibility."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brackets.engine import (
    EngineError,
    Lottery,
    Method,
    draw_groups,
    dummy_count,
    group_count,
    record_draw,
)

VALID_N = st.integers(min_value=3, max_value=120).filter(lambda n: n != 5)


def names(n: int) -> list[str]:
    return [f"p{i:03d}" for i in range(n)]


def test_k2_group_and_dummy_counts() -> None:
    assert (group_count(58), dummy_count(58)) == (15, 2)  # K4's round 1
    assert (group_count(64), dummy_count(64)) == (16, 0)
    assert (group_count(40), dummy_count(40)) == (10, 0)
    assert (group_count(11), dummy_count(11)) == (3, 1)
    assert (group_count(0), dummy_count(0)) == (0, 0)


def test_k4_round_1_draw_has_two_dummy_groups() -> None:
    draw = draw_groups(names(58), lottery=Lottery("kyushu-ix", "round-1/groups"))
    assert len(draw.groups) == 15
    assert sorted(g.dummies for g in draw.groups) == [0] * 13 + [1, 1]


def test_k5_seeds_never_share_a_group() -> None:
    players = names(33)  # 26 from round 1 plus 7 seeds: 9 groups
    seeds = players[-7:]
    draw = draw_groups(players, seeds=seeds, lottery=Lottery("s", "round-2/groups"))
    seeded = [sum(1 for p in g.players if p in seeds) for g in draw.groups]
    assert max(seeded) == 1 and sum(seeded) == 7


def test_k5_more_seeds_than_groups_raises() -> None:
    players = names(8)
    with pytest.raises(EngineError) as info:
        draw_groups(players, seeds=players[:3], lottery=Lottery("s", "r"))
    assert info.value.code == "seeds_exceed_groups"


@pytest.mark.parametrize("n", [1, 2, 5])
def test_k2_two_dummies_would_be_needed_raises(n: int) -> None:
    with pytest.raises(EngineError) as info:
        draw_groups(names(n), lottery=Lottery("s", "r"))
    assert info.value.code == "too_few_players"


def test_snake_from_ranking() -> None:
    draw = draw_groups(names(12), method="snake", seat_mode="in_order")
    assert [g.seats for g in draw.groups] == [
        ("p000", "p005", "p006", "p011"),
        ("p001", "p004", "p007", "p010"),
        ("p002", "p003", "p008", "p009"),
    ]


def test_snake_short_last_row_puts_dummies_on_first_groups() -> None:
    draw = draw_groups(names(10), method="snake", seat_mode="in_order")
    assert [g.seats for g in draw.groups] == [
        ("p000", "p005", "p006", None),
        ("p001", "p004", "p007", None),
        ("p002", "p003", "p008", "p009"),
    ]


def test_mod_from_ranking() -> None:
    draw = draw_groups(names(10), method="mod", seat_mode="in_order")
    assert [g.seats for g in draw.groups] == [
        ("p000", "p003", "p006", "p009"),
        ("p001", "p004", "p007", None),
        ("p002", "p005", "p008", None),
    ]


def test_ranked_methods_move_seeds_to_the_front() -> None:
    players = names(12)
    draw = draw_groups(players, method="snake", seeds=["p011", "p010"], seat_mode="in_order")
    assert draw.groups[0].seats[0] == "p011"
    assert draw.groups[1].seats[0] == "p010"


def test_seats_by_lottery_and_in_order() -> None:
    lot = Lottery("s", "r1")
    a = draw_groups(names(12), method="snake", seat_mode="lottery", lottery=lot)
    b = draw_groups(names(12), method="snake", seat_mode="in_order")
    for ga, gb in zip(a.groups, b.groups):
        assert sorted(ga.players) == sorted(gb.players)
    assert draw_groups(names(12), method="snake", seat_mode="lottery", lottery=lot) == a
    assert a.group_of("p000").seat_of("p000") in (1, 2, 3, 4)


def test_lottery_required_and_errors() -> None:
    with pytest.raises(EngineError):
        draw_groups(names(8))  # random draw without lottery
    with pytest.raises(EngineError):
        draw_groups(["a", "a", "b", "c"], lottery=Lottery("s", "r"))
    with pytest.raises(EngineError):
        draw_groups(names(8), seeds=["zz"], lottery=Lottery("s", "r"))
    with pytest.raises(EngineError):
        draw_groups(names(8), lottery=Lottery("s", "r")).group_of("zz")


@settings(max_examples=150, deadline=None)
@given(
    n=VALID_N,
    method=st.sampled_from(["random", "snake", "mod"]),
    seed=st.text(max_size=8),
    seed_count=st.integers(min_value=0, max_value=8),
)
def test_property_draw_invariants(n: int, method: Method, seed: str, seed_count: int) -> None:
    players = names(n)
    groups = group_count(n)
    seeds = players[: min(seed_count, groups)]
    draw = draw_groups(
        players,
        method=method,
        seeds=seeds,
        lottery=Lottery(seed, "groups"),
    )
    placed = draw.players
    assert sorted(placed) == sorted(players)  # every entrant exactly once
    assert len(draw.groups) == groups
    assert all(len(g.seats) == 4 for g in draw.groups)
    assert all(g.dummies <= 1 for g in draw.groups)  # never two dummies
    assert draw.dummy_count == 4 * groups - n  # exactly 4G − N
    for g in draw.groups:  # seeds never share a group
        assert sum(1 for p in g.players if p in seeds) <= 1
    again = draw_groups(
        players,
        method=method,
        seeds=seeds,
        lottery=Lottery(seed, "groups"),
    )
    assert again == draw  # the same seed gives the same draw


def test_different_purposes_give_different_draws() -> None:
    one = draw_groups(names(40), lottery=Lottery("seed", "round-1/groups"))
    two = draw_groups(names(40), lottery=Lottery("seed", "round-2/groups"))
    assert sorted(one.players) == sorted(two.players)
    assert one != two


def test_record_physical_draw_checks_invariants() -> None:
    players = names(7)
    seats: list[list[str | None]] = [
        ["p000", "p001", "p002", "p003"],
        ["p004", "p005", None, "p006"],
    ]
    draw = record_draw(seats, players, seeds=["p000", "p004"])
    assert draw.groups[1].seat_of("p006") == 4 and draw.dummy_count == 1
    bad: list[tuple[list[list[str | None]], str]] = [
        ([["p000", "p001", "p002", "p003"]], "group_count_mismatch"),
        (
            [["p000", "p001", "p002", "p003"], ["p004", "p005", None, "p005"]],
            "draw_players_mismatch",
        ),
        ([["p000", "p004", "p002", None], ["p001", "p005", "p003", "p006"]], "seeds_share_group"),
        ([["p000", "p001", "p002", "p003", "p006"], ["p004", "p005", None]], "group_size_mismatch"),
    ]
    for groups, code in bad:
        with pytest.raises(EngineError) as info:
            record_draw(groups, players, seeds=["p000", "p004"])
        assert info.value.code == code
