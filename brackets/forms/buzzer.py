"""Forms of the buzzer console's writes that are more than a tap: a protest (審議)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class ProtestForm(forms.Form):
    """A protest on an earlier question: one answer judged anew, or the question thrown out.

    Whether it is in time, and what it changes, is the engine's (the preview page shows it).
    """

    kind = forms.ChoiceField(
        label=_("審議の内容"),
        choices=[("rejudge", _("判定を変更する（○↔×）")), ("throw_out", _("没問にする（問題を差し替え）"))],
        initial="rejudge",
        widget=forms.RadioSelect,
    )
    question = forms.IntegerField(
        label=_("問題番号"), min_value=1, max_value=999,
        widget=forms.NumberInput(attrs={"class": "form-control", "style": "max-width: 8rem"}),
        error_messages={"min_value": _("問題番号は1以上です。"),
                        "max_value": _("問題番号は999以下です。")},
    )
    player = forms.ChoiceField(
        label=_("解答者（判定を変更するとき）"), required=False,
        widget=forms.Select(attrs={"class": "form-select", "style": "max-width: 20rem"}),
    )
    correct = forms.TypedChoiceField(
        label=_("新しい判定（判定を変更するとき）"), required=False, coerce=lambda v: v == "1",
        choices=[("1", _("○（正解）にする")), ("0", _("×（誤答）にする"))],
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, seats: Sequence[tuple[str, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "---"), *seats]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kind") == "rejudge":
            if not data.get("player"):
                self.add_error("player", _("判定を変更する解答者を選んでください。"))
            if data.get("correct") in (None, ""):
                self.add_error("correct", _("新しい判定（○か×）を選んでください。"))
        return data


class QuestionFileForm(forms.Form):
    """An uploaded question file for a round (read for a preview; nothing is stored)."""

    file = forms.FileField(
        label=_("問題ファイル（.xlsx / .csv）"),
        help_text=_("1行目に見出し「番号・問題・答え・備考」（number, question, answer, notes でも可）。"
                    "CSVは UTF-8 か Shift_JIS。"),
        error_messages={"required": _("ファイルを選んでください。"),
                        "empty": _("ファイルが空です。")},
        widget=forms.ClearableFileInput(attrs={"class": "form-control", "accept": ".xlsx,.csv"}),
    )


class QuestionConfirmForm(forms.Form):
    """The confirmation of a previewed file: the signed token the preview carried."""

    token = forms.CharField(widget=forms.HiddenInput,
                            error_messages={"required": _("もう一度ファイルを選んでください。")})


class QuestionWithdrawForm(forms.Form):
    """Withdrawing the file in effect: the file staff saw in effect (a later one is not
    withdrawn by a stale page)."""

    file = forms.IntegerField(widget=forms.HiddenInput, min_value=1,
                              error_messages={"required": _("画面を開き直してください。"),
                                              "invalid": _("画面を開き直してください。"),
                                              "min_value": _("画面を開き直してください。")})
