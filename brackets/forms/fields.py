"""Fields that read a post the way the rounds pages always have, so moving the parsing
into forms changes no answer: a missing field takes a default, text is kept as typed (the
services strip where a rule says so), and a bad number is refused with the page's words."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from brackets.engine import RuleRefusal, bounds
from brackets.messages import engine_message

CHECK_INPUT = _("入力を確認してください。")  # what a malformed post has always been told


class Text(forms.CharField):
    """Optional text, unstripped; a missing field reads as ``""``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, strip=False, **kwargs)


class BoundedText(Text):
    """Optional text checked against its bound in ``brackets.engine.bounds`` (``field``
    names it there), refused with the same words a service's check would use."""

    def __init__(self, field: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bound_field = field

    def validate(self, value: Any) -> None:
        super().validate(value)
        try:
            bounds.BOUNDS[self.bound_field].check(self.bound_field, value)
        except RuleRefusal as refusal:
            raise ValidationError(engine_message(refusal.code, refusal.params)) from refusal


class SubmitKey(forms.CharField):
    """The page's idempotency key (a missing one reads as ``""``): at most as long as the
    ``Submission`` table keeps, so a forged longer one is refused with a message
    rather than by the database."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, strip=False, max_length=bounds.SUBMIT_KEY.max_length, error_messages={
            "max_length": _("送信内容が正しくありません（キーが長すぎます）。ページを読み込み直してください。")},
            **kwargs)


class Posted(forms.Field):
    """The posted text as is, or ``None`` when the field was not posted at all (a results
    row is only a row when its seat posted a score)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> Any:
        return value


class TextList(forms.Field):
    """Every value posted under one name (a multi-select), as typed."""

    widget = forms.MultipleHiddenInput

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> list[str]:
        return list(value or [])


class Flag(forms.Field):
    """A checkbox posted as ``1``: anything else is False."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> bool:
        return value == "1"


class Version(forms.Field):
    """The group version the page was loaded at; anything but digits means "not sent"
    (the service then skips the stale check rather than refusing the tap)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> int | None:
        raw = value or ""
        return int(raw) if raw.isdigit() else None


class Number(forms.Field):
    """A whole number as ``int()`` reads it. ``missing`` is what an absent field means and,
    with ``blank_as_missing``, an empty one; any other text is refused with ``message``."""

    def __init__(self, *, message: Any = CHECK_INPUT, missing: int = 0,
                 blank_as_missing: bool = False, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)
        self.message = message
        self.missing = missing
        self.blank_as_missing = blank_as_missing

    def to_python(self, value: Any) -> int:
        if value is None or (self.blank_as_missing and value == ""):
            return self.missing
        try:
            return int(value)
        except (TypeError, ValueError) as exc:
            raise ValidationError(str(self.message), code="invalid") from exc


class RefusalForm(forms.Form):
    """A form whose first error is shown the way a service's refusal is: one message, and
    the page field it belongs to (``refusal_fields`` maps a form field, or
    ``NON_FIELD_ERRORS`` for the form's own errors, to that name; a field not named there
    marks no page field)."""

    refusal_fields: ClassVar[dict[str, str]] = {}

    def refusal(self) -> tuple[str, str]:
        """(message, page field) of the first error, in field order then the form's own."""
        for name, errors in self.errors.items():
            return str(errors[0]), self.refusal_fields.get(name, "")
        raise ValueError("refusal() of a valid form")
