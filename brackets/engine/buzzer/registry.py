"""Registries that map stable slugs to rule pieces.

A tournament stores slugs and parameters (``{"slug": "swedish", "params": {...}}``), never
code: a new event's rules are configuration as long as its pieces are registered here. Each
kind of piece (scoring, condition, judging key, tie rule, round format) has one registry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from brackets.engine.errors import EngineBug, RuleRefusal

T = TypeVar("T")


class Registry(Generic[T]):
    """Slug → piece, filled by the :meth:`register` decorator at import time."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}

    def register(self, slug: str) -> Callable[[T], T]:
        """Decorator: file the decorated object under ``slug`` (slugs never change)."""

        def decorate(item: T) -> T:
            if slug in self._items:
                raise EngineBug(
                    "duplicate_rule", f"{self.kind} {slug!r} registered twice", slug=slug
                )
            self._items[slug] = item
            return item

        return decorate

    def get(self, slug: str) -> T:
        """The piece for ``slug``; an unknown slug is a configuration bug."""
        try:
            return self._items[slug]
        except KeyError:
            raise RuleRefusal(
                "unknown_rule", f"unknown {self.kind} {slug!r}", kind=self.kind, slug=slug
            ) from None

    def __contains__(self, slug: object) -> bool:
        return slug in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._items))

    def slugs(self) -> list[str]:
        """Every registered slug, sorted (for settings forms)."""
        return sorted(self._items)
