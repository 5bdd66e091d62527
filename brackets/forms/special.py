"""One form per write of a round's special page (K6 rule choices, K9/K10 partners, dice,
the final's setup, a withdrawal) and of the 修羅 desk (views/rounds/special.py, shura.py).

Entrant ids are read here; the views look them up in the tournament (404 for another
tournament's entrant), and the services decide whether the write is allowed.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from brackets.forms.fields import CHECK_INPUT, BoundedText, Number, RefusalForm, Text, TextList


class RuleChoiceForm(RefusalForm):
    """K6: the rule a player asks for."""

    entrant = Number()
    rule = Text()


class PartnerForm(RefusalForm):
    """K9/K10: a contender's partner. ``partner`` is None when none was picked (the view
    names the contender in that refusal)."""

    contender = Number()
    partner = Text()

    def clean_partner(self) -> int | None:
        raw = self.cleaned_data["partner"]
        if not raw.strip():
            return None
        try:
            return int(raw)
        except ValueError as exc:
            raise ValidationError(str(CHECK_INPUT)) from exc


class DiceForm(RefusalForm):
    """K10: the dice between the two finalists, drawn by the app or typed as rolls
    (``5-3 2-6``: one pair per throw, ``a``'s die first)."""

    a = Number()
    b = Number()
    rolls = Text()

    def clean_rolls(self) -> list[tuple[int, ...]] | None:
        raw = self.cleaned_data["rolls"]
        if not raw.strip():
            return None
        try:
            return [tuple(int(x) for x in pair.split("-")) for pair in raw.split()]
        except ValueError as exc:
            raise ValidationError(str(CHECK_INPUT)) from exc


class WithdrawalForm(RefusalForm):
    """棄権: who withdraws; the view refuses an empty reason once it knows who."""

    entrant = Number()
    reason = BoundedText("reason")


class FinalSetupForm(RefusalForm):
    """K10: what the dice winner decided (seat order or question order) and the result."""

    winner_decides = Text()
    first = Number()
    question_order = Text()


class ShuraLotsForm(RefusalForm):
    """H4/H5: one 修羅 entrant's lots, drawn by the app or recorded from the box
    (``method=physical`` with the genres drawn)."""

    entrant = Number(blank_as_missing=True)
    method = Text()
    # Which genres and formats exist is the service's (and the catalog's) to say.
    genre = TextList()
    format = TextList()
    # H5: how many format lots the player declares (0…k); blank means not asked.
    format_lots = Text()

    def clean_format_lots(self) -> int | None:
        raw = self.cleaned_data["format_lots"].strip()
        if raw == "":
            return None
        if not raw.isdigit():
            raise ValidationError(_("形式くじの本数は0以上の整数で選んでください。"),
                                  code="invalid")
        return int(raw)

    def clean(self) -> dict[str, Any]:
        """A box draw names each lot once (lots are drawn without putting them back): a
        repeated lot is refused by name and place, before the service sees the draw.
        Blank selects are left out (H5: fewer format lots than allowed may be drawn); the
        service says how many genre lots are owed."""
        data = super().clean()
        if data.get("method") != "physical":
            return data
        for name, kind in (("genre", _("ジャンルくじ")), ("format", _("形式くじ"))):
            chosen = data.get(name) or []
            repeated = next((lot for i, lot in enumerate(chosen) if lot and lot in chosen[:i]), None)
            if repeated is not None:
                first = chosen.index(repeated)
                raise ValidationError(
                    _("%(kind)s「%(lot)s」が%(first)d本目と%(second)d本目の両方で選ばれています。"
                      "くじは戻さずに引くので、同じくじは1本だけです。選び直してください。")
                    % {"kind": kind, "lot": repeated, "first": first + 1,
                       "second": chosen.index(repeated, first + 1) + 1},
                    code="repeated_lot")
        return data

    def physical_genres(self) -> list[str] | None:
        """The genres drawn from the box, or None for an app draw."""
        if self.cleaned_data["method"] != "physical":
            return None
        return [g for g in self.cleaned_data["genre"] if g]

    def formats(self) -> list[str]:
        return [f for f in self.cleaned_data["format"] if f]
