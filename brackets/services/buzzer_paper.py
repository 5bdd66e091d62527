"""Writes for paper quizzes: an uploaded marking sheet stored as it was read, or each
player's total and tie-break data typed by staff who marked by hand.

The ranking (M1 tie-break chain, lottery from the stored seed) is the engine's and is
derived when a page shows it; only the rows read from the sheet are stored.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from brackets.engine import EngineError
from brackets.engine.buzzer import PaperScore, check_paper_score
from brackets.messages import error_text
from brackets.models import (
    Entrant,
    PaperMarking,
    Tournament,
)
from brackets.services.buzzer import BuzzerRefused

TRUE_MARKS = {"1", "○", "〇", "o", "O", "◯", "true", "TRUE", "正", "✓"}
FALSE_MARKS = {"0", "×", "x", "X", "✕", "false", "FALSE", "誤", "", "-"}


def _read_table(content: bytes, filename: str) -> list[list[str]]:
    """Rows of the uploaded sheet as strings (first sheet of an .xlsx, or a CSV)."""
    if filename.lower().endswith(".xlsx"):
        from openpyxl import load_workbook

        try:
            book = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
        except Exception as error:  # openpyxl raises many kinds for a broken file
            raise BuzzerRefused("bad_file", _("Excelファイルを読み込めませんでした。")) from error
        sheet = book.worksheets[0]
        return [
            [
                ""
                if v is None
                else str(int(v) if isinstance(v, float) and v.is_integer() else v).strip()
                for v in row
            ]
            for row in sheet.iter_rows(values_only=True)
        ]
    from charset_normalizer import from_bytes

    best = from_bytes(content).best()
    text = str(best) if best is not None else content.decode("utf-8", errors="replace")
    return [
        [cell.strip() for cell in row] for row in csv.reader(io.StringIO(text.lstrip("\ufeff")))
    ]


def paper_sheet_parse(content: bytes, filename: str, questions: int) -> list[dict[str, Any]]:
    """Parse a marking sheet: a header row ``名前, 1, 2, …, N``, one row per entrant.

    Every question 1..N must have a column (a missing one is refused, naming it); marks are
    1/0 or ○/×; a blank counts as wrong (nothing written).
    """
    table = [row for row in _read_table(content, filename) if any(cell for cell in row)]
    if not table:
        raise BuzzerRefused("bad_file", _("シートが空です。"))
    header = table[0]
    columns: dict[int, int] = {}
    for index, cell in enumerate(header[1:], start=1):
        label = cell.upper().removeprefix("Q").removesuffix("問").strip()
        if label.isdigit():
            columns[int(label)] = index
    missing = [q for q in range(1, questions + 1) if q not in columns]
    if missing:
        shown = "、".join(f"Q{q}" for q in missing[:10]) + ("…" if len(missing) > 10 else "")
        raise BuzzerRefused("missing_column", _("問題の列がありません: %(cols)s") % {"cols": shown})
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for line, row in enumerate(table[1:], start=2):
        name = row[0] if row else ""
        if not name:
            raise BuzzerRefused("bad_row", _("%(line)d行目: 名前がありません。") % {"line": line})
        if name in seen:
            raise BuzzerRefused(
                "bad_row",
                _("%(line)d行目: 「%(name)s」が2回あります。") % {"line": line, "name": name},
            )
        seen.add(name)
        marks = []
        for q in range(1, questions + 1):
            col = columns[q]
            cell = row[col] if col < len(row) else ""
            if cell in TRUE_MARKS:
                marks.append("1")
            elif cell in FALSE_MARKS:
                marks.append("0")
            else:
                raise BuzzerRefused(
                    "bad_mark",
                    _("%(line)d行目 Q%(q)d: 「%(cell)s」は ○(1) か ×(0) で入力してください。")
                    % {"line": line, "q": q, "cell": cell},
                )
        rows.append({"name": name, "marks": "".join(marks)})
    return rows


#: The columns of a typed score line, in order (M1's tie-break chain).
SCORE_FIELDS = ("total", "first_half", "streak1", "streak2")


def paper_scores_parse(text: str, questions: int, first_half: int) -> list[dict[str, Any]]:
    """Parse typed scores: one player a line, ``名前,合計,前半,第1連答,第2連答``.

    A line with a missing or non-numeric number, a name twice, or numbers no sheet could
    give (the engine's ``check_paper_score``) is refused naming the line.
    """
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for line, raw in enumerate(text.splitlines(), start=1):
        parts = [p.strip() for p in raw.replace("，", ",").replace("、", ",").split(",")]
        if not any(parts):
            continue
        name, numbers = parts[0], parts[1:]
        if not name:
            raise BuzzerRefused("bad_row", _("%(line)d行目: 名前がありません。") % {"line": line})
        if len(numbers) != len(SCORE_FIELDS) or not all(n.isdigit() for n in numbers):
            raise BuzzerRefused("bad_row", _(
                "%(line)d行目: 「名前,合計,前半,第1連答,第2連答」の形で、数は0以上の整数で"
                "入力してください。") % {"line": line})
        if name in seen:
            raise BuzzerRefused("bad_row", _("%(line)d行目: 「%(name)s」が2回あります。")
                                % {"line": line, "name": name})
        seen.add(name)
        scores = dict(zip(SCORE_FIELDS, (int(n) for n in numbers)))
        try:
            check_paper_score(PaperScore(name, **scores), questions=questions,
                              first_half=first_half)
        except EngineError as error:
            raise BuzzerRefused(error.code, _("%(line)d行目: %(text)s") % {
                "line": line, "text": error_text(error)}) from error
        rows.append({"name": name, "scores": scores})
    if not rows:
        raise BuzzerRefused("bad_file", _("点数を1人以上入力してください。"))
    return rows


def _link_entrants(tournament: Tournament, rows: list[dict[str, Any]]) -> None:
    by_name: dict[str, int] = {}
    for entrant_id, entrant_name, card in Entrant.objects.filter(tournament=tournament).values_list(
        "id", "name", "card_name"
    ):
        by_name.setdefault(entrant_name, entrant_id)
        by_name.setdefault(card, entrant_id)
    for row in rows:
        row["entrant"] = by_name.get(row["name"])


def _check_sheet_size(questions: int, first_half: int) -> None:
    """A paper round's question count and first half, typed or uploaded alike."""
    if questions < 1:
        raise BuzzerRefused("bad_request", _("問題数は1以上にしてください。"))
    if not 0 <= first_half <= questions:
        raise BuzzerRefused("bad_request", _("前半の問題数は問題数以下にしてください。"))


@transaction.atomic
def paper_scores_enter(
    *,
    tournament: Tournament,
    name: str,
    questions: int,
    text: str,
    first_half: int = 50,
    by: Any = None,
    lottery_seed: str = "",
) -> PaperMarking:
    """Store each player's total and tie-break data as typed (a new record, like an upload;
    an earlier one stays as history). The ranking is derived by the engine when shown."""
    _check_sheet_size(questions, first_half)
    rows = paper_scores_parse(text, questions, first_half)
    _link_entrants(tournament, rows)
    return PaperMarking.objects.create(
        tournament=tournament, name=name, questions=questions, first_half=first_half,
        rows=rows, filename="", lottery_seed=lottery_seed or tournament.lottery_seed,
        by=by if getattr(by, "is_authenticated", False) else None,
    )


@transaction.atomic
def paper_marking_upload(
    *,
    tournament: Tournament,
    name: str,
    questions: int,
    content: bytes,
    filename: str,
    first_half: int = 50,
    by: Any = None,
    lottery_seed: str = "",
) -> PaperMarking:
    """Store an uploaded marking sheet (a new record; an earlier upload stays as history).

    Rows are matched to entrants by name or card name where one matches, so the ranked
    list can link to the entrant.
    """
    _check_sheet_size(questions, first_half)
    rows = paper_sheet_parse(content, filename, questions)
    _link_entrants(tournament, rows)
    return PaperMarking.objects.create(
        tournament=tournament,
        name=name,
        questions=questions,
        first_half=first_half,
        rows=rows,
        filename=filename[:200],
        lottery_seed=lottery_seed or tournament.lottery_seed,
        by=by if getattr(by, "is_authenticated", False) else None,
    )
