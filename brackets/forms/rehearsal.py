"""The rehearsal form: a field size, seeds, runs and minutes per match, bounded so that one
organiser's rehearsal cannot hold up the server (the engine's ``check_rehearsal`` bounds)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from brackets.engine import (
    DEFAULT_MATCH_MINUTES,
    REHEARSAL_MAX_ENTRANTS,
    REHEARSAL_MAX_PLAYER_RUNS,
    REHEARSAL_MAX_RUNS,
)

MAX_SEEDS = 64
MAX_MINUTES = 120
SEED_TEXT_MAX = 40


def _number(label: Any, low: int, high: int, initial: int, required: Any,
            out_of_range: Any) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=low, max_value=high, initial=initial,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "form-control"}),
        error_messages={"required": required, "invalid": out_of_range,
                        "min_value": out_of_range, "max_value": out_of_range})


class RehearsalForm(forms.Form):
    entrants = _number(_("参加人数"), 2, REHEARSAL_MAX_ENTRANTS, 40,
                       _("参加人数を入力してください。"),
                       _("参加人数は2〜1024人の整数で入力してください。"))
    seeds = _number(_("シード人数"), 0, MAX_SEEDS, 0, _("シード人数を入力してください（いなければ0）。"),
                    _("シード人数は0〜64人の整数で入力してください。"))
    runs = _number(_("試行回数"), 1, REHEARSAL_MAX_RUNS, 5, _("試行回数を入力してください。"),
                   _("試行回数は1〜20回の整数で入力してください。"))
    minutes = _number(_("1試合の時間（分）"), 1, MAX_MINUTES, int(DEFAULT_MATCH_MINUTES),
                      _("1試合の時間を入力してください。"),
                      _("1試合の時間は1〜120分の整数で入力してください。"))
    seed = forms.CharField(
        label=_("乱数の種"), required=False, max_length=SEED_TEXT_MAX, initial="rehearsal",
        widget=forms.TextInput(attrs={"class": "form-control"}),
        help_text=_("同じ種なら同じ結果になります。"),
        error_messages={"max_length": _("乱数の種は%(limit_value)d文字までです。")})

    def clean_seed(self) -> str:
        text = "".join(c for c in self.cleaned_data.get("seed") or "" if c.isprintable())
        return text.strip() or "rehearsal"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        entrants, seeds, runs = data.get("entrants"), data.get("seeds"), data.get("runs")
        if None not in (entrants, seeds, runs) and (entrants + seeds) * runs > \
                REHEARSAL_MAX_PLAYER_RUNS:
            allowed = max(1, REHEARSAL_MAX_PLAYER_RUNS // (entrants + seeds))
            raise forms.ValidationError(
                _("%(players)d人で%(runs)d回は多すぎます（人数×回数は%(most)dまで）。"
                  "この人数なら%(allowed)d回までにしてください。"),
                params={"players": entrants + seeds, "runs": runs,
                        "most": REHEARSAL_MAX_PLAYER_RUNS, "allowed": allowed})
        return data
