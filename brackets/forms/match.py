"""One form per write of the tablet match page (views/rounds/match.py).

Each form reads exactly what its page posts and refuses a malformed post with the words
staff already know; whether the write is allowed (legal sets, places, versions, K7/K8
gates) is the service's to say.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from brackets.engine import MAX_CARDS_PER_DRAW
from brackets.forms.fields import (
    BoundedText,
    Flag,
    Number,
    Posted,
    RefusalForm,
    SubmitKey,
    Text,
    Version,
)

SEATS = range(1, 5)  # a group has at most four seats (H1)
# The most cards one 下関 draw can have: the cards drawn and a redraw.
CARD_SLOTS = MAX_CARDS_PER_DRAW + 1


class SelectionForm(RefusalForm):
    """One seat's set: ``set`` is ``genre|format`` as the option lists post it."""

    refusal_fields: ClassVar[dict[str, str]] = {"set": "set"}

    seat = Number(message=_("サテを選んでください。"))
    set = Text()
    difficulty = Text()
    confirm_illegal = Flag()
    version = Version()
    key = SubmitKey()

    def clean_set(self) -> tuple[str, str]:
        genre, _sep, fmt = self.cleaned_data["set"].partition("|")
        if not genre or not fmt:
            raise ValidationError(gettext("出題（ジャンル・形式）を選んでください。"))
        return genre, fmt


class ResultsForm(RefusalForm):
    """Every seat's score and place as typed. A seat is in the save when it posted a
    score; the service parses the numbers, because which seats a group has (and so which
    error comes first) is the group's to say."""

    version = Version()
    key = SubmitKey()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for n in SEATS:
            self.fields[f"score_{n}"] = Posted()
            self.fields[f"place_{n}"] = Text()

    def rows(self) -> dict[int, tuple[str, str]]:
        """Seat number → (score, place) for the seats that posted a score."""
        data = self.cleaned_data
        return {n: (data[f"score_{n}"], data[f"place_{n}"]) for n in SEATS
                if data[f"score_{n}"] is not None}


class MatchActionForm(RefusalForm):
    """What every penalty, disqualification and re-match posts: the seat it is about (an
    empty seat means none), the reason, the tap's key and the page's version."""

    seat = Number(blank_as_missing=True)
    reason = BoundedText("reason")
    version = Version()
    key = SubmitKey()


class PenaltyForm(MatchActionForm):
    """A penalty on a seat (H7); the service parses and bounds the points."""

    points = Text()


class PenaltyRevokeForm(MatchActionForm):
    """Lifting one recorded penalty."""

    penalty = Number()


class DisqualificationForm(MatchActionForm):
    """A disqualification (H8), or lifting one (``revoke``, set by the action posted)."""


class RematchForm(MatchActionForm):
    """A re-match of the whole group, with its reason."""


class SeatsForm(MatchActionForm):
    """The seat order before anything is entered: ``seat_order_n`` is the entrant at seat
    n; a seat posted without an entrant id is left empty (a dummy)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for n in SEATS:
            self.fields[f"seat_order_{n}"] = Posted()

    def order(self) -> list[int | None]:
        order: list[int | None] = []
        for n in SEATS:
            raw = self.cleaned_data[f"seat_order_{n}"]
            if raw is None:
                continue
            order.append(int(raw) if raw.isdigit() else None)
        return order


class ConfirmForm(RefusalForm):
    """The second person's confirmation of a result, at the version they saw."""

    version = Version()


class CardsPhysicalForm(RefusalForm):
    """K7 cards drawn from the physical deck: up to the most one draw of any 下関 variant
    has (the page shows the round's own number of rows). Half a card is refused, not
    dropped; a wrong count is the engine's to word against the round's rule."""

    refusal_fields: ClassVar[dict[str, str]] = {NON_FIELD_ERRORS: "cards"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(1, CARD_SLOTS + 1):
            self.fields[f"card_genre_{i}"] = Text()
            self.fields[f"card_group_{i}"] = Text()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        cards: list[tuple[str, str]] = []
        for i in range(1, CARD_SLOTS + 1):
            genre, group = data.get(f"card_genre_{i}", ""), data.get(f"card_group_{i}", "")
            if genre and group:
                cards.append((genre, group))
            elif genre or group:
                raise ValidationError(
                    gettext("カード{i}はジャンルと形式群の両方を選んでください。").format(i=i))
        data["cards"] = cards
        return data


class BanForm(RefusalForm):
    """K8: the genre one player writes down as their ban."""

    entrant = Number()
    genre = Text()
