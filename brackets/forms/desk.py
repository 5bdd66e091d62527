"""The entry desk's forms: an entrant with every field, the walk-in's short form, the file
upload of an import.

They coerce types only; ``brackets.adapters.entrants`` checks the rules (lengths,
duplicates, seed slots, capacity, プチ修羅) for the form and the import alike. No text
input carries ``maxlength``: a browser would cut a long card name silently and the name
tag would print the cut name, so a name over its bound (``brackets.engine.bounds``)
arrives whole and is refused with its length, as the import refuses it.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from brackets.adapters.entrants import ENTRANT_FIELDS, opt_up_limits
from brackets.engine import bounds
from brackets.models import Entrant, Tournament


class OptUpSelect(forms.Select):
    """H2 プチ修羅の道: each mode carries the Q level from which it is no longer stricter
    than the rank's own (``data-below-q``) and is greyed from there; the page's script
    greys it again as the Q level is typed. The value already recorded stays choosable, so
    a save never drops it silently: the rule check refuses it with its reason."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits: dict[str, int] = {}
        self.q_level: int | None = None
        self.kept = ""

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        limit = self.limits.get(str(value))
        if limit is not None:
            option["attrs"]["data-below-q"] = str(limit)
            if self.q_level is not None and self.q_level >= limit and str(value) != self.kept:
                option["attrs"]["disabled"] = True
        return option


