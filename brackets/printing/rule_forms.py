"""Rule-selection forms (K6, 3回戦 ルール選択用紙): each player ticks rule A or B.

Printed with names once the previous round's advancers are known (one form each), blank
before that; the rules' capacities, advancement and restrictions come from the round's
configuration, so another event's A/B variant prints its own text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from django.utils.translation import gettext, gettext_noop
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from brackets.adapters.rounds import round_rules
from brackets.engine import RuleVariant
from brackets.models import Role, Round, Tournament
from brackets.printing._forms import (
    FORM_H_MM,
    FORM_W_MM,
    checkbox,
    form_frame,
    paragraph,
    write_line,
)
from brackets.printing.base import PdfDocument, card_sheets, register_fonts, truncate
from brackets.printing.registry import Choice, DocumentError, Option, register
from brackets.selectors.round_documents import round_choices

RESTRICTION_TEXT = {"basic": gettext_noop("基本ルール（高火力ボンバーマン）"),
                    "rank": gettext_noop("階級別の制限"), "free": gettext_noop("制限なし")}


@dataclass(frozen=True)
class RuleFormData:
    round_name: str
    previous_name: str
    rules: list[tuple[str, str]]
    players: list[tuple[str, str]]


def restriction_text(tournament: Tournament, restriction: str) -> str:
    """The rule a recorded round plays: the preset's fixed rule (K1) or rank-based modes."""
    if restriction == "preset":
        try:
            from brackets import engine_adapter as ea
            from brackets.selectors.documents import mode_label

            preset = ea.preset_for(tournament)
            if preset.mode_source == "fixed":
                return mode_label(preset.fixed_rules, shura=False, opt_up=False)
        except Exception:  # noqa: BLE001 - an unknown preset prints the generic text
            return gettext(RESTRICTION_TEXT["rank"])
        return gettext(RESTRICTION_TEXT["rank"])
    if restriction in RESTRICTION_TEXT:
        return gettext(RESTRICTION_TEXT[restriction])
    return restriction


def rule_text(variant: RuleVariant, restriction: str) -> str:
    per = variant.advance_per_group
    adv = gettext("1位のみ勝ち抜け") if per == 1 else gettext("上位{count}名勝ち抜け").format(
        count=per)
    r = variant.restrictions
    if r.read_window is None or r.record_window is None:
        rule = gettext("制限なし・この回戦の出題は使用履歴に残らない")
    else:
        rule = restriction
    cap = variant.capacity
    cap_text = "・" + gettext("定員{count}名").format(count=cap) if cap else ""
    return f"{rule}・{adv}{cap_text}"


def rule_form_data(tournament: Tournament, number: int) -> RuleFormData:
    from brackets.selectors import rounds as sel

    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None or not round_rules(rnd).spec.is_rule_selection:
        raise DocumentError(gettext("この回戦はルール選択の回戦ではありません。"))
    rnd.tournament = tournament
    variants = round_rules(rnd).variants
    restriction = restriction_text(tournament, "preset")
    rules = [(v.key, rule_text(v, restriction)) for v in variants]
    prev = Round.objects.filter(tournament=tournament, number=number - 1).first()
    players: list[tuple[str, str]] = []
    if prev is not None:
        advanced = sel.advancers_of(prev)
        if advanced is not None:
            ids = advanced + [e.id for e in sel.seeds_entering(rnd)]
            entrants = sel.entrant_map(ids)
            players = [(entrants[i].name, entrants[i].card_name) for i in ids if i in entrants]
    if not players:
        total = sum(v.capacity for v in variants)
        players = [("", "")] * max(total, 4)
    return RuleFormData(rnd.name, prev.name if prev else "", rules, players)


@register
class RuleForms(PdfDocument):
    """ルール選択用紙: four per A4, one per player of the round."""

    slug = "rule-forms"
    order = 50
    title = gettext_noop("ルール選択用紙")
    role = Role.BRACKET
    category = gettext_noop("回戦")
    description = gettext_noop("A/Bのどちらかに印（A4に4枚）。前の回戦の勝ち抜けが決まると名前入り")
    options: ClassVar[Mapping[str, Option]] = {"round": Option(gettext_noop("回戦"))}

    def choices(self, tournament: Tournament) -> list[Choice]:
        return [Choice(name, {"round": n})
                for n, name in round_choices(tournament, "rule_selection")]

    def get_data(self, tournament: Tournament, **options: Any) -> RuleFormData:
        return rule_form_data(tournament, options["round"])

    def label(self, tournament: Tournament, **options: Any) -> str:
        return gettext(self.title)

    def get_story(self, data: RuleFormData, *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        note = gettext("希望者が定員を超えたときは、{previous}の成績順（各組1位の得点順、"
                       "続いて2位の惜敗率順）に希望が通ります。"
                       "通らなかった人はもう一方のルールになります。").format(
            previous=data.previous_name or gettext("前の回戦"))

        def draw(canvas: Canvas, player: tuple[str, str], w: float, h: float) -> None:
            pad = 6 * mm
            y = form_frame(canvas, w, h, f"{data.round_name} {gettext(self.title)}", tournament.name)
            write_line(canvas, pad, y - 4 * mm, w - 2 * pad, gettext("名前"), player[0])
            write_line(canvas, pad, y - 13 * mm, w - 2 * pad, gettext("カードネーム"), player[1])
            y -= 24 * mm
            canvas.setFont(register_fonts(), 9)
            canvas.drawString(pad, y, truncate(gettext("希望するルールに1つだけ印をつけてください"),
                                               w - 2 * pad, 9))
            y -= 4 * mm
            for name, text in data.rules:
                y -= 8 * mm
                checkbox(canvas, pad, y - 1 * mm, 6 * mm)
                canvas.setFont(register_fonts(), 14)
                canvas.drawString(pad + 9 * mm, y, gettext("ルール{name}").format(name=name))
                y = paragraph(canvas, pad + 9 * mm, y - 5 * mm, w - 2 * pad - 9 * mm, text,
                              size=8.5)
            paragraph(canvas, pad, 16 * mm, w - 2 * pad, note, size=7.5)
            canvas.setFont(register_fonts(), 7.5)
            canvas.drawString(pad, 5 * mm, gettext("受付スタッフ："))

        return card_sheets(data.players, columns=2, rows=2, card_w_mm=FORM_W_MM,
                           card_h_mm=FORM_H_MM, draw_card=draw)
