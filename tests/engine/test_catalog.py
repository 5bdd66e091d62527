"""Catalog data (domain A): builtin versions, fixture round-trips, validation of names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brackets.engine import (
    CATALOG_2016,
    CATALOG_LATER,
    Catalog,
    EngineError,
    Format,
    FormatGroup,
    Genre,
    Selection,
    SubGenre,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "catalog"


def test_2016_catalog_has_8_genres_21_subgenres_13_formats_and_6_groups() -> None:
    c = CATALOG_2016
    assert len(c.genre_names) == 8 and c.nongenre == "ノンジャンル"
    assert len(c.lot_genres) == 7 and "ノンジャンル" not in c.lot_genres
    assert len(c.subgenres) == 21
    real_formats = [f for f in c.format_names if f != c.random_format]
    assert len(real_formats) == 13
    assert c.group_names == ("セレクト", "パネル", "キーボード", "マルチセレクト", "サブジャンル",
                             "ランダム")
    assert c.formats_in("セレクト") == ("○×", "四択", "連想")


def test_each_genre_has_three_subgenres_in_the_subgenre_group() -> None:
    for genre in CATALOG_2016.lot_genres:
        subs = [s.name for s in CATALOG_2016.subgenres if s.genre == genre]
        assert len(subs) == 3
        for sub in subs:
            assert CATALOG_2016.group_of(sub) == "サブジャンル"
            assert CATALOG_2016.parent_of(sub) == genre


def test_later_catalog_adds_three_formats_in_documented_groups() -> None:
    c = CATALOG_LATER
    assert c.group_of("画像タッチ") == "セレクト"
    assert c.group_of("一方通行") == "パネル"
    assert c.group_of("早い者勝ち") == "マルチセレクト"
    assert len([f for f in c.format_names if f != c.random_format]) == 16


@pytest.mark.parametrize("catalog", [CATALOG_2016, CATALOG_LATER], ids=lambda c: c.version)
def test_builtin_equals_the_project_fixture(catalog: Catalog) -> None:
    data = json.loads((FIXTURES / f"{catalog.version}.json").read_text(encoding="utf-8"))
    assert Catalog.from_fixture(data) == catalog


@pytest.mark.parametrize("catalog", [CATALOG_2016, CATALOG_LATER], ids=lambda c: c.version)
def test_from_dict_round_trips(catalog: Catalog) -> None:
    assert Catalog.from_dict(catalog.to_dict()) == catalog


def test_subgenre_selection_is_parent_genre_plus_subgenre_name() -> None:
    CATALOG_2016.validate(Selection("スポーツ", "野球", "HARD"))
    with pytest.raises(EngineError) as err:
        CATALOG_2016.validate(Selection("芸能", "野球", "HARD"))
    assert err.value.code == "subgenre_genre_mismatch"
    with pytest.raises(EngineError):
        CATALOG_2016.validate(Selection("ノンジャンル", "野球", "HARD"))


@pytest.mark.parametrize(("selection", "code"), [
    (Selection("宇宙", "四択", "HARD"), "unknown_genre"),
    (Selection("芸能", "早押し", "HARD"), "unknown_format"),
    (Selection("芸能", "四択", "VERY HARD"), "unknown_difficulty"),
    (Selection("芸能", "画像タッチ", "EASY"), "unknown_format"),  # not in the 2016 version
])
def test_unknown_names_raise(selection: Selection, code: str) -> None:
    with pytest.raises(EngineError) as err:
        CATALOG_2016.validate(selection)
    assert err.value.code == code


def test_dummy_set_and_random_are_valid() -> None:
    CATALOG_2016.validate(Selection("ノンジャンル", "ランダム", "HARD"))
    assert CATALOG_2016.group_of("ランダム") == "ランダム"


def test_options_for_genre_include_only_its_own_subgenres() -> None:
    opts = CATALOG_2016.options_for("芸能")
    assert "音楽" in opts and "野球" not in opts and "四択" in opts
    assert not any(CATALOG_2016.is_subgenre(o) for o in CATALOG_2016.options_for("ノンジャンル"))


def test_rank_names_by_q_level() -> None:
    assert CATALOG_2016.rank_name(34) == "魔術士"
    assert CATALOG_2016.rank_name(62) == "大賢者"
    assert CATALOG_2016.rank_name(85) == "黄金賢者"


def _minimal(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "version": "t",
        "genres": [{"name": "ノンジャンル", "nongenre": True}, {"name": "芸能"}],
        "subgenres": [{"name": "音楽", "genre": "芸能"}],
        "groups": [{"name": "セレクト"}, {"name": "サブジャンル", "kind": "subgenre"},
                   {"name": "ランダム", "kind": "random"}],
        "formats": [{"name": "四択", "group": "セレクト"}, {"name": "ランダム", "group": "ランダム"}],
    }
    data.update(changes)
    return data


def test_minimal_catalog_builds() -> None:
    c = Catalog.from_dict(_minimal())
    assert c.random_format == "ランダム" and c.subgenre_group == "サブジャンル"


@pytest.mark.parametrize("changes", [
    {"genres": [{"name": "芸能"}]},  # no ノンジャンル
    {"subgenres": [{"name": "四択", "genre": "芸能"}]},  # collides with a format
    {"subgenres": [{"name": "音楽", "genre": "スポーツ"}]},  # unknown parent
    {"formats": [{"name": "四択", "group": "パネル"}, {"name": "ランダム", "group": "ランダム"}]},
    {"groups": [{"name": "セレクト"}, {"name": "ランダム", "kind": "random"}]},  # no sub group
    {"genres": [{"name": "ノンジャンル", "nongenre": True}, {"name": "芸能"}, {"name": "芸能"}]},
])
def test_bad_catalog_data_raises(changes: dict[str, object]) -> None:
    with pytest.raises(EngineError):
        Catalog.from_dict(_minimal(**changes))


def test_missing_field_raises_engine_error() -> None:
    with pytest.raises(EngineError) as err:
        Catalog.from_dict({"version": "x"})
    assert err.value.code == "catalog_field_missing"


def test_catalog_is_constructible_from_plain_sequences() -> None:
    c = Catalog(
        version="x",
        genres=(Genre("ノンジャンル", True), Genre("社会")),
        subgenres=(SubGenre("地理", "社会"),),
        groups=(FormatGroup("セレクト"), FormatGroup("サブジャンル", "subgenre"),
                FormatGroup("ランダム", "random")),
        formats=(Format("○×", "セレクト"), Format("ランダム", "ランダム")),
    )
    assert c.options_for("社会") == ("○×", "ランダム", "地理")


def test_selection_normalises_a_subgenre_written_as_the_genre() -> None:
    expected = Selection("スポーツ", "野球", "HARD")
    assert CATALOG_2016.selection("野球", "サブジャンル", "HARD") == expected
    assert CATALOG_2016.selection("野球", "", "HARD") == expected
    assert CATALOG_2016.selection("スポーツ", "野球", "HARD") == expected
    assert CATALOG_2016.selection("芸能", "四択", "EASY") == Selection("芸能", "四択", "EASY")
    with pytest.raises(EngineError) as err:
        CATALOG_2016.selection("スポーツ", "サブジャンル", "HARD")
    assert err.value.code == "subgenre_missing"
    with pytest.raises(EngineError):
        CATALOG_2016.selection("野球", "四択", "HARD")
