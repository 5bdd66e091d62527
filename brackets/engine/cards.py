"""K7 下関ルール・改: the cards, how many a draw has and when one more is drawn.

A draw is ``base`` cards (two in K7), one more when two of them meet the redraw rule
(:data:`ExtraCardRule`); a variant may draw more cards or never redraw. The app's draw comes
from a :class:`Lottery` (reproducible from the stored seed) and a physical draw is recorded
and checked against the same rule, so both paths give the same data.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from itertools import combinations

from .errors import EngineBug, RuleRefusal
from .lottery import Lottery


@dataclass(frozen=True)
class Card:
    """A 下関 card: one genre and one format group (default reading of K7)."""

    genre: str
    group: str


ExtraCardRule = Callable[[Card, Card], bool]


def share_genre_or_group(a: Card, b: Card) -> bool:
    """Default reading of K7: draw one more if the two cards share a genre or a group."""
    return a.genre == b.genre or a.group == b.group


def share_genre_and_group(a: Card, b: Card) -> bool:
    """Literal reading of the seed (2枚とも同一): only identical cards trigger a redraw."""
    return a.genre == b.genre and a.group == b.group


@dataclass(frozen=True)
class CardDraw:
    """The cards of one match and what they allow (the union of the cards)."""

    cards: tuple[Card, ...]
    recorded: bool

    @property
    def allowed_genres(self) -> frozenset[str]:
        return frozenset(card.genre for card in self.cards)

    @property
    def allowed_groups(self) -> frozenset[str]:
        return frozenset(card.group for card in self.cards)


def never_extra_card(a: Card, b: Card) -> bool:
    """A 下関 variant without a redraw: the cards drawn are all the cards."""
    return False


#: The most cards one 下関 draw may have before the redraw (a bound for forms and files).
MAX_CARDS_PER_DRAW = 6


def _expected_count(first: Sequence[Card], extra_if: ExtraCardRule, base: int) -> int:
    """``base`` cards, one more if any two of them meet ``extra_if``."""
    shown = first[:base]
    return base + (1 if any(extra_if(a, b) for a, b in combinations(shown, 2)) else 0)


def _check_base(base: int) -> None:
    if not 1 <= base <= MAX_CARDS_PER_DRAW:
        raise EngineBug("card_base_unsupported", "cards per draw out of range", base=base)


def draw_cards(
    deck: Sequence[Card],
    lottery: Lottery,
    *,
    extra_if: ExtraCardRule = share_genre_or_group,
    base: int = 2,
) -> CardDraw:
    """Draw ``base`` cards without replacement, one more if any two of them meet
    ``extra_if`` (K7 draws two; a variant may draw three with :func:`never_extra_card`)."""
    if len(set(deck)) != len(deck):
        raise EngineBug("deck_duplicate", "a card appears twice in the deck")
    _check_base(base)
    # The deck holds a redraw even when the first cards do not call for one: the deck's
    # size cannot depend on the draw.
    needed = base + (0 if extra_if is never_extra_card else 1)
    if len(deck) < needed:
        raise EngineBug("deck_too_small", f"the deck needs at least {needed} cards",
                        size=len(deck), needed=needed)
    order = lottery.shuffled(list(deck))
    count = _expected_count(order, extra_if, base)
    return CardDraw(tuple(order[:count]), recorded=False)


def record_cards(
    cards: Sequence[Card],
    *,
    deck: Collection[Card] | None = None,
    extra_if: ExtraCardRule = share_genre_or_group,
    base: int = 2,
) -> CardDraw:
    """Record a physical draw, checking that the number of cards follows the rule."""
    _check_base(base)
    # K7 as played (two cards, a redraw on an overlap) keeps the wording staff know.
    k7 = base == 2 and extra_if is not never_extra_card
    if len(cards) < base:
        if k7:
            raise RuleRefusal("card_count_mismatch", "at least two cards are drawn",
                              count=len(cards))
        raise RuleRefusal("card_count_short", f"at least {base} cards are drawn",
                          count=len(cards), base=base)
    if len(set(cards)) != len(cards):
        raise RuleRefusal("card_twice", "the same card was recorded twice")
    if deck is not None:
        unknown = [c for c in cards if c not in deck]
        if unknown:
            raise RuleRefusal("card_unknown", "a recorded card is not in the deck", cards=unknown)
    expected = _expected_count(cards, extra_if, base)
    if len(cards) != expected:
        if k7:
            raise RuleRefusal(
                "card_count_mismatch",
                f"{expected} cards should have been drawn, {len(cards)} recorded",
                expected=expected,
                count=len(cards),
            )
        raise RuleRefusal("card_count_expected",
                          f"{expected} cards should have been drawn, {len(cards)} recorded",
                          expected=expected, count=len(cards))
    return CardDraw(tuple(cards), recorded=True)
