"""The A3 bracket chart's 決勝 box: every game played, its winner and the champion."""

from __future__ import annotations

import re

import pytest

from brackets.models import Round, Tournament
from brackets.selectors import rounds as sel

pytestmark = pytest.mark.django_db


def _podium(t: Tournament) -> dict[str, str]:
    return {row.label: row.name for row in sel.podium(t)}


def test_bracket_chart_final_box_shows_games_and_champion(tournament_finished: Tournament) -> None:
    """The A3 chart's 決勝 box showed game 1's seats only: no scores, no winner, no 優勝."""
    from brackets.printing.bracket_chart import _series_box
    from brackets.printing.registry import get_document
    from brackets.selectors.round_documents import round_document
    from tests.printing.pdfcheck import pdf_text

    t = tournament_finished
    final = Round.objects.get(tournament=t, kind="partner_series")
    doc = round_document(t, final.number)
    box = _series_box(doc, 0)
    champion = _podium(t)["優勝"]
    gold = [box.rows[i] for i in box.gold]
    assert len(gold) == 1 and gold[0][1] == f"{champion}　優勝" and gold[0][2] == "2勝"
    played = [g for g in doc.groups if not g.unneeded]
    for g in played:
        i = next(i for i, r in enumerate(box.rows) if r[1].startswith(f"第{g.game}試合"))
        assert "–" in box.rows[i][2] and "勝ち：" in box.rows[i + 1][1]
    text = re.sub(r"\s+", "", pdf_text(get_document("bracket-chart").render(t)[2]))
    assert f"{champion}優勝" in text and f"勝ち：{champion}" in text
