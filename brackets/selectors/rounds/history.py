"""What a player played before: selection history, its windows, used genres and groups,
and the per-match history of every fact (staff only)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.engine import Catalog, RoundRestrictions, Selection
from brackets.models import (
    ConfirmationFact,
    DisqualificationFact,
    Group,
    PenaltyFact,
    RematchFact,
    ResultFact,
    Round,
    Seat,
    SelectionFact,
    SpecialFact,
    Tournament,
)


def _newest(rows: Iterable[Any], key: Any) -> dict[Any, Any]:
    """The newest row (highest id) per ``key(row)``: a fact's current version."""
    out: dict[Any, Any] = {}
    for row in rows:
        k = key(row)
        if k not in out or row.id > out[k].id:
            out[k] = row
    return out


def selection_penalty(rnd: Any) -> Decimal:
    """H7: what a selection accepted as illegal costs in ``rnd`` while it is illegal: the
    preset's penalty (the engine's ``SelectionCheck.penalty``), in the points of a score."""
    return round_rules(rnd).penalty.quantize(Decimal("0.01"))

# -------------------------------------------------------------- history & choices


@dataclass
class HistoryRow:
    entrant_id: int
    round_number: int
    round_name: str
    group_label: str
    selection: Selection
    window: str | None
    recorded: bool


def selection_history(tournament: Tournament, entrant_ids: list[int],
                      before_round: int | None = None) -> dict[int, list[HistoryRow]]:
    """Every current selection the entrants played, per entrant, in round order."""
    qs = (SelectionFact.objects.filter(seat__entrant_id__in=entrant_ids,
                                       seat__superseded_by__isnull=True,
                                       group__round__tournament=tournament)
          .select_related("seat", "group", "group__round"))
    if before_round is not None:
        qs = qs.filter(group__round__number__lt=before_round)
    newest = _newest(qs, lambda r: r.seat_id)
    out: dict[int, list[HistoryRow]] = defaultdict(list)
    for row in sorted(newest.values(), key=lambda r: (r.group.round.number, r.group.game, r.id)):
        rnd = row.group.round
        window, recorded = window_of(rnd, row.group)
        out[row.seat.entrant_id].append(HistoryRow(
            row.seat.entrant_id, rnd.number, rnd.name, row.group.label,
            Selection(row.genre, row.format, row.difficulty), window, recorded))
    return out


def round_restrictions(rnd: Round, group: Group) -> RoundRestrictions:
    """The restriction pieces of a group's round (of its K6 rule, if it has one)."""
    return round_rules(rnd).restrictions(group.rule)


def window_of(rnd: Round, group: Group) -> tuple[str | None, bool]:
    """Where the sets played in this group are recorded (None, False: not recorded)."""
    record = round_restrictions(rnd, group).record_window
    return record, record is not None


def lots_of(tournament: Tournament, entrant_ids: list[int]) -> dict[int, dict[str, Any]]:
    rows = _newest(SpecialFact.objects.filter(tournament=tournament,
                                              kind=SpecialFact.Kind.SHURA_LOTS,
                                              entrant_id__in=entrant_ids),
                   lambda f: f.entrant_id)
    return {eid: f.data for eid, f in rows.items()}


