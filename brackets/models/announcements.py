"""What the organiser tells the floor (issue 15 item 6): announcements and the timetable.

Both are facts: an announcement is never deleted, only withdrawn (who and when are kept),
and a planned time is a new row superseding the one before it (newest per slot wins).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from brackets.models.tournament import Tournament

USER = settings.AUTH_USER_MODEL
ANNOUNCEMENT_MAX = 200


class Announcement(models.Model):
    """A short notice (a break, a rule clarification) shown on the public home, the
    projector and the player pages until it is withdrawn."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="announcements", verbose_name=_("大会"))
    text = models.CharField(_("お知らせ"), max_length=ANNOUNCEMENT_MAX)
    posted_by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    posted_at = models.DateTimeField(_("掲示日時"), auto_now_add=True)
    # Mutable on purpose, once: the withdrawal is recorded on the row it ends.
    withdrawn_at = models.DateTimeField(_("取り下げ日時"), null=True, blank=True)
    withdrawn_by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")

    class Meta:
        ordering = ["tournament", "-id"]
        verbose_name = _("お知らせ")
        verbose_name_plural = _("お知らせ")

    def __str__(self) -> str:
        return self.text


class TimetableEntry(models.Model):
    """The planned time of one slot of the timetable (``reception`` or ``round-<n>``);
    a change is a new row, the newest per slot wins. An empty time clears the slot."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="timetable_entries", verbose_name=_("大会"))
    slot = models.CharField(_("項目"), max_length=20)
    planned = models.TimeField(_("予定時刻"), null=True, blank=True)
    by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.SET_NULL,
                           related_name="+")
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "slot", "id"]
        verbose_name = _("タイムテーブル")
        verbose_name_plural = _("タイムテーブル")

    def __str__(self) -> str:
        return f"{self.slot} {self.planned}"
