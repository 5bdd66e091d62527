"""Rounds, groups, seats and the facts bracket staff enter at the cabinets.

Facts are append-only: a correction is a new row whose ``supersedes`` points at the row it
replaces, and for every key (a seat's selection, a seat's result ...) the newest row wins.
Nothing a tablet saves is updated in place, so the per-match history is simply the rows in
id order. Derived values (placements, 惜敗率, advancers, legal choices) are never stored:
the engine computes them from these rows (``brackets.engine_adapter``).

Two rows are mutable on purpose and say so: ``Round.status`` (a cache of the newest
``RoundStep``, so pages need no log replay) and ``Group.version`` (the optimistic
concurrency counter every save on a match compares against).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from brackets.engine import bounds
from brackets.models._bounds import in_range
from brackets.models.entrants import Entrant
from brackets.models.tournament import Tournament

USER = settings.AUTH_USER_MODEL


class Round(models.Model):
    """One round of a tournament, configured from the tournament's preset."""

    class Status(models.TextChoices):
        CONFIGURED = "configured", _("未抽選")
        DRAWN = "drawn", _("抽選済")
        RUNNING = "running", _("進行中")
        CLOSED = "closed", _("終了")
        ADVANCED = "advanced", _("勝ち抜け確定")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("大会")
    )
    number = models.PositiveIntegerField(_("回戦番号"))
    name = models.CharField(_("名前"), max_length=50)
    kind = models.CharField(_("種類"), max_length=30, default="groups")
    advance_per_group = models.PositiveIntegerField(_("各組の勝ち抜け人数"), default=2)
    target_size = models.PositiveIntegerField(_("次の回戦の人数"), null=True, blank=True)
    # The preset's description of this round (draw method, history window, special rules),
    # copied when the round is configured so a later preset edit never changes a past round.
    spec = models.JSONField(_("設定"), default=dict)
    status = models.CharField(
        _("状態"), max_length=20, choices=Status.choices, default=Status.CONFIGURED
    )
    lottery_seed = models.CharField(_("抽選シード"), max_length=64, blank=True)
    lottery_purpose = models.CharField(_("抽選の用途"), max_length=100, blank=True)
    created_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("作成日時"), auto_now_add=True)
    # The organiser's release of the draw (Tabbycat's draw release): until then the groups
    # are for staff and paper only, and public pages say 「抽選済・公開前」. Mutable on
    # purpose like ``status``: undoing the draw clears it, so a new draw is released anew.
    draw_released_at = models.DateTimeField(_("抽選の公開日時"), null=True, blank=True)
    draw_released_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("回戦")
        verbose_name_plural = _("回戦")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.name}"

    @property
    def draw_public(self) -> bool:
        """True when the public may see the round's groups: drawn and released."""
        return self.status != Round.Status.CONFIGURED and self.draw_released_at is not None

    @property
    def draw_private(self) -> bool:
        """Drawn but not released yet: public pages say 「抽選済・公開前」 and show no group."""
        return self.status != Round.Status.CONFIGURED and self.draw_released_at is None


class RoundStep(models.Model):
    """A lifecycle step of a round (draw, start, close, advance) or the undo of one."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="steps")
    action = models.CharField(_("操作"), max_length=20)
    status_after = models.CharField(_("操作後の状態"), max_length=20)
    data = models.JSONField(_("内容"), default=dict)
    undoes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="undone_by"
    )
    by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["round", "id"]
        verbose_name = _("回戦の操作")
        verbose_name_plural = _("回戦の操作")


class Group(models.Model):
    """One match table (組) of a round: four seats. ``version`` guards concurrent saves."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="groups")
    number = models.PositiveIntegerField(_("組番号"))
    label = models.CharField(_("組名"), max_length=20)
    # Per-group rule for rounds whose groups play different rules (K6 rule A / B).
    rule = models.CharField(_("ルール"), max_length=20, blank=True)
    game = models.PositiveIntegerField(_("ゲーム"), default=1)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("組")
        verbose_name_plural = _("組")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="group_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.round.name} {self.label}"


class Seat(models.Model):
    """サテ 1–4 of a group: an entrant, or the dummy (``entrant`` empty).

    A seat change is a new row superseding the old one (newest per group+number wins).
    """

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("サテ"), validators=in_range(bounds.SEAT))
    entrant = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="superseded_by"
    )
    by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["group", "number", "id"]
        verbose_name = _("席")
        verbose_name_plural = _("席")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(number__gte=1, number__lte=4), name="seat_number_1_4"
            )
        ]

    @property
    def is_dummy(self) -> bool:
        return self.entrant_id is None

    def __str__(self) -> str:
        return gettext("{group} サテ{number}").format(group=self.group, number=self.number)


