"""Issue 19, defect 4 (file side): a CSV cell over 131,072 characters raised csv's
``field larger than field limit`` as a server error. It is refused with the line and the
limit (``bounds.CSV_CELL``); long cells under the limit become row errors at the preview,
as the desk form words them."""

from __future__ import annotations

import csv
from typing import Any

import pytest
from django.test import Client

from brackets.adapters.entrant_files import ImportRefused, parse_file
from brackets.adapters.entrant_rows import preview_rows
from brackets.engine import bounds
from brackets.models import EntrantImport, Tournament
from tests.desk.test_import import csv_bytes, upload

pytestmark = pytest.mark.django_db

HEADERS = ["お名前", "カードネーム", "Qレベル", "追加くじ"]


def test_csv_cell_limit_is_the_bound() -> None:
    assert csv.field_size_limit() == bounds.CSV_CELL.max_length


def test_csv_cell_over_the_limit_is_refused_with_its_line(clients: dict[str, Client],
                                                          tournament: Tournament) -> None:
    rows = [HEADERS, ["田中一郎", "イチロー", "45", "0"],
            ["鈴木花子", "ハナコ" + "あ" * (bounds.CSV_CELL.max_length + 1), "82", "0"]]
    with pytest.raises(ImportRefused) as refused:
        parse_file("long.csv", csv_bytes(rows))
    assert "3行目に長すぎるセル" in refused.value.message
    response = upload(clients["desk"], tournament, "long.csv", csv_bytes(rows))
    assert response.status_code == 422
    assert "長すぎるセル" in response.content.decode()
    assert not EntrantImport.objects.exists()


def test_long_and_huge_values_under_the_cell_limit_are_row_errors(
        clients: dict[str, Client], tournament: Tournament, cast: Any) -> None:
    rows = [HEADERS, ["名" * 10_000, "ロング", "45", "0"],
            ["鈴木花子", "ハナコ", "82", "3000000000"]]
    upload(clients["desk"], tournament, "big.csv", csv_bytes(rows))
    preview = preview_rows(tournament=tournament, batch=EntrantImport.objects.get())
    errors = {row.number: row.errors for row in preview.rows}
    assert "100文字以内" in errors[2][0][1]
    assert errors[3] and errors[3][0][0] == "追加くじ"
