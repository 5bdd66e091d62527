"""Forms for the organiser's pages. Entry-desk forms live beside their views."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.utils.translation import gettext_lazy as _

from brackets.models import Role, Tournament
from brackets.text import visible_text


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "date",
            "venue",
            "capacity",
            "seed_slots",
            "fee",
            "version",
            "preset",
            "status",
            "two_person_confirmation",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from brackets.engine_adapter import RULESET_PRESET
        from brackets.presets import preset_choices

        choices = preset_choices()
        if self.instance.pk and self.instance.preset == RULESET_PRESET:
            # Its rules are a rule set's copy (rule-set page); the form keeps them.
            choices = [(RULESET_PRESET, str(_("ルールセットのルール"))), *choices]
        self.fields["preset"] = forms.ChoiceField(
            label=_("ルールプリセット"), choices=choices
        )
        if not self.instance.pk:
            # A new tournament may run a composed rule set instead of a preset (#17).
            from brackets.models import RuleSetDoc

            self.fields["ruleset"] = forms.ModelChoiceField(
                label=_("ルールセット（作成したルール）"), queryset=RuleSetDoc.objects.all(),
                required=False, help_text=_("選ぶとプリセットの代わりにこのルールセットの最新版で大会を作成します。"),
                error_messages={"invalid_choice": _("ルールセットを選択肢から選んでください。")})
            self.fields["ruleset"].label_from_instance = _ruleset_label
        # The series the event belongs to (at most one), and its part in it (H0 reads it).
        from brackets.forms.series import ROLE_CHOICES, series_choices
        from brackets.selectors.series import series_of

        member = series_of(tournament=self.instance) if self.instance.pk else None
        self.fields["series"] = forms.TypedChoiceField(
            label=_("シリーズ（予選・本戦）"), choices=series_choices(), coerce=int,
            required=False, empty_value=None, initial=member.series.pk if member else None,
            help_text=_("関西杯5 などの予選シリーズ。予選なら出場権と参加資格（H0）をシリーズから判定します。"),
            error_messages={"invalid_choice": _("シリーズを選択肢から選んでください。")})
        # Only read with a series (a qualifier unless said otherwise): a tournament in no
        # series has no role, and a form that leaves the field out is still whole.
        self.fields["series_role"] = forms.ChoiceField(
            label=_("シリーズでの役割"), choices=ROLE_CHOICES, required=False,
            initial=member.role if member else "qualifier")
        for field in self.fields.values():
            css = "form-check-input" if isinstance(field.widget, forms.CheckboxInput) else "form-control"
            if isinstance(field.widget, forms.Select):
                css = "form-select"
            field.widget.attrs.setdefault("class", css)

    def clean_ruleset(self) -> Any:
        """A rule set is used only while its newest version has no problems (要修正)."""
        ruleset = self.cleaned_data.get("ruleset")
        if ruleset is None:
            return None
        from brackets.services.rulesets import RuleSetError, current_version, usable_document

        version = current_version(ruleset)
        try:
            usable_document(version)
        except RuleSetError as exc:
            raise forms.ValidationError(exc.message) from None
        return version


def _ruleset_label(ruleset: Any) -> str:
    from brackets.services.rulesets import current_version

    version = current_version(ruleset)
    return str(version.document.get("name", "")) if version else str(ruleset)


SERIES_FIELDS = ("series", "series_role", "ruleset")


def without_series(data: dict[str, Any]) -> dict[str, Any]:
    """The tournament's own fields of a cleaned form (the series link is written apart)."""
    return {k: v for k, v in data.items() if k not in SERIES_FIELDS}


class StaffForm(forms.Form):
    """Add a staff member to a tournament; creates the account if it does not exist."""

    username = forms.CharField(label=_("ユーザー名"), max_length=150)
    password = forms.CharField(
        label=_("パスワード（新規アカウントのみ）"),
        required=False,
        widget=forms.PasswordInput(render_value=False),
        min_length=8,
    )
    role = forms.ChoiceField(label=_("役割"), choices=Role.choices)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Bootstrap classes, so the fields are full-width touch targets on a tablet."""
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            css = "form-select" if isinstance(field.widget, forms.Select) else "form-control"
            field.widget.attrs.setdefault("class", css)

    def clean_username(self) -> str:
        """A login name as people type it: no invisible characters, no spaces or markup
        (Django's own username rule: letters, digits and @ . + - _)."""
        username = visible_text(self.cleaned_data["username"])
        if any(ch.isspace() for ch in self.cleaned_data["username"]):
            username = " "  # a space or tab inside the name: refused below, not dropped
        if not username:
            raise forms.ValidationError(_("ユーザー名を入力してください。"))
        try:
            get_user_model().username_validator(username)
        except forms.ValidationError:
            raise forms.ValidationError(_(
                "ユーザー名に使えるのは文字・数字と @ . + - _ だけです（空白や < > などの記号は使えません）。"
            )) from None
        return username

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        username = data.get("username")
        if username and not get_user_model().objects.filter(username=username).exists():
            password = data.get("password")
            if not password:
                self.add_error("password", _("新しいアカウントにはパスワードが必要です。"))
            else:
                # Django's validators (settings.AUTH_PASSWORD_VALIDATORS), the user's name
                # included so a password like the username is refused.
                try:
                    validate_password(password, user=get_user_model()(username=username))
                except forms.ValidationError as exc:
                    self.add_error("password", exc)
        return data
