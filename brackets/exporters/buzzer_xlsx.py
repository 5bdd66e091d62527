"""Excel (.xlsx) files of live buzzer rounds: one round question by question with its final
standings, and the whole live event (every round's standings and an overview).

The rows are :func:`brackets.selectors.buzzer_documents.buzzer_round_doc`: the decided
version of the round (protests applied, each change noted on its question and listed with
who decided) and the ranking the round page shows; the sheet layout is the shared
:mod:`brackets.exporters.xlsx`. Headers follow the language of whoever downloads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext, gettext_noop

from brackets.exporters.xlsx import BAD_TITLE, Sheet, workbook_bytes
from brackets.exporters.xlsx import CONTENT_TYPE as XLSX
from brackets.models import Role, Tournament
from brackets.printing.registry import Choice, Document, DocumentError, Option, register
from brackets.selectors.buzzer import tournament_rounds
from brackets.selectors.buzzer_documents import (
    BuzzerRoundDoc,
    buzzer_round_choices,
    buzzer_round_doc,
    buzzer_round_of,
)

BUZZER_CATEGORY = gettext_noop("早押し")
ROUND_OPTION: Mapping[str, Option] = {"round": Option(gettext_noop("早押しラウンド"))}


def question_rows(doc: BuzzerRoundDoc) -> list[list[Any]]:
    """Sheet 1: one line per question with every player's numbers after it."""
    head: list[Any] = [gettext("問"), gettext("解答"), gettext("判定")]
    head += [f"{p.seat}. {p.name}" for p in doc.players]
    head.append(gettext("備考（審議・没問）"))
    rows = [head]
    for line in doc.questions:
        rows.append([line.number, line.answers, line.judgement, *line.cells, line.note])
    return rows


def protest_rows(doc: BuzzerRoundDoc) -> list[list[Any]]:
    """Every protest record, the ones taken back included, with who decided."""
    rows: list[list[Any]] = [[gettext("記録番号"), gettext("時刻"), gettext("入力者"),
                              gettext("内容"), gettext("状態")]]
    for line in doc.protests:
        rows.append([line.seq, line.at, line.by, line.text,
                     gettext("有効") if line.in_effect else gettext("取り消し済み")])
    return rows


def settings_rows(doc: BuzzerRoundDoc) -> list[list[Any]]:
    head, *rest = doc.settings
    return [head, [gettext("ルール"), "・".join(doc.rules)], *rest]


def round_sheets(doc: BuzzerRoundDoc) -> list[Sheet]:
    """A round's sheets: questions, final standings, protests (when any), settings."""
    standings = gettext("最終順位") if doc.over else gettext("現在の順位")
    sheets: list[Sheet] = [(gettext("問題ごと"), question_rows(doc)), (standings, doc.standings)]
    if doc.protests:
        sheets.append((gettext("審議・没問"), protest_rows(doc)))
    sheets.append((gettext("設定"), settings_rows(doc)))
    return sheets


def _sheet_title(index: int, doc: BuzzerRoundDoc, used: set[str]) -> str:
    """A sheet title Excel accepts: ≤ 31 characters, none of []:*?/\\, unique."""
    base = BAD_TITLE.sub(" ", f"{index}. {doc.title}")[:31]
    title, n = base, 2
    while title in used:
        suffix = f" ({n})"
        title, n = base[: 31 - len(suffix)] + suffix, n + 1
    used.add(title)
    return title


def event_sheets(tournament: Tournament) -> list[Sheet]:
    """The overview (each round: status, questions, who went through, who went out) and
    one sheet per round with its final standings."""
    rounds = tournament_rounds(tournament.pk)
    if not rounds:
        raise DocumentError(gettext("早押しラウンドがまだありません。"))
    overview: list[list[Any]] = [[gettext("ラウンド"), gettext("組"), gettext("状態"),
                                  gettext("ルール"), gettext("問題数"), gettext("順位")]]
    sheets: list[Sheet] = []
    used: set[str] = set()
    for index, round_ in enumerate(rounds, start=1):
        doc = buzzer_round_doc(round_)
        order = "、".join(f"{row[0]}. {row[2]}" for row in doc.standings[1:])
        overview.append([doc.name, doc.group, doc.status, "・".join(doc.rules),
                         sum(1 for q in doc.questions if q.closed), order])
        sheets.append((_sheet_title(index, doc, used), doc.standings))
    return [(gettext("全体"), overview), *sheets]


class BuzzerRoundDocument(Document):
    """What the documents of one buzzer round share: the ``round`` option (a round's id),
    one link per round, the round's label in titles."""

    role = Role.BRACKET
    category = BUZZER_CATEGORY
    options: ClassVar[Mapping[str, Option]] = ROUND_OPTION
    hide_when_empty = True

    def choices(self, tournament: Tournament) -> list[Choice]:
        return [Choice(label, {"round": pk}) for pk, label in buzzer_round_choices(tournament)]

    def label(self, tournament: Tournament, **options: Any) -> str:
        round_id = options.get("round")
        for pk, label in buzzer_round_choices(tournament) if round_id is not None else ():
            if pk == round_id:
                return f"{label} {gettext(self.title)}"
        return gettext(self.title)


@register
class BuzzerRoundWorkbook(BuzzerRoundDocument):
    """早押しラウンドの記録（Excel）: question by question, final standings, protests."""

    slug = "buzzer-round-xlsx"
    order = 60
    title = gettext_noop("早押しラウンドの記録（Excel）")
    content_type = XLSX
    extension = "xlsx"
    description = gettext_noop("1問ごとの解答・判定・全員の成績、最終順位、審議・没問の記録、設定")

    def render(self, tournament: Tournament, **options: Any) -> tuple[str, str, bytes]:
        opts = self.clean_options(tournament, options)
        doc = buzzer_round_doc(buzzer_round_of(tournament, opts["round"]))
        return self.filename(tournament, **opts), XLSX, workbook_bytes(round_sheets(doc))


@register
class BuzzerEventWorkbook(Document):
    """早押し大会の全ラウンド（Excel）: an overview and each round's standings."""

    slug = "buzzer-event-xlsx"
    order = 70
    title = gettext_noop("早押し全ラウンドの順位（Excel）")
    role = Role.BRACKET
    category = BUZZER_CATEGORY
    content_type = XLSX
    extension = "xlsx"
    description = gettext_noop("全ラウンドの一覧と、ラウンドごとの最終順位")
    hide_when_empty = True

    def choices(self, tournament: Tournament) -> list[Choice]:
        return [Choice(gettext(self.title), {})] if tournament_rounds(tournament.pk) else []

    def render(self, tournament: Tournament, **options: Any) -> tuple[str, str, bytes]:
        return self.filename(tournament), XLSX, workbook_bytes(event_sheets(tournament))
