"""Batch printing of a whole round: group table, match sheets and (once entered) results."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop

from brackets.models import Role, Tournament
from brackets.printing._rounds import ROUND_OPTION
from brackets.printing.base import CompositePdf
from brackets.printing.registry import Choice, register
from brackets.selectors.round_documents import round_choices


@register
class RoundBatch(CompositePdf):
    """回戦まとめ印刷: everything the staff of one round print, in one file."""

    slug = "round-batch"
    order = 30
    title = gettext_noop("回戦まとめ印刷")
    role = Role.BRACKET
    category = gettext_noop("回戦")
    description = gettext_noop("組分け表＋対戦記録用紙（＋結果が入っていれば結果表）")
    parts = ("group-table", "match-sheets", "result-sheets")

    options = ROUND_OPTION

    def choices(self, tournament: Tournament) -> list[Choice]:
        return [Choice(name, {"round": number}) for number, name in round_choices(tournament, drawn=True)]

    def label(self, tournament: Tournament, **options: Any) -> str:
        for number, name in round_choices(tournament):
            if number == options.get("round"):
                return f"{name} まとめ"
        return gettext(self.title)
