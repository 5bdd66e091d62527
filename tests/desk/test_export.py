"""The .xlsx export: the desk table's columns and rows, frozen header, fitting widths."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from brackets.exporters import entrants_xlsx
from brackets.models import Tournament

pytestmark = pytest.mark.django_db


def test_export_writes_the_table_as_the_screen_shows_it(
    clients: dict[str, Client], tournament: Tournament, register: Any
) -> None:
    register(name="山田太郎", reading="やまだたろう", card_name="ヤマダ", q_level=85, seed=1,
             fee_paid=True, checked_in=True, home_store="ラウンドワン博多", shura_titles=1)
    register(name="鈴木花子", reading="すずきはなこ", card_name="ハナコ", q_level=20,
             notes="長い長い長い長い長い長い長い長いメモ")
    response = clients["desk"].get(reverse("desk_export", args=[tournament.slug]))
    assert response.status_code == 200
    assert response["Content-Type"] == entrants_xlsx.CONTENT_TYPE
    assert 'filename="kyushu9-entrants-' in response["Content-Disposition"]
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = [[cell.value for cell in row] for row in sheet.iter_rows()]
    header = rows[0]
    assert header[:11] == ["受付", "シード", "名前", "よみがな", "カードネーム", "ホーム店舗",
                           "Qレベル", "階級", "参加費", "メモ", "全国大会タイトル数"]
    assert "修羅" not in header and "" not in header  # screen-only columns are left out
    by_name = {row[2]: dict(zip(header, row)) for row in rows[1:]}
    assert list(by_name) == ["鈴木花子", "山田太郎"]  # よみがな順, as on screen
    yamada = by_name["山田太郎"]
    assert yamada["受付"] == "済" and yamada["参加費"] == "済" and yamada["シード"] == 1
    assert yamada["Qレベル"] == 85 and yamada["階級"] == "黄金賢者"
    assert yamada["全国大会タイトル数"] == 1
    assert by_name["鈴木花子"]["参加費"] == "未"
    assert sheet.freeze_panes == "A2"
    assert sheet["A1"].font.b
    # Widths fit Japanese text: full-width characters count double.
    notes_column = sheet.cell(row=1, column=header.index("メモ") + 1).column_letter
    assert sheet.column_dimensions[notes_column].width >= 2 * 19
    name_column = sheet.cell(row=1, column=3).column_letter
    assert sheet.column_dimensions[name_column].width >= 8


def test_export_follows_the_search(clients: dict[str, Client], tournament: Tournament, register: Any) -> None:
    register(name="山田太郎", reading="やまだたろう", card_name="ヤマダ")
    register(name="鈴木花子", reading="すずきはなこ", card_name="ハナコ")
    response = clients["desk"].get(reverse("desk_export", args=[tournament.slug]), {"q": "スズキ"})
    sheet = load_workbook(io.BytesIO(response.content)).active
    assert [row[2].value for row in sheet.iter_rows(min_row=2)] == ["鈴木花子"]


def test_display_width_counts_full_width_double() -> None:
    assert entrants_xlsx.display_width("ABC") == 3
    assert entrants_xlsx.display_width("山田") == 4
    assert entrants_xlsx.display_width("ＡＢ") == 4
