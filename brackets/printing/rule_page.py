"""The rule page (大会ルール): the tournament's rules as players read them (#17 item 4).

The same sections and sentences as the public page (``/p/<slug>/rules/``), both from
:func:`brackets.selectors.rule_page.rule_page`: what is printed and what the app enforces
are one text.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import escape
from django.utils.translation import gettext_noop
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer

from brackets.engine import EngineError
from brackets.errors import DocumentError
from brackets.messages import error_text
from brackets.models import Role, Tournament
from brackets.printing.base import PdfDocument, styles
from brackets.printing.registry import register
from brackets.selectors.rule_page import RulePage, rule_page, tournament_ruleset


def _styles() -> dict[str, ParagraphStyle]:
    base = styles()["base"]
    return {
        "heading": ParagraphStyle("rule_heading", parent=styles()["heading"], keepWithNext=1),
        "round": ParagraphStyle("rule_round", parent=base, fontSize=11.5, leading=15,
                                leftIndent=1.5 * mm, spaceBefore=1.5 * mm, spaceAfter=0.8 * mm),
        "item": ParagraphStyle("rule_item", parent=base, leftIndent=5 * mm,
                               firstLineIndent=-3.5 * mm, spaceAfter=1.2 * mm),
        "child": ParagraphStyle("rule_child", parent=base, fontSize=10, leading=13.5,
                                leftIndent=10 * mm, firstLineIndent=-3.5 * mm,
                                spaceAfter=0.8 * mm),
    }


@register
class RulePageDocument(PdfDocument):
    """大会ルール: every rule of the tournament, section by section, on A4."""

    slug = "rule-page"
    order = 5
    title = gettext_noop("大会ルール")
    role = Role.ORGANISER
    category = gettext_noop("大会")
    description = gettext_noop("回戦・勝ち抜け・惜敗率・出題制限・修羅・ペナルティ（公開ページと同じ文面）")

    def get_data(self, tournament: Tournament, **options: Any) -> RulePage:
        try:
            return rule_page(tournament_ruleset(tournament), tournament.name)
        except EngineError as exc:
            raise DocumentError(error_text(exc)) from exc

    def get_story(self, data: RulePage, *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        s = styles()
        own = _styles()
        story: list[Flowable] = [Paragraph(escape(data.title), s["title"])]
        for section in data.sections:
            story.append(Paragraph(escape(f"【{section.title}】"), own["heading"]))
            for item in section.items:
                lines = [Paragraph(escape(item.text), own["round"]) if item.children
                         else Paragraph("・" + escape(item.text), own["item"])]
                lines += [Paragraph("－ " + escape(line), own["child"]) for line in item.children]
                # A round's head stays with its first lines (and the section's heading,
                # which keeps with what follows); a long round may break after them.
                story.append(KeepTogether(lines[:3]))
                story.extend(lines[3:])
            story.append(Spacer(0, 2 * mm))
        return story
