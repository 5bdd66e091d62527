"""Reading pre-entry files (.xlsx, .csv) into a header, a guessed column mapping and rows.

Organisers collect pre-entries with form tools (Google Forms, Microsoft Forms, 調整さん…)
and Excel, so headers arrive in Japanese or English with decorations ("お名前（本名）",
"カードネーム（8文字以内）"), CSV arrives as UTF-8 with or without BOM, UTF-16 (Excel's
"Unicode text") or Shift_JIS/CP932, and the first row is not always the header. This module
only reads; :mod:`brackets.adapters.entrant_rows` judges the rows and
:mod:`brackets.services.entrant_imports` writes.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
import zipfile
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from brackets.adapters.entrants import ENTRANT_FIELDS, kana_fold
from brackets.adapters.entrants import field_label as entrant_field_label
from brackets.engine import bounds
from brackets.errors import Refused

MAX_BYTES = 5 * 1024 * 1024
MAX_ROWS = 5000
HEADER_SCAN_ROWS = 10

IGNORE = ""
NOTES_APPEND = "+notes"

#: Fields an import column can fill, in the order the mapping menu offers them: every
#: field staff edit at the desk, so an exported list imports back complete.
IMPORT_FIELDS: tuple[str, ...] = ENTRANT_FIELDS

# Aliases per target, in the order headers are matched by "contains" (the most specific
# first: "シード・招待権保持" must become 招待, not シード; "カードネーム" is not 名前).
# Exact matches win over contains matches. Short Latin aliases only match exactly.
ALIASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("past_win_lots", ("過去優勝時のくじ数", "過去優勝", "pastwinlots", "past_win_lots")),
    ("shura_local_wins", ("滋賀大会優勝数", "滋賀", "localwins", "shura_local_wins")),
    ("shura_invited", ("シード・招待権保持", "招待", "invited", "shura_invited")),
    ("shura_titles", ("全国大会タイトル数", "タイトル", "titles", "shura_titles")),
    ("shura_extra_lots", ("追加くじ", "extralots", "shura_extra_lots")),
    ("opt_up", ("プチ修羅の道", "プチ修羅", "optup", "opt_up")),
    ("shura_voluntary", ("修羅の道", "修羅", "shura", "voluntary", "shura_voluntary")),
    (
        "card_name",
        ("カードネーム", "カード名", "cn", "cardname", "card_name", "card", "qmaの名前",
         "プレイヤーネーム", "ハンドルネーム", "hn"),
    ),
    (
        "reading",
        ("よみがな", "ふりがな", "読み仮名", "振り仮名", "よみ", "読み", "reading", "kana",
         "furigana", "yomi", "namekana"),
    ),
    ("q_level", ("最高qレベル", "qレベル", "qlv", "ql", "q", "lv", "level", "qlevel", "q_level")),
    (
        "home_store",
        ("ホーム店舗", "ホーム店", "ホームゲーセン", "ホーム", "店舗", "ゲームセンター", "homestore",
         "home_store", "home", "store", "shop"),
    ),
    ("seed", ("シード番号", "シード", "seed")),
    ("fee_paid", ("参加費", "支払", "入金", "会費", "feepaid", "fee_paid", "paid", "fee")),
    ("checked_in", ("受付済", "受付", "チェックイン", "出欠", "checkin", "checkedin", "checked_in")),
    ("notes", ("メモ", "備考", "連絡事項", "コメント", "notes", "note", "memo", "comment", "remarks")),
    (
        IGNORE,
        ("タイムスタンプ", "timestamp", "送信日時", "回答日時", "日時", "メールアドレス", "メール",
         "email", "mail", "階級", "rank", "no", "番号", "#", "id", "連番"),
    ),
    (
        "name",
        ("名前", "お名前", "氏名", "おなまえ", "なまえ", "本名", "参加者名", "選手名",
         "name", "fullname", "playername", "player"),
    ),
)

EXPECTED_COLUMNS = gettext_lazy(
    "名前（お名前・氏名・name）、よみがな（ふりがな・reading）、カードネーム（CN・card name）、"
    "ホーム店舗、Qレベル、シード、参加費、受付、メモ"
)

_PUNCT = re.compile(r"[\s\(\)（）\[\]【】「」『』<>＜＞:：*＊※?？!！・･\-‐－_.,、。/／]+")


class ImportRefused(Refused):
    """The file cannot be imported at all (not a spreadsheet, empty, no name column)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _header_key(text: str) -> str:
    return _PUNCT.sub("", kana_fold(text))


