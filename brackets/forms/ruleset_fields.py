"""What the composer's forms share (#17): the widgets' classes, the whole-number field and
the choices of a draw."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from brackets.engine import bounds
from brackets.services.preset_settings import VALUE_LABELS

MAX_PLAYERS = bounds.CAPACITY.high
# Groups, advancers and berths are bounded loosely here: a value the rules cannot use
# (five seats, three advancers of three) is the validator's to explain beside the field.
SEATS = 99

DRAWS = [("random", _("抽選（シード分け）")), ("snake", _("順位順スネーク")),
         ("mod", _("順位順（剰余）")), ("fixed", _("前の回戦の順位で固定"))]


def labelled(values: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(v, str(VALUE_LABELS.get(v, v))) for v in values]


def whole(label: Any, *, low: int = 0, high: int = MAX_PLAYERS, required: bool = True,
          help_text: Any = "") -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=low, max_value=high, required=required,
                              help_text=help_text)


class Styled(forms.Form):
    """Bootstrap classes on every widget (touch-sized inputs on a tablet)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            widget = field.widget
            if isinstance(widget, forms.CheckboxInput):
                css = "form-check-input"
            elif isinstance(widget, forms.Select):
                css = "form-select"
            else:
                css = "form-control"
            widget.attrs.setdefault("class", css)
