"""Per-player usage cards: the sets a player has played, and what they may still use.

One card per player of a round (four per A4), for the player to keep at the cabinet: every
earlier set (unrecorded ones marked), the genres and formats used, and what remains under
their restriction (BOMBER: the genres and format units still open; PINPOINT: the pairs they
may not repeat; FREE: no restriction; 修羅 lots listed). The engine's summary of the
player's choices decides all of it, including what counts as "the same format" (高火力
group or 低火力 single format) and what a format lot closes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.utils.translation import gettext, gettext_noop
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from brackets.models import Group, Role, Round, Seat, Tournament
from brackets.printing._forms import FORM_H_MM, FORM_W_MM, form_frame, paragraph
from brackets.printing.base import PdfDocument, card_sheets, register_fonts, truncate
from brackets.printing.registry import Choice, DocumentError, Option, register
from brackets.selectors.documents import mode_label
from brackets.selectors.round_documents import round_choices


@dataclass(frozen=True)
class UsageCard:
    name: str
    card_name: str
    group: str
    mode: str
    history: list[tuple[str, str, str, str, str, bool]] = field(default_factory=list)
    used: list[tuple[str, str]] = field(default_factory=list)  # (heading, text)
    remaining: list[tuple[str, str]] = field(default_factory=list)
    #: What the engine leaves open for this seat (the tablet's legal genres and units).
    open_genres: tuple[str, ...] = ()
    open_units: tuple[str, ...] = ()


def usage_cards(tournament: Tournament, number: int) -> tuple[str, list[UsageCard]]:
    """Cards for every player seated in round ``number``, history before that round.

    What is used and what is left is the engine's :meth:`Choices.summary` for the player's
    seat, from the match snapshot the tablet reads (:func:`~brackets.selectors.rounds.
    match_snapshots`), so card and tablet agree. The card is printed before the match, so
    the match's own facts (K7 cards, K8 bans) are announced there, not printed here.
    """
    from brackets import engine_adapter as ea
    from brackets.engine import Mode
    from brackets.selectors import rounds as sel

    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        raise DocumentError(gettext("その回戦はありません。"))
    groups = list(Group.objects.filter(round=rnd).order_by("number"))
    seats = sel.current_seats([g.id for g in groups])
    players = [(g, s) for g in groups for s in seats.get(g.id, []) if s.entrant_id]
    if not players:
        raise DocumentError(gettext("{round}はまだ組分けの抽選をしていません。").format(round=rnd.name))
    # A player seated in two groups of the round gets one card, at the first.
    first_seat: dict[int, tuple[Group, Seat]] = {}
    for group, seat in players:
        first_seat.setdefault(seat.entrant_id, (group, seat))
    players = list(first_seat.values())
    catalog = ea.catalog_for(tournament.version_id)
    ids = [s.entrant_id for _g, s in players]
    history = sel.selection_history(tournament, ids, before_round=number)
    snapshots = sel.match_snapshots(sel.group_views(groups, tournament), catalog,
                                    before_match=True)
    cards = []
    none = gettext("なし")
    for group, seat in players:
        entrant = seat.entrant
        sc = snapshots[group.id].choices[seat.number]
        rules = sc.rules
        summary = sc.choices.summary()
        mode = mode_label(rules, shura=bool(rules.lot_genres or rules.lot_formats),
                          opt_up=bool(entrant.opt_up))
        rows = history.get(entrant.id, [])
        hist = [(h.round_name, h.group_label, h.selection.genre, h.selection.format,
                 h.selection.difficulty, h.window is not None and h.recorded) for h in rows]
        used: list[tuple[str, str]] = []
        remaining: list[tuple[str, str]] = []
        if sc.choices.match.window is None:
            # K6 rule B, K9: this round reads no history, so nothing is used up here.
            used = [(gettext("制限"), gettext("なし（この回戦は使用履歴で制限されません）"))]
        elif rules.mode is Mode.BOMBER:
            used = [(gettext("使用済みジャンル"), "・".join(summary["used_genres"]) or none),
                    (gettext("使用済み形式"), "・".join(summary["used_units"]) or none)]
            remaining = [(gettext("残りジャンル"), gettext("なし（ノンジャンルを使用）")
                          if summary["genre_fallback"] else "・".join(summary["legal_genres"])),
                         (gettext("残り形式"), gettext("なし（ランダムを使用）")
                          if summary["format_fallback"] else "・".join(summary["legal_units"]))]
        elif rules.mode is Mode.PINPOINT:
            pairs = [f"{genre}×{unit}" for genre, unit in summary["used_pairs"]]
            used = [(gettext("使用済みの組み合わせ（同じ組み合わせは不可）"),
                     "・".join(pairs) or none)]
        else:
            used = [(gettext("制限"), gettext("なし（フリー）"))]
        if summary["lots"]:
            remaining.append((gettext("修羅くじ（大会中使用不可）"), "・".join(summary["lots"])))
        cards.append(UsageCard(entrant.name, entrant.card_name, group.label, mode, hist, used,
                               remaining, tuple(summary["legal_genres"]),
                               tuple(summary["legal_units"])))
    return rnd.name, cards


@register
class UsageCards(PdfDocument):
    """使用履歴カード: one per player of the round, four per A4."""

    slug = "usage-cards"
    order = 80
    title = gettext_noop("使用履歴カード")
    role = Role.BRACKET
    category = gettext_noop("回戦")
    description = gettext_noop("選手ごとの使用済みジャンル・形式と残り（A4に4枚）")
    options: ClassVar[Mapping[str, Option]] = {"round": Option("回戦")}

    def choices(self, tournament: Tournament) -> list[Choice]:
        return [Choice(name, {"round": n}) for n, name in
                round_choices(tournament, "groups", "rule_selection", "final_group", drawn=True)
                if n > 1]

    def get_data(self, tournament: Tournament, **options: Any) -> tuple[str, list[UsageCard]]:
        return usage_cards(tournament, options["round"])

    def label(self, tournament: Tournament, **options: Any) -> str:
        return gettext(self.title)

    def get_story(self, data: tuple[str, list[UsageCard]], *, tournament: Tournament,
                  **options: Any) -> list[Flowable]:
        round_name, cards = data
        font = register_fonts()

        def draw(canvas: Canvas, card: UsageCard, w: float, h: float) -> None:
            pad = 6 * mm
            inner = w - 2 * pad
            y = form_frame(canvas, w, h, f"{card.name}（{card.card_name}）",
                           gettext("{tournament}　{round} {group}組　使用履歴カード").format(
                               tournament=tournament.name, round=round_name, group=card.group))
            canvas.setFont(font, 9)
            canvas.drawString(pad, y - 2 * mm, gettext("制限：{mode}").format(mode=card.mode))
            y -= 8 * mm
            cols = [0, 16, 26, 50, 72]
            canvas.setFont(font, 7.5)
            heads = [gettext("回戦"), gettext("組"), gettext("ジャンル"), gettext("形式"),
                     gettext("難易度")]
            for x, head in zip(cols, heads, strict=True):
                canvas.drawString(pad + x * mm, y, head)
            canvas.setLineWidth(0.4)
            canvas.line(pad, y - 1.5 * mm, w - pad, y - 1.5 * mm)
            y -= 5 * mm
            unrecorded = False
            for rname, glabel, genre, fmt, diff, counted in card.history[-8:]:
                canvas.setFont(font, 8)
                canvas.setFillColor(colors.black if counted else colors.Color(0.45, 0.45, 0.45))
                values = [rname + ("＊" if not counted else ""), glabel, genre, fmt, diff]
                limits = [15, 9, 23, 21, 15]
                for x, value, lim in zip(cols, values, limits, strict=True):
                    canvas.drawString(pad + x * mm, y, truncate(value, lim * mm, 8))
                unrecorded = unrecorded or not counted
                y -= 4.6 * mm
            canvas.setFillColor(colors.black)
            if unrecorded:
                canvas.setFont(font, 6.5)
                canvas.drawString(pad, y + 1 * mm, gettext("＊ 使用履歴に残らない出題（数えない）"))
                y -= 3 * mm
            if not card.history:
                canvas.setFont(font, 8)
                canvas.drawString(pad, y, gettext("まだ出題の記録はありません"))
                y -= 4.6 * mm
            y -= 2 * mm
            for heading, text in card.used + card.remaining:
                canvas.setFont(font, 8)
                canvas.drawString(pad, y, heading)
                y = paragraph(canvas, pad + 3 * mm, y - 4 * mm, inner - 3 * mm, text, size=9)
                y -= 1.5 * mm

        return card_sheets(cards, columns=2, rows=2, card_w_mm=FORM_W_MM, card_h_mm=FORM_H_MM,
                           draw_card=draw)
