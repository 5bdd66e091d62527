"""Small template helpers for the round pages (dictionary lookups by key, badges)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from brackets.labels import PAIR_ROLE_LABELS, label, ratio_text

register = template.Library()

#: The colour of each part in a pair game (K9/K10), wherever its badge is shown.
PAIR_ROLE_TONES = {"winner": "text-bg-success", "loser": "text-bg-secondary",
                   "partner": "text-bg-light border", "contender": "text-bg-primary"}


@register.filter
def pair_role_badge(role: str) -> SafeString | str:
    """``{{ role|pair_role_badge }}``: 勝ち / 負け / パートナー / 対戦者 as a badge; nothing for
    a seat that has no part in a pair game."""
    if role not in PAIR_ROLE_TONES:
        return ""
    return format_html('<span class="badge pair-role role-{} {}">{}</span>', role,
                       PAIR_ROLE_TONES[role], label(PAIR_ROLE_LABELS, role))


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
    """A 惜敗率 for display: two decimals, 「失格」 (H8) or — when undefined (K3)."""
    return ratio_text(value)
