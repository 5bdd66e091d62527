"""The final's 出題順シート prints only the games still needed (K10: first to two wins)."""

from __future__ import annotations

import re

import pytest

from brackets.models import Round, Tournament

pytestmark = pytest.mark.django_db


def _sheet_text(t: Tournament) -> str:
    from brackets.printing.registry import get_document
    from tests.printing.pdfcheck import pdf_text

    final = Round.objects.get(tournament=t, kind="partner_series")
    content = get_document("final-set-order").render(t, round=final.number)[2]
    return re.sub(r"\s+", "", pdf_text(content))


def test_set_order_sheet_leaves_out_game_3_after_a_2_0_final(final_won_2_0: Tournament) -> None:
    text = _sheet_text(final_won_2_0)
    assert "第1試合" in text and "第2試合" in text
    assert "第3試合は行いません（決着済み）。" in text
    # Game 3 is named once, in that note: no block of sets to ask for it.
    assert text.count("第3試合") == 1
    assert text.count("この試合の勝者") == 2


def test_set_order_sheet_keeps_game_3_while_the_final_is_open(final_game_2: Tournament) -> None:
    text = _sheet_text(final_game_2)
    assert text.count("この試合の勝者") == 3
    assert "行いません" not in text
