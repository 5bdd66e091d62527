"""Forms for the organiser's pages. Entry-desk forms live beside their views."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from brackets.models import Role, Tournament


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
        from brackets.presets import preset_choices

        self.fields["preset"] = forms.ChoiceField(
            label=_("ルールプリセット"), choices=preset_choices()
        )
        for field in self.fields.values():
            css = "form-check-input" if isinstance(field.widget, forms.CheckboxInput) else "form-control"
            if isinstance(field.widget, forms.Select):
                css = "form-select"
            field.widget.attrs.setdefault("class", css)


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

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        username = data.get("username")
        if username and not get_user_model().objects.filter(username=username).exists():
            if not data.get("password"):
                self.add_error("password", _("新しいアカウントにはパスワードが必要です。"))
        return data
