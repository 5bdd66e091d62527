"""The round tables: one django-tables2 table object behind each screen table and its
Excel sheet (style.md 6), so the staff advancement check, the public round page and the
downloaded file show the same rows.

State: 九州杯IX with 65 entrants, round 1 played and advanced (K4: group winners plus
three wildcards by 惜敗率), round 2 drawn.
"""

from __future__ import annotations

import io
import re
from decimal import Decimal
from html import unescape
from typing import Any

import pytest
from django.core.cache import cache
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils.html import conditional_escape

from brackets import tables_rounds as rt
from brackets.exporters.xlsx import display_width
from brackets.models import Entrant, Group, Round, Seat, Tournament
from brackets.printing.registry import get_document
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.printing.world import build_kyushu
from tests.rounds.conftest import running_round_one

pytestmark = pytest.mark.django_db

TABLE = re.compile(r'<table class="([^"]*)">(.*?)</table>', re.DOTALL)
ROW = re.compile(r"<tr([^>]*)>(.*?)</tr>", re.DOTALL)
CELL = re.compile(r"<t[dh][^>]*>(.*?)</t[dh]>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")


def text(html: str) -> str:
    return unescape(TAG.sub("", html)).strip()


def screen_tables(html: str, css: str) -> list[list[tuple[str, list[str]]]]:
    """Every <table> whose class has ``css``: per row, its class and its cells' text."""
    out = []
    for classes, body in TABLE.findall(html):
        if css not in classes.split():
            continue
        rows = []
        for attrs, cells in ROW.findall(body):
            found = re.search(r'class="([^"]*)"', attrs)
            rows.append((found.group(1) if found else "", [text(c) for c in CELL.findall(cells)]))
        out.append(rows)
    return out


NUMBERS = {"得点", "惜敗率", "画面の得点", "減点"}


def shown(value: Any, header: str) -> str:
    """A spreadsheet value as the screen prints it (two decimals for scores and 惜敗率;
    openpyxl reads 100.00 back as the integer 100)."""
    if value is None:
        return ""
    if header in NUMBERS and isinstance(value, (int, float, Decimal)):
        return f"{value:.2f}"
    return str(value)


def sheet_rows(content: bytes) -> dict[str, list[list[Any]]]:
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(content))
    return {s.title: [[c.value for c in row] for row in s.iter_rows()] for s in book.worksheets}


def as_cells(rows: list[list[Any]]) -> list[list[Any]]:
    """``as_values()`` rows as openpyxl reads them back (decimals are floats, blank None)."""
    return [[float(v) if isinstance(v, Decimal) else (None if v == "" else v) for v in row]
            for row in rows]


@pytest.fixture
def played(tournament: Tournament, cast: dict[str, Any]) -> Round:
    build_kyushu(tournament, cast["organiser"], upto=1)
    rnd = Round.objects.get(tournament=tournament, number=1)
    rnd.tournament = tournament
    return rnd


def staff_tables(rnd: Round) -> tuple[Any, Any, list[Any]]:
    rv = sel.round_view(rnd)
    outcomes = rt.round_outcomes(rv)
    advancers, wildcards = rt.advance_marks(rnd, outcomes)
    return (rt.results_table(rv, advancers=advancers, wildcards=wildcards),
            rt.cross_table(rv, outcomes), rt.wildcard_tables(rv, outcomes))


def render_table(table: Any) -> str:
    """The table as the pages render it: ``{% render_table %}`` with the project's template."""
    return Template("{% load django_tables2 %}{% render_table table %}").render(
        Context({"table": table}))


def test_pages_render_the_tables_own_cells(played: Round) -> None:
    """The pages render the tables through django-tables2's own template: each row's
    class and each cell are what its BoundRow gives (the tables' render_ methods)."""
    results, cross, wild = staff_tables(played)
    tables = [results, cross, *(t for _r, _o, t in wild)]
    players = Seat.objects.filter(group__round=played, superseded_by__isnull=True,
                                  entrant__isnull=False).count()
    assert len(wild) == 1 and len(cross.data) == players
    for table in tables:
        html = render_table(table)
        rows = ROW.findall(html)[1:]
        bound = list(table.rows)
        assert len(rows) == len(bound) and bound
        for (attrs, cells), row in zip(rows, bound):
            assert attrs.strip() == row.attrs.as_html().strip()
            # A template escapes what BoundRow gives: {{ cell }} in render_table.
            assert CELL.findall(cells) == [str(conditional_escape(c)) for c in row]


