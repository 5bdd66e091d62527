"""呼び出し表: one A4 page per cabinet set for the staff beside it: the group playing there,
then the groups the queue expects on it, with seats, expected starts and boxes to tick."""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Table, TableStyle

from brackets.errors import DocumentError
from brackets.models import CabinetSet, Round, Tournament
from brackets.printing._rounds import ROUND_OPTION, RoundPdf, p
from brackets.printing.base import table_style
from brackets.printing.registry import Option, register
from brackets.selectors import floor as floor_sel
from brackets.selectors import rounds as sel

PLAYING_BG = colors.Color(0.88, 0.95, 0.88)


def _seat_cells(gv: sel.GroupView) -> list[Any]:
    seats = {s.number: s for s in gv.seats}
    cells: list[Any] = []
    for n in range(1, 5):
        seat = seats.get(n)
        if seat is None:
            cells.append("")
        elif seat.entrant is None:
            cells.append(p("ダミー", "cell_center"))
        else:
            cells.append([p(seat.entrant.name, "cell"), p(seat.entrant.card_name, "cell_small")])
    return cells


def _sheet(view: floor_sel.FloorView, row: floor_sel.SetRow | None, width: float,
           title: str) -> list[Flowable]:
    story: list[Flowable] = [p(title, "title")]
    if row is not None and not row.cabinet.in_service:
        story.append(p("この台は停止中です（待ち列はほかの台に回っています）。", "heading"))
    head = ["順", "組", "サテ1", "サテ2", "サテ3", "サテ4", "開始予定", "呼出", "着席"]
    fixed = [10 * mm, 14 * mm, 20 * mm, 13 * mm, 13 * mm]
    seat_w = (width - sum(fixed)) / 4
    rows: list[list[Any]] = [[p(h, "cell_center") for h in head]]
    commands: list[tuple[Any, ...]] = []
    entries: list[tuple[sel.GroupView, str]] = []
    if row is not None and row.group is not None:
        entries.append((row.group, "対戦中"))
    if row is not None:
        waiting = row.queue
    else:
        waiting = [r.group for r in view.queue_rows]
    for gv in waiting:
        at = view.estimated_at(gv.group.id)
        entries.append((gv, timezone.localtime(at).strftime("%H:%M") if at else ""))
    for number, (gv, start) in enumerate(entries, start=1):
        rows.append([p(str(number), "cell_center"), p(gv.label, "cell_center"),
                     *_seat_cells(gv), p(start, "cell_center"), "□", "□"])
        if start == "対戦中":
            commands.append(("BACKGROUND", (0, number), (-1, number), PLAYING_BG))
    if not entries:
        story.append(p("待っている組はありません。", "base"))
        return story
    table = Table(rows, colWidths=fixed[:2] + [seat_w] * 4 + fixed[2:], repeatRows=1)
    table.setStyle(TableStyle(table_style(*commands, ("FONTSIZE", (0, 1), (1, -1), 14),
                                          ("FONTSIZE", (7, 1), (-1, -1), 16),
                                          ("ALIGN", (7, 1), (-1, -1), "CENTER"))))
    story.append(table)
    story.append(p(f"1試合 約{view.minutes:.0f}分で見積もり（"
                   f"{timezone.localtime(view.now):%H:%M} 時点）。呼び出しは組が揃ったら□に印。",
                   "small"))
    return story


@register
class FloorQueueSheet(RoundPdf):
    """呼び出し表: per set, what plays there now and next, for the cabinet staff."""

    slug = "floor-queue"
    order = 12
    title = gettext_noop("呼び出し表（台ごと）")
    description = gettext_noop("台ごとの対戦中の組・次に呼ぶ組・開始予定（A4）")
    kinds = ("groups", "rule_selection", "final_group", "partner_match", "partner_series")
    options: ClassVar[dict[str, Option]] = {
        **ROUND_OPTION, "set": Option(gettext_noop("台"), required=False)}

    def clean_options(self, tournament: Tournament, raw: Any) -> dict[str, Any]:
        if raw.get("round") in (None, "") and raw.get("set") not in (None, ""):
            # The floor page's link names only the set: the round the floor is calling.
            current = floor_sel.floor_round(tournament)
            if current is None:
                raise DocumentError(gettext("抽選済・進行中の回戦がありません。"))
            raw = {**raw, "round": current.number}
        return super().clean_options(tournament, raw)

    def get_data(self, tournament: Tournament, **options: Any) -> Any:
        super().get_data(tournament, **options)  # the round's kind and draw checks
        rnd = Round.objects.get(tournament=tournament, number=options["round"])
        view = floor_sel.floor_view(rnd, now=timezone.now())
        wanted = options.get("set")
        if wanted is not None and not CabinetSet.objects.filter(
                tournament=tournament, id=wanted).exists():
            raise DocumentError(gettext("その台はこの大会にありません。"))
        rows = [r for r in view.set_rows if wanted is None or r.cabinet.id == wanted]
        return view, rows

    def get_story(self, data: Any, *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        view, rows = data
        name = view.round.name
        if not rows:
            return _sheet(view, None, self.frame_width, f"{name}　呼び出し表（台未登録）")
        story: list[Flowable] = []
        for index, row in enumerate(rows):
            if index:
                story.append(PageBreak())
            story += _sheet(view, row, self.frame_width, f"{name}　{row.cabinet.name}　呼び出し表")
        return story
