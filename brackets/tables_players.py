"""django-tables2 tables of the player registry: the registry page renders the players
table, and the Excel export (brackets/exporters/registry_xlsx.py) writes all three through
``as_values()``, so the file has the screen's columns (#14 item 6)."""

from __future__ import annotations

from typing import Any, ClassVar

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy

NUMERIC = {"th": {"class": "text-end"}, "td": {"class": "num text-end"}}


class RegistryPlayerTable(tables.Table):
    id = tables.Column(verbose_name=gettext_lazy("番号"), attrs=NUMERIC)
    name = tables.Column(verbose_name=gettext_lazy("名前"))
    reading = tables.Column(verbose_name=gettext_lazy("よみがな"))
    cards = tables.Column(verbose_name=gettext_lazy("カード"))
    highest_q = tables.Column(verbose_name=gettext_lazy("最高Qレベル"), attrs=NUMERIC,
                              default="")
    achievements = tables.Column(verbose_name=gettext_lazy("実績"), attrs=NUMERIC)
    merged = tables.Column(verbose_name=gettext_lazy("統合した記録"), attrs=NUMERIC)

    class Meta:
        attrs: ClassVar[dict[str, str]] = {"class": "table table-sm align-middle"}
        orderable = False
        empty_text = gettext_lazy("該当する選手はいません。受付で登録すると登録簿に加わります。")

    def __init__(self, *args: Any, slug: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slug = slug

    def value_name(self, value: str) -> str:
        return value

    def render_name(self, value: str, record: dict[str, Any]) -> SafeString:
        return format_html('<a href="{}">{}</a>',
                           reverse("registry_player", args=[self.slug, record["id"]]), value)


class RegistryCardTable(tables.Table):
    player_id = tables.Column(verbose_name=gettext_lazy("選手番号"))
    player = tables.Column(verbose_name=gettext_lazy("選手"))
    card_name = tables.Column(verbose_name=gettext_lazy("カードネーム"))
    q_level = tables.Column(verbose_name=gettext_lazy("Qレベル"), attrs=NUMERIC)
    rank = tables.Column(verbose_name=gettext_lazy("階級"))
    game_version = tables.Column(verbose_name=gettext_lazy("バージョン"))
    current = tables.Column(verbose_name=gettext_lazy("状態"))
    by = tables.Column(verbose_name=gettext_lazy("入力者"))
    at = tables.Column(verbose_name=gettext_lazy("日時"))

    class Meta:
        orderable = False

    def value_current(self, value: bool) -> str:
        return str(gettext_lazy("現在") if value else gettext_lazy("以前の記録"))


class RegistryAchievementTable(tables.Table):
    player_id = tables.Column(verbose_name=gettext_lazy("選手番号"))
    player = tables.Column(verbose_name=gettext_lazy("選手"))
    kind = tables.Column(verbose_name=gettext_lazy("種類"))
    title = tables.Column(verbose_name=gettext_lazy("内容"))
    game_version = tables.Column(verbose_name=gettext_lazy("バージョン"))
    held_on = tables.Column(verbose_name=gettext_lazy("日付"))
    source = tables.Column(verbose_name=gettext_lazy("出典"))
    limited = tables.Column(verbose_name=gettext_lazy("大会の条件"))
    by = tables.Column(verbose_name=gettext_lazy("入力者"))
    at = tables.Column(verbose_name=gettext_lazy("日時"))
    state = tables.Column(verbose_name=gettext_lazy("状態"))

    class Meta:
        orderable = False
