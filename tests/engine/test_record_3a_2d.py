"""Seed 002's rules read from a player's record (brackets/engine/record.py): 2-d's highest
card, 3-a-i…iii's grounds with the achievement behind each, H0-a's berth."""

from __future__ import annotations

import pytest

from brackets.engine import (
    Achievement,
    CardRecord,
    RuleRefusal,
    check_achievement,
    highest_card,
    holds_berth,
    lots_owed,
    shura_grounds,
)


def ach(key: str, kind: str, version: str = "tg", limited: str = "") -> Achievement:
    return Achievement(key, kind, version, "2016-05-01", "公式サイト", limited)


def test_2d_mode_keys_on_the_highest_of_all_cards() -> None:
    cards = [CardRecord("サブ", 40), CardRecord("メイン", 85), CardRecord("旧", 85)]
    assert highest_card(cards) == CardRecord("メイン", 85)
    assert highest_card([]) is None


@pytest.mark.parametrize("kind, version, ground", [
    ("national_title", "tg", "national_title"),
    ("national_title", "we", "national_title"),
    ("shiga_win", "we", "shiga_winner"),
    ("seed_right", "tg", "seed_or_invitation"),
])
def test_3a_each_ground_gives_one_lot_with_the_achievement_behind_it(
        kind: str, version: str, ground: str) -> None:
    grounds = shura_grounds([ach("a1", kind, version)])
    assert lots_owed(grounds.declaration).genre_lots == 1
    assert [a.key for a in grounds.achievements_for(ground)] == ["a1"]


def test_3a_grounds_are_cumulative_and_two_titles_are_still_one_lot() -> None:
    grounds = shura_grounds([ach("t1", "national_title"), ach("t2", "national_title", "we"),
                             ach("s1", "shiga_win"), ach("r1", "seed_right")])
    assert lots_owed(grounds.declaration).genre_lots == 3
    assert [a.key for a in grounds.achievements_for("national_title")] == ["t1", "t2"]


@pytest.mark.parametrize("kind, version", [
    ("national_title", "kiseki"),     # 3-a-i: only 栗東 and ゑ
    ("shiga_win", "other"),           # 3-a-ii: only while 栗東 or ゑ ran
    ("seed_right", "we"),             # 3-a-iii: 栗東 only
    ("other", "tg"),
])
def test_3a_achievements_outside_the_named_versions_owe_nothing(kind: str, version: str) -> None:
    assert not lots_owed(shura_grounds([ach("x", kind, version)]).declaration).shura


@pytest.mark.parametrize("limited", ["accuracy", "non_finalists", "genre_limited", "tag"])
def test_3a_ii_excluded_shiga_events_owe_nothing(limited: str) -> None:
    assert not shura_grounds([ach("x", "shiga_win", limited=limited)]).declaration.shiga_winner


def test_3b_volunteer_counts_only_without_a_ground() -> None:
    with_title = shura_grounds([ach("t", "national_title")], volunteer=True)
    assert lots_owed(with_title.declaration).genre_lots == 1
    assert lots_owed(shura_grounds([], volunteer=True).declaration).genre_lots == 1


@pytest.mark.parametrize("held_on, source, code", [
    ("", "公式サイト", "achievement_no_date"), ("2016-05-01", "  ", "achievement_no_source")])
def test_an_achievement_without_date_or_source_is_refused(held_on: str, source: str,
                                                          code: str) -> None:
    with pytest.raises(RuleRefusal) as refused:
        check_achievement(Achievement("x", "national_title", "tg", held_on, source))
    assert refused.value.code == code


def test_h0a_berth_of_the_series_named_in_the_source() -> None:
    berth = Achievement("b", "main_berth", "we", "2017-01-01", "関西杯5 大津予選 優勝")
    assert holds_berth([berth], series="関西杯5")
    assert not holds_berth([berth], series="関西杯6")


def test_6ciii_l_past_is_the_largest_total_among_wins_with_four_genre_lots() -> None:
    from brackets.engine import PastWin, format_lots_allowed, past_win_total

    wins = [PastWin(4, 2), PastWin(3, 4), PastWin(4, 0)]
    assert past_win_total(wins) == 6  # 3+4 = 7 drew only three genre lots
    assert past_win_total([PastWin(3, 4)]) == 0
    assert format_lots_allowed(wins, q_level=60, genre_lots_now=4, max_matches=4) == 1
