"""The round formats, registered here and only here.

A round's ``config.format`` names one of these slugs; the engine looks the format up in
:data:`FORMATS`. Each format module only builds its :class:`~brackets.engine.buzzer.core.Format`
value, so importing one never changes a registry, and a new format is one line below.
"""

from __future__ import annotations

from brackets.engine.buzzer.core import Format
from brackets.engine.buzzer.formats import buzz, written
from brackets.engine.buzzer.registry import Registry

FORMATS: Registry[Format] = Registry("round format")
FORMATS.register("buzzer")(buzz.FORMAT)
FORMATS.register("written")(written.FORMAT)

__all__ = ["FORMATS"]
