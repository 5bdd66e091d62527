"""A qualifier series (関西杯5): its qualifier tournaments, its main event, and the berths
granted by hand for qualifiers run elsewhere.

Berths won at the series' qualifiers run in the app are not stored: they are derived from
those tournaments' results by ``brackets.engine.series_berths`` (brackets/selectors/series.py).

The links to tournaments are many-to-many fields with Django's own link tables, on purpose:
the tournament file (brackets/exporters/tournament_file) writes every model that reaches a
tournament through a foreign key, and a series is not one tournament's fact (it spans
several and may live on another server). ``brackets.services.series`` keeps a tournament in
at most one series, under a lock on the tournament.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from brackets.engine import bounds
from brackets.models.players import GameVersion, Player
from brackets.models.tournament import Tournament

#: The lowest place a hand-granted berth can name, and the highest (an event's capacity).
PLACE_MIN, PLACE_MAX = 1, 999


class Series(models.Model):
    """A series of qualifiers leading to one main event (e.g. 関西杯5)."""

    name = models.CharField(_("シリーズ名"), max_length=bounds.NAME.max_length, unique=True)
    slug = models.SlugField(_("識別子"), unique=True, help_text=_("URLに使う英数字"))
    game_version = models.CharField(_("バージョン"), max_length=20, choices=GameVersion.choices,
                                    blank=True)
    qualifiers = models.ManyToManyField(Tournament, blank=True, related_name="qualifier_of",
                                        verbose_name=_("予選"))
    main_events = models.ManyToManyField(Tournament, blank=True, related_name="main_event_of",
                                         verbose_name=_("本戦"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                           on_delete=models.SET_NULL, related_name="+",
                           verbose_name=_("作成者"))
    at = models.DateTimeField(_("作成日時"), auto_now_add=True)

    class Meta:
        ordering = ["-at", "name"]  # noqa: RUF012 - Django Meta convention
        verbose_name = _("シリーズ")
        verbose_name_plural = _("シリーズ")

    def __str__(self) -> str:
        return self.name


class SeriesBerthGrant(models.Model):
    """A main-event berth won at a qualifier run elsewhere, recorded by hand with its source.

    One place of one qualifier has one berth in force (the constraint and the service
    refuse a second; a withdrawn grant, :class:`~brackets.models.corrections.BerthWithdrawal`,
    no longer counts); a berth of a qualifier run in the app is derived, never granted here.
    """

    series = models.ForeignKey(Series, on_delete=models.PROTECT, related_name="berth_grants",
                               verbose_name=_("シリーズ"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="berth_grants",
                               verbose_name=_("選手"))
    qualifier = models.CharField(_("予選名"), max_length=200)
    held_on = models.DateField(_("開催日"))
    place = models.PositiveIntegerField(_("順位"), validators=[MinValueValidator(PLACE_MIN),
                                                             MaxValueValidator(PLACE_MAX)])
    source = models.CharField(_("出典"), max_length=300)
    # A grant of a place whose earlier grant was withdrawn names that withdrawal: one
    # withdrawal is followed at most once, and only a first grant may lack it, so the
    # database holds one grant in force per place however often it is withdrawn.
    follows = models.OneToOneField("brackets.BerthWithdrawal", null=True, blank=True,
                                   on_delete=models.PROTECT, related_name="followed_by",
                                   verbose_name=_("取り下げ後の再付与"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                           on_delete=models.SET_NULL, related_name="+",
                           verbose_name=_("入力者"))
    at = models.DateTimeField(_("日時"), auto_now_add=True)

    class Meta:
        ordering = ["series", "held_on", "place", "id"]  # noqa: RUF012
        verbose_name = _("本戦出場権（手入力）")
        verbose_name_plural = _("本戦出場権（手入力）")
        constraints = [models.UniqueConstraint(  # noqa: RUF012
            fields=["series", "qualifier", "place"], condition=models.Q(follows__isnull=True),
            name="series_berth_once_per_place")]

    def __str__(self) -> str:
        return f"{self.series} {self.qualifier} {self.place}位"
