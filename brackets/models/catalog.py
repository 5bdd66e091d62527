"""The QMA catalog per game version (domain.md §A): editable in the admin.

A tournament picks one version; its genres, formats and ranks are what the desk and the
tablets offer. Names are the keys the rule engine uses, so they are unique per version.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class QmaVersion(models.Model):
    slug = models.SlugField(_("識別子"), unique=True)
    name = models.CharField(_("バージョン名"), max_length=100)
    order = models.PositiveIntegerField(_("並び順"), default=0)

    class Meta:
        ordering = ["order", "slug"]
        verbose_name = _("QMAバージョン")
        verbose_name_plural = _("QMAバージョン")

    def __str__(self) -> str:
        return self.name


class CatalogItem(models.Model):
    version = models.ForeignKey(QmaVersion, on_delete=models.CASCADE, verbose_name=_("バージョン"))
    name = models.CharField(_("名前"), max_length=50)
    order = models.PositiveIntegerField(_("並び順"), default=0)

    class Meta:
        abstract = True
        ordering = ["version", "order"]

    def __str__(self) -> str:
        return self.name


class Genre(CatalogItem):
    # ノンジャンル is a genre but never a lot (くじ) and is the fallback when none is legal.
    is_non_genre = models.BooleanField(_("ノンジャンル"), default=False)

    class Meta(CatalogItem.Meta):
        verbose_name = _("ジャンル")
        verbose_name_plural = _("ジャンル")
        constraints = [
            models.UniqueConstraint(fields=["version", "name"], name="genre_unique_name")
        ]


class SubGenre(CatalogItem):
    genre = models.ForeignKey(Genre, on_delete=models.CASCADE, verbose_name=_("ジャンル"))

    class Meta(CatalogItem.Meta):
        verbose_name = _("サブジャンル")
        verbose_name_plural = _("サブジャンル")
        constraints = [
            models.UniqueConstraint(fields=["version", "name"], name="subgenre_unique_name")
        ]


class FormatGroup(CatalogItem):
    class Meta(CatalogItem.Meta):
        verbose_name = _("形式群")
        verbose_name_plural = _("形式群")
        constraints = [
            models.UniqueConstraint(fields=["version", "name"], name="formatgroup_unique_name")
        ]


class Format(CatalogItem):
    group = models.ForeignKey(FormatGroup, on_delete=models.CASCADE, verbose_name=_("形式群"))

    class Meta(CatalogItem.Meta):
        verbose_name = _("出題形式")
        verbose_name_plural = _("出題形式")
        constraints = [
            models.UniqueConstraint(fields=["version", "name"], name="format_unique_name")
        ]


class Difficulty(CatalogItem):
    class Meta(CatalogItem.Meta):
        verbose_name = _("難易度")
        verbose_name_plural = _("難易度")
        constraints = [
            models.UniqueConstraint(fields=["version", "name"], name="difficulty_unique_name")
        ]


class Rank(CatalogItem):
    """A rank name (階級) shown for a Q level range of the player's highest card."""

    q_min = models.PositiveIntegerField(_("Qレベル下限"))
    q_max = models.PositiveIntegerField(_("Qレベル上限"))

    class Meta(CatalogItem.Meta):
        verbose_name = _("階級")
        verbose_name_plural = _("階級")
        constraints = [
            models.UniqueConstraint(fields=["version", "name"], name="rank_unique_name"),
            models.CheckConstraint(
                condition=models.Q(q_min__lte=models.F("q_max")), name="rank_range_ordered"
            ),
        ]
