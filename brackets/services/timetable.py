"""The timetable's planned times (issue 15 item 6): one new row per changed slot."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from brackets.models import TimetableEntry, Tournament
from brackets.perf import revision
from brackets.selectors.timetable import planned_times, timetable_slots


@transaction.atomic
def timetable_set(*, tournament: Tournament, by: Any,
                  times: Mapping[str, datetime.time | None]) -> list[str]:
    """Record the planned times that changed; returns the changed slots. A slot the
    timetable does not have is refused (nothing is recorded)."""
    slots = {slot.key for slot in timetable_slots(tournament, estimates={})}
    unknown = sorted(set(times) - slots)
    if unknown:
        raise ValidationError(_("タイムテーブルにない項目です：{slots}").format(
            slots="、".join(unknown)))
    current = planned_times(tournament)
    changed = [key for key in sorted(times) if current.get(key) != times[key]]
    user = by if getattr(by, "pk", None) is not None else None
    TimetableEntry.objects.bulk_create(
        TimetableEntry(tournament=tournament, slot=key, planned=times[key], by=user)
        for key in changed)
    if changed:
        revision.touch(tournament.pk)  # bulk_create sends no signal
    return changed
