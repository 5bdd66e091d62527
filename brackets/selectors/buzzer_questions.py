"""Reads for question files: the file in effect, its history, and what each screen may show.

The reader's card (console only) shows the question being read, with its answer and
notes. The stage gets at most the last *judged* question (closed by a ○, a スルー, a board
or a written result), and only when the round's ``show_answer`` setting is on: the
question in play never leaves the console. Which file question is read at which point is
the engine's (:func:`brackets.engine.buzzer.position_in_play`, thrown-out questions
skipped).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from brackets.engine.buzzer import Question, RoundState, position_in_play, position_judged
from brackets.models import BuzzerQuestionFile, BuzzerRound


def newest_question_record(round_: BuzzerRound) -> BuzzerQuestionFile | None:
    """The round's newest question-file record, a withdrawal included (one query)."""
    return (BuzzerQuestionFile.objects.filter(round=round_).select_related("by")
            .order_by("-id").first())


def in_effect(newest: BuzzerQuestionFile | None) -> BuzzerQuestionFile | None:
    """The file in effect given the newest record: none after a withdrawal."""
    return None if newest is None or newest.withdrawn else newest


def current_question_file(round_: BuzzerRound) -> BuzzerQuestionFile | None:
    """The question file in effect (the newest record), or None when the round has none or
    its newest record is a withdrawal (one query)."""
    return in_effect(newest_question_record(round_))


def question_file_history(round_: BuzzerRound) -> list[dict[str, Any]]:
    """Every file loaded for the round and every withdrawal, newest first, with who and
    when; ``current`` marks the file in effect (none after a withdrawal)."""
    rows = list(BuzzerQuestionFile.objects.filter(round=round_).select_related("by")
                .order_by("-id"))
    return [
        {
            "id": f.pk,
            "filename": f.filename,
            "count": len(f.questions),
            "by": f.by.get_username() if f.by else "",
            "at": timezone.localtime(f.at).strftime("%Y-%m-%d %H:%M"),
            "current": index == 0 and not f.withdrawn,
            "withdrawn": f.withdrawn,
            # Replaced by a withdrawal rather than by another file.
            "taken_back": index > 0 and rows[index - 1].withdrawn
            and rows[index - 1].supersedes_id == f.pk,
        }
        for index, f in enumerate(rows)
    ]


def _at(file: BuzzerQuestionFile, position: int | None) -> Question | None:
    if position is None or not 1 <= position <= len(file.questions):
        return None
    return Question.from_dict(file.questions[position - 1])


def question_card(file: BuzzerQuestionFile | None, state: RoundState) -> dict[str, Any] | None:
    """The reader's card for the console: the question in play with answer and notes, and
    the last judged one; None for a round without a question file."""
    if file is None:
        return None
    position = position_in_play(state)
    current = _at(file, position)
    judged = _at(file, position_judged(state))
    return {
        "filename": file.filename,
        "count": len(file.questions),
        "position": position,
        "thrown": len(state.thrown),
        "current": None if current is None else current.to_dict(),
        "exhausted": position is not None and current is None,
        "judged": None if judged is None else judged.to_dict(),
    }


def judged_answer(file: BuzzerQuestionFile | None, state: RoundState) -> dict[str, Any] | None:
    """The last judged question and its answer for the stage, when the round shows it.

    Never the question being read, never the reader's notes; None when the setting is
    off, the round has no file, or no question is judged yet.
    """
    if file is None or not state.config.show_answer:
        return None
    judged = _at(file, position_judged(state))
    if judged is None:
        return None
    return {"round_question": state.question, "number": judged.number,
            "question": judged.question, "answer": judged.answer}
