"""Entrants, with every change kept as a revision (nothing typed at the desk is lost)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from brackets.engine import bounds
from brackets.models._bounds import at_most, in_range
from brackets.models.tournament import Tournament

CARD_NAME_MAX = bounds.CARD_NAME.max_length  # QMA's own limit on a card name.
Q_LEVEL_MAX = bounds.Q_LEVEL.high


class Entrant(models.Model):
    class OptUp(models.TextChoices):
        NONE = "", _("なし")
        PINPOINT = "pinpoint", _("ピンポイント")
        BOMBER = "bomber", _("ボンバーマン")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entrants", verbose_name=_("大会")
    )
    name = models.CharField(_("名前"), max_length=bounds.NAME.max_length)
    reading = models.CharField(_("よみがな"), max_length=bounds.READING.max_length, blank=True)
    card_name = models.CharField(_("カードネーム"), max_length=CARD_NAME_MAX)
    home_store = models.CharField(_("ホーム店舗"), max_length=bounds.HOME_STORE.max_length,
                                  blank=True)
    q_level = models.PositiveIntegerField(
        _("最高Qレベル"), default=0, validators=in_range(bounds.Q_LEVEL)
    )
    seed = models.PositiveIntegerField(
        _("シード番号"), null=True, blank=True, help_text=_("シード選手のみ。1から"),
        validators=in_range(bounds.SEED),
    )
    fee_paid = models.BooleanField(_("参加費"), default=False)
    checked_in = models.BooleanField(_("受付済"), default=False)
    notes = models.TextField(_("メモ"), blank=True, validators=at_most(bounds.NOTES))
    # Declarations the 修羅 rules (domain.md H4, H5) read.
    shura_titles = models.PositiveIntegerField(
        _("全国大会タイトル数"), default=0, help_text=_("修羅くじ(i)"),
        validators=in_range(bounds.SHURA_COUNT),
    )
    shura_local_wins = models.PositiveIntegerField(
        _("滋賀大会優勝数"), default=0, help_text=_("修羅くじ(ii)"),
        validators=in_range(bounds.SHURA_COUNT),
    )
    shura_invited = models.BooleanField(_("シード・招待権保持"), default=False)
    shura_voluntary = models.BooleanField(_("修羅の道（自主）"), default=False)
    shura_extra_lots = models.PositiveIntegerField(
        _("追加くじ（自己申告）"), default=0, validators=in_range(bounds.EXTRA_LOTS)
    )
    past_win_lots = models.PositiveIntegerField(
        _("過去優勝時のくじ数"), default=0, help_text=_("本大会の過去優勝者のみ（形式くじ）"),
        validators=in_range(bounds.PAST_WIN_LOTS),
    )
    # The registry's person behind this entry (brackets/models/players.py); None for an
    # entrant registered without one.
    player = models.ForeignKey(
        "brackets.Player", null=True, blank=True, on_delete=models.PROTECT,
        related_name="entrants", verbose_name=_("選手（登録簿）"),
    )
    opt_up = models.CharField(
        _("プチ修羅の道"), max_length=20, choices=OptUp.choices, blank=True, default=""
    )
    # Optimistic concurrency: a save based on an older revision is refused, not applied.
    revision = models.PositiveIntegerField(default=1)
    # Derived by brackets.services.entrants (kana-, width- and case-folded) so the desk's
    # search and duplicate checks need no per-row work: never typed by staff.
    search_key = models.CharField(max_length=400, blank=True, default="", editable=False)
    card_key = models.CharField(max_length=40, blank=True, default="", editable=False)
    created_at = models.DateTimeField(_("登録日時"), auto_now_add=True)
    updated_at = models.DateTimeField(_("更新日時"), auto_now=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("参加者")
        verbose_name_plural = _("参加者")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "card_name"], name="entrant_unique_card_name"
            ),
            models.UniqueConstraint(fields=["tournament", "seed"], name="entrant_unique_seed"),
            models.CheckConstraint(
                condition=models.Q(q_level__lte=Q_LEVEL_MAX), name="entrant_q_level_range"
            ),
        ]
        indexes = [models.Index(fields=["tournament", "reading"])]

    def __str__(self) -> str:
        return f"{self.name}（{self.card_name}）"


class EntrantRevision(models.Model):
    """What an entrant looked like after each save, with who saved it and when."""

    entrant = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, related_name="revisions", verbose_name=_("参加者")
    )
    number = models.PositiveIntegerField(_("版"))
    data = models.JSONField(_("内容"))
    action = models.CharField(_("操作"), max_length=30)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, verbose_name=_("入力者")
    )
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["entrant", "number"]
        verbose_name = _("参加者の変更履歴")
        verbose_name_plural = _("参加者の変更履歴")
        constraints = [
            models.UniqueConstraint(fields=["entrant", "number"], name="revision_unique_number")
        ]


class EntrantImport(models.Model):
    """An uploaded pre-entry file, parsed and waiting for the desk to confirm it.

    Kept in the database (not the session) so a preview survives a reload or another tab,
    and so the record of who imported which file stays afterwards.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("確認待ち")
        DONE = "done", _("取り込み済")
        CANCELLED = "cancelled", _("取り消し")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entrant_imports", verbose_name=_("大会")
    )
    token = models.CharField(_("トークン"), max_length=40, unique=True)
    filename = models.CharField(_("ファイル名"), max_length=255)
    headers = models.JSONField(_("見出し"), default=list)
    rows = models.JSONField(_("行"), default=list)
    mapping = models.JSONField(_("列の割り当て"), default=list)
    status = models.CharField(
        _("状態"), max_length=20, choices=Status.choices, default=Status.PENDING
    )
    result = models.JSONField(_("結果"), default=dict, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, verbose_name=_("取り込み者")
    )
    created_at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("参加者の取り込み")
        verbose_name_plural = _("参加者の取り込み")

    def __str__(self) -> str:
        return f"{self.filename} ({self.get_status_display()})"
