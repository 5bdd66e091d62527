"""Live buzzer-quiz rounds (seeds 003 and 004) as facts: a round, its players, its event log.

The state of a round (who has how many ○ and ×, who won, who is out, who rests) is never
stored: it is ``replay(config, players, events)`` from :mod:`brackets.engine.buzzer`. What
is stored is what staff decided (the round's settings and seating) and what the operator
tapped (one :class:`BuzzerEvent` per tap, with who and when). An undo is itself an event,
so nothing is ever deleted or overwritten and every scoreboard can be reproduced later.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from brackets.models.entrants import Entrant
from brackets.models.tournament import Tournament


class BuzzerRound(models.Model):
    """One live round (or one group, one set, one sudden death) of a tournament.

    ``config`` is the engine's ``RoundConfig.to_dict()``; ``preset``/``round_slug`` say
    which engine preset it came from (blank for a hand-made round). ``feeds_from`` links the
    round whose winners seat this one (seed 003/004: 2R winners → 3R ...).
    """

    class Status(models.TextChoices):
        PREPARING = "preparing", _("準備中")
        LIVE = "live", _("進行中")
        FINISHED = "finished", _("終了")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="buzzer_rounds", verbose_name=_("大会")
    )
    name = models.CharField(_("ラウンド名"), max_length=100)
    group_name = models.CharField(_("組"), max_length=50, blank=True)
    position = models.PositiveIntegerField(_("表示順"), default=0)
    preset = models.SlugField(_("プリセット"), max_length=80, blank=True)
    round_slug = models.SlugField(_("プリセット内のラウンド"), max_length=80, blank=True)
    config = models.JSONField(_("ルール設定"))
    status = models.CharField(
        _("状態"), max_length=20, choices=Status.choices, default=Status.PREPARING
    )
    feeds_from = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="feeds",
        verbose_name=_("前のラウンド"),
    )
    parent = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="tiebreaks",
        verbose_name=_("サドンデスの元ラウンド"),
        help_text=_("サドンデス・プレーオフのときだけ"),
    )
    side = models.CharField(_("サドンデスの側"), max_length=10, blank=True)
    first_round = models.JSONField(
        _("1R順位"),
        default=list,
        blank=True,
        help_text=_("プリセットの席決め・同点時の基準に使う1R順位（上位から）"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("作成者"),
    )
    created_at = models.DateTimeField(_("作成日時"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "position", "id"]
        verbose_name = _("早押しラウンド")
        verbose_name_plural = _("早押しラウンド")

    def __str__(self) -> str:
        return f"{self.name} {self.group_name}".strip()


class BuzzerPlayer(models.Model):
    """A seat in a round. ``key`` is the id the engine's events name (stable per round)."""

    round = models.ForeignKey(
        BuzzerRound, on_delete=models.CASCADE, related_name="players", verbose_name=_("ラウンド")
    )
    entrant = models.ForeignKey(
        Entrant,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="buzzer_seats",
        verbose_name=_("参加者"),
    )
    key = models.CharField(_("識別子"), max_length=40)
    name = models.CharField(_("表示名"), max_length=100)
    seat = models.PositiveIntegerField(_("席"))
    rank = models.PositiveIntegerField(
        _("基準順位"), null=True, blank=True, help_text=_("同点時の最終基準（1R順位など）")
    )
    advantage = models.IntegerField(
        _("アドバンテージ"), null=True, blank=True, help_text=_("空欄なら席順の既定値")
    )
    carried = models.JSONField(
        _("持ち越し"), default=dict, blank=True, help_text=_("前セットからの得点・休みなど")
    )

    class Meta:
        ordering = ["round", "seat"]
        verbose_name = _("早押し参加者")
        verbose_name_plural = _("早押し参加者")
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="buzzer_player_unique_seat"),
            models.UniqueConstraint(fields=["round", "key"], name="buzzer_player_unique_key"),
        ]

    def __str__(self) -> str:
        return f"{self.seat}. {self.name}"


