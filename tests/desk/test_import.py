"""Importing pre-entries: formats, encodings, header recognition, preview, confirm."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from brackets.adapters.entrant_files import ImportRefused, parse_file
from brackets.models import Entrant, EntrantImport, EntrantRevision, Tournament
from brackets.services.entrant_imports import entrant_import_confirm, entrant_import_create

pytestmark = pytest.mark.django_db

FORM_HEADERS = ["タイムスタンプ", "お名前", "ふりがな", "カードネーム", "ホーム店舗", "Qレベル", "好きなジャンル"]
FORM_ROWS = [
    ["2019/03/01 10:00:00", "田中一郎", "タナカイチロウ", "イチロー", "ラウンドワン博多", "Q45", "スポーツ"],
    ["2019/03/01 11:00:00", "鈴木花子", "すずきはなこ", "ハナコ", "タイトー天神", "82", "芸能"],
    ["2019/03/02 09:30:00", "佐藤次郎", "さとうじろう", "ジロー", "", "", "社会"],
]


def csv_bytes(rows: list[list[str]], encoding: str = "utf-8") -> bytes:
    text = "\r\n".join(",".join(row) for row in rows) + "\r\n"
    return text.encode(encoding)


def xlsx_bytes(rows: list[list[Any]]) -> bytes:
    from openpyxl import Workbook

    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def upload(client: Client, tournament: Tournament, name: str, content: bytes) -> Any:
    return client.post(
        reverse("desk_import", args=[tournament.slug]),
        {"file": SimpleUploadedFile(name, content)},
    )


def preview_url(tournament: Tournament) -> str:
    batch = EntrantImport.objects.latest("created_at")
    return reverse("desk_import_preview", args=[tournament.slug, batch.token])


def confirm(client: Client, tournament: Tournament, **extra: str) -> Any:
    return client.post(preview_url(tournament), {"action": "confirm", **extra})


@pytest.mark.parametrize(
    ("filename", "content"),
    [
        ("form.csv", csv_bytes([FORM_HEADERS, *FORM_ROWS])),
        ("form-bom.csv", b"\xef\xbb\xbf" + csv_bytes([FORM_HEADERS, *FORM_ROWS])),
        ("form-sjis.csv", csv_bytes([FORM_HEADERS, *FORM_ROWS], "cp932")),
        ("form.xlsx", xlsx_bytes([FORM_HEADERS, *FORM_ROWS])),
        ("form.txt", "\r\n".join("\t".join(r) for r in [FORM_HEADERS, *FORM_ROWS]).encode("utf-16")),
    ],
)
def test_form_export_is_read_in_every_encoding(filename: str, content: bytes) -> None:
    parsed = parse_file(filename, content)
    assert parsed.mapping == ["", "name", "reading", "card_name", "home_store", "q_level", "?"]
    assert [row[0] for row in parsed.rows] == [2, 3, 4]
    assert parsed.rows[0][2] == "田中一郎"


def test_english_headers_and_a_title_row_above_them() -> None:
    content = csv_bytes([["2019 pre-entries"], ["Name", "Reading", "Card Name", "Home store", "Q level"], ["A", "えー", "AAA", "", "10"]])
    parsed = parse_file("en.csv", content)
    assert parsed.mapping == ["name", "reading", "card_name", "home_store", "q_level"]
    assert parsed.rows == [[3, "A", "えー", "AAA", "", "10"]]


def test_preview_saves_nothing_then_confirm_imports_in_order(
    clients: dict[str, Client], tournament: Tournament, cast: Any
) -> None:
    client = clients["desk"]
    response = upload(client, tournament, "form.csv", csv_bytes([FORM_HEADERS, *FORM_ROWS], "cp932"))
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "新規 3人" in page and "好きなジャンル" in page and "import-unknown" in page
    assert not Entrant.objects.exists()  # nothing saved before confirmation
    done = confirm(client, tournament)
    assert done.status_code == 302
    tanaka = Entrant.objects.get(card_name="イチロー")
    assert (tanaka.name, tanaka.reading, tanaka.q_level, tanaka.home_store) == (
        "田中一郎", "タナカイチロウ", 45, "ラウンドワン博多",
    )
    assert Entrant.objects.get(card_name="ジロー").q_level == 0
    assert EntrantRevision.objects.filter(action="import", by=cast["desk"]).count() == 3
    assert EntrantImport.objects.get().status == "done"


def test_importing_the_same_file_twice_adds_nothing(clients: dict[str, Client], tournament: Tournament) -> None:
    client = clients["desk"]
    content = xlsx_bytes([FORM_HEADERS, *FORM_ROWS])
    upload(client, tournament, "form.xlsx", content)
    confirm(client, tournament)
    upload(client, tournament, "form.xlsx", content)
    page = client.get(preview_url(tournament)).content.decode()
    assert "新規 0人" in page and "登録済み 3人" in page
    confirm(client, tournament)
    assert Entrant.objects.count() == 3


def test_confirming_twice_adds_nothing(tournament: Tournament, cast: Any) -> None:
    batch = entrant_import_create(
        tournament=tournament, by=cast["desk"], filename="f.csv", content=csv_bytes([FORM_HEADERS, *FORM_ROWS])
    )
    entrant_import_confirm(tournament=tournament, token=batch.token, by=cast["desk"])
    with pytest.raises(ImportRefused):
        entrant_import_confirm(tournament=tournament, token=batch.token, by=cast["desk"])
    assert Entrant.objects.count() == 3


def test_unknown_column_can_be_mapped_to_a_field(clients: dict[str, Client], tournament: Tournament) -> None:
    client = clients["desk"]
    headers = ["お名前", "カードネーム", "店"]  # "店" alone is not recognised
    upload(client, tournament, "x.csv", csv_bytes([headers, ["山田", "ヤマダ", "ゲーセン太郎"]]))
    url = preview_url(tournament)
    assert EntrantImport.objects.get().mapping == ["name", "card_name", "?"]
    client.post(url, {"action": "remap", "col_0": "name", "col_1": "card_name", "col_2": "home_store"})
    confirm(client, tournament)
    assert Entrant.objects.get().home_store == "ゲーセン太郎"


def test_unknown_column_can_be_appended_to_notes(clients: dict[str, Client], tournament: Tournament) -> None:
    client = clients["desk"]
    upload(client, tournament, "x.csv", csv_bytes([FORM_HEADERS, *FORM_ROWS]))
    mapping = {f"col_{i}": m for i, m in enumerate(["", "name", "reading", "card_name", "home_store", "q_level", "+notes"])}
    client.post(preview_url(tournament), {"action": "remap", **mapping})
    confirm(client, tournament)
    assert Entrant.objects.get(card_name="ハナコ").notes == "好きなジャンル: 芸能"


def test_mapping_a_field_twice_blocks_confirm(clients: dict[str, Client], tournament: Tournament) -> None:
    client = clients["desk"]
    upload(client, tournament, "x.csv", csv_bytes([FORM_HEADERS, *FORM_ROWS]))
    mapping = {f"col_{i}": m for i, m in enumerate(["", "name", "reading", "card_name", "home_store", "q_level", "name"])}
    client.post(preview_url(tournament), {"action": "remap", **mapping})
    page = client.get(preview_url(tournament)).content.decode()
    assert "両方が 名前 になっています" in page
    confirm(client, tournament)
    assert not Entrant.objects.exists()


BROKEN = [
    ["名前", "よみがな", "カードネーム", "Qレベル", "シード", "参加費"],
    ["正常太郎", "せいじょうたろう", "セイジョウ", "50", "", "済"],  # row 2
    ["", "ななし", "ナナシ", "10", "", ""],  # row 3: no name
    ["長過ぎ", "ながすぎ", "とても長いカードネーム", "10", "", ""],  # row 4
    ["範囲外", "はんいがい", "ハンイガイ", "1200", "", ""],  # row 5
    ["数字でない", "すうじでない", "スウジ", "たくさん", "", ""],  # row 6
    ["重複", "ちょうふく", "セイジョウ", "10", "", ""],  # row 7: same CN as row 2
    ["既存", "きそん", "キゾン", "10", "", ""],  # row 8: CN taken by another entrant
    ["シード超", "しーどちょう", "シード", "90", "9", ""],  # row 9
    ["支払不明", "しはらいふめい", "シハライ", "10", "", "たぶん"],  # row 10
    ["漢字読み", "漢字", "カンジ", "10", "", ""],  # row 11
]


def test_broken_file_lists_row_column_and_reason(
    clients: dict[str, Client], tournament: Tournament, register: Any
) -> None:
    register(name="先客", card_name="キゾン")
    client = clients["desk"]
    upload(client, tournament, "broken.csv", csv_bytes(BROKEN))
    from brackets.adapters.entrant_rows import preview_rows

    preview = preview_rows(tournament=tournament, batch=EntrantImport.objects.get())
    errors = {row.number: row.errors for row in preview.rows}
    assert errors[2] == []
    assert errors[3] == [("名前", "名前を入力してください。")]
    assert errors[4][0][0] == "カードネーム" and "8文字以内" in errors[4][0][1]
    assert errors[5][0][0] == "Qレベル" and "0〜999" in errors[5][0][1]
    assert errors[6][0][0] == "Qレベル" and "「たくさん」" in errors[6][0][1]
    assert errors[7][0][0] == "カードネーム" and "2行目" in errors[7][0][1]
    assert errors[8][0][0] == "カードネーム" and "先客" in errors[8][0][1]
    assert errors[9][0][0] == "シード" and "1〜8" in errors[9][0][1]
    assert errors[10][0][0] == "参加費" and "「たぶん」" in errors[10][0][1]
    assert errors[11][0][0] == "よみがな"
    assert preview.error_count == 9
    page = client.get(preview_url(tournament)).content.decode()
    assert "エラー 9行" in page and "名前を入力してください。" in page
    # Confirm without choosing to skip the errors: nothing is written.
    response = confirm(client, tournament)
    assert response.status_code == 200
    assert "エラーのある行が9行あります" in response.content.decode()
    assert Entrant.objects.count() == 1
    # Skipping the broken rows writes only the good one, in one go.
    confirm(client, tournament, skip_errors="1")
    assert set(Entrant.objects.values_list("card_name", flat=True)) == {"キゾン", "セイジョウ"}
    assert EntrantImport.objects.get().result["skipped"] == [3, 4, 5, 6, 7, 8, 9, 10, 11]


def test_import_respects_capacity(clients: dict[str, Client], tournament: Tournament) -> None:
    tournament.capacity = 2
    tournament.save()
    client = clients["desk"]
    upload(client, tournament, "x.csv", csv_bytes([FORM_HEADERS, *FORM_ROWS]))
    page = client.get(preview_url(tournament)).content.decode()
    assert "定員（一般2名）" in page and "新規 2人" in page


@pytest.mark.parametrize(
    ("filename", "content", "message"),
    [
        ("empty.csv", b"", "ファイルが空です"),
        ("blank.csv", b"\r\n,,\r\n", "ファイルが空です"),
        ("header-only.csv", "名前,カードネーム\r\n".encode(), "参加者の行がありません"),
        ("photo.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "表計算ファイルではありません"),
        ("binary.csv", bytes(range(256)) * 4, "表計算ファイルとして読めませんでした"),
        ("old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, ".xls"),
        ("fake.xlsx", b"PK\x03\x04 not really a zip", "Excelファイル"),
        ("noname.csv", "カードネーム,Qレベル\r\nアイウ,10\r\n".encode(), "名前の列が見つかりません"),
    ],
    ids=["empty", "blank", "header-only", "png", "binary", "xls", "fake-xlsx", "no-name-column"],
)
def test_files_that_cannot_be_imported_are_refused(
    clients: dict[str, Client], tournament: Tournament, filename: str, content: bytes, message: str
) -> None:
    if not content:
        with pytest.raises(ImportRefused) as excinfo:
            parse_file(filename, content)
        assert message in excinfo.value.message
        return
    response = upload(clients["desk"], tournament, filename, content)
    html = response.content.decode()
    assert response.status_code == 422
    assert message in html
    if message == "名前の列が見つかりません":
        assert "カードネーム（CN・card name）" in html  # says which columns are expected
    assert not EntrantImport.objects.exists()


def test_exported_file_imports_back_as_already_registered(
    clients: dict[str, Client], tournament: Tournament, register: Any
) -> None:
    register(name="往復", reading="おうふく", card_name="オウフク", seed=2, shura_voluntary=True, opt_up="pinpoint", fee_paid=True)
    client = clients["desk"]
    exported = client.get(reverse("desk_export", args=[tournament.slug])).content
    parsed = parse_file("back.xlsx", exported)
    assert "?" not in parsed.mapping
    Entrant.objects.all().delete()
    upload(client, tournament, "back.xlsx", exported)
    confirm(client, tournament)
    entrant = Entrant.objects.get()
    assert (entrant.name, entrant.reading, entrant.card_name) == ("往復", "おうふく", "オウフク")
    assert (entrant.seed, entrant.shura_voluntary, entrant.opt_up, entrant.fee_paid) == (2, True, "pinpoint", True)


@pytest.mark.parametrize(
    ("header", "field"),
    [
        ("タイムスタンプ", ""), ("お名前", "name"), ("名前", "name"), ("氏名", "name"), ("Name", "name"),
        ("ふりがな", "reading"), ("よみがな", "reading"), ("フリガナ", "reading"), ("お名前（ふりがな）", "reading"),
        ("カードネーム", "card_name"), ("CN", "card_name"), ("カードネーム（8文字以内）", "card_name"),
        ("プレイヤーネーム", "card_name"), ("ホーム店舗", "home_store"), ("ホームゲーセン", "home_store"),
        ("Qレベル", "q_level"), ("最高Qレベル", "q_level"), ("Q level", "q_level"), ("シード", "seed"),
        ("参加費", "fee_paid"), ("備考", "notes"), ("メールアドレス", ""), ("シード・招待権保持", "shura_invited"),
        ("修羅の道（自主）", "shura_voluntary"), ("プチ修羅の道", "opt_up"), ("好きなジャンル", None),
    ],
)
def test_header_recognition(header: str, field: str | None) -> None:
    from brackets.adapters.entrant_files import guess_field

    assert guess_field(header) == field


@pytest.mark.parametrize(
    ("field", "raw", "value"),
    [
        ("q_level", "Q45", 45), ("q_level", "４５", 45), ("q_level", "Lv.80", 80), ("q_level", "", 0),
        ("fee_paid", "済", True), ("fee_paid", "500円", True), ("fee_paid", "未", False), ("fee_paid", "", False),
        ("seed", "S3", 3), ("seed", "", None), ("opt_up", "ボンバーマン", "bomber"), ("opt_up", "ﾋﾟﾝﾎﾟｲﾝﾄ", "pinpoint"),
    ],
)
def test_cell_values(field: str, raw: str, value: object) -> None:
    from brackets.adapters.entrant_rows import _parse_value

    assert _parse_value(field, raw) == value
