"""Rule sets organisers compose (#17): a named rule set and its versions.

A version holds one whole :class:`~brackets.engine.rulesets.RuleSet` document
(``RuleSet.to_dict()``) with who saved it and when. An edit is a new version that
supersedes the one it was made from; nothing is overwritten, so the rules a tournament
was created with stay readable. A tournament created from a rule set copies the document
into its own rule settings (``services.rulesets``): later versions never change it.
Whether a version can run is derived (``validate_ruleset``), never stored.
"""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils.translation import gettext_lazy as _


class RuleSetDoc(models.Model):
    """A rule set; its rules (and its name, ``document["name"]``) are its newest
    :class:`RuleSetVersion`."""

    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                           on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(_("作成日時"), auto_now_add=True)

    class Meta:
        ordering = ["-id"]  # noqa: RUF012 - Django Meta convention
        verbose_name = _("ルールセット")
        verbose_name_plural = _("ルールセット")

    def __str__(self) -> str:
        return f"#{self.pk}"


class RuleSetVersion(models.Model):
    """One saved state of a rule set: the whole document, who saved it, when, from what."""

    ruleset = models.ForeignKey(RuleSetDoc, on_delete=models.CASCADE, related_name="versions",
                                verbose_name=_("ルールセット"))
    number = models.PositiveIntegerField(_("版"))
    document = models.JSONField(_("ルール"), encoder=DjangoJSONEncoder)
    # Where the first version came from (a built-in preset, a file, a tournament) or what
    # the edit was, as the organiser reads it in the history.
    note = models.CharField(_("メモ"), max_length=200, blank=True)
    supersedes = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT,
                                      related_name="superseded_by")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                           on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["ruleset", "-number"]  # noqa: RUF012 - Django Meta convention
        verbose_name = _("ルールセットの版")
        verbose_name_plural = _("ルールセットの版")
        constraints = [  # noqa: RUF012
            models.UniqueConstraint(fields=["ruleset", "number"], name="ruleset_version_once"),
        ]

    def __str__(self) -> str:
        return f"{self.ruleset} #{self.number}"
