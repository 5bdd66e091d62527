"""The 下関 card deck (K7, 下関ルール・改): one cut-out card per (genre, format group) pair.

The rules say how many cards a match draws (two in K7); the deck is the catalog's lot genres × ordinary format groups
(the same deck the app draws from when staff let it draw), so the paper and the app agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_noop
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from brackets.adapters.rounds import round_rules
from brackets.models import Role, Tournament
from brackets.printing.base import PdfDocument, card_sheets, fit_size, register_fonts, truncate
from brackets.printing.registry import Choice, register


@dataclass(frozen=True)
class CardFace:
    number: int
    genre: str
    group: str
    formats: tuple[str, ...]


def deck_kind(tournament: Tournament) -> str:
    """The preset's K7 deck setting, as the card round was configured (or the preset's)."""
    from brackets import engine_adapter as ea
    from brackets.models import Round

    for rnd in Round.objects.filter(tournament=tournament).only("number", "spec"):
        rules = round_rules(rnd)
        if rules.cards:
            return rules.k7_deck
    try:
        return str(ea.preset_for(tournament).settings.get("k7_deck")
                   or "lot_genres_x_format_groups")
    except Exception:  # noqa: BLE001 - unknown preset: the default deck
        return "lot_genres_x_format_groups"


def deck(tournament: Tournament) -> list[CardFace]:
    """The engine's K7 deck for this tournament's preset and catalog, card by card (the
    deck the app draws from, so paper and app agree)."""
    from brackets import engine_adapter as ea
    from brackets.engine import shimonoseki_deck

    catalog = ea.catalog_for(tournament.version_id)
    faces = []
    for number, card in enumerate(shimonoseki_deck(catalog, deck_kind(tournament)), start=1):
        if catalog.group_kind(card.group) == "subgenre":
            contents = tuple(s.name for s in catalog.subgenres if s.genre == card.genre)
        else:
            contents = catalog.formats_in(card.group)
        faces.append(CardFace(number, card.genre, card.group, contents))
    return faces


def has_card_round(tournament: Tournament) -> bool:
    from brackets import engine_adapter as ea

    try:
        planned = ea.preset_for(tournament).rounds_for(0, 0)
    except Exception:  # noqa: BLE001 - unknown preset: no card round
        return False
    return any(sp.restrictions.cards for sp in planned)


def draw_card(canvas: Canvas, face: CardFace, w: float, h: float) -> None:
    font = register_fonts()
    pad = 4 * mm
    canvas.setStrokeColor(colors.black)
    canvas.setLineWidth(1.2)
    canvas.roundRect(2 * mm, 2 * mm, w - 4 * mm, h - 4 * mm, 3 * mm)
    canvas.setFont(font, 7)
    canvas.drawString(pad + 1 * mm, h - pad - 5, gettext("下関カード No.{number}").format(number=face.number))
    size = fit_size(face.genre, w - 2 * pad - 4 * mm, 20, 10)
    canvas.setFont(font, size)
    canvas.drawCentredString(w / 2, h * 0.58, face.genre)
    canvas.setFont(font, 10)
    canvas.drawCentredString(w / 2, h * 0.58 - 6 * mm, "×")
    size = fit_size(face.group, w - 2 * pad - 4 * mm, 16, 9)
    canvas.setFont(font, size)
    canvas.drawCentredString(w / 2, h * 0.58 - 6 * mm - size - 2, face.group)
    formats = "・".join(face.formats)
    size = fit_size(formats, w - 2 * pad - 4 * mm, 7, 5.5)
    canvas.setFont(font, size)
    canvas.drawCentredString(w / 2, pad + 2, truncate(formats, w - 2 * pad - 4 * mm, size))


@register
class ShimonosekiCards(PdfDocument):
    """下関カード: cut along the marks, shuffle, draw two per match."""

    slug = "shimonoseki-cards"
    order = 70
    title = gettext_noop("下関カード")
    role = Role.BRACKET
    category = gettext_noop("回戦")
    description = gettext_noop("ジャンル×形式群のカード一式（切り取って使う）")

    def choices(self, tournament: Tournament) -> list[Choice]:
        return [Choice(gettext(self.title), {})] if has_card_round(tournament) else []

    def get_data(self, tournament: Tournament, **options: Any) -> list[CardFace]:
        return deck(tournament)

    def get_story(self, data: list[CardFace], *, tournament: Tournament, **options: Any
                  ) -> list[Flowable]:
        return card_sheets(data, columns=3, rows=5, card_w_mm=60, card_h_mm=50,
                           draw_card=draw_card)