_EXACT: dict[str, str] = {}
_CONTAINS: list[tuple[str, str]] = []
for _target, _aliases in ALIASES:
    for _alias in _aliases:
        _key = _header_key(_alias)
        _EXACT.setdefault(_key, _target)
        if not _key.isascii() or len(_key) >= 5:
            _CONTAINS.append((_key, _target))


def guess_field(header: str) -> str | None:
    """The field a header names, ``IGNORE`` for known columns to skip, None if unknown."""
    key = _header_key(header)
    if not key:
        return None
    if key in _EXACT:
        return _EXACT[key]
    for alias, target in _CONTAINS:
        if alias in key:
            return target
    return None


def field_label(name: str) -> str:
    if name == IGNORE:
        return _("取り込まない")
    if name == NOTES_APPEND:
        return _("メモに追記")
    return entrant_field_label(name)


def mapping_choices() -> list[tuple[str, str]]:
    return [(IGNORE, field_label(IGNORE))] + [(f, field_label(f)) for f in IMPORT_FIELDS] + [
        (NOTES_APPEND, field_label(NOTES_APPEND))
    ]


# ---------------------------------------------------------------------------- reading files


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime):
        return value.isoformat(sep=" ", timespec="seconds")
    if isinstance(value, (date, time)):
        return value.isoformat()
    return str(value).strip()


def _read_xlsx(content: bytes) -> list[list[str]]:
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a broken or foreign zip
        raise ImportRefused(
            _("Excelファイル（.xlsx）として読めませんでした。ファイルが壊れていないか確認してください。")
        ) from exc
    try:
        sheet = workbook.worksheets[0] if workbook.worksheets else None
        if sheet is None:
            return []
        rows = []
        for row in sheet.iter_rows(values_only=True):
            rows.append([_cell_text(v) for v in row])
            if len(rows) > MAX_ROWS + HEADER_SCAN_ROWS:
                break
        return rows
    finally:
        workbook.close()