class EntrantForm(forms.Form):
    """Types only; the service checks the rules (capacity, duplicates, seed slots)."""

    name = forms.CharField(label=gettext_lazy("名前"))
    reading = forms.CharField(label=gettext_lazy("よみがな"), required=False)
    card_name = forms.CharField(
        label=gettext_lazy("カードネーム"),
        help_text=gettext_lazy("QMAのカードの名前（8文字まで）"),
    )
    home_store = forms.CharField(label=gettext_lazy("ホーム店舗"), required=False)
    q_level = forms.IntegerField(
        label=gettext_lazy("最高Qレベル"),
        required=False,
        error_messages={"invalid": gettext_lazy("Qレベルは0〜999の数字で入力してください。")},
    )
    seed = forms.IntegerField(
        label=gettext_lazy("シード番号"),
        required=False,
        help_text=gettext_lazy("シード選手のみ（空欄＝一般参加）"),
        error_messages={"invalid": gettext_lazy("シード番号は数字で入力してください。")},
    )
    fee_paid = forms.BooleanField(label=gettext_lazy("参加費支払済"), required=False)
    checked_in = forms.BooleanField(label=gettext_lazy("受付済"), required=False)
    notes = forms.CharField(
        label=gettext_lazy("メモ"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    shura_titles = forms.IntegerField(
        label=gettext_lazy("全国大会タイトル数"), required=False, min_value=0,
        help_text=gettext_lazy("修羅くじ(i)"),
    )
    shura_local_wins = forms.IntegerField(
        label=gettext_lazy("滋賀大会優勝数"), required=False, min_value=0,
        help_text=gettext_lazy("修羅くじ(ii)"),
    )
    shura_invited = forms.BooleanField(
        label=gettext_lazy("シード・招待権保持（修羅くじ(iii)）"), required=False
    )
    shura_voluntary = forms.BooleanField(label=gettext_lazy("修羅の道（自主）"), required=False)
    shura_extra_lots = forms.IntegerField(
        label=gettext_lazy("追加くじ（自己申告）"), required=False,
        min_value=bounds.EXTRA_LOTS.low, max_value=bounds.EXTRA_LOTS.high,
    )
    past_win_lots = forms.IntegerField(
        label=gettext_lazy("過去優勝時のくじ数"), required=False, min_value=0,
        help_text=gettext_lazy("本大会の過去優勝者のみ（形式くじ）"),
    )
    opt_up = forms.ChoiceField(
        label=gettext_lazy("プチ修羅の道"), required=False, choices=Entrant.OptUp.choices,
        widget=OptUpSelect,
        help_text=gettext_lazy("階級で決まるモードより厳しいモードだけ選べます（選べないものは灰色）"),
    )
    revision = forms.IntegerField(widget=forms.HiddenInput, required=False)
    # The registry player the desk chose from the lookup (empty: a new player is created).
    player = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1,
                                max_value=2**31 - 1)

    SHURA_FIELDS = (
        "shura_titles",
        "shura_local_wins",
        "shura_invited",
        "shura_voluntary",
        "shura_extra_lots",
        "past_win_lots",
        "opt_up",
    )

    def __init__(self, *args: Any, tournament: Tournament | None = None,
                 berth_override: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if berth_override:
            # At a series' main event the organiser may admit a player without a berth,
            # with the reason (recorded with the registration).
            self.fields["berth_override"] = forms.CharField(
                label=gettext_lazy("出場権なしで本戦に登録する理由（主催者のみ）"), required=False,
                help_text=gettext_lazy("出場権を持たない選手を例外として認めるときだけ入力"))
        for name, field in self.fields.items():
            widget = field.widget
            if isinstance(widget, forms.CheckboxInput):
                widget.attrs.setdefault("class", "form-check-input")
            elif isinstance(widget, forms.Select):
                widget.attrs.setdefault("class", "form-select")
            elif not isinstance(widget, forms.HiddenInput):
                widget.attrs.setdefault("class", "form-control")
        # The page counts the characters as they are typed and says when a name is too
        # long; the bound itself is checked on the server.
        self.fields["card_name"].widget.attrs["data-max-chars"] = str(bounds.CARD_NAME.max_length)
        self.fields["reading"].widget.attrs.update({"autocomplete": "off", "lang": "ja"})
        self.fields["name"].widget.attrs.update({"autocomplete": "off"})
        self.fields["q_level"].widget.attrs.update(
            {"inputmode": "numeric", "min": "0", "max": str(bounds.Q_LEVEL.high),
             "data-rank-input": "1"}
        )
        self.fields["seed"].widget.attrs.update({"inputmode": "numeric", "min": "1"})
        for name in ("shura_titles", "shura_local_wins", "shura_extra_lots", "past_win_lots"):
            self.fields[name].widget.attrs["inputmode"] = "numeric"
        if "opt_up" in self.fields and tournament is not None:
            self._offer_stricter_modes(tournament)

    def _offer_stricter_modes(self, tournament: Tournament) -> None:
        limits = opt_up_limits(tournament)
        widget = self.fields["opt_up"].widget
        if limits is None:  # one fixed mode for everyone: the declaration changes nothing
            self.fields["opt_up"].help_text = gettext_lazy(
                "この大会は全員同じモードのため、申告しても変わりません")
            return
        widget.limits = limits
        raw_q = self.data.get(self.add_prefix("q_level")) if self.is_bound else self.initial.get("q_level")
        try:
            widget.q_level = int(raw_q) if raw_q not in (None, "") else 0
        except (TypeError, ValueError):
            widget.q_level = None
        kept = self.data.get(self.add_prefix("opt_up")) if self.is_bound else self.initial.get("opt_up")
        widget.kept = str(kept or "")

    def data_for_service(self) -> dict[str, Any]:
        data = {k: v for k, v in self.cleaned_data.items() if k in ENTRANT_FIELDS and k in self.fields}
        for name in ("q_level", "shura_titles", "shura_local_wins", "shura_extra_lots", "past_win_lots"):
            if name in data and data[name] is None:
                data[name] = 0
        return data

    def main_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in self.fields
                if n not in self.SHURA_FIELDS and n not in ("revision", "player")]

    def shura_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in self.SHURA_FIELDS if n in self.fields]


class WalkInForm(EntrantForm):
    """The desk page's fast form: what a walk-in tells you at the counter."""

    KEEP = ("name", "reading", "card_name", "q_level", "home_store", "fee_paid", "checked_in",
            "player", "berth_override")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in list(self.fields):
            if name not in self.KEEP:
                del self.fields[name]
        self.fields["card_name"].help_text = ""


class UploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("参加者ファイル（.xlsx / .csv）"),
        widget=forms.ClearableFileInput(
            attrs={"class": "form-control", "accept": ".xlsx,.csv,.txt,.tsv"}
        ),
    )
