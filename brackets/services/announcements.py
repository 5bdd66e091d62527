"""Posting and withdrawing the organiser's announcements (issue 15 item 6).

Announcements are not page data of a model the revision watches by itself
(brackets/perf/revision.py lists the rounds' and entrants' models), so each write here
moves the tournament's revision: the public home, the projector and the player pages
are cached under it and show the change on their next request.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from brackets.models import Announcement, Tournament
from brackets.models.announcements import ANNOUNCEMENT_MAX
from brackets.perf import revision


def _user(by: Any) -> Any:
    return by if getattr(by, "pk", None) is not None else None


@transaction.atomic
def announcement_post(*, tournament: Tournament, by: Any, text: str) -> Announcement:
    """Post a short announcement; refused when empty, longer than the limit or the same
    as one in force (a double tap posts once)."""
    text = " ".join(text.split())
    if not text:
        raise ValidationError({"text": _("お知らせの本文を入力してください。")})
    if len(text) > ANNOUNCEMENT_MAX:
        raise ValidationError({"text": _("お知らせは{limit}文字までです（{n}文字）。").format(
            limit=ANNOUNCEMENT_MAX, n=len(text))})
    # The tournament row is locked so two taps of 掲示する cannot both pass the check.
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    if Announcement.objects.filter(tournament=tournament, text=text,
                                   withdrawn_at__isnull=True).exists():
        raise ValidationError({"text": _("同じお知らせが掲示中です。")})
    announcement = Announcement.objects.create(tournament=tournament, text=text,
                                               posted_by=_user(by))
    revision.touch(tournament.pk)
    return announcement


@transaction.atomic
def announcement_withdraw(*, tournament: Tournament, announcement_id: int,
                          by: Any) -> tuple[Announcement, bool]:
    """Withdraw an announcement (it stays recorded); ``(announcement, changed)``: a second
    withdrawal changes nothing."""
    announcement = (Announcement.objects.select_for_update()
                    .get(tournament=tournament, pk=announcement_id))
    if announcement.withdrawn_at is not None:
        return announcement, False
    announcement.withdrawn_at = timezone.now()
    announcement.withdrawn_by = _user(by)
    announcement.save(update_fields=["withdrawn_at", "withdrawn_by"])
    revision.touch(tournament.pk)
    return announcement, True
