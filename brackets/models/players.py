"""The player registry across tournaments: people, their cards, their achievements.

Facts only, each with who and when. A card's changed Q level is a new row that supersedes
the old one; a merge of two duplicate players is its own record and moves no row, so every
fact keeps who entered it. What the rules make of the record (2-d, 3-a, 6-c-iii, H0) is
derived by ``brackets.engine`` through ``brackets.adapters.players``, never stored.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from brackets.engine import bounds
from brackets.models._bounds import in_range
from brackets.models.entrants import CARD_NAME_MAX, Entrant


class GameVersion(models.TextChoices):
    """QMA game versions an achievement or a card is recorded in (the engine's codes)."""

    AKATSUKI = "akatsuki", _("暁の鐘")
    TG = "tg", _("トーキョーグリモワール（栗東）")
    WE = "we", _("ワールドエボルブ（ゑ）")
    KISEKI = "kiseki", _("軌跡の交叉")
    MUGEN = "mugen", _("夢幻の鏡界")
    OTHER = "other", _("その他")


class Player(models.Model):
    """One person, whatever cards they bring. A merged duplicate keeps its row and its
    facts; its :class:`PlayerMerge` says which player it is read as."""

    name = models.CharField(_("名前"), max_length=bounds.NAME.max_length)
    reading = models.CharField(_("よみがな"), max_length=bounds.READING.max_length, blank=True)
    # Folded by the service (brackets.adapters.entrants.kana_fold) for the desk's lookup.
    search_key = models.CharField(max_length=250, blank=True, default="", editable=False)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("登録者"))
    at = models.DateTimeField(_("登録日時"), auto_now_add=True)

    class Meta:
        ordering = ["reading", "name", "id"]
        verbose_name = _("選手")
        verbose_name_plural = _("選手")

    def __str__(self) -> str:
        return self.name


