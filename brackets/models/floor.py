"""The floor: cabinet sets and what staff record about calling groups to them.

``FloorFact`` rows are append-only (who, when): a call, a repeated call, a no-show, a
group released from its set, a set taken out of or back into service, a round's planned
start. Which group is on which set, the queue and the estimates are derived from them by
``brackets.engine.floor`` (``brackets.selectors.floor``); nothing about the floor changes
a result.

``CabinetSet.in_service`` is mutable on purpose, like ``Round.status``: a cache of the
set's newest service fact, so the floor page needs no log replay.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from brackets.models.entrants import Entrant
from brackets.models.rounds import Group, Round
from brackets.models.tournament import Tournament

USER = settings.AUTH_USER_MODEL
SET_NAME_MAX = 40


class CabinetSet(models.Model):
    """A set of four cabinets the event plays on, e.g. 「A台（1〜4番サテ）」."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="cabinet_sets", verbose_name=_("大会"))
    name = models.CharField(_("台の名前"), max_length=SET_NAME_MAX)
    position = models.PositiveIntegerField(_("並び順"), default=0)
    in_service = models.BooleanField(_("使用中"), default=True)
    by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "position", "id"]
        verbose_name = _("筐体セット")
        verbose_name_plural = _("筐体セット")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="cabinet_set_unique_name")
        ]

    def __str__(self) -> str:
        return self.name


class FloorFact(models.Model):
    """One thing staff did on the floor, with who and when; never updated."""

    class Kind(models.TextChoices):
        CALL = "call", _("呼び出し")
        REPEAT = "repeat", _("再呼び出し")
        NO_SHOW = "no_show", _("不在")
        RELEASE = "release", _("呼び出し取り消し")
        SET_OFF = "set_off", _("台の停止")
        SET_ON = "set_on", _("台の再開")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("種類"), max_length=20, choices=Kind.choices)
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    group = models.ForeignKey(Group, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    cabinet_set = models.ForeignKey(CabinetSet, null=True, blank=True, on_delete=models.CASCADE,
                                    related_name="facts")
    entrant = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.CASCADE,
                                related_name="+")
    #: call: the group's re-match count when called (a later re-match voids the call);
    #: no_show: the action chosen; plan: the planned start (ISO 8601).
    data = models.JSONField(_("内容"), default=dict, blank=True)
    by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("フロアの記録")
        verbose_name_plural = _("フロアの記録")
        indexes = [models.Index(fields=["tournament", "kind"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.at:%H:%M}"
