"""Preset round names are the rule pages' Japanese in Japanese and English in English.

The engine keeps each preset round's name as its rule page writes it (it is pure, no
gettext); the web layer translates the name at display time (brackets/labels.py
``round_name``), on the pages, in the stage's JSON and in the console. A round staff
renamed is shown as typed.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from brackets.engine.buzzer import PRESETS
from brackets.labels import PRESET_ROUND_NAMES, round_name
from brackets.models import BuzzerRound, Tournament
from brackets.services.buzzer_presets import preset_round_seat
from tests.buzzer_web.factories import url

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
ALL_NAMES = sorted({r.name for slug in PRESETS.slugs() for r in PRESETS.get(slug).rounds})


def test_every_preset_round_name_is_listed_for_translation() -> None:
    assert set(ALL_NAMES) == PRESET_ROUND_NAMES


@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_preset_round_name_reads_english_in_english(name: str) -> None:
    with translation.override("en"):
        english = round_name(name)
    assert not JAPANESE.search(english), english
    with translation.override("ja"):
        assert round_name(name) == name


def test_a_name_typed_by_staff_is_shown_as_typed() -> None:
    with translation.override("en"):
        assert round_name("予選 第1組") == "予選 第1組"


@pytest.mark.django_db
def test_event_page_console_and_stage_show_english_round_names_in_english(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    (round_, *_rest) = preset_round_seat(
        tournament=tournament, preset="abc-the25th-004", round_slug="2r",
        first_round=[f"P{n:02d}" for n in range(1, 13)], groups=1)
    assert round_.name == "2nd Round 連答つき5○2×"  # stored as the rule page writes it
    org, public = clients["organiser"], clients["anonymous"]
    for client in (org, public):
        client.cookies["django_language"] = "en"
    event = org.get(reverse("buzzer_event", kwargs={"slug": tournament.slug,
                                                    "preset": "abc-the25th-004"}))
    body = event.content.decode()
    assert "Final: Triple Seven" in body and "決勝 トリプルセブン" not in body
    assert "2nd Round: 5○2× with streaks" in body
    console = org.get(url("buzzer_console", round_)).content.decode()
    assert "<strong>2nd Round: 5○2× with streaks</strong>" in console
    state = public.get(url("public_buzzer_state", round_)).json()
    assert state["round"]["name"] == "2nd Round: 5○2× with streaks"
    stage = public.get(url("public_buzzer_scoreboard", round_)).content.decode()
    assert '<span id="bzb-round">2nd Round: 5○2× with streaks</span>' in stage

    org.cookies["django_language"] = "ja"
    assert "決勝 トリプルセブン" in org.get(event.request["PATH_INFO"]).content.decode()
    assert BuzzerRound.objects.get(pk=round_.pk).name == "2nd Round 連答つき5○2×"


@pytest.mark.django_db
def test_a_sudden_death_opened_in_english_is_stored_in_the_source_text_and_shown_in_either(
    tournament: Tournament,
) -> None:
    from brackets.selectors.buzzer import round_state
    from brackets.services.buzzer import buzzer_event_append, buzzer_tiebreak_open
    from tests.buzzer_web.factories import make_round, nomx

    parent = make_round(tournament, players=2, config=nomx(5, 2, slots=1, question_limit=1),
                        name="2nd Round 連答つき5○2×")
    buzzer_event_append(round=parent, data={"kind": "thru"}, expected_seq=0)
    with translation.override("en"):
        sub = buzzer_tiebreak_open(round=parent, side=round_state(parent).decisions[0].side)
        english = round_name(sub.name)
    assert sub.name == "2nd Round 連答つき5○2× サドンデス（勝ち抜け側）"
    assert english == "2nd Round: 5○2× with streaks sudden death (Advance side)"
    with translation.override("ja"):
        assert round_name(sub.name) == sub.name


def test_a_sudden_death_stored_in_english_earlier_still_shows() -> None:
    with translation.override("ja"):
        assert round_name("2R sudden death (Advance side)") == "2R sudden death (Advance side)"


def test_a_presets_group_reads_english_in_english_and_a_typed_group_as_typed() -> None:
    from brackets.labels import group_name

    with translation.override("en"):
        assert (group_name("A組"), group_name("AB組"), group_name("午前")) == (
            "Group A", "Group AB", "午前")
    with translation.override("ja"):
        assert group_name("A組") == "A組"
