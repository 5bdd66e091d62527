"""Question files: checking a file's rows, and which question the round is reading.

A round may be read from a question file (番号, 問題, 答え, 備考). Its questions are read
in ascending number, one per question of the round; a thrown-out question
(:class:`~brackets.engine.buzzer.events.ThrowOut`) does not count toward the limit, so its
replacement is the next unused question of the file. The round's state keeps, in
``RoundState.thrown``, the read positions (1 = the first question of the file read) that
were thrown out; everything else follows from the closed-question count, so undo and
later protests need no bookkeeping of their own.

:func:`check_question_table` reads the cells of a spreadsheet (the web layer opens the
file) and returns the questions and every bad row as a :class:`RuleRefusal` value, so the
staff see all of them at once, each with its row number.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from brackets.engine.buzzer.state import RoundState
from brackets.engine.errors import RuleRefusal

#: More than this is a wrong file, not a question set (a day of rounds is a few hundred).
MAX_FILE_QUESTIONS = 2000
MAX_QUESTION_CHARS = 1000
MAX_ANSWER_CHARS = 300
MAX_NOTES_CHARS = 1000
#: The header is looked for in the first rows (a title line may come first).
HEADER_SCAN_ROWS = 10

#: Header words per column, compared after NFKC, lower case, without spaces and marks.
COLUMN_ALIASES: dict[str, tuple[str, ...]] = {
    "number": ("番号", "問題番号", "問番号", "no", "num", "number", "#", "q", "qno"),
    "question": ("問題", "問題文", "問", "question", "questions", "text"),
    "answer": ("答え", "答", "こたえ", "解答", "正解", "正答", "answer", "answers"),
    "notes": ("備考", "メモ", "補足", "注", "notes", "note", "memo", "remarks", "comment"),
}
REQUIRED_COLUMNS = ("number", "question", "answer")
_LIMITS = {"question": MAX_QUESTION_CHARS, "answer": MAX_ANSWER_CHARS, "notes": MAX_NOTES_CHARS}
_PUNCT = re.compile(r"[\s\(\)（）\[\]【】「」<>＜＞:：.．。、,，・_\-‐－/／]+")


@dataclass(frozen=True)
class Question:
    """One question of a file: its number, text, answer and notes for the reader."""

    number: int
    question: str
    answer: str
    notes: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain dict for storage."""
        return {"number": self.number, "question": self.question, "answer": self.answer,
                "notes": self.notes}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Question:
        """Inverse of :meth:`to_dict`."""
        return Question(int(data["number"]), str(data["question"]), str(data["answer"]),
                        str(data.get("notes") or ""))


@dataclass(frozen=True)
class QuestionCheck:
    """A file's questions in reading order, and its problems (empty: the file is good)."""

    questions: tuple[Question, ...]
    problems: tuple[RuleRefusal, ...]

    @property
    def ok(self) -> bool:
        """Whether the file may be stored."""
        return not self.problems and bool(self.questions)


def _key(text: str) -> str:
    return _PUNCT.sub("", unicodedata.normalize("NFKC", text).lower())


_ALIAS = {_key(alias): column for column, aliases in COLUMN_ALIASES.items() for alias in aliases}


def _header(row: Sequence[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for index, cell in enumerate(row):
        column = _ALIAS.get(_key(cell))
        if column is not None and column not in found:
            found[column] = index
    return found


def _number(text: str) -> int | None:
    text = unicodedata.normalize("NFKC", text).strip().removeprefix("Q").removeprefix("q")
    text = text.removeprefix("第").removesuffix("問").strip()
    return int(text) if text.isdigit() and int(text) >= 1 else None


def check_question_table(table: Sequence[Sequence[str]]) -> QuestionCheck:
    """The questions of a sheet's cells, sorted by number, and every bad row.

    The header row (番号/問題/答え/備考, or number/question/answer/notes) is the first of
    the first :data:`HEADER_SCAN_ROWS` rows naming a question column; 番号, 問題 and 答え
    are required. Row numbers in the problems are the sheet's (1 = its first row).
    """
    header_at, columns = None, {}
    for index, row in enumerate(table[:HEADER_SCAN_ROWS]):
        columns = _header(row)
        if "question" in columns:
            header_at = index
            break
    if header_at is None:
        return QuestionCheck((), (RuleRefusal(
            "question_columns", "no header row with a question column",
            missing="、".join(COLUMN_ALIASES[c][0] for c in REQUIRED_COLUMNS)),))
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        return QuestionCheck((), (RuleRefusal(
            "question_columns", "required columns are missing",
            missing="、".join(COLUMN_ALIASES[c][0] for c in missing)),))
    problems: list[RuleRefusal] = []
    questions: list[Question] = []
    first_row: dict[int, int] = {}
    for index in range(header_at + 1, len(table)):
        row = table[index]
        line = index + 1
        cells = {c: (row[i].strip() if i < len(row) and row[i] is not None else "")
                 for c, i in columns.items()}
        if not any(cells.values()):
            continue
        bad = len(problems)
        number = _number(cells["number"])
        if number is None:
            problems.append(RuleRefusal("question_number_bad", "the number is not a whole "
                                        "number from 1", row=line, value=cells["number"]))
        elif number in first_row:
            problems.append(RuleRefusal("question_number_twice", "the number appears twice",
                                        row=line, number=number, first=first_row[number]))
        else:
            first_row[number] = line
        if not cells["question"]:
            problems.append(RuleRefusal("question_blank", "no question text", row=line))
        if not cells["answer"]:
            problems.append(RuleRefusal("answer_blank", "no answer", row=line))
        for column, limit in _LIMITS.items():
            if len(cells.get(column, "")) > limit:
                problems.append(RuleRefusal(
                    "question_too_long", "a cell is too long", row=line,
                    column=COLUMN_ALIASES[column][0], length=len(cells[column]), max=limit))
        if len(problems) == bad and number is not None:
            questions.append(Question(number, cells["question"], cells["answer"],
                                      cells.get("notes", "")))
    if len(first_row) > MAX_FILE_QUESTIONS:
        problems.append(RuleRefusal("question_file_too_many", "too many questions",
                                    count=len(first_row), max=MAX_FILE_QUESTIONS))
    if not first_row and not problems:
        problems.append(RuleRefusal("question_file_empty", "no question below the header"))
    return QuestionCheck(tuple(sorted(questions, key=lambda q: q.number)), tuple(problems))


def read_position(thrown: Sequence[int], question: int) -> int:
    """The file position read as the round's question ``question`` (1-based): the
    ``question``-th position that was not thrown out."""
    position, counted = 0, 0
    skipped = set(thrown)
    while counted < question:
        position += 1
        if position not in skipped:
            counted += 1
    return position


def position_in_play(state: RoundState) -> int | None:
    """The file position of the question being read now; None once the round is over."""
    if state.over:
        return None
    return read_position(state.thrown, state.question + 1)


def position_judged(state: RoundState) -> int | None:
    """The file position of the last question judged (closed); None before the first."""
    if state.question < 1:
        return None
    return read_position(state.thrown, state.question)
