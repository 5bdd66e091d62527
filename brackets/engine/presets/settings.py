"""A preset's settings: every point a seed page leaves open, with its default reading."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ..errors import RuleRefusal


@dataclass(frozen=True)
class Setting:
    """One tournament setting: a key, its default (domain.md's default reading), the
    allowed values (None = any value of the default's type) and the rule it reads."""

    key: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    # Bounds of a number (int or Decimal) setting; for a list setting, ``minimum`` is the
    # fewest items. A list's items must be of ``item_type`` and distinct (a tie-break
    # chain naming 惜敗率 twice, or round 2 listed twice, is a typing mistake).
    minimum: int | None = None
    maximum: int | Decimal | None = None
    item_type: type | None = None

    def validate(self, value: Any) -> Any:
        """The value if acceptable for this setting, else :class:`RuleRefusal`.

        Organisers type these values on a form, so every value that would only fail later
        (a negative round size, a NaN penalty, an empty tie-break chain) is refused here,
        when the setting is saved, rather than when a round is drawn.
        """
        value = self._validate_type(value)
        if isinstance(value, tuple):
            if self.item_type is not None and any(
                    not isinstance(v, self.item_type) or isinstance(v, bool) for v in value):
                raise RuleRefusal("setting_invalid", f"{self.key}: items must be "
                                  f"{self.item_type.__name__}", key=self.key, value=list(value))
            if any(v in value[:i] for i, v in enumerate(value)):
                raise RuleRefusal("setting_invalid", f"{self.key}: an item is repeated",
                                  key=self.key, value=list(value))
            if self.minimum is not None and len(value) < self.minimum:
                raise RuleRefusal("setting_invalid", f"{self.key}: at least {self.minimum} "
                                  "items", key=self.key, value=list(value),
                                  minimum=self.minimum)
            if self.item_type is int and any(v < 1 for v in value):
                # The only int lists are round numbers, which start at 1.
                raise RuleRefusal("setting_invalid", f"{self.key}: items start at 1",
                                  key=self.key, value=list(value), minimum=1)
            return value
        if isinstance(value, (int, Decimal)) and not isinstance(value, bool):
            if self.minimum is not None and value < self.minimum:
                raise RuleRefusal("setting_invalid", f"{self.key}: at least {self.minimum}",
                                  key=self.key, value=value, minimum=self.minimum)
            if self.maximum is not None and value > self.maximum:
                raise RuleRefusal("setting_invalid", f"{self.key}: at most {self.maximum}",
                                  key=self.key, value=value, maximum=self.maximum)
        return value

    def _validate_type(self, value: Any) -> Any:
        """The value converted to the default's type, or :class:`RuleRefusal`."""
        if self.choices is not None:
            if value not in self.choices:
                raise RuleRefusal("setting_invalid", f"{self.key}: {value!r} not allowed",
                                  key=self.key, value=value, choices=list(self.choices))
            return value
        if self.default is None or value is None:
            return value
        expected: type[Any] = type(self.default)
        if expected is bool and not isinstance(value, bool):
            raise RuleRefusal("setting_invalid", f"{self.key} must be true/false",
                              key=self.key, value=value)
        if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise RuleRefusal("setting_invalid", f"{self.key} must be an integer",
                              key=self.key, value=value)
        if expected is Decimal:
            try:
                number = Decimal(str(value))
            except ArithmeticError as exc:
                raise RuleRefusal("setting_invalid", f"{self.key} must be a number",
                                  key=self.key, value=value) from exc
            if not number.is_finite():
                raise RuleRefusal("setting_invalid", f"{self.key} must be a number",
                                  key=self.key, value=value)
            return number
        if expected is tuple:
            if isinstance(value, str) or not isinstance(value, Sequence):
                raise RuleRefusal("setting_invalid", f"{self.key} must be a list",
                                  key=self.key, value=value)
            return tuple(value)
        if expected is str and not isinstance(value, str):
            raise RuleRefusal("setting_invalid", f"{self.key} must be text",
                              key=self.key, value=value)
        return value
