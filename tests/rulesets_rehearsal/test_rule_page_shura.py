"""The rule page states 修羅 as the organisers composed it (#17): the lots each achievement
owes, 修羅の道 or its absence, the cap, past champions' format lots (6-c-iii)."""

from __future__ import annotations

from dataclasses import replace

from django.utils import translation

from brackets.engine import RuleSet, ruleset_of
from brackets.selectors.rule_page import rule_page

KATATA = ruleset_of("katata-kansai5-qualifier")


def _shura_text(rs: RuleSet) -> str:
    section = next(s for s in rule_page(rs).sections if s.title == "修羅の道")
    assert all(not item.children for item in section.items)  # sentences, not headings
    return "\n".join(item.text for item in section.items)


def test_katata_page_states_one_lot_per_achievement_shura_no_michi_and_format_lots() -> None:
    text = _shura_text(KATATA)
    for words in ("全国大会称号経験者は、初めにジャンルくじを1本引き",
                  "地元大会での優勝経験者は、初めにジャンルくじを1本引き",
                  "シード権・特別招待枠保持者は、初めにジャンルくじを1本引き",
                  "くじの本数は累積します", "自己申告により修羅の道を選ぶ者",
                  "ひとり4本まで", "くじの総数から3を減じた本数", "最大試合数を減じた本数"):
        assert words in text, words


def test_composed_page_states_the_composed_lots_and_leaves_out_what_is_not_allowed() -> None:
    rs = replace(KATATA, shura=replace(KATATA.shura, national_title=2, shiga_winner=0,
                                       voluntary=False, champion_format_lots=False,
                                       max_lots=3))
    text = _shura_text(rs)
    assert "全国大会称号経験者は、初めにジャンルくじを2本引き" in text
    assert "地元大会での優勝経験者" not in text
    assert "自己申告による修羅の道（くじの追加）はありません" in text
    assert "くじはひとり3本までとします" in text and "自己申告により増やせ" not in text
    assert "出題形式くじ" not in text


def test_composed_shura_page_is_english_for_an_english_reader() -> None:
    rs = replace(KATATA, shura=replace(KATATA.shura, voluntary=False))
    with translation.override("en"):
        section = rule_page(rs).sections[-2]  # 修羅 comes just before the penalties
        text = "\n".join(t for item in section.items for t in (item.text, *item.children))
    assert "ジャンルくじ" not in text and "修羅の道" not in text and "lot" in text
