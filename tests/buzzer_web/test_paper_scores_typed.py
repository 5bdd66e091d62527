"""The paper round typed by hand (M1): each player's total, first-half count and the two
runs, one line each; ranked by the engine like a mark sheet. A line that cannot be read,
a name twice, or numbers no sheet could give is refused naming the line, storing nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from brackets.models import PaperMarking, Tournament
from brackets.selectors.buzzer_paper import paper_ranked
from brackets.services.buzzer import BuzzerRefused
from brackets.services.buzzer_paper import paper_scores_enter

pytestmark = pytest.mark.django_db


def _enter(tournament: Tournament, text: str) -> PaperMarking:
    return paper_scores_enter(tournament=tournament, name="1R", questions=100,
                              first_half=50, text=text)


def test_typed_scores_rank_by_total_then_first_half_then_the_runs(
    tournament: Tournament,
) -> None:
    marking = _enter(tournament, "丙,60,30,5,2\n甲,60,31,1,1\n乙,61,20,0,0\n丁,60,30,5,4")
    ranked = paper_ranked(tournament, marking)
    assert [(s.player, s.decided_by) for s in ranked] == [
        ("乙", None), ("甲", "total"), ("丁", "first_half"), ("丙", "streak2")]


@pytest.mark.parametrize(("text", "message"), [
    ("甲,60,30,5", "1行目: 「名前,合計,前半,第1連答,第2連答」の形で"),
    ("甲,60,30,5,2\n乙,x,1,1,1", "2行目: 「名前,合計,前半,第1連答,第2連答」の形で"),
    ("甲,60,30,5,2\n甲,50,20,1,1", "2行目: 「甲」が2回あります。"),
    ("甲,40,45,1,1", "1行目: 「甲」の合計・前半・連答数は100問の解答用紙ではありえない組み合わせです。"),
    ("甲,101,50,1,1", "1行目: 「甲」の合計・前半・連答数は100問の解答用紙では"),
    ("", "点数を1人以上入力してください。"),
])
def test_a_bad_line_is_refused_naming_it_and_nothing_is_stored(
    tournament: Tournament, text: str, message: str
) -> None:
    with pytest.raises(BuzzerRefused) as refused:
        _enter(tournament, text)
    assert message in refused.value.message
    assert not PaperMarking.objects.exists()


def test_the_paper_page_takes_typed_scores_instead_of_a_sheet(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    url = reverse("paper_upload", kwargs={"slug": tournament.slug})
    org = clients["organiser"]
    response = org.post(url, {"name": "1R", "questions": "100", "first_half": "50",
                              "scores": "甲,70,40,3,2\n乙,71,30,0,5"})
    assert response.status_code == 302
    marking = PaperMarking.objects.get()
    assert [s.player for s in paper_ranked(tournament, marking)] == ["乙", "甲"]
    neither = org.post(url, {"name": "1R", "questions": "100", "first_half": "50"})
    assert "採点シートを選ぶか、点数を入力してください。" in neither.content.decode()
    bad = org.post(url, {"name": "1R", "questions": "100", "first_half": "50",
                         "scores": "甲,70,40,3"})
    assert "1行目: 「名前,合計,前半,第1連答,第2連答」の形で" in bad.content.decode()
    assert PaperMarking.objects.count() == 1
