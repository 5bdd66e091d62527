"""Who changed which rule setting of a tournament's preset, and when.

The current values live on :attr:`Tournament.preset_settings` (only the values the organiser
changed; the engine supplies the defaults). Each change or reset is also written here, so
the settings page can show the history and a dispute about "who switched the tie-break
order" has an answer. Rows are never edited.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from brackets.models.tournament import Tournament


class PresetSettingChange(models.Model):
    """One setting changed (or reset to the preset's default) by one organiser."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="preset_setting_changes",
        verbose_name=_("大会"),
    )
    preset = models.SlugField(_("ルールプリセット"))
    key = models.CharField(_("設定項目"), max_length=100)
    # The value before and after (JSON); ``reset`` means "back to the preset's default".
    old_value = models.JSONField(_("変更前"), null=True, blank=True)
    new_value = models.JSONField(_("変更後"), null=True, blank=True)
    reset = models.BooleanField(_("既定値に戻した"), default=False)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "-id"]  # noqa: RUF012 - Django Meta convention
        verbose_name = _("ルール設定の変更")
        verbose_name_plural = _("ルール設定の変更")

    def __str__(self) -> str:
        return f"{self.tournament} {self.key}"
