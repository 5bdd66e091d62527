"""The rule presets a tournament can choose, as (slug, label) pairs for forms.

The presets themselves live in the engine (``brackets.engine.presets``); this module only
adapts them for the web layer.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

FALLBACK_PRESETS: list[tuple[str, str]] = [("shop-top2", str(_("店舗大会（4人組・上位2名）")))]


def preset_label(tournament: Any) -> str:
    """The name staff read for a tournament's rules: its preset's, or its rule set's."""
    from brackets.engine_adapter import RULESET_PRESET

    if tournament.preset == RULESET_PRESET:
        document = (tournament.preset_settings or {}).get("document") or {}
        return str(_("ルールセット「%(name)s」") % {"name": document.get("name", "")})
    return dict(preset_choices()).get(tournament.preset, tournament.preset)


def preset_choices() -> list[tuple[str, str]]:
    """Every registered preset, by slug and display name."""
    try:
        from brackets.engine import list_presets
    except ImportError:  # the engine's preset registry is not built yet
        return FALLBACK_PRESETS
    return [(preset.slug, preset.name) for preset in list_presets()]