def group_history(group: Group) -> list[dict[str, Any]]:
    """Every fact ever saved on a match, oldest first, for the history view (staff only)."""
    seat_rows = list(Seat.objects.filter(group=group).select_related("entrant", "by"))
    seat_ids = [s.id for s in seat_rows]
    seat_of = {s.id: s for s in seat_rows}
    events: list[dict[str, Any]] = []
    for s in seat_rows:
        events.append({"at": s.at, "by": s.by, "kind": _("席"), "seat": s.number,
                       "text": s.entrant.name if s.entrant else _("ダミー"), "base": None,
                       "corrects": s.supersedes_id is not None})
    for r in SelectionFact.objects.filter(seat_id__in=seat_ids).select_related("by"):
        text = f"{r.genre} / {r.format} / {r.difficulty}"
        if r.accepted_illegal:
            text += _("（違反承知・−{n}）").format(n=selection_penalty(group.round))
        events.append({"at": r.at, "by": r.by, "kind": _("出題"), "seat": seat_of[r.seat_id].number,
                       "text": text, "base": r.base_version, "corrects": bool(r.supersedes_id)})
    for r in ResultFact.objects.filter(seat_id__in=seat_ids).select_related("by"):
        events.append({"at": r.at, "by": r.by, "kind": _("結果"), "seat": seat_of[r.seat_id].number,
                       "text": _("{score} 点 / {placement} 位").format(
                           score=r.score, placement=r.placement), "base": r.base_version,
                       "corrects": bool(r.supersedes_id)})
    for r in PenaltyFact.objects.filter(seat_id__in=seat_ids).select_related("by"):
        events.append({"at": r.at, "by": r.by, "kind": _("ペナルティ"),
                       "seat": seat_of[r.seat_id].number,
                       "text": (_("取消") + " " if r.revoked else "") + f"−{r.points}：{r.reason}",
                       "base": r.base_version, "corrects": bool(r.supersedes_id)})
    for r in DisqualificationFact.objects.filter(seat_id__in=seat_ids).select_related("by"):
        events.append({"at": r.at, "by": r.by, "kind": _("失格"), "seat": seat_of[r.seat_id].number,
                       "text": (_("取消") + " " if r.revoked else "") + r.reason, "base": r.base_version,
                       "corrects": bool(r.supersedes_id)})
    for r in RematchFact.objects.filter(group=group).select_related("by"):
        events.append({"at": r.at, "by": r.by, "kind": _("再試合"), "seat": None, "text": r.reason,
                       "base": r.base_version, "corrects": False})
    for r in ConfirmationFact.objects.filter(group=group).select_related("by"):
        events.append({"at": r.at, "by": r.by, "kind": _("確認"), "seat": None,
                       "text": _("版 {v}").format(v=r.version), "base": r.base_version, "corrects": False})
    for r in SpecialFact.objects.filter(group=group).select_related("by", "entrant"):
        events.append({"at": r.at, "by": r.by, "kind": r.get_kind_display(), "seat": None,
                       "text": f"{r.entrant.name if r.entrant else ''} {r.data}",
                       "base": None, "corrects": bool(r.supersedes_id)})
    events.sort(key=lambda e: e["at"])
    return events


def used_summary(rows: list[HistoryRow], catalog: Catalog) -> dict[str, Any]:
    """Genres and format groups a player has used in recorded history (for the player page
    and the group sheets): the engine's :func:`~brackets.engine.restrictions.usage`, the
    count :meth:`~brackets.engine.restrictions.Choices.summary` reports as used."""
    from brackets.engine import PlayerRules, usage

    entries = ea.history_of((h.selection, h.round_name, h.window, h.recorded) for h in rows)
    used = usage(catalog, PlayerRules(), [e for e in entries if e.recorded])
    return {"genres": list(used.genres), "groups": list(used.groups)}


#: History windows as players read them: the main window runs to the semi-final; the
#: final starts a new one (K10: history reset at the final).
WINDOW_LABELS = {"main": gettext_noop("決勝前"), "final": gettext_noop("決勝・履歴リセット後")}


def used_by_window(rows: list[HistoryRow], catalog: Catalog) -> list[tuple[str, dict[str, Any]]]:
    """:func:`used_summary` per history window, in the order the windows were played, so
    the final's sets (a fresh window, K10) are not mixed with what was used before it."""
    windows: list[str] = []
    for h in rows:
        if h.window is not None and h.recorded and h.window not in windows:
            windows.append(h.window)
    return [(w, used_summary([h for h in rows if h.window == w], catalog)) for w in windows]


