"""The group card shared by the staff round page and the public round page: one template
(templates/brackets/_group_card.html), with what differs between the pages as fields."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe


@dataclass(frozen=True)
class Footer:
    css: str
    html: str


@dataclass(frozen=True)
class GroupCard:
    """One group's card. ``rows`` are the table's rows (each page has its own columns);
    ``href`` links the header to the match page (staff), ``dom_id`` anchors it (public)."""

    label: str
    status: str
    status_label: str
    rows: SafeString
    css: str
    staff: bool = False
    rule: str = ""
    href: str = ""
    dom_id: str = ""
    caption: str = ""
    footers: tuple[Footer, ...] = field(default_factory=tuple)


def render_cards(cards: Iterable[GroupCard], *, empty_text: str = "") -> SafeString:
    """Every card of a round, in order; ``empty_text`` when there is none."""
    return mark_safe(render_to_string("brackets/_group_cards.html",
                                      {"cards": list(cards), "empty_text": empty_text}))