class BuzzerEvent(models.Model):
    """One operator tap: the engine event as JSON, its place in the log, who and when.

    ``seq`` is 1, 2, 3 ... per round (unique), so two operators tapping on stale screens
    cannot both append event n: the second is refused. ``idempotency_key`` makes a double
    tap (the same tap sent twice by a flaky tablet) record once.
    """

    round = models.ForeignKey(
        BuzzerRound, on_delete=models.CASCADE, related_name="events", verbose_name=_("ラウンド")
    )
    seq = models.PositiveIntegerField(_("番号"))
    kind = models.CharField(_("種類"), max_length=30)
    data = models.JSONField(_("内容"))
    idempotency_key = models.CharField(_("操作キー"), max_length=64, blank=True)
    # A digest of the tap sent with the key (services/submit_keys.py): the same key with
    # another tap is refused as stale, not taken for a double tap.
    submit_digest = models.CharField(max_length=64, blank=True, default="")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("入力者"),
    )
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["round", "seq"]
        verbose_name = _("早押しの記録")
        verbose_name_plural = _("早押しの記録")
        constraints = [
            models.UniqueConstraint(fields=["round", "seq"], name="buzzer_event_unique_seq"),
            models.UniqueConstraint(
                fields=["round", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="buzzer_event_unique_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round_id}#{self.seq} {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Append only: a recorded tap is never changed (an undo is a new event)."""
        if not self._state.adding:
            raise ValueError("BuzzerEvent is append-only; record an undo instead")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        """Append only: a recorded tap is never deleted (an undo is a new event)."""
        raise ValueError("BuzzerEvent is append-only; record an undo instead")


class PaperMarking(models.Model):
    """An uploaded paper-quiz marking sheet (M1): one row per entrant, one mark per question.

    Each upload is kept; the newest one for a round name is the one in effect (a corrected
    sheet supersedes the old one rather than overwriting it). ``rows`` is a list of
    ``{"name": ..., "entrant": id|None, "marks": "1011..."}``.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="paper_markings", verbose_name=_("大会")
    )
    name = models.CharField(_("名称"), max_length=100)
    questions = models.PositiveIntegerField(_("問題数"))
    first_half = models.PositiveIntegerField(
        _("前半の問題数"), default=50, help_text=_("同点時に比べる前半（M1: Q1〜50）")
    )
    rows = models.JSONField(_("採点"))
    filename = models.CharField(_("ファイル名"), max_length=200, blank=True)
    lottery_seed = models.CharField(_("抽選シード"), max_length=64, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("入力者"),
    )
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "-at", "-id"]
        verbose_name = _("ペーパークイズ採点")
        verbose_name_plural = _("ペーパークイズ採点")

    def __str__(self) -> str:
        return self.name


class BuzzerQuestionFile(models.Model):
    """A question file loaded for a round (番号, 問題, 答え, 備考), stored as it was read.

    A round may have none (it runs as without questions). Each confirmed upload is a new
    record: the newest for a round is the one in effect and names the one it replaced in
    ``supersedes``, so an earlier file is never lost. ``questions`` is a list of
    ``Question.to_dict()`` in reading order (ascending number).

    A withdrawal is a record too (``withdrawn``, no questions, superseding the file it
    takes back): while it is the newest, the round runs without questions.
    """

    round = models.ForeignKey(
        BuzzerRound, on_delete=models.CASCADE, related_name="question_files",
        verbose_name=_("ラウンド"),
    )
    filename = models.CharField(_("ファイル名"), max_length=200, blank=True)
    questions = models.JSONField(_("問題"))
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="superseded_by",
        verbose_name=_("置き換えたファイル"),
    )
    withdrawn = models.BooleanField(
        _("取り下げ"), default=False,
        help_text=_("問題ファイルの使用をやめた記録（問題なしで進行します）"),
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("読み込んだ人"),
    )
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["round", "-id"]
        verbose_name = _("問題ファイル")
        verbose_name_plural = _("問題ファイル")

    def __str__(self) -> str:
        return f"{self.round_id}: {self.filename}"


class BuzzerSettingsChange(models.Model):
    """One edit of a round's settings after it was created: who, when, and both versions.

    ``BuzzerRound.config`` holds the settings in effect; each edit is kept here with the
    value it replaced (``previous``), so the round's settings history can be read back and
    a mistaken edit seen for what it was.
    """

    round = models.ForeignKey(
        BuzzerRound, on_delete=models.CASCADE, related_name="settings_changes",
        verbose_name=_("ラウンド"),
    )
    previous = models.JSONField(_("変更前の設定"))
    config = models.JSONField(_("変更後の設定"))
    changed = models.JSONField(_("変更した設定"), default=list, blank=True)
    events = models.PositiveIntegerField(_("変更時の記録数"), default=0)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("変更者"),
    )
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["round", "at", "id"]
        verbose_name = _("早押しラウンドの設定変更")
        verbose_name_plural = _("早押しラウンドの設定変更")

    def __str__(self) -> str:
        return f"{self.round_id} {self.at:%Y-%m-%d %H:%M}"
