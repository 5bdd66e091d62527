"""Selection restrictions: worked examples of domain.md K1, K6–K10, H2, H3, H6, H7."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brackets.engine import (
    BASIC_RULE,
    CATALOG_2016,
    CATALOG_LATER,
    Choices,
    Counting,
    EngineError,
    HistoryEntry,
    MatchRules,
    Mode,
    Penalty,
    PlayerRules,
    Selection,
    card_allowance,
    check_pair,
    check_selection,
    counting_for_q,
    legal_choices,
    match_bans,
    mode_for_q,
    player_rules_for,
    unit_of,
)

C = CATALOG_2016
ALL_GROUPS = C.group_names
R2 = MatchRules(round="2回戦")


def played(genre: str, fmt: str, round_: str = "1回戦", *, window: str = "main",
           recorded: bool = True, difficulty: str = "HARD") -> HistoryEntry:
    return HistoryEntry(Selection(genre, fmt, difficulty), round_, window, recorded)


def codes(choices: Choices, genre: str, fmt: str) -> list[str]:
    return [v.code for v in choices.reasons(genre, fmt)]


# -- K1 basic rule (高火力ボンバーマン) ----------------------------------------------------

def test_k1_r1_geino_yontaku_bans_geino_and_select_group() -> None:
    ch = legal_choices(C, BASIC_RULE, [played("芸能", "四択")], R2)
    for fmt in ("○×", "四択", "連想", "並べ替え", "音楽", "ランダム"):
        assert not ch.is_legal("芸能", fmt)
        assert "genre_used" in codes(ch, "芸能", fmt)
    for genre in C.genre_names:
        for fmt in ("○×", "四択", "連想"):
            assert not ch.is_legal(genre, fmt)
    reason = next(v for v in ch.reasons("社会", "○×") if v.code == "group_used")
    assert reason.params["group"] == "セレクト" and reason.params["round"] == "1回戦"
    assert ch.is_legal("社会", "並べ替え") and ch.is_legal("ノンジャンル", "タイピング")
    assert "芸能" not in ch.legal_genres and "セレクト" not in ch.legal_units


def test_k1_difficulty_is_free() -> None:
    ch = legal_choices(C, BASIC_RULE, [played("芸能", "四択", difficulty="HARD")], R2)
    for difficulty in C.difficulties:
        assert ch.check(Selection("社会", "タイピング", difficulty)).ok


def test_k1_subgenre_consumes_its_genre_and_the_subgenre_group() -> None:
    ch = legal_choices(C, BASIC_RULE, [played("スポーツ", "野球")], R2)
    assert not ch.is_legal("スポーツ", "四択")
    assert not ch.is_legal("芸能", "音楽")
    assert "group_used" in codes(ch, "芸能", "音楽")
    assert ch.is_legal("芸能", "四択")


def test_k1_random_is_one_group() -> None:
    ch = legal_choices(C, BASIC_RULE, [played("社会", "ランダム")], R2)
    assert not ch.is_legal("芸能", "ランダム")
    assert ch.is_legal("芸能", "四択")


def test_k1_history_accumulates_until_the_semifinal() -> None:
    history = [played("芸能", "四択", "1回戦"), played("社会", "タイピング", "2回戦"),
               played("スポーツ", "野球", "3回戦"), played("理系学問", "線結び", "4回戦")]
    ch = legal_choices(C, BASIC_RULE, history, MatchRules(round="準決勝"))
    assert set(ch.legal_genres) == {"ノンジャンル", "アニメ&ゲーム", "ライフスタイル", "文系学問"}
    assert set(ch.legal_units) == {"パネル", "ランダム"}
    assert ch.reasons("社会", "並べ替え")[0].params["round"] == "2回戦"


def test_k6_rule_b_sets_are_not_recorded_in_history() -> None:
    history = [played("芸能", "四択", "1回戦"),
               played("社会", "タイピング", "3回戦", recorded=False)]
    ch = legal_choices(C, BASIC_RULE, history, MatchRules(round="4回戦"))
    assert ch.is_legal("社会", "エフェクト")
    assert not ch.is_legal("芸能", "エフェクト")


def test_k6_rule_b_match_has_no_restriction() -> None:
    ch = legal_choices(C, BASIC_RULE, [played("芸能", "四択")],
                       MatchRules(round="3回戦B", window=None))
    assert ch.is_legal("芸能", "四択")


# -- K7 下関ルール・改 ------------------------------------------------------------------

def test_k7_only_genres_and_groups_on_the_drawn_cards() -> None:
    genres, groups = card_allowance(C, [("芸能", "セレクト"), ("社会", "パネル")])
    match = MatchRules(round="4回戦", card_genres=genres, card_groups=groups)
    ch = legal_choices(C, BASIC_RULE, [], match)
    assert set(ch.legal_genres) == {"芸能", "社会"}
    assert set(ch.legal_units) == {"セレクト", "パネル"}
    assert ch.is_legal("芸能", "文字パネル") and ch.is_legal("社会", "連想")
    assert "genre_not_drawn" in codes(ch, "スポーツ", "四択")
    assert "group_not_drawn" in codes(ch, "芸能", "タイピング")
    assert ch.reasons("芸能", "タイピング")[0].params["drawn"] == ["セレクト", "パネル"]


def test_k7_combines_with_the_basic_rule() -> None:
    genres, groups = card_allowance(C, [("芸能", "セレクト"), ("社会", "パネル")])
    ch = legal_choices(C, BASIC_RULE, [played("芸能", "タイピング")],
                       MatchRules(round="4回戦", card_genres=genres, card_groups=groups))
    assert ch.legal_genres == ("社会",)
    assert not ch.genre_fallback


def test_k7_no_allowed_genre_left_means_nongenre() -> None:
    genres, groups = card_allowance(C, [("芸能", "セレクト"), ("社会", "パネル")])
    history = [played("芸能", "タイピング", "1回戦"), played("社会", "線結び", "2回戦"),
               played("ノンジャンル", "ランダム", "3回戦")]
    ch = legal_choices(C, BASIC_RULE, history,
                       MatchRules(round="4回戦", card_genres=genres, card_groups=groups))
    assert ch.genre_fallback and not ch.format_fallback
    assert ch.legal_genres == ("ノンジャンル",)
    # ノンジャンル may be reused even though it was used in round 3 and is not on a card.
    assert ch.is_legal("ノンジャンル", "四択") and ch.is_legal("ノンジャンル", "スロット")
    assert not ch.is_legal("ノンジャンル", "タイピング")
    check = ch.check(Selection("ノンジャンル", "四択", "HARD"))
    assert check.ok and check.fallback and check.penalty == 0


def test_k7_no_allowed_group_left_means_random() -> None:
    genres, groups = card_allowance(C, [("芸能", "セレクト"), ("社会", "パネル")])
    history = [played("スポーツ", "連想", "1回戦"), played("理系学問", "スロット", "2回戦")]
    ch = legal_choices(C, BASIC_RULE, history,
                       MatchRules(round="4回戦", card_genres=genres, card_groups=groups))
    assert ch.format_fallback and not ch.genre_fallback
    assert ch.legal_units == ("ランダム",)
    assert ch.legal_formats("芸能") == ("ランダム",)
    assert ch.check(Selection("社会", "ランダム", "EASY")).fallback


# -- K8 simultaneous bans -------------------------------------------------------------

def test_k8_all_named_genres_are_banned_for_everyone_in_that_match() -> None:
    bans = match_bans(C, {"A": "芸能", "B": "社会", "C": "芸能", "D": "スポーツ"})
    assert bans == {"芸能": ("A", "C"), "社会": ("B",), "スポーツ": ("D",)}
    match = MatchRules(round="準決勝", match_bans=bans)
    for rules in (BASIC_RULE, PlayerRules(mode=Mode.FREE)):
        ch = legal_choices(C, rules, [], match)
        assert not ch.is_legal("芸能", "四択")
        reason = ch.reasons("芸能", "四択")[0]
        assert reason.code == "genre_banned" and reason.params["banned_by"] == ["A", "C"]
        assert ch.is_legal("理系学問", "四択")


def test_k8_groups_and_difficulty_have_no_extra_limit() -> None:
    ch = legal_choices(C, BASIC_RULE, [], MatchRules(round="準決勝",
                                                      match_bans=match_bans(C, {"A": "芸能"})))
    assert set(ch.legal_units) == set(ALL_GROUPS)


def test_k8_no_genre_left_falls_back_to_nongenre() -> None:
    history = [played("アニメ&ゲーム", "四択"), played("ライフスタイル", "並べ替え"),
               played("文系学問", "タイピング"), played("ノンジャンル", "線結び")]
    bans = match_bans(C, {"A": "芸能", "B": "社会", "C": "スポーツ", "D": "理系学問"})
    ch = legal_choices(C, BASIC_RULE, history, MatchRules(round="準決勝", match_bans=bans))
    assert ch.genre_fallback and ch.legal_genres == ("ノンジャンル",)
    assert set(ch.legal_units) == {"サブジャンル", "ランダム"}
    assert ch.legal_formats("ノンジャンル") == ("ランダム",)


# -- K9 / K10 pairs ---------------------------------------------------------------------

def test_k9_same_genre_via_subgenre_is_illegal() -> None:
    violations = check_pair(C, Selection("スポーツ", "野球", "HARD"),
                            Selection("スポーツ", "線結び", "HARD"))
    assert [v.code for v in violations] == ["partner_same_genre"]


def test_k9_same_group_different_format_is_illegal() -> None:
    violations = check_pair(C, Selection("理系学問", "○×", "HARD"),
                            Selection("社会", "連想", "HARD"))
    assert [v.code for v in violations] == ["partner_same_group"]
    assert violations[0].params["group"] == "セレクト"


def test_k9_pair_differing_in_genre_and_group_is_legal() -> None:
    assert check_pair(C, Selection("理系学問", "○×", "HARD"),
                      Selection("社会", "タイピング", "EASY")) == ()


def test_k9_third_place_match_has_no_history_restriction_but_the_pair_rule() -> None:
    history = [played("芸能", "四択", "1回戦"), played("社会", "タイピング", "準決勝")]
    match = MatchRules(round="3位決定戦", window=None,
                       partner=Selection("スポーツ", "線結び", "HARD"))
    ch = legal_choices(C, BASIC_RULE, history, match)
    assert ch.is_legal("芸能", "四択")
    assert codes(ch, "スポーツ", "野球") == ["partner_same_genre"]
    assert codes(ch, "芸能", "順番当て") == ["partner_same_group"]


def test_k10_final_resets_the_history() -> None:
    history = [played("芸能", "四択", "1回戦"), played("社会", "タイピング", "準決勝")]
    ch = legal_choices(C, BASIC_RULE, history, MatchRules(round="決勝 第1戦", window="final"))
    assert ch.is_legal("芸能", "四択") and ch.is_legal("社会", "タイピング")


def test_k10_game_2_bans_what_either_set_of_the_pair_used_in_game_1() -> None:
    pair_history = [played("芸能", "四択", "決勝 第1戦", window="final"),
                    played("社会", "タイピング", "決勝 第1戦", window="final")]
    ch = legal_choices(C, BASIC_RULE, pair_history,
                       MatchRules(round="決勝 第2戦", window="final"))
    for genre, fmt in (("芸能", "並べ替え"), ("社会", "線結び"), ("スポーツ", "連想"),
                       ("スポーツ", "キューブ")):
        assert not ch.is_legal(genre, fmt)
    assert ch.is_legal("スポーツ", "並べ替え")


def test_k10_game_3_bans_games_1_and_2_and_keeps_the_pair_rule() -> None:
    pair_history = [played("芸能", "四択", "決勝 第1戦", window="final"),
                    played("社会", "タイピング", "決勝 第1戦", window="final"),
                    played("スポーツ", "並べ替え", "決勝 第2戦", window="final"),
                    played("理系学問", "線結び", "決勝 第2戦", window="final")]
    match = MatchRules(round="決勝 第3戦", window="final",
                       partner=Selection("文系学問", "歴史", "HARD"))
    ch = legal_choices(C, BASIC_RULE, pair_history, match)
    assert set(ch.legal_genres) == {"ノンジャンル", "アニメ&ゲーム", "ライフスタイル"}
    assert ch.legal_formats("アニメ&ゲーム") == ("ランダム",)
    assert "partner_same_group" in codes(ch, "アニメ&ゲーム", "ゲーム・おもちゃ")


# -- H2 / H3 modes and counting ------------------------------------------------------------

@pytest.mark.parametrize(("q", "mode", "counting"), [
    (95, Mode.BOMBER, Counting.GROUPED), (80, Mode.BOMBER, Counting.GROUPED),
    (79, Mode.PINPOINT, Counting.GROUPED), (50, Mode.PINPOINT, Counting.GROUPED),
    (49, Mode.FREE, Counting.GROUPED), (35, Mode.FREE, Counting.GROUPED),
    (34, Mode.FREE, Counting.INDIVIDUAL), (1, Mode.FREE, Counting.INDIVIDUAL),
])
def test_h2_h3_mode_and_counting_by_highest_card_q(q: int, mode: Mode,
                                                   counting: Counting) -> None:
    assert mode_for_q(q) is mode and counting_for_q(q) is counting
    rules = player_rules_for(q)
    assert rules.mode is mode and rules.counting is counting


def test_h2_bomber_q80_bans_genre_and_group() -> None:
    ch = legal_choices(C, player_rules_for(80), [played("社会", "四択")], R2)
    assert not ch.is_legal("社会", "並べ替え") and not ch.is_legal("芸能", "○×")


def test_h2_free_q49_is_never_restricted_by_history() -> None:
    history = [played("社会", "四択"), played("社会", "四択", "2回戦")]
    ch = legal_choices(C, player_rules_for(49), history, MatchRules(round="3回戦"))
    assert ch.is_legal("社会", "四択")


def test_h2_petit_shura_opts_up_to_a_stricter_mode() -> None:
    assert player_rules_for(40, opt_up=Mode.PINPOINT).mode is Mode.PINPOINT
    assert player_rules_for(60, opt_up=Mode.BOMBER).mode is Mode.BOMBER
    assert player_rules_for(60, opt_up=Mode.PINPOINT).mode is Mode.PINPOINT
    with pytest.raises(EngineError) as err:
        player_rules_for(85, opt_up=Mode.PINPOINT)
    assert err.value.code == "opt_up_not_stricter"


def test_h4_shura_forces_bomber_whatever_the_rank() -> None:
    rules = player_rules_for(20, shura=True)
    assert rules.mode is Mode.BOMBER and rules.counting is Counting.INDIVIDUAL


def test_h3_pinpoint_q62_after_shakai_yontaku_bans_shakai_maru_batsu_only() -> None:
    ch = legal_choices(C, player_rules_for(62), [played("社会", "四択")], R2)
    assert codes(ch, "社会", "○×") == ["pair_used"]
    assert not ch.is_legal("社会", "四択")
    assert ch.is_legal("社会", "並べ替え")
    assert ch.is_legal("芸能", "四択")


def test_h3_low_firepower_q34_counts_each_format_on_its_own() -> None:
    rules = player_rules_for(34, shura=True)
    ch = legal_choices(C, rules, [played("社会", "四択")], R2)
    assert codes(ch, "芸能", "四択") == ["format_used"]
    assert ch.is_legal("芸能", "○×") and ch.is_legal("芸能", "連想")
    assert unit_of(C, "四択", rules) == "四択"


def test_h3_low_firepower_subgenres_count_as_one_by_default() -> None:
    rules = player_rules_for(30, shura=True)
    ch = legal_choices(C, rules, [played("スポーツ", "野球")], R2)
    assert not ch.is_legal("芸能", "音楽")
    split = PlayerRules(Mode.BOMBER, Counting.INDIVIDUAL, subgenres_as_one=False)
    ch = legal_choices(C, split, [played("スポーツ", "野球")], R2)
    assert ch.is_legal("芸能", "音楽")


def test_h3_pinpoint_low_firepower_bans_exact_format_only() -> None:
    rules = PlayerRules(Mode.PINPOINT, Counting.INDIVIDUAL)
    ch = legal_choices(C, rules, [played("社会", "四択")], R2)
    assert not ch.is_legal("社会", "四択") and ch.is_legal("社会", "○×")


# -- H4 / H5 lots as restrictions ----------------------------------------------------------

def test_h4_genre_lots_ban_their_genres_for_the_whole_event() -> None:
    rules = player_rules_for(60, shura=True, lot_genres=("芸能", "社会"))
    for window in ("main", "final"):
        ch = legal_choices(C, rules, [], MatchRules(window=window))
        assert codes(ch, "芸能", "四択") == ["genre_lot"]
        assert not ch.is_legal("社会", "地理")
        assert ch.is_legal("スポーツ", "四択")


def test_h5_format_lot_bans_the_whole_column_for_a_high_firepower_player() -> None:
    rules = player_rules_for(70, shura=True, lot_genres=("芸能",), lot_formats=("キーボード",))
    ch = legal_choices(C, rules, [], R2)
    assert codes(ch, "社会", "タイピング") == ["format_lot"]
    rules = player_rules_for(70, shura=True, lot_formats=("四択",))
    assert not legal_choices(C, rules, [], R2).is_legal("社会", "連想")


def test_lots_can_be_switched_off_for_a_match() -> None:
    rules = player_rules_for(60, shura=True, lot_genres=("芸能",))
    assert legal_choices(C, rules, [], MatchRules(apply_lots=False)).is_legal("芸能", "四択")


# -- H6 fallbacks and H7 penalty -------------------------------------------------------------

def test_h6_no_legal_genre_lets_nongenre_be_reused() -> None:
    genres = C.genre_names
    history = [played(g, "ランダム" if i == 0 else "四択", f"{i + 1}回戦")
               for i, g in enumerate(genres)]
    ch = legal_choices(C, PlayerRules(Mode.BOMBER, Counting.INDIVIDUAL), history,
                       MatchRules(round="9回戦"))
    assert ch.genre_fallback and ch.legal_genres == ("ノンジャンル",)
    assert ch.is_legal("ノンジャンル", "タイピング")
    assert not ch.is_legal("ノンジャンル", "四択")  # the format axis still applies
    assert ch.check(Selection("ノンジャンル", "タイピング", "HARD")).penalty == 0


def test_h6_four_lots_and_three_used_genres_fall_back_to_nongenre() -> None:
    rules = player_rules_for(85, shura=True, lot_genres=("芸能", "社会", "スポーツ", "理系学問"))
    history = [played("アニメ&ゲーム", "四択"), played("ライフスタイル", "並べ替え", "2回戦"),
               played("文系学問", "歴史", "準決勝"), played("ノンジャンル", "タイピング", "準決勝")]
    ch = legal_choices(C, rules, history, MatchRules(round="決勝"))
    assert ch.genre_fallback and ch.legal_genres == ("ノンジャンル",)
    assert set(ch.legal_units) == {"マルチセレクト", "ランダム"}


def test_h6_no_legal_format_lets_random_be_reused() -> None:
    history = [played("芸能", "四択"), played("社会", "並べ替え", "2回戦"),
               played("スポーツ", "タイピング", "3回戦"), played("理系学問", "線結び", "4回戦"),
               played("文系学問", "歴史", "5回戦"), played("アニメ&ゲーム", "ランダム", "6回戦")]
    ch = legal_choices(C, BASIC_RULE, history, MatchRules(round="7回戦"))
    assert ch.format_fallback and ch.legal_units == ("ランダム",)
    assert ch.is_legal("ライフスタイル", "ランダム")
    assert not ch.is_legal("アニメ&ゲーム", "ランダム")  # the genre axis still applies
    assert ch.check(Selection("ライフスタイル", "ランダム", "NORMAL")).fallback


def test_h7_illegal_choice_while_a_legal_one_existed_costs_400() -> None:
    check = check_selection(C, player_rules_for(62), [played("社会", "四択")], R2,
                            Selection("社会", "○×", "HARD"))
    assert not check.ok and check.penalty == Decimal(400)
    assert [v.code for v in check.violations] == ["pair_used"]
    assert check.penalty_for("A") == Penalty("A", Decimal(400), "illegal_selection")


def test_h7_penalty_amount_is_a_setting() -> None:
    check = check_selection(C, BASIC_RULE, [played("社会", "四択")], R2,
                            Selection("社会", "並べ替え", "HARD"), penalty=Decimal(0))
    assert not check.ok and check.penalty == 0 and check.penalty_for("A") is None


def test_h7_legal_choice_has_no_penalty() -> None:
    check = check_selection(C, player_rules_for(62), [played("社会", "四択")], R2,
                            Selection("芸能", "四択", "HARD"))
    assert check.ok and check.penalty == 0 and not check.violations and not check.fallback


def test_h7_fallback_forced_choice_has_no_penalty() -> None:
    genres, groups = card_allowance(C, [("芸能", "セレクト"), ("社会", "パネル")])
    history = [played("芸能", "タイピング"), played("社会", "線結び", "2回戦")]
    ch = legal_choices(C, BASIC_RULE, history,
                       MatchRules(round="4回戦", card_genres=genres, card_groups=groups))
    ok = ch.check(Selection("ノンジャンル", "連想", "HARD"))
    assert ok.ok and ok.fallback and ok.penalty == 0
    bad = ch.check(Selection("芸能", "連想", "HARD"))
    assert not bad.ok and bad.penalty == Decimal(400)


def test_unknown_selection_names_raise() -> None:
    ch = legal_choices(C, BASIC_RULE, [], R2)
    with pytest.raises(EngineError):
        ch.check(Selection("芸能", "画像タッチ", "HARD"))
    with pytest.raises(EngineError):
        ch.reasons("宇宙", "四択")


# -- the grid for a page ----------------------------------------------------------------------

def test_options_grid_lists_every_set_with_reasons_for_the_illegal_ones() -> None:
    ch = legal_choices(C, BASIC_RULE, [played("芸能", "四択")], R2)
    grid = ch.options()
    assert len(grid) == 8 * 14 + 21
    for option in grid:
        assert option.legal == (not option.reasons)
        assert option.legal == ch.is_legal(option.genre, option.format)
    assert {o.genre for o in grid if o.legal} == set(ch.legal_genres)
    summary = ch.summary()
    assert summary["used_genres"] == {"芸能": "1回戦"}


def test_later_catalog_works_the_same_way() -> None:
    ch = legal_choices(CATALOG_LATER, BASIC_RULE, [played("芸能", "画像タッチ")], R2)
    assert not ch.is_legal("社会", "四択")
    assert ch.is_legal("社会", "一方通行") and ch.is_legal("社会", "早い者勝ち")


def test_4096_players_legal_choices_are_fast() -> None:
    import random

    rng = random.Random(7)
    sets = [(g, f) for g in C.genre_names for f in C.options_for(g)]
    players = []
    for _ in range(4096):
        rules = player_rules_for(rng.randrange(0, 100),
                                 lot_genres=rng.sample(C.lot_genres, rng.randrange(0, 3)))
        history = [played(*rng.choice(sets)) for _ in range(rng.randrange(0, 6))]
        players.append((rules, history))
    match = MatchRules(round="準決勝", match_bans={"芸能": ("X",)})
    best = 1e9
    for _ in range(3):
        start = time.perf_counter()
        for rules, history in players:
            legal_choices(C, rules, history, match)
        best = min(best, time.perf_counter() - start)
    assert best < 0.25, f"{best * 1000:.0f} ms for 4096 players"


# -- properties -----------------------------------------------------------------------------

_SETS = [(g, f) for g in C.genre_names for f in C.options_for(g)]
_entries = st.builds(
    lambda gf, window, recorded: played(gf[0], gf[1], window=window, recorded=recorded),
    st.sampled_from(_SETS), st.sampled_from(["main", "final"]), st.booleans())
_rules = st.builds(
    PlayerRules,
    mode=st.sampled_from(list(Mode)),
    counting=st.sampled_from(list(Counting)),
    lot_genres=st.frozensets(st.sampled_from(C.lot_genres), max_size=4),
    lot_formats=st.frozensets(st.sampled_from(["セレクト", "パネル", "キーボード", "四択"]),
                              max_size=2),
    subgenres_as_one=st.booleans(),
)
_cards = st.one_of(st.none(), st.lists(
    st.tuples(st.sampled_from(C.genre_names), st.sampled_from(ALL_GROUPS)),
    min_size=2, max_size=3))
_matches = st.builds(
    lambda window, cards, bans, partner: MatchRules(
        round="R", window=window,
        card_genres=None if cards is None else card_allowance(C, cards)[0],
        card_groups=None if cards is None else card_allowance(C, cards)[1],
        match_bans=match_bans(C, {str(i): g for i, g in enumerate(bans)}),
        partner=None if partner is None else Selection(partner[0], partner[1], "HARD")),
    st.sampled_from(["main", "final", None]), _cards,
    st.lists(st.sampled_from(C.genre_names), max_size=4),
    st.one_of(st.none(), st.sampled_from(_SETS)))


@settings(max_examples=150, deadline=None)
@given(rules=_rules, history=st.lists(_entries, max_size=12), match=_matches)
def test_property_a_legal_selection_or_the_documented_fallback_always_exists(
        rules: PlayerRules, history: list[HistoryEntry], match: MatchRules) -> None:
    ch = legal_choices(C, rules, history, match)
    legal = [(g, f) for g in C.genre_names for f in C.options_for(g) if ch.is_legal(g, f)]
    assert legal, "no legal selection at all"
    assert {g for g, _ in legal} == set(ch.legal_genres)
    if ch.genre_fallback:
        assert {g for g, _ in legal} == {C.nongenre}
    if ch.format_fallback:
        assert {f for _, f in legal} == {C.random_format}
    if ch.forced is not None:
        assert legal == [ch.forced]
    genre, fmt = legal[0]
    assert ch.check(Selection(genre, fmt, "HARD")).penalty == 0


@settings(max_examples=100, deadline=None)
@given(rules=_rules, history=st.lists(_entries, max_size=8), match=_matches,
       pick=st.sampled_from(_SETS))
def test_property_every_illegal_set_has_reasons_and_costs_the_penalty(
        rules: PlayerRules, history: list[HistoryEntry], match: MatchRules,
        pick: tuple[str, str]) -> None:
    ch = legal_choices(C, rules, history, match)
    check = ch.check(Selection(pick[0], pick[1], "EASY"))
    assert check.ok == ch.is_legal(*pick)
    assert check.ok == (not ch.reasons(*pick))
    assert check.penalty == (0 if check.ok else Decimal(400))


@pytest.mark.parametrize(("rules", "match"), [
    (PlayerRules(lot_genres=frozenset({"宇宙"})), R2),
    (PlayerRules(lot_formats=frozenset({"早押し"})), R2),
    (BASIC_RULE, MatchRules(card_genres=frozenset({"宇宙"}), card_groups=frozenset())),
    (BASIC_RULE, MatchRules(card_genres=frozenset(), card_groups=frozenset({"ボード"}))),
    (BASIC_RULE, MatchRules(match_bans={"宇宙": ("A",)})),
])
def test_unknown_names_in_lots_cards_or_bans_raise(rules: PlayerRules,
                                                   match: MatchRules) -> None:
    with pytest.raises(EngineError):
        legal_choices(C, rules, [], match)


def test_legal_choices_for_all_players_of_a_round() -> None:
    from brackets.engine import legal_choices_for_all

    players = {"A": (BASIC_RULE, [played("芸能", "四択")]),
               "B": (player_rules_for(62), [played("社会", "四択")])}
    result = legal_choices_for_all(C, players, R2)
    assert not result["A"].is_legal("芸能", "並べ替え")
    assert result["B"].is_legal("社会", "並べ替え") and not result["B"].is_legal("社会", "○×")
