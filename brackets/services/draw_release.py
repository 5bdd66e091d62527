"""Releasing a round's draw to the public (issue 15 item 4, Tabbycat's draw release).

A drawn round is private to staff until the organiser releases it: the seats can be
printed and checked first, and the public pages say 「抽選済・公開前」. Starting the round
releases it too (brackets/services/rounds/lifecycle.py ``round_start``): matches played at
the cabinets are no secret, and a forgotten release must not hide a running round. The release moves
the tournament's revision (a save of the round row), so every cached public page is
rebuilt on its next request and the groups show at once.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from brackets.models import Round
from brackets.services.rounds import RoundError


@transaction.atomic
def round_draw_release(*, round: Round, by: Any) -> Round:
    """Release the round's draw; records who and when. Refused before the draw and when
    it is already released (a second tap changes nothing)."""
    rnd = Round.objects.select_for_update().get(id=round.id)
    if rnd.status == Round.Status.CONFIGURED:
        raise RoundError(_("{round}はまだ抽選していません。抽選してから公開してください。")
                         .format(round=rnd.name))
    if rnd.draw_released_at is not None:
        raise RoundError(_("{round}の抽選は公開済みです。").format(round=rnd.name))
    draw_release_record(rnd, by)
    return rnd


def draw_release_record(rnd: Round, by: Any) -> None:
    """Record the release on the (locked) round row: who and when."""
    rnd.draw_released_at = timezone.now()
    rnd.draw_released_by = by if getattr(by, "pk", None) is not None else None
    rnd.save(update_fields=["draw_released_at", "draw_released_by"])
