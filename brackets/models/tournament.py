"""A tournament and who may do what in it."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils.translation import gettext_lazy as _

from brackets.engine import bounds
from brackets.models._bounds import in_range
from brackets.models.catalog import QmaVersion


def new_lottery_seed() -> str:
    """A fresh seed for the tournament's lotteries; stored, shown, and reproducible."""
    return secrets.token_hex(8)


class Tournament(models.Model):
    class Status(models.TextChoices):
        PREPARING = "preparing", _("準備中")
        ENTRY = "entry", _("受付中")
        RUNNING = "running", _("進行中")
        FINISHED = "finished", _("終了")

    slug = models.SlugField(_("識別子"), unique=True, help_text=_("URLに使う英数字"))
    name = models.CharField(_("大会名"), max_length=bounds.TOURNAMENT_NAME.max_length)
    date = models.DateField(_("開催日"), null=True, blank=True)
    venue = models.CharField(_("会場"), max_length=bounds.VENUE.max_length, blank=True)
    capacity = models.PositiveIntegerField(_("定員"), default=64,
                                           validators=in_range(bounds.CAPACITY))
    seed_slots = models.PositiveIntegerField(_("シード枠"), default=8,
                                             validators=in_range(bounds.SEED_SLOTS))
    fee = models.PositiveIntegerField(_("参加費（円）"), default=0,
                                      validators=in_range(bounds.FEE))
    version = models.ForeignKey(
        QmaVersion, on_delete=models.PROTECT, verbose_name=_("QMAバージョン")
    )
    preset = models.SlugField(_("ルールプリセット"), default="shop-top2")
    # Only the preset settings the organiser changed (key -> JSON value); the engine's
    # defaults (domain.md's readings) fill in the rest. Written by
    # ``services.preset_settings.preset_settings_save``, which validates through the engine.
    preset_settings = models.JSONField(_("ルール設定"), default=dict, blank=True,
                                       encoder=DjangoJSONEncoder)
    status = models.CharField(
        _("状態"), max_length=20, choices=Status.choices, default=Status.PREPARING
    )
    lottery_seed = models.CharField(_("抽選シード"), max_length=64, default=new_lottery_seed)
    two_person_confirmation = models.BooleanField(_("結果の二重確認"), default=False)
    created_at = models.DateTimeField(_("作成日時"), auto_now_add=True)
    # Moves, in the same transaction, with every write that can change one of the
    # tournament's pages (brackets/perf/revision.py). Rendered pages are cached under it, so it
    # is derived bookkeeping, not tournament data: never edited, exported or imported.
    revision = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("大会")
        verbose_name_plural = _("大会")

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save without writing ``revision`` back: a form holding a tournament loaded before
        a concurrent write must not move the counter back to a value whose cached pages
        show an older state (brackets/perf/revision.py moves it after the save)."""
        if self.pk is not None and not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [f.name for f in self._meta.concrete_fields
                                       if not f.primary_key and f.name != "revision"]
        super().save(*args, **kwargs)


class Role(models.TextChoices):
    ORGANISER = "organiser", _("主催")
    DESK = "desk", _("受付")
    BRACKET = "bracket", _("進行")


class Membership(models.Model):
    """A staff member's role in one tournament (organiser, desk or bracket staff)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("大会")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("スタッフ")
    )
    role = models.CharField(_("役割"), max_length=20, choices=Role.choices)

    class Meta:
        verbose_name = _("スタッフ権限")
        verbose_name_plural = _("スタッフ権限")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="membership_unique_role"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} / {self.get_role_display()}"
