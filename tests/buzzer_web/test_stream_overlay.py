"""The stream overlays (OBS browser source): public 1920×1080 pages with a transparent
background, fed the stage scoreboard's own payload and stream."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from brackets.models import Tournament
from brackets.selectors.buzzer import latest_seq
from brackets.services.buzzer import buzzer_event_append
from tests.buzzer_web.factories import make_round, url

pytestmark = pytest.mark.django_db

CSS = Path(settings.BASE_DIR) / "brackets" / "static" / "brackets" / "buzzer_overlay.css"
VARIANTS = ("public_buzzer_overlay_lower", "public_buzzer_overlay_side")


def initial_payload(body: str) -> dict[str, Any]:
    match = re.search(r'<script id="bz-initial" type="application/json">(.*?)</script>', body, re.DOTALL)
    assert match, "the page carries its initial payload"
    data: dict[str, Any] = json.loads(match.group(1))
    return data


@pytest.mark.parametrize("name", VARIANTS)
def test_the_overlay_is_public_and_has_a_transparent_background(
    tournament: Tournament, name: str
) -> None:
    round_ = make_round(tournament)
    response = Client().get(url(name, round_))
    body = response.content.decode()
    assert response.status_code == 200
    assert "background: transparent" in body
    assert "buzzer_overlay.css" in body and "buzzer_overlay.js" in body
    css = CSS.read_text(encoding="utf-8")
    assert "width: 1920px; height: 1080px" in css
    # Only the panels paint; the page itself never does.
    assert re.search(r"body\.bzo-page \{ background: transparent", css)


@pytest.mark.parametrize("name", VARIANTS)
def test_the_overlay_carries_the_stage_payload_and_stream(
    tournament: Tournament, name: str
) -> None:
    round_ = make_round(tournament)
    buzzer_event_append(round=round_, data={"kind": "correct", "player": "s2"},
                        expected_seq=latest_seq(round_.pk))
    client = Client()
    overlay = client.get(url(name, round_)).content.decode()
    stage = client.get(url("public_buzzer_scoreboard", round_)).content.decode()
    assert initial_payload(overlay) == initial_payload(stage)
    assert initial_payload(overlay)["display"]["unit"] == "○"
    assert url("public_buzzer_stream", round_) in overlay
    assert url("public_buzzer_state", round_) in overlay


def test_the_two_variants_differ_only_in_layout(tournament: Tournament) -> None:
    round_ = make_round(tournament)
    lower = Client().get(url(VARIANTS[0], round_)).content.decode()
    side = Client().get(url(VARIANTS[1], round_)).content.decode()
    assert 'data-variant="lower"' in lower and 'data-variant="side"' in side
