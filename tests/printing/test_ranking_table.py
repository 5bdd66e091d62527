"""The final ranking: one table object behind the public bracket page's 最終順位 and the
ranking Excel file (style.md 6). State: 九州杯IX played to the champion."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from brackets import tables_rounds as rt
from brackets.models import Tournament
from brackets.printing.registry import get_document
from brackets.selectors.round_documents import final_ranking
from tests.rounds.test_round_tables import screen_tables

pytestmark = pytest.mark.django_db


def test_ranking_file_and_bracket_page_show_the_ranking_table(
        kyushu_finished: Tournament, clients: dict[str, Client]) -> None:
    t = kyushu_finished
    rows = final_ranking(t)
    table = rt.ranking_table(rows)
    expected = [list(r) for r in table.as_values()]
    assert expected[0] == ["順位", "選手", "カードネーム", "回戦", "成績"]

    _name, _type, content = get_document("ranking-xlsx").render(t)
    sheet = load_workbook(io.BytesIO(content))["最終順位"]
    assert [[c.value for c in row] for row in sheet.iter_rows()] == [
        [None if v == "" else v for v in row] for row in expected]
    assert sheet.freeze_panes == "A2" and sheet["A1"].font.b

    cache.clear()
    html = clients["anonymous"].get(reverse("public_bracket", args=[t.slug])).content.decode()
    (screen,) = screen_tables(html, "ranking-table")
    assert screen[0][1] == expected[0]
    assert [cells for _cls, cells in screen[1:]] == [[str(v) for v in row]
                                                     for row in expected[1:]]
    assert "table-warning" in screen[1][0]  # the champion
    assert expected[1][4] == "優勝" and len(expected) - 1 == len(rows)


def test_no_ranking_before_the_final_is_decided(tournament: Tournament, cast: dict[str, Any],
                                                clients: dict[str, Client]) -> None:
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, cast["organiser"], upto=1)
    cache.clear()
    html = clients["anonymous"].get(reverse("public_bracket",
                                            args=[tournament.slug])).content.decode()
    assert "final-ranking" not in html
