"""Reproducible randomness.

Every random outcome of a tournament (group draws, 修羅 lots, 下関 cards, dice, tie
lotteries) comes from a :class:`Lottery` built from the seed stored with the tournament and a
*purpose* string naming the draw (``"round-2/groups"``). The same seed and purpose always give
the same sequence, on any machine and Python version, so anyone can re-run and verify a draw
afterwards; different purposes give independent sequences.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Lottery:
    """A deterministic random source for one named draw."""

    def __init__(self, seed: str, purpose: str) -> None:
        self.seed = seed
        self.purpose = purpose
        digest = hashlib.sha256(f"{seed}\x1f{purpose}".encode()).digest()
        # random.Random seeded with an int is stable across CPython versions for
        # random(), shuffle() and randrange(), which is all this class uses.
        self._rng = random.Random(int.from_bytes(digest, "big"))

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list with ``items`` in a random order."""
        result = list(items)
        # Fisher–Yates written out so the order depends only on randrange().
        for i in range(len(result) - 1, 0, -1):
            j = self._rng.randrange(i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence."""
        if not items:
            raise ValueError("cannot choose from an empty sequence")
        return items[self._rng.randrange(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct elements drawn without replacement, in draw order."""
        if k > len(items):
            raise ValueError("sample larger than population")
        return self.shuffled(items)[:k]

    def die(self, sides: int = 6) -> int:
        """One roll of a fair die, 1..sides."""
        return self._rng.randrange(sides) + 1

    def child(self, purpose: str) -> Lottery:
        """An independent lottery for a sub-draw (``"round-2/groups" -> ".../tie-3"``)."""
        return Lottery(self.seed, f"{self.purpose}/{purpose}")
