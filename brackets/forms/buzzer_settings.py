"""The settings of a buzzer round as form fields, built from the engine's descriptions.

Each field comes from a :class:`~brackets.engine.buzzer.SettingField` (label, range,
default, unit): the numbers of a rule are described once in the engine, never here. The
form turns the posted values back into a :class:`RoundConfig` with the engine's
``config_from_values``; anything out of range is a field error in Japanese and nothing is
created.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from brackets.engine import RuleRefusal
from brackets.engine.buzzer import (
    LIVE_EDITABLE,
    Checkpoint,
    Param,
    RoundConfig,
    SettingField,
    choices,
    config_from_values,
    config_values,
    default_config,
    setting_fields,
)
from brackets.models import Entrant, Tournament

#: Judging chains are short (the longest rule page lists three keys before sudden death).
KEYS_MAX = 4

SECTION_TITLES = {
    "live": gettext_lazy("始まった後も変更できる設定"),
    "round": gettext_lazy("基本"),
    "scoring": gettext_lazy("得点の付け方"),
    "win": gettext_lazy("勝ち抜け条件"),
    "loss": gettext_lazy("失格条件"),
    "lockout": gettext_lazy("解答権剥奪条件"),
    "rests": gettext_lazy("誤答後の休み"),
    "written": gettext_lazy("筆記（脱落式）の設定"),
}


def field_name(key: str) -> str:
    """The form field of a setting key (``win:correct-at-least:n`` → ``win__correct-at-least__n``)."""
    return key.replace(":", "__")


def _choices(param: Param) -> list[tuple[str, str]]:
    return [(slug, _(label)) for slug, label in choices(param.choices)]


def _range_text(param: Param) -> str:
    if param.kind not in ("int", "ints"):
        return ""
    low = "" if param.low is None else str(param.low)
    high = "" if param.high is None else str(param.high)
    return _("範囲: %(low)s〜%(high)s%(unit)s") % {"low": low, "high": high, "unit": _(param.unit)}


def _default_text(param: Param) -> str:
    default = param.default
    if default is None or default == ():
        return _("既定: なし")
    if isinstance(default, bool):
        return _("既定: %(v)s") % {"v": _("はい") if default else _("いいえ")}
    if param.kind in ("choice", "keys"):
        labels = dict(_choices(param))
        items = [default] if param.kind == "choice" else list(default)
        return _("既定: %(v)s") % {"v": " → ".join(labels.get(i, i) for i in items)}
    if isinstance(default, tuple):
        return _("既定: %(v)s") % {"v": ",".join(str(v) for v in default)}
    return _("既定: %(v)s") % {"v": f"{default // param.scale}{_(param.unit)}"}


class KeysWidget(forms.MultiWidget):
    """A judging chain: up to :data:`KEYS_MAX` selects, first key first."""

    def __init__(self, options: list[tuple[str, str]]) -> None:
        select = [("", "---"), *options]
        widgets = [forms.Select(choices=select, attrs={"class": "form-select"})
                   for _index in range(KEYS_MAX)]
        super().__init__(widgets)

    def decompress(self, value: Any) -> list[Any]:
        items = list(value or ())
        return items + [""] * (KEYS_MAX - len(items))


class KeysField(forms.MultiValueField):
    """An ordered list of distinct judging keys (blank selects are skipped)."""

    def __init__(self, options: list[tuple[str, str]], **kwargs: Any) -> None:
        fields = [forms.ChoiceField(choices=[("", "---"), *options], required=False)
                  for _index in range(KEYS_MAX)]
        super().__init__(fields, widget=KeysWidget(options), require_all_fields=False,
                         required=False, **kwargs)

    def compress(self, data_list: list[Any]) -> tuple[str, ...]:
        keys = tuple(k for k in (data_list or []) if k)
        if len(set(keys)) != len(keys):
            raise forms.ValidationError(_("同じ判定基準が2回選ばれています。"))
        return keys


def _ints(param: Param, text: str) -> tuple[int, ...]:
    values: list[int] = []
    for part in text.replace("，", ",").replace("、", ",").split(","):
        part = part.strip()
        if not part:
            continue
        try:
            value = int(part)
        except ValueError:
            raise forms.ValidationError(_("「%(v)s」は整数ではありません。") % {"v": part}) from None
        if not param.check((value,)):
            raise forms.ValidationError(
                _("%(v)d は範囲外です（%(range)s）。") % {"v": value, "range": _range_text(param)})
        values.append(value)
    return tuple(values)


def _checkpoints(param: Param, text: str) -> tuple[Checkpoint, ...]:
    allowed = {slug for slug, _label in choices(param.choices)}
    out: list[Checkpoint] = []
    for part in text.replace("／", "/").split("/"):
        part = part.strip()
        if not part:
            continue
        question, _sep, keys = part.partition(":")
        key_list = tuple(k.strip() for k in keys.split("+") if k.strip())
        if not question.strip().isdigit() or int(question) < 1 or not key_list or any(
                k not in allowed for k in key_list):
            raise forms.ValidationError(
                _("「%(v)s」が読めません。「問題番号:判定基準+判定基準」の形で、判定基準は %(keys)s"
                  " から選んでください。") % {"v": part, "keys": ", ".join(sorted(allowed))})
        out.append(Checkpoint(int(question), key_list))
    return tuple(out)


def _form_field(sf: SettingField) -> forms.Field:
    param = sf.param
    label = _(param.label)
    if sf.slug:
        label = _("%(label)s（%(piece)sのとき）") % {
            "label": label, "piece": dict(_choices(_slot_param(sf.section)))[sf.slug]}
    help_text = " ・ ".join(t for t in (_range_text(param), _default_text(param), _(param.help)) if t)
    common: dict[str, Any] = {"label": label, "help_text": help_text}
    if param.kind == "bool":
        return forms.BooleanField(required=False, **common)
    if param.kind == "choice":
        options = _choices(param)
        if param.optional:
            options = [("", _("なし")), *options]
        return forms.ChoiceField(choices=options, required=not param.optional, **common,
                                 widget=forms.Select(attrs={"class": "form-select"}))
    if param.kind == "keys":
        return KeysField(_choices(param), **common)
    if param.kind in ("ints", "checkpoints"):
        return forms.CharField(required=False, max_length=200, **common,
                               widget=forms.TextInput(attrs={"class": "form-control"}))
    messages = {
        "min_value": _("%(label)sは %(low)s 以上で入力してください（%(range)s）。") % {
            "label": label, "low": param.low, "range": _range_text(param)},
        "max_value": _("%(label)sは %(high)s 以下で入力してください（%(range)s）。") % {
            "label": label, "high": param.high, "range": _range_text(param)},
        "required": _("%(label)sを入力してください。") % {"label": label},
        "invalid": _("%(label)sは整数で入力してください。") % {"label": label},
    }
    return forms.IntegerField(
        min_value=param.low, max_value=param.high, required=not param.optional,
        error_messages=messages, **common,
        widget=forms.NumberInput(attrs={"class": "form-control"}))


def _slot_param(section: str) -> Param:
    return next(sf.param for sf in setting_fields() if sf.key == section)


def settings_initial(config: RoundConfig) -> dict[str, Any]:
    """The settings form's initial values for ``config`` (in the units staff type)."""
    initial: dict[str, Any] = {}
    values = config_values(config)
    for sf in setting_fields():
        value = values[sf.key]
        if sf.param.kind == "int" and value is not None:
            value = value // sf.param.scale
        elif sf.param.kind == "ints":
            value = ",".join(str(v) for v in value)
        elif sf.param.kind == "checkpoints":
            value = " / ".join(f"{c.question}:{'+'.join(c.keys)}" for c in value)
        elif value is None:
            value = ""
        initial[field_name(sf.key)] = value
    return initial