def _decode(content: bytes) -> str:
    """Text of a CSV: BOMs first, then strict UTF-8, then CP932, then a detector's guess."""
    if content.startswith(b"\xef\xbb\xbf"):
        return content[3:].decode("utf-8", errors="strict")
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):
        return content.decode("utf-16")
    if b"\x00" in content:
        raise UnicodeDecodeError("binary", content, 0, 1, "NUL byte")
    for encoding in ("utf-8", "cp932"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    from charset_normalizer import from_bytes

    best = from_bytes(content).best()
    if best is None:
        raise UnicodeDecodeError("unknown", content, 0, 1, "no encoding fits")
    return str(best)


def _read_csv(content: bytes) -> list[list[str]]:
    try:
        text = _decode(content)
    except (UnicodeDecodeError, LookupError) as exc:
        raise ImportRefused(
            _("表計算ファイルとして読めませんでした。.xlsx か .csv（UTF-8 または Shift_JIS）で保存してください。")
        ) from exc
    if any(unicodedata.category(ch) == "Cc" and ch not in "\t\r\n" for ch in text[:4096]):
        raise ImportRefused(
            _("表計算ファイルとして読めませんでした。.xlsx か .csv（UTF-8 または Shift_JIS）で保存してください。")
        )
    sample = text[:8192]
    try:
        dialect: Any = csv.Sniffer().sniff(sample, delimiters=",\t;")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    rows = []
    try:
        for row in reader:
            rows.append([cell.strip() for cell in row])
            if len(rows) > MAX_ROWS + HEADER_SCAN_ROWS:
                break
    except csv.Error as exc:
        # The reader stops at a cell longer than its limit (bounds.CSV_CELL, Python's
        # default) or at a malformed line: say which line, not a server error.
        if "field larger than field limit" in str(exc):
            raise ImportRefused(
                _("%(line)d行目に長すぎるセルがあります（1つのセルは%(max)d文字まで）。"
                  "ファイルの中身を確認してください。")
                % {"line": reader.line_num, "max": bounds.CSV_CELL.max_length}
            ) from exc
        raise ImportRefused(
            _("%(line)d行目がCSVとして読めません。表計算ソフトでCSV形式に保存し直してください。")
            % {"line": reader.line_num}
        ) from exc
    return rows


def read_table(filename: str, content: bytes) -> list[list[str]]:
    """The cells of the first sheet (xlsx) or of the CSV, as text; refuses other files."""
    if not content:
        raise ImportRefused(_("ファイルが空です。"))
    if len(content) > MAX_BYTES:
        raise ImportRefused(_("ファイルが大きすぎます（5MBまで）。"))
    if content.startswith(b"PK\x03\x04"):
        if not zipfile.is_zipfile(io.BytesIO(content)):
            raise ImportRefused(_("Excelファイル（.xlsx）として読めませんでした。"))
        return _read_xlsx(content)
    if content.startswith(b"\xd0\xcf\x11\xe0"):
        raise ImportRefused(
            _("古いExcel形式（.xls）は読めません。Excelで「.xlsx」か「CSV」形式で保存し直してください。")
        )
    if content.startswith((b"%PDF", b"\x89PNG", b"\xff\xd8\xff", b"GIF8")):
        raise ImportRefused(
            _("表計算ファイルではありません。.xlsx か .csv を選んでください。")
        )
    return _read_csv(content)


@dataclass
class ParsedFile:
    headers: list[str]
    mapping: list[str]
    rows: list[list[Any]]  # [spreadsheet row number, cell, cell, ...]


def _refuse_no_name() -> ImportRefused:
    return ImportRefused(
        _("名前の列が見つかりません。1行目に見出しを付けてください。使える列: %(cols)s")
        % {"cols": EXPECTED_COLUMNS}
    )


def parse_file(filename: str, content: bytes) -> ParsedFile:
    """Find the header row (the first with a name column) and guess each column's field."""
    table = read_table(filename, content)
    nonblank = [(i, row) for i, row in enumerate(table) if any(cell for cell in row)]
    if not nonblank:
        raise ImportRefused(_("ファイルが空です。"))
    header_index = None
    for i, row in nonblank[:HEADER_SCAN_ROWS]:
        if "name" in [guess_field(cell) for cell in row]:
            header_index = i
            break
    if header_index is None:
        raise _refuse_no_name()
    raw_headers = table[header_index]
    width = max(len(row) for _i, row in nonblank)
    headers = [(raw_headers[c] if c < len(raw_headers) else "") for c in range(width)]
    mapping: list[str] = []
    taken: set[str] = set()
    for header in headers:
        target = guess_field(header)
        if target is None or target == IGNORE or target in taken:
            mapping.append(IGNORE if target == IGNORE else "?")
            continue
        taken.add(target)
        mapping.append(target)
    rows: list[list[Any]] = []
    for i, row in nonblank:
        if i <= header_index:
            continue
        cells = [(row[c] if c < len(row) else "") for c in range(width)]
        rows.append([i + 1, *cells])
    if not rows:
        raise ImportRefused(_("見出しの下に参加者の行がありません。"))
    if len(rows) > MAX_ROWS:
        raise ImportRefused(_("行が多すぎます（%(max)d行まで）。") % {"max": MAX_ROWS})
    return ParsedFile(headers=[h or _("（見出しなし）") for h in headers], mapping=mapping, rows=rows)
