"""Printed forms break lines at word boundaries: a usage card never prints 「ラン/ダム」."""

from __future__ import annotations

from brackets.printing._forms import wrap_lines
from brackets.printing.base import text_width

GENRES = "ノンジャンル・アニメ＆ゲーム・スポーツ・芸能・ライフスタイル・社会・文系学問・理系学問"
FORMATS = "○×・四択・連想・並べ替え・文字パネル・スロット・タイピング・エフェクト・キューブ・線結び・一問多答・順番当て・ランダム"


def test_usage_card_lines_break_after_a_separator_never_inside_a_word() -> None:
    width = text_width("ノンジャンル・アニメ＆ゲーム・スポーツ", 9)
    for text in (GENRES, FORMATS):
        lines = wrap_lines(text, width, 9)
        assert len(lines) > 1
        assert "".join(lines) == text
        words = set(text.split("・"))
        for line in lines:
            assert all(word in words for word in line.rstrip("・").split("・")), line
            assert text_width(line, 9) <= width


def test_english_text_breaks_at_spaces() -> None:
    text = "Remaining formats: Multiple choice, Associations, Sorting, Random"
    lines = wrap_lines(text, text_width("Remaining formats: Multiple", 9), 9)
    assert " ".join(lines) == text
    assert all(not line.endswith(" ") for line in lines)


def test_a_sentence_wider_than_a_line_runs_on_and_breaks_by_character() -> None:
    sentence = "この回戦は使用履歴で制限されませんので好きなジャンルと形式を選べます"
    width = text_width("この回戦は使用履歴で", 9)
    lines = wrap_lines("注意、" + sentence, width, 9)
    assert "".join(lines) == "注意、" + sentence
    assert lines[0].startswith("注意、この")  # no short first line
    assert all(text_width(line, 9) <= width for line in lines)
