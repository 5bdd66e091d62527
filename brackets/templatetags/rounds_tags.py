"""Small template helpers for the round pages (dictionary lookups by key)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def get(mapping: Any, key: Any) -> Any:
    """``{{ names|get:player }}``: a mapping lookup that tolerates int/str keys."""
    if mapping is None:
        return None
    try:
        if key in mapping:
            return mapping[key]
        if str(key) in mapping:
            return mapping[str(key)]
    except TypeError:
        return None
    return None


@register.filter
def ratio(value: Any) -> str:
    """A 惜敗率 for display: two decimals, or — when undefined (K3)."""
    if value is None or not hasattr(value, "display"):
        return ""
    shown = value.display()
    return "—" if shown is None else f"{shown}"
