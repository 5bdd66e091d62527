"""Forms of the floor notices (issue 15 item 6): an announcement, the timetable's times."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from brackets.models.announcements import ANNOUNCEMENT_MAX
from brackets.selectors.timetable import Slot


class AnnouncementForm(forms.Form):
    text = forms.CharField(
        label=_("お知らせ"), max_length=ANNOUNCEMENT_MAX, strip=True,
        widget=forms.Textarea(attrs={"rows": 2, "class": "form-control",
                                     "placeholder": _("例：15:00まで休憩です。2回戦は15:10開始。")}),
        error_messages={"required": _("お知らせの本文を入力してください。"),
                        "max_length": _("お知らせは%(limit_value)d文字までです（%(show_value)d文字）。")})


class TimetableForm(forms.Form):
    """One optional time field per slot (``HH:MM``); an emptied field clears the slot."""

    def __init__(self, *args: Any, slots: list[Slot], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slots = slots
        for slot in slots:
            self.fields[slot.key] = forms.TimeField(
                label=slot.label, required=False, initial=slot.planned,
                input_formats=["%H:%M", "%H:%M:%S"],
                widget=forms.TimeInput(format="%H:%M", attrs={"type": "time",
                                                              "class": "form-control"}),
                error_messages={"invalid": _("時刻は 13:30 のように入力してください。")})

    def rows(self) -> list[tuple[Slot, forms.BoundField]]:
        return [(slot, self[slot.key]) for slot in self.slots]
