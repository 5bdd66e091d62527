"""What each side of the public copy remembers (docs/public-copy.md).

Neither is a fact of the tournament: both are left out of the tournament file
(``EXCLUDED_MODEL_NAMES`` in brackets/exporters/tournament_file/layout.py). They live with
the models so the layers above (brackets/hosted/, the templates) read them from below.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _

from brackets.models.tournament import Tournament


class PublicCopyPush(models.Model):
    """The venue's side: the last state numbered for the copy and how sending it went.

    ``source`` names this database's pushes, so a copy told by a rebuilt venue database
    (sequence back at 1) takes its pushes instead of ignoring them as old.
    """

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE,
                                      related_name="public_copy_push", verbose_name=_("大会"))
    source = models.UUIDField(_("送信元"), default=uuid.uuid4)
    sequence = models.PositiveIntegerField(_("番号"), default=0)
    checksum = models.CharField(_("内容のチェックサム"), max_length=80, blank=True)
    acknowledged = models.PositiveIntegerField(_("コピーが受け取った番号"), default=0)
    attempted_at = models.DateTimeField(_("最後の送信"), null=True, blank=True)
    succeeded_at = models.DateTimeField(_("最後の成功"), null=True, blank=True)
    error = models.TextField(_("最後のエラー"), blank=True)

    class Meta:
        verbose_name = _("公開コピーへの送信")
        verbose_name_plural = _("公開コピーへの送信")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.acknowledged}/{self.sequence}"


class PublicCopyReceipt(models.Model):
    """The copy's side: the newest push it applied per tournament slug. Keyed by slug, not
    by the tournament row, because every push replaces that row."""

    slug = models.SlugField(_("識別子"), max_length=64, unique=True)
    source = models.UUIDField(_("送信元"))
    sequence = models.PositiveIntegerField(_("番号"))
    checksum = models.CharField(_("内容のチェックサム"), max_length=80, blank=True)
    received_at = models.DateTimeField(_("受信日時"))

    class Meta:
        verbose_name = _("公開コピーの受信")
        verbose_name_plural = _("公開コピーの受信")

    def __str__(self) -> str:
        return f"{self.slug}: {self.sequence}"
