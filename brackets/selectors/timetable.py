"""Reads of the floor notices (issue 15 item 6): the announcements in force and the
timetable, planned times beside the live estimates.

The planned times are kept here only (the floor page's planned start writes a round's
slot); the estimates come from the floor's measured match lengths through
:func:`live_estimates`, keyed by the same slot keys (``reception``, ``round-<n>``); a slot
without one shows 「—」.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _

from brackets.models import Announcement, Round, TimetableEntry, Tournament

RECEPTION = "reception"


def round_slot(number: int) -> str:
    return f"round-{number}"


@dataclass(frozen=True)
class Slot:
    """One line of the timetable: its key, what it is, the planned time and the estimate."""

    key: str
    label: str
    planned: datetime.time | None = None
    estimate: datetime.time | None = None

    @property
    def late_minutes(self) -> int | None:
        """How many minutes the estimate is behind the plan (negative: ahead)."""
        if self.planned is None or self.estimate is None:
            return None
        day = datetime.date(2000, 1, 1)
        delta = (datetime.datetime.combine(day, self.estimate)
                 - datetime.datetime.combine(day, self.planned))
        minutes = int(delta.total_seconds() // 60)
        # Times of day: an estimate past midnight is late, not nearly a day early.
        return (minutes + 720) % 1440 - 720


def active_announcements(tournament: Tournament) -> list[Announcement]:
    """The announcements in force, newest first."""
    return list(Announcement.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
                .order_by("-id"))


def planned_times(tournament: Tournament) -> dict[str, datetime.time | None]:
    """The newest planned time per slot."""
    out: dict[str, datetime.time | None] = {}
    for slot, planned in (TimetableEntry.objects.filter(tournament=tournament)
                          .order_by("id").values_list("slot", "planned")):
        out[slot] = planned
    return out


def _round_names(tournament: Tournament) -> list[tuple[int, str]]:
    """The rounds the timetable lists: the configured ones, else the preset's plan."""
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number")
                  .values_list("number", "name"))
    if rounds:
        return rounds
    try:
        from brackets.engine_adapter import preset_for

        specs = preset_for(tournament).rounds_for(0, 0)
    except Exception:  # noqa: BLE001 - an unknown preset: the timetable lists reception only
        return []
    return [(index, spec.name) for index, spec in enumerate(specs, start=1)]


def timetable_slots(tournament: Tournament,
                    estimates: Mapping[str, datetime.time]) -> list[Slot]:
    """Reception, then each round's start, with the planned times and the ``estimates``
    (``selectors.floor.live_estimates``: the floor knows how the day goes)."""
    planned = planned_times(tournament)
    keys = [(RECEPTION, _("受付開始"))] + [
        (round_slot(number), _("{round} 開始").format(round=name))
        for number, name in _round_names(tournament)]
    return [Slot(key=key, label=label, planned=planned.get(key), estimate=estimates.get(key))
            for key, label in keys]
