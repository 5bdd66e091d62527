"""Forms of the player registry: types and choices only; ``brackets.services.players``
checks the rules (the engine refuses an achievement without date or source, a merge of two
players of one tournament is refused) and says why in Japanese."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from brackets.engine import bounds
from brackets.models import Achievement, DutyOverride, GameVersion

#: Ids beyond what the database stores are refused by the form, not by an overflow.
ID_MAX = 2**31 - 1
NO_DATE = gettext_lazy("日付のない実績は登録できません。いつの実績か入力してください。")
NO_SOURCE = gettext_lazy("出典のない実績は登録できません。大会名や公式サイトなど、確かめられる出典を入力してください。")


class _Styled(forms.Form):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            widget = field.widget
            if isinstance(widget, forms.Select):
                widget.attrs.setdefault("class", "form-select")
            elif not isinstance(widget, (forms.HiddenInput, forms.CheckboxInput)):
                widget.attrs.setdefault("class", "form-control")


class PlayerLookupForm(forms.Form):
    """What the desk has typed so far (a read: nothing is written)."""

    name = forms.CharField(required=False)
    reading = forms.CharField(required=False)
    card_name = forms.CharField(required=False)
    prefix = forms.ChoiceField(required=False, choices=(("", ""), ("walkin", "walkin")))


class AchievementForm(_Styled):
    kind = forms.ChoiceField(label=gettext_lazy("種類"), choices=Achievement.Kind.choices)
    title = forms.CharField(label=gettext_lazy("内容（称号名・大会名）"), max_length=200,
                            error_messages={"required": gettext_lazy(
                                "内容（称号名・大会名など）を入力してください。")})
    game_version = forms.ChoiceField(label=gettext_lazy("バージョン"), choices=GameVersion.choices)
    held_on = forms.DateField(label=gettext_lazy("日付"), widget=forms.DateInput(attrs={"type": "date"}),
                              error_messages={"required": NO_DATE, "invalid": gettext_lazy(
                                  "日付は 2016-05-01 の形で入力してください。")})
    source = forms.CharField(label=gettext_lazy("出典"), max_length=300,
                             error_messages={"required": NO_SOURCE})
    limited = forms.ChoiceField(label=gettext_lazy("大会の条件（3-a-ii）"), required=False,
                                choices=Achievement.Limited.choices)


class PlayerCardForm(_Styled):
    card_name = forms.CharField(label=gettext_lazy("カードネーム"))
    q_level = forms.IntegerField(label=gettext_lazy("Qレベル"), min_value=bounds.Q_LEVEL.low,
                                 max_value=bounds.Q_LEVEL.high)
    rank = forms.CharField(label=gettext_lazy("階級"), required=False, max_length=50)
    game_version = forms.ChoiceField(label=gettext_lazy("バージョン"), required=False,
                                     choices=[("", "—"), *GameVersion.choices])


class PlayerMergeForm(_Styled):
    merged = forms.IntegerField(label=gettext_lazy("統合する選手の番号"), min_value=1,
                                max_value=ID_MAX,
                                error_messages={"required": gettext_lazy(
                                    "統合する選手を選んでください。")})
    reason = forms.CharField(label=gettext_lazy("理由"), max_length=bounds.REASON.max_length,
                             error_messages={"required": gettext_lazy(
                                 "統合の理由を入力してください。")})


class DutyOverrideForm(_Styled):
    entrant = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=ID_MAX)
    ground = forms.ChoiceField(label=gettext_lazy("項目"), choices=DutyOverride.Ground.choices)
    value = forms.IntegerField(label=gettext_lazy("値（あり=1・なし=0、くじ数）"), min_value=0,
                               max_value=bounds.PAST_WIN_LOTS.high)
    reason = forms.CharField(label=gettext_lazy("理由"), max_length=bounds.REASON.max_length,
                             error_messages={"required": gettext_lazy(
                                 "変更の理由を入力してください。")})


class PlayerLinkDecisionForm(_Styled):
    """An organiser's answer about an uncertain link: the same person as a candidate, or a
    different person."""

    decision = forms.ChoiceField(choices=(("same", gettext_lazy("同一人物")),
                                          ("different", gettext_lazy("別人"))),
                                 error_messages={"required": gettext_lazy(
                                     "同一人物か別人かを選んでください。")})
    same_as = forms.IntegerField(required=False, min_value=1, max_value=ID_MAX)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("decision") == "same" and not data.get("same_as"):
            self.add_error("same_as", gettext_lazy("同一人物とする選手を選んでください。"))
        return data


class CorrectionReasonForm(_Styled):
    """Why an organiser withdraws an achievement or a berth. Left to the service to refuse
    when empty or too long (the engine's wording, brackets/messages.py)."""

    reason = forms.CharField(label=gettext_lazy("理由"), required=False)


class AchievementCorrectForm(AchievementForm):
    """The corrected values of an achievement, and why."""

    reason = forms.CharField(label=gettext_lazy("訂正の理由"), required=False)


class PlayerRenameForm(_Styled):
    name = forms.CharField(label=gettext_lazy("名前"), required=False)
    reading = forms.CharField(label=gettext_lazy("よみがな"), required=False)
    reason = forms.CharField(label=gettext_lazy("理由（任意）"), required=False)


class EntrantLinkForm(_Styled):
    """An entrant of this tournament to link to (or unlink from) a registry player."""

    entrant = forms.IntegerField(label=gettext_lazy("参加者"), min_value=1, max_value=ID_MAX,
                                 error_messages={"required": gettext_lazy("参加者を選んでください。")})
    reason = forms.CharField(label=gettext_lazy("理由（任意）"), required=False)
    # The desk's rule: an entry the rule refuses (H0, no berth at the main event) stands
    # only on the organiser's recorded reason.
    override = forms.CharField(
        label=gettext_lazy("参加資格（H0・本戦出場権）を越えて結び付ける理由（主催者の判断）"),
        required=False, help_text=gettext_lazy("参加資格で断られた選手を例外として認めるときだけ入力"))
