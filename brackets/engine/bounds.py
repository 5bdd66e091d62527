"""The range of every number and the length of every text staff or a file can enter, once.

Why one module: the models (validators, ``max_length``, ``max_digits``), the forms
(``min``/``max``/``maxlength``), the tournament-file importer, replay and the engine all
read these values, so a value the desk cannot type can never arrive through a file either,
and a value the database cannot hold is refused before it is written (a penalty of 100000
once fitted no column and bricked its round).

Each bound is a small typed value: :class:`Whole` for whole numbers, :class:`Points` for
two-decimal numbers (scores, penalties), :class:`Text` for text. :meth:`refuse` raises the
:class:`~brackets.engine.errors.RuleRefusal` ``out_of_bounds`` that ``brackets.messages``
words for staff ("<field> は <low>〜<high> で入力してください"), naming the field by its key in
:data:`BOUNDS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from brackets.engine.errors import RuleRefusal
from brackets.engine.results import DEFAULT_SCORE_RANGE, SEATS
from brackets.engine.shura import MAX_LOTS


@dataclass(frozen=True)
class Whole:
    """A whole number from ``low`` to ``high`` inclusive."""

    low: int
    high: int

    def contains(self, value: object) -> bool:
        return (isinstance(value, int) and not isinstance(value, bool)
                and self.low <= value <= self.high)

    def check(self, field: str, value: object) -> int:
        """``value`` when it is in range; :class:`RuleRefusal` ``out_of_bounds`` otherwise."""
        if not self.contains(value):
            raise refusal(field, value, self.low, self.high)
        assert isinstance(value, int)
        return value


@dataclass(frozen=True)
class Points:
    """A number with at most ``decimals`` decimals from ``low`` to ``high`` inclusive."""

    low: Decimal
    high: Decimal
    decimals: int = 2

    @property
    def max_digits(self) -> int:
        """Digits a database column needs to hold every value in range (``max_digits``)."""
        whole = max(len(str(abs(int(self.low)))), len(str(abs(int(self.high)))))
        return whole + self.decimals

    def contains(self, value: object) -> bool:
        if not isinstance(value, Decimal) or not value.is_finite():
            return False
        exponent = value.as_tuple().exponent
        return (self.low <= value <= self.high
                and isinstance(exponent, int) and exponent >= -self.decimals)

    def check(self, field: str, value: object) -> Decimal:
        """``value`` as a Decimal when it is in range; ``out_of_bounds`` otherwise.

        Text and whole numbers are read as written ("400", 400); anything else is refused.
        """
        number: object = value
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            try:
                number = Decimal(str(value).strip())
            except (InvalidOperation, ValueError):
                number = value
        if not self.contains(number):
            raise refusal(field, value, self.low, self.high, decimals=self.decimals)
        assert isinstance(number, Decimal)
        return number


@dataclass(frozen=True)
class Text:
    """Text of at most ``max_length`` characters (at least ``min_length``)."""

    max_length: int
    min_length: int = 0

    def contains(self, value: object) -> bool:
        return isinstance(value, str) and self.min_length <= len(value) <= self.max_length

    def check(self, field: str, value: object) -> str:
        """``value`` when it fits; ``required`` when shorter than ``min_length``,
        ``out_of_bounds`` (with ``max_length``) otherwise."""
        if isinstance(value, str) and len(value) < self.min_length:
            raise RuleRefusal("required", f"{field}: at least {self.min_length} characters",
                              field=field, min_length=self.min_length)
        if not self.contains(value):
            raise RuleRefusal("out_of_bounds", f"{field}: at most {self.max_length} characters",
                              field=field, value=_shown(value), max_length=self.max_length,
                              length=len(value) if isinstance(value, str) else None)
        assert isinstance(value, str)
        return value


def _shown(value: object) -> object:
    """A refused value short enough to quote back in a message."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 20 else text[:20] + "…"


def refusal(field: str, value: object, low: object, high: object, **extra: object
            ) -> RuleRefusal:
    """The refusal of a number outside its range, for ``brackets.messages``."""
    return RuleRefusal("out_of_bounds", f"{field}: {value!r} outside {low}..{high}",
                       field=field, value=_shown(value), low=low, high=high, **extra)


# ------------------------------------------------------------------ the bounds

