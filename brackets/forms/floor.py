"""One form per floor write: a set, its service, a call, a repeat or release, a no-show, a
round's planned start. Every bad input is refused with a Japanese reason."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from brackets.models import CabinetSet, Entrant, Group, Round, Tournament
from brackets.models.floor import SET_NAME_MAX
from brackets.services.floor import NO_SHOW_ACTIONS, NO_SHOW_DECIDE

NO_SHOW_LABELS = {
    "decide": _("記録のみ（主催が後で判断）"),
    "withdrawal": _("棄権として記録"),
    "dummy": _("ダミー扱い（この試合は失格扱い）"),
}


class CabinetSetForm(forms.Form):
    name = forms.CharField(label=_("台の名前"), max_length=SET_NAME_MAX,
                           error_messages={"required": _("台の名前を入力してください。"),
                                           "max_length": _("台の名前は%(limit_value)d文字までです。")})

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if CabinetSet.objects.filter(tournament=self.tournament, name=name).exists():
            raise forms.ValidationError(
                _("「%(name)s」という台は既にあります。別の名前にしてください。"),
                params={"name": name})
        return name


class SetServiceForm(forms.Form):
    in_service = forms.TypedChoiceField(
        label=_("状態"), coerce=lambda v: v == "1", choices=[("1", _("使用中")), ("0", _("停止中"))],
        error_messages={"required": _("台の状態を選んでください。"),
                        "invalid_choice": _("台の状態を選んでください。")})


class _RoundGroupForm(forms.Form):
    group = forms.ModelChoiceField(
        label=_("組"), queryset=Group.objects.none(),
        error_messages={"required": _("組を選んでください。"),
                        "invalid_choice": _("その組はこの回戦にありません。")})

    def __init__(self, *args: Any, round: Round, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.round = round
        self.fields["group"].queryset = Group.objects.filter(round=round).select_related(
            "round__tournament")


class CallForm(_RoundGroupForm):
    cabinet_set = forms.ModelChoiceField(
        label=_("台"), queryset=CabinetSet.objects.none(),
        error_messages={"required": _("台を選んでください。"),
                        "invalid_choice": _("その台はこの大会にありません。")})

    def __init__(self, *args: Any, round: Round, **kwargs: Any) -> None:
        super().__init__(*args, round=round, **kwargs)
        self.fields["cabinet_set"].queryset = CabinetSet.objects.filter(
            tournament=round.tournament)


class GroupActionForm(_RoundGroupForm):
    """A repeated call or a call taken back: just the group."""


class NoShowForm(_RoundGroupForm):
    entrant = forms.ModelChoiceField(
        label=_("選手"), queryset=Entrant.objects.none(),
        error_messages={"required": _("来なかった選手を選んでください。"),
                        "invalid_choice": _("その選手はこの大会にいません。")})
    action = forms.ChoiceField(
        label=_("扱い"), initial=NO_SHOW_DECIDE, required=False,
        choices=[(a, NO_SHOW_LABELS[a]) for a in NO_SHOW_ACTIONS],
        error_messages={"invalid_choice": _("不在の扱いを選んでください。")})

    def __init__(self, *args: Any, round: Round, **kwargs: Any) -> None:
        super().__init__(*args, round=round, **kwargs)
        self.fields["entrant"].queryset = Entrant.objects.filter(tournament=round.tournament)

    def clean_action(self) -> str:
        # The default is the organiser's decision: a tap without a choice records only.
        return self.cleaned_data.get("action") or NO_SHOW_DECIDE


class PlannedStartForm(forms.Form):
    planned = forms.DateTimeField(
        label=_("開始予定"), required=False,
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        error_messages={"invalid": _("開始予定は「2026-12-02 13:00」の形で入力してください。")})
