"""Writes for question files: read an uploaded file for the preview, store it when confirmed.

Reading stores nothing. The preview carries the questions it showed in a signed token
(:mod:`django.core.signing`), so confirming stores exactly what staff saw, and a file
nobody confirms leaves no trace. A confirmed file is a new record that names the file it
replaces; if another file was confirmed since the preview, the confirmation is refused
rather than silently replacing a file its author never saw. Withdrawing the file in effect
is a record of its own that supersedes it (the round then runs without questions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.db import transaction
from django.utils.translation import gettext as _

from brackets.adapters.entrant_files import ImportRefused, read_table
from brackets.engine.buzzer import Question, check_question_table
from brackets.messages import error_text
from brackets.models import BuzzerQuestionFile, BuzzerRound
from brackets.services.buzzer import BuzzerRefused

_SALT = "brackets.buzzer-questions"
#: A preview is confirmed within the hour or read again (the file may have been fixed).
TOKEN_MAX_AGE = 3600


@dataclass(frozen=True)
class QuestionPreview:
    """What an upload would store: its questions, or every bad row as a Japanese line."""

    filename: str
    questions: tuple[Question, ...]
    problems: tuple[str, ...]
    token: str = ""


def question_file_read(*, round: BuzzerRound, filename: str, content: bytes) -> QuestionPreview:
    """Read an uploaded question file for the preview; stores nothing.

    An unreadable file (not a spreadsheet, old .xls, broken) is one problem; otherwise
    every bad row is listed with its row number. A good file gets the token that
    :func:`buzzer_questions_confirm` takes.
    """
    try:
        table = read_table(filename, content)
    except ImportRefused as refused:
        return QuestionPreview(filename, (), (refused.message,))
    checked = check_question_table(table)
    problems = tuple(error_text(p) for p in checked.problems)
    if not checked.ok:
        return QuestionPreview(filename, checked.questions, problems)
    current = current_file_id(round)
    token = signing.dumps(
        {
            "round": round.pk,
            "filename": filename[:200],
            "replaces": current,
            "questions": [q.to_dict() for q in checked.questions],
        },
        salt=_SALT,
        compress=True,
    )
    return QuestionPreview(filename, checked.questions, (), token)


def current_file_id(round: BuzzerRound) -> int | None:
    """The id of the question file in effect for ``round`` (the newest), or None."""
    return (
        BuzzerQuestionFile.objects.filter(round=round)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )


def _payload(round: BuzzerRound, token: str) -> dict[str, Any]:
    try:
        data = signing.loads(token, salt=_SALT, max_age=TOKEN_MAX_AGE)
    except signing.SignatureExpired:
        raise BuzzerRefused(
            "stale", _("確認画面を開いてから時間が経ちすぎました。もう一度ファイルを選んでください。")
        ) from None
    except signing.BadSignature:
        raise BuzzerRefused(
            "bad_request", _("確認画面の内容が読めません。もう一度ファイルを選んでください。")
        ) from None
    if not isinstance(data, dict) or data.get("round") != round.pk:
        raise BuzzerRefused(
            "bad_request", _("別のラウンドの確認画面です。もう一度ファイルを選んでください。")
        )
    return data


@transaction.atomic
def buzzer_questions_confirm(*, round: BuzzerRound, token: str, by: Any = None) -> BuzzerQuestionFile:
    """Store the previewed questions as the round's question file.

    The round row is locked so two confirmations cannot both replace the same file; one
    confirmed after another file was stored is refused (:class:`BuzzerRefused`,
    ``stale``) and nothing is stored.
    """
    data = _payload(round, token)
    locked = BuzzerRound.objects.select_for_update().get(pk=round.pk)
    current = current_file_id(locked)
    if data.get("replaces") != current:
        raise BuzzerRefused(
            "stale",
            _("確認画面を開いた後に、別の問題ファイルが読み込まれました。内容を確かめて、もう一度ファイルを選んでください。"),
        )
    questions = [Question.from_dict(q).to_dict() for q in data["questions"]]
    return BuzzerQuestionFile.objects.create(
        round=locked,
        filename=str(data.get("filename") or "")[:200],
        questions=questions,
        supersedes_id=current,
        by=by if getattr(by, "is_authenticated", False) else None,
    )


@transaction.atomic
def buzzer_questions_withdraw(
    *, round: BuzzerRound, file_id: int, by: Any = None
) -> BuzzerQuestionFile:
    """Withdraw the question file in effect: a record with no questions that supersedes it.

    ``file_id`` is the file staff saw in effect; when it is no longer the newest (another
    file was loaded or it was withdrawn since), or the round has no file in effect, the
    withdrawal is refused (:class:`BuzzerRefused`) and nothing is stored. The round row is
    locked as a confirmation locks it.
    """
    locked = BuzzerRound.objects.select_for_update().get(pk=round.pk)
    newest = BuzzerQuestionFile.objects.filter(round=locked).order_by("-id").first()
    if newest is None or newest.withdrawn:
        raise BuzzerRefused("no_file", _("このラウンドには、取り下げる問題ファイルがありません。"))
    if newest.pk != file_id:
        raise BuzzerRefused(
            "stale",
            _("画面を開いた後に、別の問題ファイルが読み込まれました。内容を確かめて、もう一度操作してください。"),
        )
    return BuzzerQuestionFile.objects.create(
        round=locked,
        filename=newest.filename,
        questions=[],
        withdrawn=True,
        supersedes=newest,
        by=by if getattr(by, "is_authenticated", False) else None,
    )
