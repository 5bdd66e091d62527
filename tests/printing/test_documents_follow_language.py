"""A printed document follows the language of whoever prints it (the active request
language), and an English PDF still embeds the Japanese font for the players' names."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from brackets.models import Round, Tournament
from tests.printing.pdfcheck import fonts, pdf_text

pytestmark = pytest.mark.django_db


def _download(client: Client, t: Tournament, slug: str, **query: Any) -> str:
    url = reverse("document_download", kwargs={"slug": t.slug, "doc_slug": slug})
    response = client.get(url, query)
    assert response.status_code == 200, response.content[:300]
    # Every font embedded: the Japanese TTF sets names whatever the labels' language.
    used = fonts(response.content)
    assert used and all(f["emb"] == "yes" for f in used)
    return re.sub(r"\s+", "", pdf_text(response.content))


def test_set_order_sheet_prints_in_the_language_of_whoever_prints_it(
        final_won_2_0: Tournament, clients: dict[str, Client]) -> None:
    t = final_won_2_0
    final = Round.objects.get(tournament=t, kind="partner_series")
    client = clients["organiser"]
    japanese = _download(client, t, "final-set-order", round=final.number)
    assert "出題順シート" in japanese and "パートナー" in japanese
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = _download(client, t, "final-set-order", round=final.number)
    with translation.override("en"):
        title = translation.gettext("出題順シート")
        partner = translation.gettext("パートナー")
    assert title != "出題順シート" and partner != "パートナー"  # the catalogue has them
    assert re.sub(r"\s+", "", title) in english and "出題順シート" not in english
    # The role column: two partners a game, two games played.
    assert english.count(partner) >= 4
    # Names stay as entered, in the embedded Japanese font.
    from brackets.models import Seat

    name = Seat.objects.filter(group__round=final, entrant__isnull=False).first().entrant.name
    assert name in english


def test_group_table_title_follows_the_printers_language(
        final_won_2_0: Tournament, clients: dict[str, Client]) -> None:
    client = clients["organiser"]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = _download(client, final_won_2_0, "group-table", round=1)
    with translation.override("en"):
        title = re.sub(r"\s+", "", translation.gettext("組分け表"))
    assert title in english and "組分け表" not in english


def _english_labels(english: str, labels: list[str], *, translated: tuple[str, ...] = ()
                    ) -> None:
    """Each fixed label prints as the catalogue's English; where the catalogue has it (and
    ``translated`` names labels it must have), its Japanese text is not on the page."""
    with translation.override("en"):
        wanted = {label: re.sub(r"\s+", "", translation.gettext(label)) for label in labels}
    for label in translated:
        assert wanted[label] != re.sub(r"\s+", "", label), f"{label}: not in the catalogue"
    for label, text in wanted.items():
        assert text in english, f"{label}: {text!r} missing"
        if text != re.sub(r"\s+", "", label):
            assert label not in english, f"{label} printed in Japanese"


def test_entry_sheets_and_shura_lottery_follow_the_printers_language(
        katata_drawn: Tournament, clients: dict[str, Client]) -> None:
    from brackets.models import Entrant, SpecialFact

    t = katata_drawn
    client = clients["outsider"]  # the other tournament's organiser
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    sheets = _download(client, t, "entry-sheets")
    _english_labels(sheets, ["エントリーシート", "カードネーム", "制限", "修羅くじ", "参加費",
                             "よみがな", "ホーム店舗", "最高Qレベル・階級", "1回戦",
                             "受付記入欄", "受付スタッフ"],
                    translated=("エントリーシート", "カードネーム", "制限", "修羅くじ", "参加費"))
    # The mode label (mode_label) is English too: no 高火力ボンバーマン on an English sheet.
    assert "高火力" not in sheets and "ボンバーマン" not in sheets
    with translation.override("en"):
        bomber = translation.gettext("ボンバーマン")
    assert bomber in sheets
    first = Entrant.objects.filter(tournament=t).order_by("id").first()
    assert first is not None and first.name.replace(" ", "") in sheets
    lottery = _download(client, t, "shura-lottery")
    _english_labels(lottery, ["修羅くじ記録", "選手", "理由", "本数", "形式くじ", "立会人",
                              "方法・記録"],
                    translated=("修羅くじ記録", "選手", "理由", "本数", "形式くじ"))
    for fact in SpecialFact.objects.filter(tournament=t, kind="shura_lots"):
        # Names and catalogue genres stay as entered.
        assert fact.entrant.name.replace(" ", "") in lottery
        assert all(g in lottery for g in fact.data["genres"])


def test_rule_ban_forms_and_shimonoseki_cards_follow_the_printers_language(
        kyushu_finished: Tournament, clients: dict[str, Client]) -> None:
    t = kyushu_finished
    client = clients["organiser"]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    rules = _download(client, t, "rule-forms", round=3)
    _english_labels(rules, ["ルール選択用紙", "名前", "カードネーム", "1位のみ勝ち抜け",
                            "受付スタッフ："],
                    translated=("名前", "カードネーム"))
    with translation.override("en"):
        rule_a = re.sub(r"\s+", "", translation.gettext("ルール{name}").format(name="A"))
    assert rule_a in rules
    bans = _download(client, t, "ban-forms", round=5)
    _english_labels(bans, ["禁止ジャンル用紙", "組", "名前", "カードネーム"],
                    translated=("禁止ジャンル用紙", "組", "名前", "カードネーム"))
    assert "理系学問" in bans  # catalogue genres stay as the game names them
    cards = _download(client, t, "shimonoseki-cards")
    with translation.override("en"):
        card = re.sub(r"\s+", "", translation.gettext("下関カード No.{number}").format(number=1))
    assert card in cards
    if not card.startswith("下関カード"):
        assert "下関カード" not in cards
