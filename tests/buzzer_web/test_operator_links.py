"""What an operator running seed 004 from the event page finds (#16 item 5): the paper
round's results linked from its row, each round's state on its console button, a way back
from a console, a paper ranking and the question file page to the event."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from brackets.models import Tournament
from brackets.services.buzzer_paper import paper_scores_enter
from brackets.services.buzzer_presets import preset_round_seat
from tests.buzzer_web.factories import url

pytestmark = pytest.mark.django_db
PRESET = "abc-the25th-004"


def test_the_event_page_links_the_paper_round_and_says_how_each_group_stands(
    tournament: Tournament, clients: dict[str, Client], cast: dict[str, Any]
) -> None:
    marking = paper_scores_enter(tournament=tournament, name="1st Round", questions=100,
                                 first_half=50, text="甲,60,30,5,3\n乙,50,20,4,2",
                                 by=cast["organiser"])
    (group, *_rest) = preset_round_seat(
        tournament=tournament, preset=PRESET, round_slug="2r",
        first_round=[f"P{n:02d}" for n in range(1, 13)], groups=1)
    event = reverse("buzzer_event", kwargs={"slug": tournament.slug, "preset": PRESET})
    body = clients["organiser"].get(event).content.decode()
    paper_row = body[body.index("data-paper"):]
    assert reverse("paper_detail", kwargs={"slug": tournament.slug, "marking_id": marking.pk}) \
        in paper_row and reverse("paper_upload", kwargs={"slug": tournament.slug}) in paper_row
    assert 'data-status="preparing"' in body and "（準備中）" in body

    console = clients["bracket"].get(url("buzzer_console", group)).content.decode()
    assert 'id="bz-back-event"' in console and event in console
    paper = clients["bracket"].get(
        reverse("paper_detail", kwargs={"slug": tournament.slug, "marking_id": marking.pk}))
    assert "<title>1st Round - " in paper.content.decode() and event in paper.content.decode()
    questions = clients["bracket"].get(url("buzzer_questions", group)).content.decode()
    assert f"<title>問題ファイル: 2nd Round 連答つき5○2× {group.group_name}".rstrip() in questions
