"""Special rounds: K6 rule selection, K7 cards, K8 bans, K9/K10 partners, dice, series."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brackets.engine import (
    Card,
    EngineError,
    Lottery,
    MatchResult,
    SeatEntry,
    assign_rules,
    draw_cards,
    final_setup,
    match_result,
    partner_match,
    partner_match_winner,
    record_cards,
    record_dice,
    reveal_bans,
    roll_dice,
    series_state,
    set_order,
)
from brackets.engine.cards import share_genre_and_group

ORDER = [f"r{i:02d}" for i in range(1, 21)]  # processing order positions 1..20

# ------------------------------------------------------------------------------ K6


def test_k6_rule_b_full_sends_position_11_to_a() -> None:
    b_wanted = {1, 3, 4, 5, 6, 8, 9, 10, 11}
    wishes = {p: ("B" if i in b_wanted else "A") for i, p in enumerate(ORDER, start=1)}
    result = assign_rules(ORDER, wishes, {"A": 12, "B": 8})
    assert result.players_of("B") == [ORDER[i - 1] for i in (1, 3, 4, 5, 6, 8, 9, 10)]
    eleventh = result.choices[10]
    assert (eleventh.position, eleventh.wished, eleventh.assigned) == (11, "B", "A")
    assert eleventh.displaced
    assert len(result.players_of("A")) == 12
    assert result.rule_of(ORDER[1]) == "A"


def test_k6_a_full_sends_later_players_to_b() -> None:
    wishes = dict.fromkeys(ORDER, "A")
    result = assign_rules(ORDER, wishes, {"A": 12, "B": 8})
    assert result.players_of("A") == ORDER[:12]
    assert result.players_of("B") == ORDER[12:]


def test_k6_capacities_cannot_hold_everyone_raises() -> None:
    with pytest.raises(EngineError) as info:
        assign_rules(ORDER, dict.fromkeys(ORDER, "A"), {"A": 12, "B": 7})
    assert info.value.code == "capacity_too_small"


def test_k6_bad_forms_raise() -> None:
    with pytest.raises(EngineError):
        assign_rules(ORDER, {}, {"A": 12, "B": 8})
    with pytest.raises(EngineError):
        assign_rules(ORDER, dict.fromkeys(ORDER, "C"), {"A": 12, "B": 8})
    with pytest.raises(EngineError):
        assign_rules(ORDER[:2], dict.fromkeys(ORDER, "A"), {"A": 12, "B": 8})


def test_k6_fewer_players_than_room_after_withdrawal() -> None:
    order = ORDER[:19]
    result = assign_rules(order, dict.fromkeys(order, "B"), {"A": 12, "B": 8})
    assert len(result.players_of("B")) == 8 and len(result.players_of("A")) == 11


@settings(max_examples=150, deadline=None)
@given(
    wishes=st.lists(st.sampled_from(["A", "B", "C"]), min_size=0, max_size=30),
    caps=st.tuples(*[st.integers(min_value=0, max_value=15)] * 3),
)
def test_property_rule_selection_respects_capacity_and_order(
    wishes: list[str], caps: tuple[int, int, int]
) -> None:
    order = [f"p{i}" for i in range(len(wishes))]
    capacities = dict(zip("ABC", caps))
    if sum(caps) < len(order):
        with pytest.raises(EngineError):
            assign_rules(order, dict(zip(order, wishes)), capacities)
        return
    result = assign_rules(order, dict(zip(order, wishes)), capacities)
    assert [c.player for c in result.choices] == order
    for rule, cap in capacities.items():
        assert len(result.players_of(rule)) <= cap
    # Processing order: a player is displaced only once their rule is already full.
    for choice in result.choices:
        earlier = [c for c in result.choices if c.position < choice.position]
        taken = sum(1 for c in earlier if c.assigned == choice.wished)
        if choice.displaced:
            assert taken == capacities[choice.wished]
        else:
            assert taken < capacities[choice.wished]


# ------------------------------------------------------------------------------ K7

DECK = [
    Card(g, grp)
    for g in ("アニメ&ゲーム", "スポーツ", "芸能", "社会")
    for grp in ("セレクト", "パネル", "キーボード")
]


def test_k7_two_different_cards_allow_their_union() -> None:
    drawn = record_cards([Card("芸能", "セレクト"), Card("社会", "パネル")], deck=DECK)
    assert drawn.allowed_genres == {"芸能", "社会"}
    assert drawn.allowed_groups == {"セレクト", "パネル"}
    assert drawn.recorded


def test_k7_shared_genre_or_group_draws_a_third_card() -> None:
    drawn = record_cards(
        [Card("芸能", "セレクト"), Card("芸能", "パネル"), Card("社会", "キーボード")]
    )
    assert drawn.allowed_genres == {"芸能", "社会"}
    assert drawn.allowed_groups == {"セレクト", "パネル", "キーボード"}
    with pytest.raises(EngineError) as info:
        record_cards([Card("芸能", "セレクト"), Card("スポーツ", "セレクト")])
    assert info.value.code == "card_count_mismatch"
    with pytest.raises(EngineError):
        record_cards([Card("芸能", "セレクト"), Card("社会", "パネル"), Card("スポーツ", "パネル")])


def test_k7_predicate_is_a_setting() -> None:
    # Literal reading: only identical cards trigger a third card.
    two = record_cards(
        [Card("芸能", "セレクト"), Card("芸能", "パネル")], extra_if=share_genre_and_group
    )
    assert len(two.cards) == 2


def test_k7_card_draw_from_lottery_is_reproducible_and_follows_rule() -> None:
    for match in range(30):
        drawn = draw_cards(DECK, Lottery("kyushu-ix", f"round-4/match-{match}/cards"))
        again = draw_cards(DECK, Lottery("kyushu-ix", f"round-4/match-{match}/cards"))
        assert drawn == again and not drawn.recorded
        a, b = drawn.cards[:2]
        shares = a.genre == b.genre or a.group == b.group
        assert len(drawn.cards) == (3 if shares else 2)
        assert len(set(drawn.cards)) == len(drawn.cards)


def test_k7_recorded_errors() -> None:
    with pytest.raises(EngineError):
        record_cards([Card("芸能", "セレクト")])
    with pytest.raises(EngineError):
        record_cards([Card("芸能", "セレクト"), Card("芸能", "セレクト")])
    with pytest.raises(EngineError):
        record_cards([Card("芸能", "セレクト"), Card("理系学問", "パネル")], deck=DECK)


# ------------------------------------------------------------------------------ K8


def test_k8_bans_revealed_together_for_everyone() -> None:
    banned = reveal_bans(
        ["A", "B", "C", "D"], {"A": "芸能", "B": "スポーツ", "C": "芸能", "D": "社会"}
    )
    assert banned == {"芸能", "スポーツ", "社会"}


def test_k8_reveal_needs_every_form() -> None:
    with pytest.raises(EngineError) as info:
        reveal_bans(["A", "B"], {"A": "芸能"})
    assert info.value.code == "ban_missing"
    with pytest.raises(EngineError):
        reveal_bans(["A"], {"A": "芸能", "Z": "社会"})
    with pytest.raises(EngineError):
        reveal_bans(["A"], {"A": "宇宙"}, genres={"芸能", "社会"})


# ------------------------------------------------------------------------------ K9


def partner_result(order: list[str]) -> MatchResult:
    seats = {"C1": 1, "P1": 2, "P2": 3, "C2": 4}
    entries = [SeatEntry(seats[p], p, D(400 - 50 * i), i + 1) for i, p in enumerate(order)]
    return match_result(entries)


def test_k9_contenders_at_1_and_4_partners_2_and_3() -> None:
    match = partner_match(("C1", "C2"), {"C1": "P1", "C2": "P2"}, present={"P1", "P2", "X"})
    assert match.seats == {1: "C1", 2: "P1", 3: "P2", 4: "C2"}
    assert match.partner_of("C2") == "P2"


def test_k9_better_placed_contender_wins_partners_do_not_count() -> None:
    match = partner_match(("C1", "C2"), {"C1": "P1", "C2": "P2"})
    # Partners take 1st and 2nd; C2 is 3rd, C1 4th: C2 is third place of the event.
    outcome = partner_match_winner(match, partner_result(["P1", "P2", "C2", "C1"]))
    assert (outcome.winner, outcome.loser) == ("C2", "C1")
    outcome = partner_match_winner(match, partner_result(["C1", "P2", "P1", "C2"]))
    assert outcome.winner == "C1"


def test_k9_invalid_partners_raise() -> None:
    with pytest.raises(EngineError):
        partner_match(("C1", "C2"), {"C1": "C2", "C2": "P2"})
    with pytest.raises(EngineError):
        partner_match(("C1", "C2"), {"C1": "P1"})
    with pytest.raises(EngineError):
        partner_match(("C1", "C2"), {"C1": "P1", "C2": "P1"})
    with pytest.raises(EngineError):
        partner_match(("C1", "C2"), {"C1": "P1", "C2": "P2"}, present={"P1"})


def test_k9_contender_in_wrong_seat_raises() -> None:
    match = partner_match(("C1", "C2"), {"C1": "P1", "C2": "P2"})
    entries = [
        SeatEntry(2, "C1", D(1), 1),
        SeatEntry(1, "P1", D(0), 2),
        SeatEntry(3, "P2", D(0), 3),
        SeatEntry(4, "C2", D(0), 4),
    ]
    with pytest.raises(EngineError):
        partner_match_winner(match, match_result(entries))


# ----------------------------------------------------------------------------- K10


def test_k10_dice_higher_roll_wins_ties_reroll() -> None:
    duel = record_dice(("X", "Y"), [(3, 3), (6, 6), (2, 5)])
    assert duel.winner == "Y" and duel.loser == "X"
    with pytest.raises(EngineError):
        record_dice(("X", "Y"), [(4, 4)])
    with pytest.raises(EngineError):
        record_dice(("X", "Y"), [(4, 2), (1, 3)])
    with pytest.raises(EngineError):
        record_dice(("X", "Y"), [(7, 2)])


def test_k10_dice_from_lottery_is_reproducible() -> None:
    for k in range(20):
        duel = roll_dice(("X", "Y"), Lottery("s", f"final/dice-{k}"))
        assert duel == roll_dice(("X", "Y"), Lottery("s", f"final/dice-{k}"))
        assert all(a == b for a, b in duel.rolls[:-1])
        a, b = duel.rolls[-1]
        assert a != b and duel.winner == ("X" if a > b else "Y")


def test_k10_winner_picks_one_decision_other_finalist_the_other() -> None:
    duel = record_dice(("X", "Y"), [(5, 2)])
    setup = final_setup(duel, winner_decides="seat_order", first="X", question_order="alternating")
    assert (setup.first, setup.second) == ("X", "Y")
    assert (setup.seat_order_by, setup.question_order_by) == ("X", "Y")
    setup = final_setup(duel, winner_decides="question_order", first="X", question_order="simple")
    assert (setup.seat_order_by, setup.question_order_by) == ("Y", "X")
    with pytest.raises(EngineError):
        final_setup(duel, winner_decides="seat_order", first="Z", question_order="simple")


@pytest.mark.parametrize(
    ("mode", "game", "seats"),
    [
        ("simple", 1, (1, 2, 3, 4)),
        ("simple", 2, (4, 3, 2, 1)),
        ("simple", 3, (1, 2, 3, 4)),
        ("alternating", 1, (1, 3, 2, 4)),
        ("alternating", 2, (4, 2, 3, 1)),
        ("alternating", 3, (1, 3, 2, 4)),
    ],
)
def test_k10_set_order_table(mode: str, game: int, seats: tuple[int, ...]) -> None:
    assert set_order(mode, game) == seats  # type: ignore[arg-type]


def test_k10_best_of_3_first_to_two_wins() -> None:
    state = series_state(("X", "Y"), [])
    assert (state.wins, state.finished, state.next_game) == ((0, 0), False, 1)
    state = series_state(("X", "Y"), ["X", "Y"])
    assert (state.wins, state.finished, state.next_game) == ((1, 1), False, 3)
    state = series_state(("X", "Y"), ["X", "Y", "Y"])
    assert state.winner == "Y" and state.next_game is None
    assert series_state(("X", "Y"), ["X", "X"]).winner == "X"
    with pytest.raises(EngineError) as info:
        series_state(("X", "Y"), ["X", "X", "Y"])
    assert info.value.code == "game_after_series_won"
    with pytest.raises(EngineError):
        series_state(("X", "Y"), ["Z"])


def test_k10_final_seating_and_order_follow_the_decisions() -> None:
    duel = record_dice(("X", "Y"), [(1, 4)])
    setup = final_setup(duel, winner_decides="question_order", first="X", question_order="simple")
    match = setup.seating({"X": "PX", "Y": "PY"})
    assert match.seats == {1: "X", 2: "PX", 3: "PY", 4: "Y"}
    assert [setup.set_order(g) for g in (1, 2, 3)] == [(1, 2, 3, 4), (4, 3, 2, 1), (1, 2, 3, 4)]
    # Game results feed the best-of-3 series.
    winners = []
    for order in (["X", "PY", "PX", "Y"], ["PX", "Y", "PY", "X"], ["Y", "X", "PX", "PY"]):
        seats = match.seats
        seat_of = {p: s for s, p in seats.items()}
        entries = [SeatEntry(seat_of[p], p, D(400 - 10 * i), i + 1) for i, p in enumerate(order)]
        winners.append(partner_match_winner(match, match_result(entries)).winner)
    state = series_state(("X", "Y"), winners)
    assert winners == ["X", "Y", "Y"] and state.winner == "Y"
