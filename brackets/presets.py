"""The rule presets a tournament can choose, as (slug, label) pairs for forms.

The presets themselves live in the engine (``brackets.engine.presets``); this module only
adapts them for the web layer.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

FALLBACK_PRESETS: list[tuple[str, str]] = [("shop-top2", str(_("店舗大会（4人組・上位2名）")))]


def preset_choices() -> list[tuple[str, str]]:
    """Every registered preset, by slug and display name."""
    try:
        from brackets.engine import list_presets
    except ImportError:  # the engine's preset registry is not built yet
        return FALLBACK_PRESETS
    return [(preset.slug, preset.name) for preset in list_presets()]
