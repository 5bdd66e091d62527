"""Model validators from the engine's bounds (``brackets.engine.bounds``), so a model, a
form and a file import refuse the same values (``full_clean`` and the importer run them)."""

from __future__ import annotations

from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator

from brackets.engine import bounds


def in_range(bound: bounds.Whole | bounds.Points) -> list[MinValueValidator | MaxValueValidator]:
    """Validators keeping a number within ``bound`` (inclusive)."""
    return [MinValueValidator(bound.low), MaxValueValidator(bound.high)]


def at_most(bound: bounds.Text) -> list[MaxLengthValidator]:
    """A text field without ``max_length`` (a TextField) held to ``bound``."""
    return [MaxLengthValidator(bound.max_length)]
