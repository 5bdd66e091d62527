"""The rule page (#17 item 4): one text from the rule set, on the public page and the PDF."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from brackets.engine import ruleset_of
from brackets.models import Tournament
from brackets.printing.registry import get_document
from brackets.selectors.rule_page import rule_page
from tests.conftest import client_for
from tests.printing.pdfcheck import pdf_text

SHOTS = Path(os.environ.get("RULE_PAGE_SHOTS", "/tmp/shots/rules"))


def _text(slug: str) -> str:
    page = rule_page(ruleset_of(slug))
    lines = [page.title]
    for section in page.sections:
        lines.append(section.title)
        lines += [t for item in section.items for t in (item.text, *item.children)]
    return "\n".join(lines)


def test_kyushu_cup_ix_rule_page_reads_in_the_seed_page_order() -> None:
    text = _text("kyushu-cup-ix")
    order = ["基本ルール", "ダミープレイヤー", "惜敗率と同率の扱い", "1回戦（最大64名）",
             "2回戦（40名）", "シード権保持者は2回戦からの参加", "ルール選択ラウンド",
             "ルールB：定員8名", "下関ルール・改", "禁止するジャンルを1つ", "下位2名は3位決定戦",
             "先に2勝", "出題制限と出題履歴", "ノンジャンルに限り", "ペナルティと禁止事項"]
    positions = [text.index(words) for words in order]
    assert positions == sorted(positions)
    assert "修羅の道" not in text and "階級による出題制限" not in text


def test_katata_rule_page_has_modes_by_q_level_shura_and_the_400_point_penalty() -> None:
    text = _text("katata-kansai5-qualifier")
    for words in ("Qレベル80以上", "Qレベル50〜79", "Qレベル49以下", "Qレベル35以上",
                  "プチ修羅の道", "ひとり4本まで", "総得点から400点を減算"):
        assert words in text, words


def test_shop_rule_page_has_no_history_and_no_fallback() -> None:
    text = _text("shop-top2")
    assert "出題履歴による制限はありません" in text and "ノンジャンルに限り" not in text


def test_rule_page_is_english_for_an_english_reader() -> None:
    with translation.override("en"):
        text = _text("kyushu-cup-ix")
    assert "Round 1" in text and "Semi-final" in text and "惜敗率と同率" not in text


@pytest.mark.django_db
def test_public_rule_page_shows_the_tournament_rules(tournament: Tournament) -> None:
    response = client_for(None).get(f"/p/{tournament.slug}/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "九州杯IX 大会ルール" in html and "【基本ルール】" in html
    home = client_for(None).get(f"/p/{tournament.slug}/").content.decode()
    assert f"/p/{tournament.slug}/rules/" in home


@pytest.mark.django_db
def test_rule_page_pdf_prints_the_same_sentences(tournament: Tournament) -> None:
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    filename, content_type, content = get_document("rule-page").render(tournament)
    assert filename == "kyushu9-rule-page.pdf" and content_type == "application/pdf"
    text = pdf_text(content).replace("\n", "")
    page = rule_page(ruleset_of("kyushu-cup-ix"), tournament.name)
    for section in page.sections:
        assert section.title in text
    assert "下関ルール・改" in text and "1 / " in text
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "rule-page.pdf").write_bytes(content)


@pytest.mark.django_db
def test_rule_page_pdf_is_english_for_an_english_organiser(tournament: Tournament,
                                                           cast: dict[str, Any]) -> None:
    with translation.override("en"):
        content = get_document("rule-page").render(tournament)[2]
    text = pdf_text(content)
    assert "Basic rules" in text and "基本ルール" not in text
