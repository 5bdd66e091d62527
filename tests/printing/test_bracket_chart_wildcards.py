"""The A3 bracket chart marks wildcards (追加勝ち抜け) as the web bracket does."""

from __future__ import annotations

import re

import pytest

from brackets.models import Tournament

pytestmark = pytest.mark.django_db


def test_bracket_chart_marks_every_wildcard_and_only_wildcards(kyushu_finished: Tournament) -> None:
    from brackets.printing.bracket_chart import chart_columns
    from brackets.printing.registry import get_document
    from brackets.selectors.round_documents import round_choices, round_document
    from tests.printing.pdfcheck import pdf_text

    t = kyushu_finished
    docs = [round_document(t, n) for n, _name in round_choices(t)]
    wildcards = {(d.name, s.entrant_id) for d in docs for g in d.groups for s in g.seats
                 if s.advanced == "追加勝ち抜け"}
    assert wildcards, "the state should have wildcards to mark"
    marked = set()
    for column, doc in zip(chart_columns(docs), docs, strict=False):
        for box in column.boxes:
            for row in box.wild:
                marked.add((doc.name, box.rows[row][4]))
                assert box.rows[row][3], "a wildcard row is an advanced row"
    assert marked == wildcards
    text = re.sub(r"\s+", "", pdf_text(get_document("bracket-chart").render(t)[2]))
    assert "WC＝追加勝ち抜け" in text
    assert text.count("WC") >= len(wildcards) + 1
