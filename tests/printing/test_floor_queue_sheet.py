"""呼び出し表 (floor-queue): one A4 page per cabinet set, the group in play first, then the
groups the queue expects there, with the Japanese font embedded."""

from __future__ import annotations

import os
from typing import Any

import pytest

from brackets.models import Round, Tournament
from brackets.printing.registry import DocumentError, get_document
from brackets.services import floor as floor_svc
from tests.printing.pdfcheck import page_count, pdf_text
from tests.states import kyushu_state

pytestmark = pytest.mark.django_db


def compact(text: str) -> str:
    return "".join(text.split())


def test_the_call_sheet_prints_each_sets_group_and_its_queue(tournament: Tournament,
                                                              cast: dict[str, Any]) -> None:
    kyushu_state(tournament, cast["desk"], "round_1_running", count=58, seeds=0)
    rnd = Round.objects.get(tournament=tournament, number=1)
    a = floor_svc.cabinet_set_add(tournament=tournament, name="A台（1〜4番サテ）",
                                  by=cast["organiser"])
    floor_svc.cabinet_set_add(tournament=tournament, name="B台（5〜8番サテ）",
                              by=cast["organiser"])
    first, second = floor_svc.floor_call_next(round=rnd, by=cast["organiser"])
    doc = get_document("floor-queue")
    _name, content_type, both = doc.render(tournament, round=1)
    assert content_type == "application/pdf" and page_count(both) == 2
    _name, _type, one = doc.render(tournament, set=a.id)  # the floor page's link
    os.makedirs("/tmp/shots/floor", exist_ok=True)
    with open("/tmp/shots/floor/floor-queue-A.pdf", "wb") as out:
        out.write(one)
    text = compact(pdf_text(one))
    assert "1回戦A台（1〜4番サテ）呼び出し表" in text
    assert "対戦中" in text
    seated = first.group.seats.filter(superseded_by__isnull=True, entrant__isnull=False)
    assert all(compact(s.entrant.name) in text for s in seated)
    # A台's planned queue: every other waiting group, C組 first (A組 and B組 are playing).
    assert text.index("対戦中") < text.index("選手", text.index("対戦中"))
    assert second.group.seats.first().entrant.name not in text
    with pytest.raises(DocumentError, match="台"):
        doc.render(tournament, round=1, set=99999)
