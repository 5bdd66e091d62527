"""The preset registry: definitions registered under a stable slug, built with settings.

A tournament stores a slug and the setting values its organiser changed; :func:`get_preset`
builds the :class:`~.spec.Preset` from them. Each event's definition lives in its own
module of this package and registers itself on import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import EngineBug, RuleRefusal
from .settings import Setting
from .spec import Preset


class PresetDefinition:
    """Base of registered presets: a slug, a name, settings, and a :meth:`build`."""

    slug: ClassVar[str]
    name: ClassVar[str]
    description: ClassVar[str] = ""
    settings: ClassVar[tuple[Setting, ...]] = ()

    def resolve(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with ``overrides``; unknown keys or bad values raise."""
        specs = {s.key: s for s in self.settings}
        unknown = sorted(set(overrides) - set(specs))
        if unknown:
            raise RuleRefusal("setting_unknown", f"{self.slug} has no setting {unknown}",
                              slug=self.slug, keys=unknown)
        values = {k: s.default for k, s in specs.items()}
        for key, value in overrides.items():
            values[key] = specs[key].validate(value)
        return values

    def build(self, values: Mapping[str, Any]) -> Preset:
        """The :class:`Preset` for resolved setting values."""
        raise NotImplementedError


_REGISTRY: dict[str, type[PresetDefinition]] = {}


def register_preset(cls: type[PresetDefinition]) -> type[PresetDefinition]:
    """Class decorator: register a preset definition under its ``slug``."""
    if cls.slug in _REGISTRY:
        raise EngineBug("preset_duplicate", f"preset {cls.slug!r} exists", slug=cls.slug)
    keys = [s.key for s in cls.settings]
    if len(keys) != len(set(keys)):
        raise EngineBug("setting_duplicate", "duplicate setting keys", slug=cls.slug)
    _REGISTRY[cls.slug] = cls
    return cls


def get_preset(slug: str, settings: Mapping[str, Any] | None = None) -> Preset:
    """The preset registered under ``slug`` with ``settings`` over its defaults."""
    try:
        definition = _REGISTRY[slug]()
    except KeyError:
        raise RuleRefusal("preset_unknown", f"no preset {slug!r}", slug=slug) from None
    return definition.build(definition.resolve(settings or {}))


def list_presets() -> list[Preset]:
    """Every registered preset with default settings, in registration order."""
    return [get_preset(slug) for slug in _REGISTRY]


def preset_settings(slug: str) -> tuple[Setting, ...]:
    """The settings a preset accepts (for the tournament settings form)."""
    try:
        return _REGISTRY[slug].settings
    except KeyError:
        raise RuleRefusal("preset_unknown", f"no preset {slug!r}", slug=slug) from None
