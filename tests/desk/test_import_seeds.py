"""Issue 13 item 8: a form export's シード column holding a word (シード, あり, ○, はい, yes)
is a seed whose number the import assigns, shown in the preview; and 「エラーの行を除いて
取り込む」 lists who will not be imported before it is confirmed, and never drops a row it
did not list."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from brackets.adapters.entrant_rows import ASSIGN_SEED, _parse_value, preview_rows
from brackets.models import Entrant, EntrantImport, Tournament
from tests.desk.test_import import confirm, csv_bytes, preview_url, upload

pytestmark = pytest.mark.django_db

HEADERS = ["お名前", "カードネーム", "シード"]


@pytest.mark.parametrize("word", ["シード", "あり", "○", "はい", "yes", "YES", "有"])
def test_seed_yes_word_reads_as_a_seed_to_number(word: str) -> None:
    assert _parse_value("seed", word) == ASSIGN_SEED


@pytest.mark.parametrize(("raw", "value"), [("3", 3), ("S2", 2), ("シード4", 4), ("", None), ("なし", None)])
def test_seed_numbers_and_blanks_read_as_before(raw: str, value: object) -> None:
    assert _parse_value("seed", raw) == value


def test_seed_yes_words_are_numbered_in_file_order_after_the_numbered_seeds(
    clients: dict[str, Client], tournament: Tournament, register: Any
) -> None:
    register(name="登録済シード", card_name="トウロク", seed=1)
    rows = [HEADERS,
            ["青木", "アオキ", "あり"],  # row 2
            ["井上", "イノウエ", "2"],  # row 3: numbered, after a yes-word in the file
            ["上田", "ウエダ", ""],  # row 4: not a seed
            ["遠藤", "エンドウ", "○"],  # row 5
            ["岡田", "オカダ", "yes"]]  # row 6
    client = clients["desk"]
    upload(client, tournament, "form.csv", csv_bytes(rows))
    preview = preview_rows(tournament=tournament, batch=EntrantImport.objects.get())
    assert preview.error_count == 0
    assert {row.number: row.assigned_seed for row in preview.assigned_seed_rows} == {2: 3, 5: 4, 6: 5}
    page = client.get(preview_url(tournament)).content.decode()
    assert 'id="import-assigned-seeds"' in page
    assert "2行目 青木（アオキ） → シード3" in page
    assert 'data-assigned-seed="4"' in page  # beside the cell that said ○
    confirm(client, tournament)
    seeds = dict(Entrant.objects.values_list("card_name", "seed"))
    assert seeds == {"トウロク": 1, "アオキ": 3, "イノウエ": 2, "ウエダ": None, "エンドウ": 4, "オカダ": 5}


def test_seed_yes_words_take_free_numbers_once_past_the_seed_slots(
    clients: dict[str, Client], tournament: Tournament
) -> None:
    tournament.seed_slots = 3
    tournament.save()
    rows = [HEADERS, ["青木", "アオキ", "3"], ["井上", "イノウエ", "あり"], ["上田", "ウエダ", "あり"],
            ["遠藤", "エンドウ", "あり"]]
    upload(clients["desk"], tournament, "form.csv", csv_bytes(rows))
    preview = preview_rows(tournament=tournament, batch=EntrantImport.objects.get())
    assert [row.assigned_seed for row in preview.rows] == [None, 1, 2, None]
    last = preview.rows[3]
    assert last.errors and "シード枠（3）に空きがない" in last.errors[0][1]


BROKEN = [
    ["名前", "カードネーム", "Qレベル"],
    ["正常", "セイジョウ", "50"],  # row 2
    ["長過ぎ", "とても長いカードネーム", "10"],  # row 3
    ["範囲外", "ハンイガイ", "1200"],  # row 4
    ["後で重複", "アトデ", "10"],  # row 5: fine at the preview
]


def test_skip_errors_lists_who_will_not_be_imported_before_confirming(
    clients: dict[str, Client], tournament: Tournament
) -> None:
    client = clients["desk"]
    upload(client, tournament, "broken.csv", csv_bytes(BROKEN))
    page = client.get(preview_url(tournament)).content.decode()
    listed = page[page.index('id="import-skipped"'):page.index('name="skip_errors"')]
    assert "次の2行は取り込まれません" in listed
    assert "3行目 長過ぎ（とても長いカードネーム）" in listed and "8文字以内" in listed
    assert "4行目 範囲外（ハンイガイ）" in listed and "0〜999" in listed
    assert "セイジョウ" not in listed
    assert 'name="shown_skipped" value="3,4"' in page
    confirm(client, tournament, skip_errors="1", shown_skipped="3,4")
    assert set(Entrant.objects.values_list("card_name", flat=True)) == {"セイジョウ", "アトデ"}
    assert EntrantImport.objects.get().result["skipped"] == [3, 4]


def test_skip_errors_refuses_when_rows_left_out_changed_since_the_preview(
    clients: dict[str, Client], tournament: Tournament, register: Any
) -> None:
    client = clients["desk"]
    upload(client, tournament, "broken.csv", csv_bytes(BROKEN))
    assert 'name="shown_skipped" value="3,4"' in client.get(preview_url(tournament)).content.decode()
    register(name="別の端末", card_name="アトデ")  # row 5 now clashes: it would be dropped too
    response = confirm(client, tournament, skip_errors="1", shown_skipped="3,4")
    assert "取り込めない行が変わりました" in response.content.decode()
    assert set(Entrant.objects.values_list("card_name", flat=True)) == {"アトデ"}
    assert EntrantImport.objects.get().status == EntrantImport.Status.PENDING
    assert 'name="shown_skipped" value="3,4,5"' in response.content.decode()
