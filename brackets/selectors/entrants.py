"""Entry desk reads: the entrant list and search, the counts bar, ranks and history.

Every function here issues a fixed number of queries whatever the number of entrants, so
the desk stays quick at 1,000 entrants (a test asserts this).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from brackets.adapters.entrants import (
    ACTION_LABELS,
    Change,
    diff_snapshots,
    display_value,
    kana_fold,
)
from brackets.models import Entrant, EntrantRevision, Rank, Tournament


@dataclass(frozen=True)
class DeskCounts:
    """The numbers always visible at the desk; seeds count apart from capacity."""

    registered: int
    general: int
    seeds: int
    checked_in: int
    paid: int
    capacity: int
    seed_slots: int
    #: The preset draws 修羅 lots at the desk (H4): the desk bar links the 修羅くじ page.
    shura: bool = False

    @property
    def general_left(self) -> int:
        return max(0, self.capacity - self.general)

    @property
    def full(self) -> bool:
        return self.general >= self.capacity


def desk_counts(*, tournament: Tournament) -> DeskCounts:
    """Registered / checked in / paid / seeds in one aggregate query."""
    totals = Entrant.objects.filter(tournament=tournament).aggregate(
        registered=Count("id"),
        seeds=Count("id", filter=Q(seed__isnull=False)),
        checked_in=Count("id", filter=Q(checked_in=True)),
        paid=Count("id", filter=Q(fee_paid=True)),
    )
    return DeskCounts(
        registered=totals["registered"],
        general=totals["registered"] - totals["seeds"],
        seeds=totals["seeds"],
        checked_in=totals["checked_in"],
        paid=totals["paid"],
        capacity=tournament.capacity,
        seed_slots=tournament.seed_slots,
        shura=_draws_shura_lots(tournament),
    )


def _draws_shura_lots(tournament: Tournament) -> bool:
    """Whether the tournament's preset has 修羅 lots: the desk draws them before round 1,
    so the desk's own menu must lead there (not only the dashboard). Cached per preset."""
    from brackets import engine_adapter as ea
    from brackets.engine import EngineBug, EngineError

    try:
        return bool(getattr(ea.preset_for(tournament), "shura", False))
    except EngineBug:
        raise
    except EngineError:
        return False


def shura_lots_pending(*, tournament: Tournament) -> list[Entrant]:
    """Checked-in 修羅 players (H4) whose lots are not drawn yet, by name.

    Lots can only be drawn before round 1 is drawn (the service refuses after), and a
    selection saved without them is judged as if the player had no lots: the round page
    warns and holds the draw back while anyone is left. A fixed number of queries, whatever
    the field."""
    if not _draws_shura_lots(tournament):
        return []
    from brackets.models import SpecialFact
    from brackets.selectors.duties import in_force_for

    drawn = SpecialFact.objects.filter(tournament=tournament,
                                       kind=SpecialFact.Kind.SHURA_LOTS,
                                       entrant_id=OuterRef("pk"))
    waiting = list(Entrant.objects.filter(tournament=tournament, checked_in=True)
                   .exclude(Exists(drawn)).order_by("search_key", "id"))
    # Duties in force: what the desk typed combined with the registry's (derived now).
    found = in_force_for(tournament=tournament, entrants=waiting, past_wins=False)
    pending = []
    for entrant in waiting:
        owed = found[entrant.pk].owed
        # Over the cap of 4 (owed None): the 修羅くじ page shows it as an error row.
        if owed is None or owed.shura:
            pending.append(entrant)
    return pending


def entrant_list(*, tournament: Tournament, query: str = "") -> QuerySet[Entrant]:
    """Entrants in 五十音 order, narrowed by a search over name, reading and card name.

    Each space-separated word must appear (folded: katakana = hiragana, full = half width,
    case ignored) in one of the three; so "たなか" finds 田中（タナカ）.
    """
    entrants = Entrant.objects.filter(tournament=tournament)
    for word in query.split():
        folded = kana_fold(word)
        if folded:
            entrants = entrants.filter(search_key__contains=folded)
    return entrants.order_by("search_key", "id")


def rank_namer(*, tournament: Tournament) -> Callable[[int], str]:
    """A function from Q level to the rank name of the tournament's QMA version (one query)."""
    ranks = list(Rank.objects.filter(version_id=tournament.version_id).order_by("q_min"))
    starts = [rank.q_min for rank in ranks]

    def name(q_level: int) -> str:
        index = bisect_right(starts, q_level) - 1
        if index < 0:
            return ""
        rank = ranks[index]
        return rank.name if rank.q_min <= q_level <= rank.q_max else ""

    return name


def rank_bands(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The version's ranks as plain data (the desk form shows the rank as you type)."""
    return list(
        Rank.objects.filter(version_id=tournament.version_id)
        .order_by("q_min")
        .values("name", "q_min", "q_max")
    )


@dataclass(frozen=True)
class HistoryEntry:
    revision: EntrantRevision
    changes: list[Change]  # values already formatted for display

    @property
    def action_label(self) -> str:
        return str(ACTION_LABELS.get(self.revision.action, self.revision.action))


def entrant_history(*, entrant: Entrant) -> list[HistoryEntry]:
    """Every saved revision, newest first, with what it changed from the one before."""
    revisions = list(
        EntrantRevision.objects.filter(entrant=entrant).select_related("by").order_by("number")
    )
    history = []
    previous: dict[str, Any] = {}
    for revision in revisions:
        changes = [
            Change(c.field, c.label, display_value(c.field, c.before), display_value(c.field, c.after))
            for c in (diff_snapshots(previous, revision.data) if previous else [])
        ]
        history.append(HistoryEntry(revision, changes))
        previous = revision.data
    history.reverse()
    return history


def revision_by(*, entrant: Entrant, number: int) -> EntrantRevision | None:
    return EntrantRevision.objects.filter(entrant=entrant, number=number).select_related("by").first()
