"""#14 item 6: the registry as an Excel workbook from the registry page: players, their
cards (the superseded rows too) and achievements, one sheet each, with the page's columns."""

from __future__ import annotations

import datetime
import io
from typing import Any

from django.urls import reverse
from openpyxl import load_workbook

from brackets.models import Tournament
from tests.conftest import client_for
from tests.players.filehelpers import venue_tournament


def _book(tournament: Tournament, user: Any) -> Any:
    response = client_for(user).get(reverse("document_download",
                                            args=[tournament.slug, "registry-xlsx"]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    return load_workbook(io.BytesIO(response.content))


def _rows(sheet: Any) -> list[list[Any]]:
    return [list(r) for r in sheet.iter_rows(values_only=True)]


def test_three_sheets_of_players_cards_and_achievements(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    players = venue_tournament(tournament, cast)
    book = _book(tournament, cast["desk"])
    assert book.sheetnames == ["選手", "カード", "実績"]
    people = _rows(book["選手"])
    assert people[0] == ["番号", "名前", "よみがな", "カード", "最高Qレベル", "実績", "統合した記録"]
    assert [r[1:] for r in people[1:]] == [
        ["佐藤花子", "さとうはなこ", "サトウ", 50, 0, 0],
        ["鈴木一郎", "すずきいちろう", "スズキ・スズキ2", 60, 0, 1],
        ["山田太郎", "やまだたろう", "ヤマダ", 85, 1, 0],
    ]
    cards = _rows(book["カード"])
    assert cards[0][:7] == ["選手番号", "選手", "カードネーム", "Qレベル", "階級", "バージョン", "状態"]
    yamada = [r for r in cards[1:] if r[2] == "ヤマダ"]
    assert [(r[3], r[6], r[7]) for r in yamada] == [(70, "以前の記録", "desk"), (85, "現在", "desk")]
    # The merged duplicate's card is listed under the player it was merged into.
    assert [r[:3] for r in cards[1:] if r[2] == "スズキ2"] == [
        [players["suzuki"].pk, "鈴木一郎", "スズキ2"]]
    achievements = _rows(book["実績"])
    assert achievements[1][1:5] == ["山田太郎", "全国大会称号（四神/三賢聖・賢帝・賢王・賢将・賢豪）", "賢帝",
                                    "トーキョーグリモワール（栗東）"]
    assert achievements[1][5].date() == datetime.date(2016, 3, 1)  # an Excel date
    assert achievements[1][6:9] == ["QMA公式 全国大会結果", None, "desk"]


def test_the_page_shows_the_players_table_and_links_the_export(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    venue_tournament(tournament, cast)
    page = client_for(cast["desk"]).get(reverse("registry_list", args=[tournament.slug]))
    text = page.content.decode()
    assert "最高Qレベル" in text and "スズキ・スズキ2" in text
    assert reverse("document_download", args=[tournament.slug, "registry-xlsx"]) in text


def test_bracket_staff_cannot_download_the_registry(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    response = client_for(cast["bracket"]).get(
        reverse("document_download", args=[tournament.slug, "registry-xlsx"]))
    assert response.status_code == 403
