"""修羅 (seed 002): H0 eligibility, H4 lots owed, H5 format lots, reproducible draws."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brackets.engine import (
    CATALOG_2016,
    MAX_LOTS,
    DrawnLots,
    EngineError,
    LotsOwed,
    Lottery,
    MatchRules,
    Mode,
    PastWin,
    QualifierAppearance,
    Selection,
    ShuraDeclaration,
    check_eligibility,
    draw_lots,
    format_lots_allowed,
    legal_choices,
    lots_owed,
    shura_player_rules,
    validate_drawn,
)
from brackets.engine.shura import format_lot_pool

C = CATALOG_2016


# -- H4 lots owed ------------------------------------------------------------------------

def test_h4_no_condition_no_lots_no_shura() -> None:
    owed = lots_owed(ShuraDeclaration())
    assert owed == LotsOwed(0, ()) and not owed.shura


@pytest.mark.parametrize(("decl", "lots"), [
    (ShuraDeclaration(national_title=True), 1),
    (ShuraDeclaration(shiga_winner=True), 1),
    (ShuraDeclaration(seed_or_invitation=True), 1),
    (ShuraDeclaration(national_title=True, shiga_winner=True), 2),
    (ShuraDeclaration(national_title=True, shiga_winner=True, seed_or_invitation=True), 3),
])
def test_h4_each_condition_adds_one_lot_cumulatively(decl: ShuraDeclaration,
                                                     lots: int) -> None:
    owed = lots_owed(decl)
    assert owed.genre_lots == lots and owed.shura


def test_h4_volunteer_shura_no_michi_is_one_lot() -> None:
    owed = lots_owed(ShuraDeclaration(volunteer=True))
    assert owed.genre_lots == 1 and owed.reasons == ("volunteer",)


def test_h4_volunteer_adds_nothing_for_a_player_already_under_a_condition() -> None:
    assert lots_owed(ShuraDeclaration(national_title=True, volunteer=True)).genre_lots == 1


def test_h4_extra_self_declared_lots_up_to_four() -> None:
    assert lots_owed(ShuraDeclaration(volunteer=True, extra_lots=3)).genre_lots == 4
    assert lots_owed(ShuraDeclaration(shiga_winner=True, extra_lots=2)).genre_lots == 3
    # Extra lots imply 修羅の道.
    assert lots_owed(ShuraDeclaration(extra_lots=1)).genre_lots == 2


def test_h4_more_than_four_lots_is_refused() -> None:
    with pytest.raises(EngineError) as err:
        lots_owed(ShuraDeclaration(national_title=True, shiga_winner=True,
                                   seed_or_invitation=True, extra_lots=2))
    assert err.value.code == "too_many_lots"
    with pytest.raises(EngineError):
        lots_owed(ShuraDeclaration(extra_lots=-1))


@pytest.mark.parametrize("extra", [5, 10_000_000, 3_000_000_000])
def test_h4_huge_extra_lot_count_is_refused_before_any_list_is_built(extra: int) -> None:
    """Issue 19, defect 2: the lot list was built before the cap (100,000,000 took 1.5 GB
    before being refused). The cap comes first: refusing costs no memory."""
    import tracemalloc

    tracemalloc.start()
    try:
        with pytest.raises(EngineError) as err:
            lots_owed(ShuraDeclaration(volunteer=True, extra_lots=extra))
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert err.value.code == "too_many_lots"
    assert peak < 1_000_000


def test_h4_shura_forces_bomber_and_bans_drawn_genres() -> None:
    owed = lots_owed(ShuraDeclaration(national_title=True))
    drawn = draw_lots(Lottery("seed", "shura"), C, "p1", genre_lots=owed.genre_lots)
    rules = shura_player_rules(40, owed, drawn)
    assert rules.mode is Mode.BOMBER and rules.lot_genres == frozenset(drawn.genres)
    ch = legal_choices(C, rules, [], MatchRules(round="1回戦"))
    assert drawn.genres[0] not in ch.legal_genres
    assert not ch.is_legal(drawn.genres[0], "四択")


def test_h4_petit_shura_without_lots_keeps_rank_rules() -> None:
    rules = shura_player_rules(60, lots_owed(ShuraDeclaration()), None, opt_up=Mode.BOMBER)
    assert rules.mode is Mode.BOMBER and not rules.lot_genres
    assert shura_player_rules(60, lots_owed(ShuraDeclaration()), None).mode is Mode.PINPOINT


def test_h4_lots_must_be_drawn_before_rules_are_built() -> None:
    with pytest.raises(EngineError):
        shura_player_rules(60, lots_owed(ShuraDeclaration(volunteer=True)), None)


# -- draws ----------------------------------------------------------------------------------

def test_h4_genre_lots_come_from_the_seven_genres_without_nongenre() -> None:
    drawn = draw_lots(Lottery("s", "shura"), C, "p", genre_lots=4)
    assert len(drawn.genres) == 4 and len(set(drawn.genres)) == 4
    assert set(drawn.genres) <= set(C.lot_genres) and "ノンジャンル" not in drawn.genres


def test_draws_are_reproducible_and_independent_of_call_order() -> None:
    a1 = draw_lots(Lottery("s", "shura"), C, "alice", genre_lots=3)
    draw_lots(Lottery("s", "shura"), C, "bob", genre_lots=2)
    a2 = draw_lots(Lottery("s", "shura"), C, "alice", genre_lots=3)
    assert a1 == a2
    others = {draw_lots(Lottery(str(i), "shura"), C, "alice", genre_lots=3).genres
              for i in range(20)}
    assert len(others) > 1


def test_too_many_lots_in_a_draw_raise() -> None:
    with pytest.raises(EngineError):
        draw_lots(Lottery("s", "x"), C, "p", genre_lots=5)
    with pytest.raises(EngineError):
        draw_lots(Lottery("s", "x"), C, "p", genre_lots=1, format_lots=5)


def test_validate_hand_drawn_lots() -> None:
    validate_drawn(C, DrawnLots("p", ("芸能", "社会")), genre_lots=2)
    for bad in (DrawnLots("p", ("芸能", "芸能")), DrawnLots("p", ("ノンジャンル", "社会")),
                DrawnLots("p", ("芸能",))):
        with pytest.raises(EngineError):
            validate_drawn(C, bad, genre_lots=2)
    validate_drawn(C, DrawnLots("p", ("芸能", "社会", "スポーツ", "理系学問"), ("パネル",)),
                   genre_lots=4, format_lots=1)
    with pytest.raises(EngineError):
        validate_drawn(C, DrawnLots("p", ("芸能", "社会", "スポーツ", "理系学問"), ("ランダム",)),
                       genre_lots=4, format_lots=1)


@settings(max_examples=150, deadline=None)
@given(seed=st.text(max_size=12), player=st.text(min_size=1, max_size=8),
       genre_lots=st.integers(0, MAX_LOTS), format_lots=st.integers(0, 2))
def test_property_same_seed_same_lots_never_over_four_never_repeated(
        seed: str, player: str, genre_lots: int, format_lots: int) -> None:
    first = draw_lots(Lottery(seed, "shura"), C, player, genre_lots=genre_lots,
                      format_lots=format_lots)
    again = draw_lots(Lottery(seed, "shura"), C, player, genre_lots=genre_lots,
                      format_lots=format_lots)
    assert first == again
    assert len(first.genres) == genre_lots <= MAX_LOTS
    assert len(set(first.genres)) == len(first.genres)
    assert len(set(first.formats)) == len(first.formats) == format_lots
    assert set(first.formats) <= set(format_lot_pool(C))
    validate_drawn(C, first, genre_lots=genre_lots, format_lots=format_lots)


@settings(max_examples=150, deadline=None)
@given(title=st.booleans(), shiga=st.booleans(), seed=st.booleans(), volunteer=st.booleans(),
       extra=st.integers(0, 6))
def test_property_lots_owed_never_exceed_four(title: bool, shiga: bool, seed: bool,
                                              volunteer: bool, extra: int) -> None:
    decl = ShuraDeclaration(title, shiga, seed, volunteer, extra)
    try:
        owed = lots_owed(decl)
    except EngineError as err:
        assert err.code == "too_many_lots"
        assert title + shiga + seed + extra + (0 if title or shiga or seed else 1) > MAX_LOTS
    else:
        assert 0 <= owed.genre_lots <= MAX_LOTS
        assert owed.shura == (title or shiga or seed or volunteer or extra > 0)


# -- H5 format lots ------------------------------------------------------------------------

def test_h5_lpast6_m4_allows_one_format_lot() -> None:
    assert format_lots_allowed([PastWin(genre_lots=4, format_lots=2)], q_level=60,
                               genre_lots_now=4, max_matches=4) == 1


def test_h5_lpast_is_the_largest_of_several_wins() -> None:
    wins = [PastWin(4), PastWin(4, 2), PastWin(2, 0)]
    assert format_lots_allowed(wins, q_level=90, genre_lots_now=4, max_matches=3) == 2
    assert format_lots_allowed(wins, q_level=90, genre_lots_now=4, max_matches=2) == 3


@pytest.mark.parametrize(("wins", "q", "now", "m", "k"), [
    ([PastWin(4)], 60, 4, 4, 1),          # L 4 → 1; 5 − 4 = 1
    ([PastWin(4)], 60, 4, 5, 0),          # 5 − M = 0: none
    ([PastWin(4, 2)], 60, 4, 6, 0),       # negative bound: none
    ([PastWin(3, 3)], 60, 4, 2, 0),       # past win with only 3 genre lots
    ([PastWin(4, 2)], 49, 4, 2, 0),       # not yet 賢者
    ([PastWin(4, 2)], 50, 3, 2, 0),       # must draw 4 genre lots now
    ([], 80, 4, 2, 0),                    # never won
])
def test_h5_format_lot_bound(wins: list[PastWin], q: int, now: int, m: int, k: int) -> None:
    assert format_lots_allowed(wins, q_level=q, genre_lots_now=now, max_matches=m) == k


def test_h5_format_lots_ban_their_groups() -> None:
    owed = lots_owed(ShuraDeclaration(national_title=True, extra_lots=3))
    k = format_lots_allowed([PastWin(4, 2)], q_level=70, genre_lots_now=owed.genre_lots,
                            max_matches=4)
    drawn = draw_lots(Lottery("s", "shura"), C, "champ", genre_lots=owed.genre_lots,
                      format_lots=k)
    assert len(drawn.formats) == 1
    rules = shura_player_rules(70, owed, drawn)
    group = drawn.formats[0]
    ch = legal_choices(C, rules, [], MatchRules())
    fmt = C.formats_in(group)[0]
    genre = next(g for g in C.lot_genres if g not in drawn.genres)
    assert not ch.is_legal(genre, fmt)
    assert [v.code for v in ch.reasons(genre, fmt)] == ["format_lot"]
    assert ch.check(Selection(genre, fmt, "HARD")).penalty > 0


# -- H0 eligibility ------------------------------------------------------------------------

def test_h0_main_event_berth_holder_is_refused() -> None:
    violations = check_eligibility(card="CARD-1", holds_main_berth=True, series="関西杯5")
    assert [v.code for v in violations] == ["holds_main_berth"]


def test_h0_first_time_player_is_eligible() -> None:
    assert check_eligibility(card="CARD-1", holds_main_berth=False) == ()


def test_h0_must_use_the_card_of_first_appearance() -> None:
    earlier = [QualifierAppearance("京都予選", "2019-06-02", "SUB"),
               QualifierAppearance("大阪予選", "2019-05-12", "MAIN")]
    assert check_eligibility(card="MAIN", holds_main_berth=False, appearances=earlier) == ()
    violations = check_eligibility(card="SUB", holds_main_berth=False, appearances=earlier)
    assert [v.code for v in violations] == ["card_not_first_appearance"]
    assert violations[0].params["first_card"] == "MAIN"
    assert violations[0].params["first_qualifier"] == "大阪予選"


def test_h0_both_problems_are_reported() -> None:
    earlier = [QualifierAppearance("大阪予選", "2019-05-12", "MAIN")]
    violations = check_eligibility(card="OTHER", holds_main_berth=True, appearances=earlier)
    assert {v.code for v in violations} == {"holds_main_berth", "card_not_first_appearance"}