class PlayerCard(models.Model):
    """One e-AMUSEMENT card as recorded at a moment; a new Q level supersedes the row."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="cards",
                               verbose_name=_("選手"))
    card_name = models.CharField(_("カードネーム"), max_length=CARD_NAME_MAX)
    card_key = models.CharField(max_length=40, blank=True, default="", editable=False)
    q_level = models.PositiveIntegerField(_("Qレベル"), default=0,
                                          validators=in_range(bounds.Q_LEVEL))
    rank = models.CharField(_("階級"), max_length=50, blank=True)
    game_version = models.CharField(_("バージョン"), max_length=20, choices=GameVersion.choices,
                                    blank=True)
    supersedes = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT,
                                      related_name="superseded_by", verbose_name=_("前の記録"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("入力者"))
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["player", "id"]
        verbose_name = _("カード")
        verbose_name_plural = _("カード")
        indexes = [models.Index(fields=["card_key"])]

    def __str__(self) -> str:
        return f"{self.card_name}（Q{self.q_level}）"


class Achievement(models.Model):
    """An achievement entered by hand, with its source: a title, a win elsewhere, a right.

    Results of tournaments run in the app are not stored here: they are read from those
    tournaments' own facts (brackets.selectors.registry).
    """

    class Kind(models.TextChoices):
        NATIONAL_TITLE = "national_title", _("全国大会称号（四神/三賢聖・賢帝・賢王・賢将・賢豪）")
        SHIGA_WIN = "shiga_win", _("滋賀県内の大会で優勝")
        SEED_RIGHT = "seed_right", _("シード権・特別招待枠")
        MAIN_BERTH = "main_berth", _("本戦出場権")
        OTHER = "other", _("その他の実績")

    class Limited(models.TextChoices):
        NONE = "", _("制限なし")
        ACCURACY = "accuracy", _("正解率限定")
        NON_FINALISTS = "non_finalists", _("決勝未進出者限定")
        GENRE_LIMITED = "genre_limited", _("ノンジャンル以外のジャンル限定")
        TAG = "tag", _("タッグ大会")

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="achievements",
                               verbose_name=_("選手"))
    kind = models.CharField(_("種類"), max_length=20, choices=Kind.choices)
    title = models.CharField(_("内容"), max_length=200)
    game_version = models.CharField(_("バージョン"), max_length=20, choices=GameVersion.choices)
    held_on = models.DateField(_("日付"))
    source = models.CharField(_("出典"), max_length=300)
    limited = models.CharField(_("大会の条件"), max_length=20, choices=Limited.choices,
                               blank=True, default="")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("入力者"))
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["player", "held_on", "id"]
        verbose_name = _("実績")
        verbose_name_plural = _("実績")

    def __str__(self) -> str:
        return f"{self.title}（{self.held_on}）"


class PlayerMerge(models.Model):
    """Two records found to be one person: who merged them, when, and why."""

    kept = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+",
                             verbose_name=_("残した選手"))
    merged = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="merge",
                                  verbose_name=_("統合した選手"))
    reason = models.CharField(_("理由"), max_length=bounds.REASON.max_length)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("統合者"))
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["-at"]
        verbose_name = _("選手の統合")
        verbose_name_plural = _("選手の統合")


class DutyOverride(models.Model):
    """An organiser's decision against what the record gives (a 3-a ground, the 6-c-iii
    allowance), with the reason. The newest per entrant and ground is in force and has the
    last word on its ground (``brackets.engine.duties_in_force``)."""

    class Ground(models.TextChoices):
        NATIONAL_TITLE = "national_title", _("3-a-i 全国大会称号")
        SHIGA_WINNER = "shiga_winner", _("3-a-ii 滋賀大会優勝")
        SEED_OR_INVITATION = "seed_or_invitation", _("3-a-iii シード・招待権")
        PAST_WIN_LOTS = "past_win_lots", _("6-c-iii 過去優勝時のくじ数")

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="overrides",
                                verbose_name=_("参加者"))
    ground = models.CharField(_("項目"), max_length=30, choices=Ground.choices)
    value = models.PositiveIntegerField(_("値"), validators=in_range(bounds.PAST_WIN_LOTS))
    reason = models.CharField(_("理由"), max_length=bounds.REASON.max_length)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("入力者"))
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["entrant", "id"]
        verbose_name = _("修羅の判定の変更")
        verbose_name_plural = _("修羅の判定の変更")


class BerthOverride(models.Model):
    """An organiser's decision to register a player at a series' main event without a
    berth, with the reason; recorded with the registration the desk would otherwise refuse."""

    entrant = models.OneToOneField(Entrant, on_delete=models.CASCADE,
                                   related_name="berth_override", verbose_name=_("参加者"))
    reason = models.CharField(_("理由"), max_length=bounds.REASON.max_length)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("判断した主催者"))
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["entrant", "id"]
        verbose_name = _("出場権なしでの本戦登録")
        verbose_name_plural = _("出場権なしでの本戦登録")


class PlayerLink(models.Model):
    """How an entrant of an imported tournament file met this registry (#14 item 5).

    ``match`` is the engine's verdict (``registry_match``): ``certain`` linked the entrant
    to an existing player, ``new`` created one, ``uncertain`` created one and waits for an
    organiser's :class:`PlayerLinkDecision` about ``candidates``. ``facts`` keeps the file's
    registry rows for this player as they were in the file, so nothing the venue entered is
    lost even where this registry already knew better. Not part of the tournament file: it
    is this server's record of an import.
    """

    class Match(models.TextChoices):
        CERTAIN = "certain", _("自動で照合（カードネームと名前が一致）")
        UNCERTAIN = "uncertain", _("要確認")
        NEW = "new", _("新しい選手")

    tournament = models.ForeignKey("brackets.Tournament", on_delete=models.CASCADE,
                                   related_name="player_links", verbose_name=_("大会"))
    entrant = models.OneToOneField(Entrant, on_delete=models.CASCADE, related_name="player_link",
                                   verbose_name=_("参加者"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+",
                               verbose_name=_("結び付けた選手"))
    match = models.CharField(_("照合"), max_length=20, choices=Match.choices)
    # [{"player": registry id, "reason": engine code, "cards": [folded card names]}]
    candidates = models.JSONField(_("候補"), default=list, blank=True)
    facts = models.JSONField(_("ファイルの記録"), default=dict, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("読み込んだ人"))
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ("tournament", "id")
        verbose_name = _("読み込んだ選手の照合")
        verbose_name_plural = _("読み込んだ選手の照合")


class PlayerLinkDecision(models.Model):
    """An organiser's answer to an uncertain link: the same person as ``same_as`` (recorded
    as a :class:`PlayerMerge`) or a different person (the imported player stays its own)."""

    link = models.OneToOneField(PlayerLink, on_delete=models.CASCADE, related_name="decision",
                                verbose_name=_("照合"))
    same_as = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT,
                                related_name="+", verbose_name=_("同一人物"))
    merge = models.OneToOneField(PlayerMerge, null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="+", verbose_name=_("統合の記録"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("確認者"))
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ("id",)
        verbose_name = _("照合の確認")
        verbose_name_plural = _("照合の確認")
