"""What every per-round document shares: the ``round`` option, one link per round on the
documents page, and the round's data from :func:`round_document`."""

from __future__ import annotations

from typing import Any, ClassVar
from xml.sax.saxutils import escape

from django.utils.translation import gettext, gettext_noop
from reportlab.platypus import Paragraph

from brackets.models import Role, Tournament
from brackets.printing.base import PRINT_TEXT_MAX, PdfDocument, clip, styles
from brackets.printing.registry import Choice, DocumentError, Option
from brackets.selectors.round_documents import RoundDoc, round_choices, round_document

ROUND_OPTION = {"round": Option(gettext_noop("回戦"))}


def p(text: str, style: str = "cell") -> Paragraph:
    """A paragraph of plain text (escaped) in one of the shared styles, clipped to
    :data:`~brackets.printing.base.PRINT_TEXT_MAX` so no cell outgrows its page."""
    return Paragraph(escape(clip(text, PRINT_TEXT_MAX)), styles()[style])


def player_text(name: str, card_name: str) -> str:
    """A player as documents print them; a name stored longer than ``bounds.NAME`` is
    clipped."""
    name = clip(name)
    return f"{name}（{card_name}）" if card_name else name


class RoundPdf(PdfDocument):
    """A document about one round; ``kinds`` / ``flag`` limit which rounds it is offered for,
    ``needs_draw`` refuses a round whose groups are not drawn yet."""

    role = Role.BRACKET
    category = gettext_noop("回戦")
    options = ROUND_OPTION
    kinds: ClassVar[tuple[str, ...]] = ()
    flag: ClassVar[str | None] = None
    needs_draw: ClassVar[bool] = True
    #: Offered only once the round is being played (results exist or are coming).
    needs_play: ClassVar[bool] = False

    def choices(self, tournament: Tournament) -> list[Choice]:
        return [Choice(name, {"round": number})
                for number, name in round_choices(tournament, *self.kinds, flag=self.flag,
                                                  drawn=self.needs_draw,
                                                  played=self.needs_play)]

    def get_data(self, tournament: Tournament, **options: Any) -> RoundDoc:
        doc = round_document(tournament, options["round"])
        if self.kinds and doc.kind not in self.kinds:
            raise DocumentError(gettext("{round}にはこの書類はありません。").format(round=doc.name))
        if self.needs_draw and not doc.drawn:
            raise DocumentError(gettext("{round}はまだ組分けの抽選をしていません。")
                                .format(round=doc.name))
        return doc

    def label(self, tournament: Tournament, **options: Any) -> str:
        number = options.get("round")
        title = gettext(self.title)
        if number is None:
            return title
        for n, name in round_choices(tournament):
            if n == number:
                return f"{name} {title}"
        return title
