"""Corrections to the player registry (#14): each one a fact of its own, with who, when and
why, that supersedes what was entered without touching it.

* :class:`AchievementCorrection` — an achievement entered by hand no longer in force:
  withdrawn (no replacement) or corrected (the replacement is a new :class:`Achievement`
  row; after a merge one correction may supersede both records of the same fact).
* :class:`PlayerRename` — a player's name and reading changed; the row keeps the values it
  replaced, so the first name entered is never lost. The player's own ``name`` and
  ``reading`` are the newest rename's values, kept on the row because every page, sheet
  and search reads them there.
* :class:`EntrantPlayerChange` — an entrant linked to a registry player by hand, or
  unlinked; ``Entrant.player`` holds the newest. A link the entry rule refused (H0, no
  berth at the main event) keeps the refusal and the organiser's reason for making it.

Every one travels in the tournament file (version 4), and applies where it is read.
* :class:`BerthWithdrawal` — a berth granted by hand no longer in force. A place granted
  again afterwards is a new :class:`~brackets.models.series.SeriesBerthGrant` that
  ``follows`` this withdrawal, so the database still holds one grant in force per place.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from brackets.engine import bounds
from brackets.models.entrants import Entrant
from brackets.models.players import Achievement, Player


class AchievementCorrection(models.Model):
    achievement = models.OneToOneField(Achievement, on_delete=models.PROTECT,
                                       related_name="correction",
                                       verbose_name=_("取り下げ・訂正した実績"))
    replacement = models.ForeignKey(Achievement, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="corrects", verbose_name=_("訂正後の実績"))
    reason = models.CharField(_("理由"), max_length=bounds.REASON.max_length)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("記録者"))
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["id"]  # noqa: RUF012 - Django Meta convention
        verbose_name = _("実績の取り下げ・訂正")
        verbose_name_plural = _("実績の取り下げ・訂正")

    @property
    def withdrawn(self) -> bool:
        return self.replacement_id is None


class PlayerRename(models.Model):
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="renames",
                               verbose_name=_("選手"))
    name = models.CharField(_("新しい名前"), max_length=bounds.NAME.max_length)
    reading = models.CharField(_("新しいよみがな"), max_length=bounds.READING.max_length,
                               blank=True)
    was_name = models.CharField(_("前の名前"), max_length=bounds.NAME.max_length)
    was_reading = models.CharField(_("前のよみがな"), max_length=bounds.READING.max_length,
                                   blank=True)
    reason = models.CharField(_("理由"), max_length=bounds.REASON.max_length, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("記録者"))
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["player", "id"]  # noqa: RUF012 - Django Meta convention
        verbose_name = _("選手名の変更")
        verbose_name_plural = _("選手名の変更")


class EntrantPlayerChange(models.Model):
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE,
                                related_name="player_changes", verbose_name=_("参加者"))
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT,
                               related_name="+", verbose_name=_("結び付けた選手"))
    was_player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+", verbose_name=_("前の選手"))
    reason = models.CharField(_("理由"), max_length=bounds.REASON.max_length, blank=True)
    # A link the entry rule refused (H0 at a qualifier, no berth at the main event) that an
    # organiser made all the same: the refusal as it read then, and the organiser's reason.
    overridden = models.CharField(_("越えた参加資格の判定"), max_length=500, blank=True)
    override_reason = models.CharField(_("主催者の判断の理由"),
                                       max_length=bounds.REASON.max_length, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("記録者"))
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["entrant", "id"]  # noqa: RUF012 - Django Meta convention
        verbose_name = _("参加者と選手の結び付け")
        verbose_name_plural = _("参加者と選手の結び付け")


class BerthWithdrawal(models.Model):
    grant = models.OneToOneField("brackets.SeriesBerthGrant", on_delete=models.PROTECT,
                                 related_name="withdrawal", verbose_name=_("取り下げた出場権"))
    reason = models.CharField(_("理由"), max_length=bounds.REASON.max_length)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("記録者"))
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["id"]  # noqa: RUF012 - Django Meta convention
        verbose_name = _("出場権の取り下げ")
        verbose_name_plural = _("出場権の取り下げ")