#: An on-screen score (the engine's :data:`~brackets.engine.results.DEFAULT_SCORE_RANGE`).
SCORE = Points(DEFAULT_SCORE_RANGE.low, DEFAULT_SCORE_RANGE.high, DEFAULT_SCORE_RANGE.decimals)
#: Points one penalty takes off (H7: 400 by default). Above the highest score a penalty
#: only repeats "last", so ten times that is room enough and fits every column.
PENALTY = Points(Decimal("0.01"), Decimal("9999.99"))
#: An on-screen placement: 1 .. the seats of a match (K2, H1).
PLACEMENT = Whole(1, len(SEATS))
#: A seat (サテ) of a match.
SEAT = Whole(1, len(SEATS))
#: 修羅: extra lots a player declares (6-c-ii: at most four lots per person in all).
EXTRA_LOTS = Whole(0, MAX_LOTS)
#: 修羅 counts the desk records (titles, Shiga wins): only "any or none" matters (H4), so
#: a count beyond this is a typo.
SHURA_COUNT = Whole(0, 99)
#: Lots drawn at a past win (H5: genre and format lots; k ≤ L − 3 ≤ 5 − 1).
PAST_WIN_LOTS = Whole(0, 9)
#: The highest Q level QMA shows.
Q_LEVEL = Whole(0, 999)
#: A seed number (1 .. the tournament's seed slots, also bounded by :data:`SEED_SLOTS`).
SEED = Whole(1, 999)
#: A tournament's general capacity and its seed slots.
CAPACITY = Whole(0, 100_000)
SEED_SLOTS = Whole(0, 999)
#: An entry fee in yen.
FEE = Whole(0, 1_000_000)
#: QMA's own limit on a card name.
CARD_NAME = Text(8, min_length=1)
#: A person's name, its reading and home store.
NAME = Text(100, min_length=1)
READING = Text(100)
HOME_STORE = Text(100)
#: The desk's free note on an entrant (it had no limit before: generous, so an old note
#: still imports).
NOTES = Text(10_000)
#: Why a penalty, disqualification, re-match or withdrawal was recorded.
REASON = Text(200)
#: A tablet's idempotency key for one tap (a UUID is 36).
SUBMIT_KEY = Text(64)
#: A tournament's name and venue.
TOURNAMENT_NAME = Text(200, min_length=1)
VENUE = Text(200)
#: How deep a JSON file (tournament file, replay) may nest: the app writes at most five
#: levels; a deeper file is refused before Python's parser runs out of stack.
JSON_DEPTH = Whole(0, 64)
#: The longest cell an entrant spreadsheet (CSV) may hold: Python's csv default.
CSV_CELL = Text(131_072)

#: Every bound by the field key that messages and forms name it by.
BOUNDS: dict[str, Whole | Points | Text] = {
    "score": SCORE, "penalty": PENALTY, "placement": PLACEMENT, "seat": SEAT,
    "extra_lots": EXTRA_LOTS, "shura_count": SHURA_COUNT, "past_win_lots": PAST_WIN_LOTS,
    "q_level": Q_LEVEL, "seed": SEED, "capacity": CAPACITY, "seed_slots": SEED_SLOTS,
    "fee": FEE, "card_name": CARD_NAME, "name": NAME, "reading": READING,
    "home_store": HOME_STORE, "notes": NOTES, "reason": REASON, "submit_key": SUBMIT_KEY,
    "tournament_name": TOURNAMENT_NAME, "venue": VENUE, "json_depth": JSON_DEPTH,
    "csv_cell": CSV_CELL,
}


def json_depth(value: object, limit: int = JSON_DEPTH.high) -> int:
    """How deeply ``value`` (parsed JSON) nests; :class:`RuleRefusal` past ``limit``.

    Walks with an explicit stack, so a hostile file cannot exhaust Python's recursion.
    """
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: list[object] = list(item.values())
        elif isinstance(item, list):
            children = list(item)
        else:
            continue
        depth += 1
        if depth > limit:
            raise refusal("json_depth", depth, 0, limit)
        deepest = max(deepest, depth)
        stack.extend((child, depth) for child in children)
    return deepest


def text_depth(text: str, limit: int = JSON_DEPTH.high) -> int:
    """How deeply JSON ``text`` nests, counted on the raw text before parsing.

    Strings are skipped; ``out_of_bounds`` past ``limit``. This runs before ``json.loads``
    so that ``[[[[…]]]]`` 100,000 levels deep is refused, not a RecursionError.
    """
    depth = deepest = 0
    for match in _BRACKETS.finditer(_STRINGS.sub("", text)):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                raise refusal("json_depth", depth, 0, limit)
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")
