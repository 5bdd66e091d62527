"""One group as every match page, document and write sees it: its seats, its current
facts and what the engine derives from them (:class:`GroupView`), and the statuses a group
moves through. Plain values; :mod:`.groups` builds them and :mod:`.choices` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_lazy

from brackets import engine_adapter as ea
from brackets.engine import MatchResult, Ratio
from brackets.models import (
    DisqualificationFact,
    Group,
    PenaltyFact,
    RematchFact,
    ResultFact,
    Seat,
    SelectionFact,
)

WAITING, SELECTING, PLAYING, CONFIRMING, DONE, UNUSED = (
    "waiting", "selecting", "playing", "confirming", "done", "unused")
#: Lazy so every page, fragment and f-string that shows them translates at render time
#: (the page caches are keyed by language).
STATUS_LABELS = {WAITING: gettext_lazy("待機"), SELECTING: gettext_lazy("出題入力中"),
                 PLAYING: gettext_lazy("対戦中"), CONFIRMING: gettext_lazy("確認待ち"),
                 DONE: gettext_lazy("終了"), UNUSED: gettext_lazy("不要")}



@dataclass
class GroupView:
    """One group with its current facts and what the engine derives from them."""

    group: Group
    seats: list[Seat]
    facts: ea.GroupFacts
    result: MatchResult | None = None
    ratios: dict[str, Ratio] = field(default_factory=dict)
    error: str = ""
    warnings: list[str] = field(default_factory=list)
    status: str = WAITING
    confirmed: bool = False
    selection_rows: dict[int, SelectionFact] = field(default_factory=dict)
    #: H7: seat number → the penalty its selection carries, accepted as illegal
    #: (:func:`selection_penalty`); derived, never stored.
    selection_penalties: dict[int, Decimal] = field(default_factory=dict)
    result_rows: dict[int, ResultFact] = field(default_factory=dict)
    penalty_rows: list[PenaltyFact] = field(default_factory=list)
    dq_rows: list[DisqualificationFact] = field(default_factory=list)
    rematches: list[RematchFact] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.group.label

    def row_of(self, player: str) -> Any:
        if self.result is None:
            return None
        for row in self.result.players:
            if row.player == player:
                return row
        return None