def test_round_workbook_is_the_screen_tables(played: Round, clients: dict[str, Client]
                                             ) -> None:
    """Each sheet of the round's Excel file equals a screen table's as_values(); the
    public page's cross-group table and the staff page's wildcard table show those rows."""
    t = played.tournament
    _name, _type, content = get_document("round-xlsx").render(t, round=1)
    sheets = sheet_rows(content)
    results, cross, wild = staff_tables(played)
    ((_rule, outcome, wildcard),) = wild
    assert list(sheets) == ["組分けと結果", "惜敗率順", "追加勝ち抜け"]
    assert sheets["組分けと結果"] == as_cells([list(r) for r in results.as_values()])
    assert sheets["惜敗率順"] == as_cells([list(r) for r in cross.as_values()])
    assert sheets["追加勝ち抜け"] == as_cells([list(r) for r in wildcard.as_values()])

    header = sheets["組分けと結果"][0]
    assert header[:4] == ["組", "ルール", "サテ", "選手"]
    seats = Seat.objects.filter(group__round=played, superseded_by__isnull=True)
    assert len(sheets["組分けと結果"]) == 1 + seats.count()
    marks = [row[header.index("勝ち抜け")] for row in sheets["組分けと結果"][1:]]
    assert marks.count("追加勝ち抜け") == outcome.cut == 3
    assert marks.count("勝ち抜け") == len([a for a in outcome.advancers
                                         if a.reason == "group_top"])

    # The public round page: the cross-group table's rows are the sheet's rows.
    cache.clear()
    page = clients["anonymous"].get(reverse("public_round", args=[t.slug, 1]))
    html = page.content.decode()
    (public,) = screen_tables(html, "cross-table")
    file_rows = sheets["惜敗率順"]
    visible = [c.header for c in cross.columns]
    columns = [file_rows[0].index(h) for h in visible]
    assert public[0][1] == [str(h) if h != "#" else "#" for h in visible]
    assert [cells for _cls, cells in public[1:]] == [
        [shown(row[i], file_rows[0][i]) for i in columns] for row in file_rows[1:]]
    classes = {cells[1]: cls for cls, cells in public[1:]}
    for row in file_rows[1:]:
        name, mark = row[file_rows[0].index("選手")], row[file_rows[0].index("判定")]
        if mark == "追加勝ち抜け":
            assert "table-warning" in classes[name]
        elif mark == "勝ち抜け":
            assert "table-success" in classes[name]

    # The staff advancement check: the wildcard table with its cut line, row for row.
    staff = clients["bracket"].get(reverse("round_advance_preview", args=[t.slug, 1]))
    (table,) = screen_tables(staff.content.decode(), "wildcard-table")
    file_rows = sheets["追加勝ち抜け"]
    columns = [file_rows[0].index(h) for h in visible]
    assert [cells for _cls, cells in table[1:]] == [
        [shown(row[i], file_rows[0][i]) for i in columns] for row in file_rows[1:]]
    cut_rows = [cells for cls, cells in table[1:] if "cut-line" in cls.split()]
    assert [int(r[0]) for r in cut_rows] == [outcome.cut]
    assert all("table-success" in cls for cls, cells in table[1:]
               if cells[0] and int(cells[0]) <= outcome.cut)
    assert staff.content.decode().count('class="table table-sm results-table"') == 1


def test_widths_count_full_width_characters_double(played: Round) -> None:
    from openpyxl import load_workbook

    _n, _t, content = get_document("round-xlsx").render(played.tournament, round=1)
    sheet = load_workbook(io.BytesIO(content))["組分けと結果"]
    assert sheet.freeze_panes == "A2" and sheet["A1"].font.b
    names = [c.value for c in sheet["D"][1:] if c.value]
    longest = max(display_width(n) for n in names)
    assert longest > max(len(n) for n in names)  # Japanese names count double
    assert sheet.column_dimensions["D"].width >= longest
    score = sheet.cell(row=2, column=[c.value for c in sheet[1]].index("得点") + 1)
    assert isinstance(score.value, float) and score.number_format == "0.00"


def test_undefined_ratio_reads_as_a_dash_on_screen_and_in_the_file(
        tournament: Tournament, cast: dict[str, Any], clients: dict[str, Client]) -> None:
    """K3: a reference score of 0 leaves 惜敗率 undefined: "—" on the page and the sheet."""
    user = cast["organiser"]
    rnd = running_round_one(tournament, 16, user)
    group = Group.objects.filter(round=rnd).order_by("number").first()
    svc.results_save(group=group, by=user, rows={1: ("0.00", 1), 2: ("0.00", 2),
                                                 3: ("0.00", 3), 4: ("0.00", 4)})
    rnd.tournament = tournament
    rv = sel.round_view(rnd)
    table = rt.cross_table(rv, rt.round_outcomes(rv))
    assert table is not None
    values = [list(r) for r in table.as_values()]
    ratio = values[0].index("惜敗率")
    assert {row[ratio] for row in values[1:]} == {"—"}
    sheets = sheet_rows(get_document("round-xlsx").render(tournament, round=1)[2])
    assert {row[ratio] for row in sheets["惜敗率順"][1:]} == {"—"}
    cache.clear()
    html = clients["anonymous"].get(reverse("public_round", args=[tournament.slug, 1]))
    (public,) = screen_tables(html.content.decode(), "cross-table")
    on_screen = public[0][1].index("惜敗率")
    assert [cells[on_screen] for _cls, cells in public[1:]] == ["—"] * 4


def test_public_tables_show_no_staff_data(played: Round, clients: dict[str, Client],
                                         cast: dict[str, Any]) -> None:
    """The round tables have no staff-only columns, and the public page with them shows
    neither notes nor who entered a result."""
    for table in staff_tables(played)[:2]:
        names = {c.name for c in table.columns.iterall()}
        assert not names & {"notes", "by", "at", "entered_by"}
    t = played.tournament
    Entrant.objects.filter(tournament=t).update(notes="内部メモ：スタッフのみ")
    cast["organiser"].username = "記録係スタッフ"  # who entered every result here
    cast["organiser"].save()
    cache.clear()
    html = clients["anonymous"].get(reverse("public_round", args=[t.slug, 1])).content.decode()
    assert "内部メモ" not in html and "記録係スタッフ" not in html
    assert screen_tables(html, "cross-table") and screen_tables(html, "wildcard-table")
