"""Issue 3 "Errors": impossible input raises a typed :class:`EngineError` naming the problem
(a stable ``code`` and the offending values in ``params``), never a silent wrong answer;
expected rule violations are values (:class:`Violation` with a code and parameters), never
exceptions.

One test (or parametrized case) per impossible input the issue lists: unknown genre or
format, a seat used twice, placements that are not 1..n, a score outside the game's range,
capacities that cannot hold everyone (K6 rule selection), a seed count larger than the group
count (K5).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal as D
from typing import Any

import pytest

from brackets.engine import (
    BASIC_RULE,
    CATALOG_2016,
    AdvancementRule,
    DrawnLots,
    EngineBug,
    EngineError,
    HistoryEntry,
    Lottery,
    MatchRules,
    PlayerRules,
    ScoreRange,
    SeatEntry,
    Selection,
    Violation,
    advance,
    assign_rules,
    card_allowance,
    check_eligibility,
    check_pair,
    check_rematch,
    check_selection,
    draw_groups,
    get_preset,
    legal_choices,
    match_bans,
    match_result,
    partner_match,
    player_rules_for,
    record_draw,
    reveal_bans,
    validate_drawn,
)

C = CATALOG_2016
R2 = MatchRules(round="2回戦")


def raises(code: str, call: Callable[[], Any]) -> EngineError:
    """Run ``call``, require an :class:`EngineError` with ``code``, return it.

    Every input listed here is one staff can type, so it is refused as a rule, never
    raised as an :class:`EngineBug`."""
    with pytest.raises(EngineError) as info:
        call()
    assert isinstance(info.value, Exception)
    assert not isinstance(info.value, EngineBug), (info.value.code, str(info.value))
    assert info.value.code == code, (info.value.code, str(info.value))
    assert str(info.value)  # a message a developer can read
    return info.value


def played(genre: str, fmt: str) -> HistoryEntry:
    return HistoryEntry(Selection(genre, fmt, "HARD"), "1回戦")


# -- unknown genre or format ------------------------------------------------------------------


@pytest.mark.parametrize(("call", "code", "param", "value"), [
    (lambda: C.validate(Selection("料理", "四択", "HARD")), "unknown_genre", "genre", "料理"),
    (lambda: C.selection("料理", "四択", "HARD"), "unknown_genre", "genre", "料理"),
    (lambda: legal_choices(C, BASIC_RULE, [], R2).is_legal("料理", "四択"),
     "unknown_genre", "genre", "料理"),
    (lambda: check_selection(C, BASIC_RULE, [], R2, Selection("料理", "四択", "HARD")),
     "unknown_genre", "genre", "料理"),
    # A history record with an unknown genre would otherwise ban nothing, silently.
    (lambda: legal_choices(C, BASIC_RULE, [played("料理", "四択")], R2),
     "unknown_genre", "genre", "料理"),
    (lambda: legal_choices(C, PlayerRules(lot_genres=frozenset({"料理"})), [], R2),
     "unknown_genre", "genre", "料理"),
    (lambda: legal_choices(C, BASIC_RULE, [], MatchRules(match_bans={"料理": ("A",)})),
     "unknown_genre", "genre", "料理"),
    (lambda: match_bans(C, {"A": "料理"}), "unknown_genre", "genre", "料理"),
    (lambda: reveal_bans(["A"], {"A": "料理"}, genres=C.genre_names),
     "genre_unknown", "genres", ["料理"]),
    (lambda: card_allowance(C, [("料理", "セレクト"), ("芸能", "パネル")]),
     "unknown_genre", "genre", "料理"),
])
def test_unknown_genre_raises(call: Callable[[], Any], code: str, param: str,
                              value: object) -> None:
    assert raises(code, call).params[param] == value


@pytest.mark.parametrize(("call", "code", "param", "value"), [
    (lambda: C.validate(Selection("芸能", "早押し", "HARD")), "unknown_format", "format", "早押し"),
    (lambda: C.selection("芸能", "早押し", "HARD"), "unknown_format", "format", "早押し"),
    (lambda: legal_choices(C, BASIC_RULE, [], R2).is_legal("芸能", "早押し"),
     "unknown_format", "format", "早押し"),
    (lambda: legal_choices(C, BASIC_RULE, [played("芸能", "早押し")], R2),
     "unknown_format", "format", "早押し"),
    (lambda: legal_choices(C, PlayerRules(lot_formats=frozenset({"早押し"})), [], R2),
     "unknown_format", "format", "早押し"),
    (lambda: check_pair(C, Selection("芸能", "四択", "HARD"), Selection("社会", "早押し", "HARD")),
     "unknown_format", "format", "早押し"),
    (lambda: card_allowance(C, [("芸能", "ボード"), ("社会", "パネル")]),
     "unknown_group", "group", "ボード"),
    # 画像タッチ exists only in later versions: unknown to the 2016 catalog.
    (lambda: C.validate(Selection("芸能", "画像タッチ", "HARD")),
     "unknown_format", "format", "画像タッチ"),
])
def test_unknown_format_raises(call: Callable[[], Any], code: str, param: str,
                               value: object) -> None:
    assert raises(code, call).params[param] == value


def test_subgenre_under_another_genre_raises_also_in_history() -> None:
    raises("subgenre_genre_mismatch", lambda: C.validate(Selection("芸能", "野球", "HARD")))
    err = raises("subgenre_genre_mismatch",
                 lambda: legal_choices(C, BASIC_RULE, [played("芸能", "野球")], R2))
    assert (err.params["subgenre"], err.params["parent"]) == ("野球", "スポーツ")


def test_unknown_preset_rule_or_lot_raises() -> None:
    raises("preset_unknown", lambda: get_preset("kyushu-cup-x"))
    err = raises("not_a_genre_lot", lambda: validate_drawn(
        C, DrawnLots("p", ("ノンジャンル",)), genre_lots=1))
    assert err.params["genre"] == "ノンジャンル"


# -- a seat used twice --------------------------------------------------------------------------


def test_seat_used_twice_in_a_result_raises() -> None:
    entries = [SeatEntry(2, "A", D("300.00"), 1), SeatEntry(2, "B", D("200.00"), 2)]
    assert raises("seat_twice", lambda: match_result(entries)).params["seat"] == 2


def test_player_in_two_seats_raises() -> None:
    entries = [SeatEntry(1, "A", D("300.00"), 1), SeatEntry(2, "A", D("200.00"), 2)]
    assert raises("player_twice", lambda: match_result(entries)).params["player"] == "A"


def test_seat_that_does_not_exist_raises() -> None:
    entries = [SeatEntry(5, "A", D("300.00"), 1)]
    assert raises("seat_unknown", lambda: match_result(entries)).params["seat"] == 5


def test_player_drawn_at_two_seats_raises() -> None:
    players = ["a", "b", "c", "d", "e", "f", "g"]
    groups: list[list[str | None]] = [["a", "b", "c", "d"], ["e", "f", "f", None]]
    err = raises("draw_players_mismatch", lambda: record_draw(groups, players))
    assert err.params["twice"] == ["f"] and err.params["missing"] == ["g"]


def test_partner_seated_twice_raises() -> None:
    err = raises("partner_invalid", lambda: partner_match(("A", "B"), {"A": "X", "B": "X"}))
    assert err.params["players"] == ["A", "X", "B", "X"]


# -- placements that are not 1..n ---------------------------------------------------------------


@pytest.mark.parametrize("places", [
    [1, 2, 4],        # a gap
    [0, 1, 2],        # zero
    [1, 2, 3, 5],     # beyond n
    [2, 3, 4],        # nobody first
    [1, 1, 2],        # a tie is 1, 1, 3 (the screen skips the shared place)
    [1, 2, 2, 3],     # same
])
def test_placements_not_1_to_n_raise(places: list[int]) -> None:
    entries = [SeatEntry(i + 1, f"P{i}", D(400 - 10 * i), place)
               for i, place in enumerate(places)]
    err = raises("placements_invalid", lambda: match_result(entries))
    assert err.params["placements"] == sorted(places)


def test_a_screen_tie_is_a_valid_placement() -> None:
    entries = [SeatEntry(1, "A", D(300), 1), SeatEntry(2, "B", D(300), 1),
               SeatEntry(3, "C", D(100), 3)]
    result = match_result(entries, lottery=Lottery("s", "tie"))
    assert sorted(r.place for r in result.players) == [1, 2, 3]


# -- a score outside the game's range -----------------------------------------------------------


@pytest.mark.parametrize(("score", "code"), [
    (D("-0.01"), "score_out_of_range"),      # the screen never shows a negative total
    (D("1000.01"), "score_out_of_range"),
    (D(99999), "score_out_of_range"),
    (D("250.005"), "score_precision"),       # the screen shows two decimals
    (D("NaN"), "score_not_decimal"),
    (D("Infinity"), "score_not_decimal"),
    (250.5, "score_not_decimal"),            # a float would lose the two decimals
])
def test_score_outside_the_game_range_raises(score: Any, code: str) -> None:
    entries = [SeatEntry(1, "A", score, 1), SeatEntry(2, "B", D("10.00"), 2)]
    err = raises(code, lambda: match_result(entries))
    assert err.params["seat"] == 1


def test_score_range_follows_the_setting() -> None:
    narrow = ScoreRange(low=D(0), high=D(400))
    entries = [SeatEntry(1, "A", D("400.01"), 1)]
    err = raises("score_out_of_range", lambda: match_result(entries, score_range=narrow))
    assert (err.params["low"], err.params["high"]) == (D(0), D(400))


# -- capacities that cannot hold everyone (K6) ---------------------------------------------------


def test_rule_selection_capacities_that_cannot_hold_everyone_raise() -> None:
    order = [f"r{i:02d}" for i in range(1, 22)]  # 21 players for 12 + 8 places
    err = raises("capacity_too_small",
                 lambda: assign_rules(order, dict.fromkeys(order, "A"), {"A": 12, "B": 8}))
    assert (err.params["capacity"], err.params["players"]) == (20, 21)


def test_negative_capacity_raises() -> None:
    raises("capacity_negative", lambda: assign_rules(["a"], {"a": "A"}, {"A": 2, "B": -1}))


def test_preset_capacities_that_do_not_fill_round_3_raise() -> None:
    err = raises("setting_invalid",
                 lambda: get_preset("kyushu-cup-ix", {"r3_capacity_a": 8}))
    assert (err.params["a"], err.params["b"], err.params["r3_size"]) == (8, 8, 20)


# -- a seed count larger than the group count (K5) ------------------------------------------------


def test_more_seeds_than_groups_raises() -> None:
    players = [f"p{i}" for i in range(12)]  # 3 groups
    err = raises("seeds_exceed_groups", lambda: draw_groups(
        players, seeds=players[:4], lottery=Lottery("s", "r2/groups")))
    assert (err.params["seeds"], err.params["groups"]) == (4, 3)


def test_more_seeds_than_groups_raises_for_every_method_and_a_recorded_draw() -> None:
    players = [f"p{i}" for i in range(7)]  # 2 groups
    for method in ("snake", "mod"):
        raises("seeds_exceed_groups", lambda: draw_groups(
            players, method=method, seeds=players[:3], seat_mode="in_order"))  # noqa: B023
    groups: list[list[str | None]] = [["p0", "p1", "p2", "p3"], ["p4", "p5", "p6", None]]
    raises("seeds_exceed_groups", lambda: record_draw(groups, players, seeds=players[:3]))


def test_more_seeds_than_the_preset_allows_raises() -> None:
    err = raises("too_many_seeds", lambda: get_preset("kyushu-cup-ix").rounds_for(58, 9))
    assert (err.params["seeds"], err.params["max_seeds"]) == (9, 8)


# -- expected rule violations are values, not exceptions ----------------------------------------


def test_illegal_selection_is_a_violation_value_with_code_and_params() -> None:
    check = check_selection(C, BASIC_RULE, [played("芸能", "四択")], R2,
                            Selection("芸能", "○×", "HARD"))
    assert not check.ok
    assert all(isinstance(v, Violation) for v in check.violations)
    assert Violation("genre_used", {"genre": "芸能", "round": "1回戦"}) in check.violations
    group_used = next(v for v in check.violations if v.code == "group_used")
    assert (group_used.params["group"], group_used.params["round"]) == ("セレクト", "1回戦")
    assert check.penalty == D(400)


def test_pinpoint_violation_names_the_pair_and_round() -> None:
    check = check_selection(C, player_rules_for(62), [played("社会", "四択")], R2,
                            Selection("社会", "○×", "HARD"))
    assert [v.code for v in check.violations] == ["pair_used"]
    assert {k: check.violations[0].params[k] for k in ("genre", "unit", "round")} == {
        "genre": "社会", "unit": "セレクト", "round": "1回戦"}


def test_other_expected_violations_are_values() -> None:
    # K9 pair rule, H7 re-match, H0 eligibility, K4 short round, screen/score mismatch.
    pair = check_pair(C, Selection("スポーツ", "野球", "HARD"), Selection("スポーツ", "線結び", "HARD"))
    assert pair == (Violation("partner_same_genre", {"genre": "スポーツ",
                                                     "partner_format": "線結び"}),)
    rematch = check_rematch({"A": "x"}, {"A": "y"})
    assert rematch.violations == (Violation("rematch_selection_changed",
                                            {"player": "A", "before": "x", "after": "y"}),)
    assert check_eligibility(card="c", holds_main_berth=True, series="関西杯5") == (
        Violation("holds_main_berth", {"series": "関西杯5"}),)
    result = match_result([SeatEntry(1, "A", D(100), 1), SeatEntry(2, "B", D(200), 2)])
    assert [w.code for w in result.warnings] == ["placement_below_lower_score"]
    outcome = advance({"G": result}, AdvancementRule(per_group=1, target=3))
    assert outcome.warnings == (Violation("advancement_short", {"target": 3, "count": 2}),)
