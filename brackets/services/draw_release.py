"""Releasing a round's draw to the public (issue 15 item 4, Tabbycat's draw release).

A drawn round is private to staff until the organiser releases it: the seats can be
printed and checked first, and the public pages say 「抽選済・公開前」. The round's first
match input (or 開始) releases it too (``draw_released_by_play`` in
brackets/services/rounds/_write.py): matches played at the cabinets are no secret, and a
forgotten release must not hide a running round. The release moves the tournament's
revision, so every cached public page is rebuilt on its next request and the groups show
at once.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from brackets.models import Round
from brackets.services.rounds import RoundError
from brackets.services.rounds._write import draw_release_record


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
