"""Forms of the series pages: types and choices only; ``brackets.services.series`` checks
the rules (one series per tournament, one main event, a berth granted once per place) and
says why in Japanese."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from brackets.forms.players import _Styled
from brackets.models import GameVersion, Player, Series, Tournament
from brackets.models.series import PLACE_MAX, PLACE_MIN

ROLE_CHOICES = (("qualifier", gettext_lazy("予選")), ("main", gettext_lazy("本戦")))
NO_SOURCE = gettext_lazy("出典のない出場権は登録できません。予選の結果ページなど、確かめられる出典を"
                         "入力してください。")


class SeriesForm(_Styled):
    name = forms.CharField(label=gettext_lazy("シリーズ名"), max_length=100,
                           error_messages={"required": gettext_lazy("シリーズ名を入力してください。")})
    slug = forms.SlugField(label=gettext_lazy("識別子（URLに使う英数字）"), max_length=50,
                           error_messages={
                               "required": gettext_lazy("識別子（URLに使う英数字）を入力してください。"),
                               "invalid": gettext_lazy("識別子は半角英数字・ハイフン・下線で入力してください。")})
    game_version = forms.ChoiceField(label=gettext_lazy("バージョン"), choices=GameVersion.choices,
                                     error_messages={"invalid_choice": gettext_lazy(
                                         "バージョンを選択肢から選んでください。")})


class SeriesAttachForm(_Styled):
    """A tournament the user organises, put in this series as a qualifier or main event
    (or taken out of it)."""

    tournament = forms.TypedChoiceField(label=gettext_lazy("大会"), coerce=int,
                                        error_messages={"invalid_choice": gettext_lazy(
                                            "主催している大会から選んでください。")})
    role = forms.ChoiceField(label=gettext_lazy("役割"),
                             choices=(*ROLE_CHOICES, ("none", gettext_lazy("シリーズから外す"))))

    def __init__(self, *args: Any, tournaments: list[Tournament], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tournament"].choices = [
            (t.pk, f"{t.name}（{t.date}）" if t.date else t.name) for t in tournaments]


class BerthGrantForm(_Styled):
    """A berth won at a qualifier run elsewhere (not in this app), with its source."""

    player = forms.TypedChoiceField(label=gettext_lazy("選手（登録簿）"), coerce=int,
                                    error_messages={"invalid_choice": gettext_lazy(
                                        "登録簿の選手から選んでください。")})
    qualifier = forms.CharField(label=gettext_lazy("予選名（このアプリ以外で行った予選）"),
                                max_length=200, error_messages={"required": gettext_lazy(
                                    "どの予選の出場権か、予選名を入力してください。")})
    held_on = forms.DateField(label=gettext_lazy("開催日"),
                              widget=forms.DateInput(attrs={"type": "date"}),
                              error_messages={"required": gettext_lazy("予選の開催日を入力してください。"),
                                              "invalid": gettext_lazy(
                                                  "日付は 2019-01-13 の形で入力してください。")})
    place = forms.IntegerField(label=gettext_lazy("順位"), min_value=PLACE_MIN,
                               max_value=PLACE_MAX)
    source = forms.CharField(label=gettext_lazy("出典"), max_length=300,
                             error_messages={"required": NO_SOURCE})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—")] + [
            (p.pk, f"{p.name}（#{p.pk}）")
            for p in Player.objects.filter(merge__isnull=True).order_by("reading", "name", "id")]


def series_choices() -> list[tuple[Any, str]]:
    return [("", gettext_lazy("なし"))] + [(s.pk, s.name) for s in Series.objects.order_by("name")]