class MatchFact(models.Model):
    """Who entered a fact about a match, when, and which earlier fact it corrects."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")
    by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    # The group version this fact was saved on top of, for the history view.
    base_version = models.PositiveIntegerField(default=0)

    class Meta:
        abstract = True
        ordering = ["id"]


class SelectionFact(MatchFact):
    """A seat's set (genre × format × difficulty) entered before play (a sub-genre set puts
    the sub-genre name in ``format``, as the engine writes it)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="selections")
    genre = models.CharField(_("ジャンル"), max_length=50)
    format = models.CharField(_("出題形式"), max_length=50)
    difficulty = models.CharField(_("難易度"), max_length=20)
    #: Staff registered the set knowing it breaks a rule (H7); which rules and the penalty
    #: are derived by the engine on reading, not stored.
    accepted_illegal = models.BooleanField(_("違反を承知で登録"), default=False)
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="superseded_by"
    )

    class Meta(MatchFact.Meta):
        verbose_name = _("出題")
        verbose_name_plural = _("出題")


class ResultFact(MatchFact):
    """A seat's on-screen score and placement. ``voided`` marks a re-match reset."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="results")
    score = models.DecimalField(_("得点"), max_digits=7, decimal_places=bounds.SCORE.decimals,
                                null=True, validators=in_range(bounds.SCORE))
    placement = models.PositiveSmallIntegerField(_("順位"), null=True,
                                                 validators=in_range(bounds.PLACEMENT))
    voided = models.BooleanField(default=False)
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="superseded_by"
    )

    class Meta(MatchFact.Meta):
        verbose_name = _("結果")
        verbose_name_plural = _("結果")


class PenaltyFact(MatchFact):
    """Points off one seat's score (H7), with the reason; ``revoked`` withdraws one."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="penalties")
    points = models.DecimalField(_("減点"), max_digits=7, decimal_places=bounds.PENALTY.decimals,
                                 validators=in_range(bounds.PENALTY))
    reason = models.CharField(_("理由"), max_length=bounds.REASON.max_length)
    code = models.CharField(max_length=50, blank=True)
    revoked = models.BooleanField(default=False)
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="superseded_by"
    )

    class Meta(MatchFact.Meta):
        verbose_name = _("ペナルティ")
        verbose_name_plural = _("ペナルティ")


class DisqualificationFact(MatchFact):
    """A seat disqualified in this match (H8); ``revoked`` withdraws it."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="disqualifications")
    reason = models.CharField(_("理由"), max_length=bounds.REASON.max_length)
    revoked = models.BooleanField(default=False)
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="superseded_by"
    )

    class Meta(MatchFact.Meta):
        verbose_name = _("失格")
        verbose_name_plural = _("失格")


class RematchFact(MatchFact):
    """A re-match after a machine fault: results entered before it no longer count; the
    aborted match's selections are kept for the H7 comparison."""

    reason = models.CharField(_("理由"), max_length=bounds.REASON.max_length)
    aborted = models.JSONField(_("中断時の出題"), default=dict)

    class Meta(MatchFact.Meta):
        verbose_name = _("再試合")
        verbose_name_plural = _("再試合")


class ConfirmationFact(MatchFact):
    """A second staff member's confirmation of a group's result at one version."""

    version = models.PositiveIntegerField()

    class Meta(MatchFact.Meta):
        verbose_name = _("結果の確認")
        verbose_name_plural = _("結果の確認")


class Submission(models.Model):
    """An idempotency key per form: a double-tapped submit records once. ``digest`` is a
    digest of what the submit carried, so the same key with other content is told apart
    from a double tap (services/rounds/_write.py)."""

    key = models.CharField(max_length=bounds.SUBMIT_KEY.max_length, unique=True)
    digest = models.CharField(max_length=64, blank=True, default="")
    group = models.ForeignKey(Group, null=True, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=30)
    result_version = models.PositiveIntegerField(default=0)
    by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)


class SpecialFact(models.Model):
    """Facts of the special rounds and the desk: 修羅 lots, rule choices (K6), 下関 cards
    (K7), bans and their reveal (K8), partners (K9/K10), dice and the final's decisions,
    withdrawals. ``kind`` names the fact, ``data`` holds its values; newest per
    (kind, round, group, entrant) wins, ``supersedes`` links a correction."""

    class Kind(models.TextChoices):
        SHURA_LOTS = "shura_lots", _("修羅くじ")
        RULE_CHOICE = "rule_choice", _("ルール選択")
        CARD_DRAW = "card_draw", _("下関カード")
        BAN = "ban", _("禁止ジャンル")
        BAN_REVEAL = "ban_reveal", _("禁止ジャンル公開")
        PARTNER = "partner", _("パートナー")
        DICE = "dice", _("ダイス")
        FINAL_SETUP = "final_setup", _("席順・出題順")
        WITHDRAWAL = "withdrawal", _("棄権")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    group = models.ForeignKey(Group, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    entrant = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.CASCADE,
                                related_name="+")
    kind = models.CharField(_("種類"), max_length=20, choices=Kind.choices)
    data = models.JSONField(_("内容"), default=dict)
    lottery_purpose = models.CharField(max_length=100, blank=True)
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="superseded_by"
    )
    by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("特別ルールの記録")
        verbose_name_plural = _("特別ルールの記録")
        indexes = [models.Index(fields=["tournament", "kind"])]