class RoundSettingsForm(forms.Form):
    """Every setting of a round, one field each, initialised from a RoundConfig.

    ``started`` (a round with a recorded tap): every setting outside ``LIVE_EDITABLE`` is
    shown greyed out (the browser posts nothing for it) and reads as the round's current
    value, so the page can only change what a started round may take. A post that does
    carry another value for such a setting still reaches the service, which refuses it
    with its reason.
    """

    def __init__(self, *args: Any, config: RoundConfig | None = None, started: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setting_fields = setting_fields()
        self.base_config = config or default_config()
        self.started = started
        initial = settings_initial(self.base_config)
        for sf in self.setting_fields:
            name = field_name(sf.key)
            self.fields[name] = _form_field(sf)
            self.fields[name].initial = initial[name]
            if started and sf.key not in LIVE_EDITABLE:
                widget = self.fields[name].widget
                for sub in getattr(widget, "widgets", [widget]):
                    sub.attrs["disabled"] = True
        if started and self.is_bound:
            # Greyed-out inputs are not posted: they keep the round's values.
            current = self.post_data()
            data = self.data.copy()
            for sf in self.setting_fields:
                if sf.key in LIVE_EDITABLE:
                    continue
                posted = self[field_name(sf.key)].html_name
                for key, value in current.items():
                    if (key == posted or key.startswith(f"{posted}_")) and key not in data:
                        data[key] = value
            self.data = data

    def post_data(self) -> dict[str, Any]:
        """The values a browser posts for this form untouched (tests, a confirm step)."""
        data: dict[str, Any] = {}
        for name, field in self.fields.items():
            value = self[name].initial
            posted = self[name].html_name  # with the form's prefix (one form per course)
            if isinstance(field, KeysField):
                for index, item in enumerate(field.widget.decompress(value)):
                    data[f"{posted}_{index}"] = item
            elif isinstance(field, forms.BooleanField):
                if value:
                    data[posted] = "on"
            else:
                data[posted] = "" if value is None else value
        return data

    def sections(self) -> list[dict[str, Any]]:
        """The fields grouped for the template, each marked with the piece it belongs to.

        On a started round the settings it may still take come first, in a section of
        their own, and every other section is marked ``locked``.
        """
        out: list[dict[str, Any]] = []
        live = [sf for sf in self.setting_fields if self.started and sf.key in LIVE_EDITABLE]
        if live:
            out.append({"section": "live", "title": SECTION_TITLES["live"], "locked": False,
                        "fields": [{"bound": self[field_name(sf.key)], "slot": sf.section,
                                    "slug": sf.slug} for sf in live]})
        for sf in self.setting_fields:
            if sf in live:
                continue
            if not out or out[-1]["section"] != sf.section:
                out.append({"section": sf.section, "title": SECTION_TITLES[sf.section],
                            "locked": self.started, "fields": []})
            out[-1]["fields"].append({"bound": self[field_name(sf.key)], "slot": sf.section,
                                      "slug": sf.slug})
        return out

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        values: dict[str, Any] = {}
        for sf in self.setting_fields:
            name = field_name(sf.key)
            value = cleaned.get(name)
            try:
                if sf.param.kind == "int" and value is not None:
                    value = value * sf.param.scale
                elif sf.param.kind == "ints":
                    value = _ints(sf.param, value or "")
                elif sf.param.kind == "checkpoints":
                    value = _checkpoints(sf.param, value or "")
                elif sf.param.kind == "choice" and value == "":
                    value = None
            except forms.ValidationError as error:
                self.add_error(name, error)
                continue
            values[sf.key] = value
        if self.errors:
            return cleaned
        try:
            cleaned["config"] = config_from_values(values, self.base_config)
        except RuleRefusal as refusal:
            key = str(refusal.params.get("key", ""))
            self.add_error(field_name(key) if field_name(key) in self.fields else None,
                           _("この値は使えません。"))
        return cleaned


class RoundForm(RoundSettingsForm):
    """A round made by hand: its name, seating (one player per line) and every setting."""

    name = forms.CharField(label=gettext_lazy("ラウンド名"), max_length=100)
    group_name = forms.CharField(label=gettext_lazy("組"), max_length=50, required=False)
    players = forms.CharField(
        label=gettext_lazy("参加者（1行に1人、席順）"),
        widget=forms.Textarea(attrs={"rows": 4, "class": "form-control"}),
        help_text=gettext_lazy(
            "「名前」または「名前,アドバンテージ」。カードネームが一致すれば参加者に紐づけます"
        ),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        for name in ("name", "group_name"):
            self.fields[name].widget.attrs["class"] = "form-control"

    def clean_players(self) -> list[dict[str, Any]]:
        entrants = {e.card_name: e for e in Entrant.objects.filter(tournament=self.tournament)} | {
            e.name: e for e in Entrant.objects.filter(tournament=self.tournament)
        }
        rows: list[dict[str, Any]] = []
        for number, line in enumerate(self.cleaned_data["players"].splitlines(), start=1):
            if not line.strip():
                continue
            parts = [p.strip() for p in line.replace("，", ",").split(",")]
            row: dict[str, Any] = {"name": parts[0], "entrant": entrants.get(parts[0])}
            if len(parts) > 1 and parts[1]:
                try:
                    row["advantage"] = int(parts[1])
                except ValueError:
                    raise forms.ValidationError(
                        _("%(n)d行目: アドバンテージは整数で入力してください。") % {"n": number}
                    ) from None
            rows.append(row)
        if not rows:
            raise forms.ValidationError(_("参加者を1人以上入力してください。"))
        return rows
