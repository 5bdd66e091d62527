"""The buzzer pages carry their browser-built text translated, and show events by name.

buzzer.js builds the console and scoreboard in the browser, out of gettext's reach: every
``T("…")`` text must be in the JSON blob the templates render, or English users see Japanese.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from brackets.models import Tournament
from brackets.templatetags.buzzer_i18n import JS_STRINGS, PRESET_TITLES, buzzer_js_strings
from tests.buzzer_web.factories import make_round

BUZZER_JS = Path(settings.BASE_DIR) / "brackets" / "static" / "brackets" / "buzzer.js"
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def _js_texts() -> list[str]:
    return re.findall(r'\bT\("((?:[^"\\]|\\.)*)"', BUZZER_JS.read_text(encoding="utf-8"))


def test_every_js_text_is_in_the_catalogue_list() -> None:
    texts = _js_texts()
    assert texts, "buzzer.js should route its UI text through T()"
    assert set(texts) <= set(JS_STRINGS)


def test_no_japanese_left_outside_t_calls() -> None:
    code = BUZZER_JS.read_text(encoding="utf-8")
    code = re.sub(r"/\*.*?\*/", "", code, flags=re.DOTALL)
    code = re.sub(r"(?m)^\s*//.*$", "", code)
    code = re.sub(r'\bT\("(?:[^"\\]|\\.)*"', "T(", code)
    leftovers = [line.strip() for line in code.splitlines() if JAPANESE.search(line)]
    assert leftovers == []


def test_blob_maps_japanese_to_the_active_language() -> None:
    with translation.override("ja"):
        html = str(buzzer_js_strings())
    assert 'id="bz-i18n"' in html
    payload = json.loads(re.sub(r"^<script[^>]*>|</script>$", "", html))
    assert payload["第{n}問"] == "第{n}問"
    assert set(payload) == set(JS_STRINGS)


@pytest.mark.django_db
def test_console_and_scoreboard_render_the_blob(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    kwargs = {"slug": tournament.slug, "round_id": round_.pk}
    console = clients["bracket"].get(reverse("buzzer_console", kwargs=kwargs)).content.decode()
    board = clients["anonymous"].get(
        reverse("public_buzzer_scoreboard", kwargs=kwargs)).content.decode()
    for body in (console, board):
        blob = re.search(r'<script id="bz-i18n" type="application/json">(.*?)</script>', body)
        assert blob is not None
        assert json.loads(blob.group(1))["第{n}問"] == "第{n}問"
    assert '<html lang="ja">' in board


@pytest.mark.django_db
def test_presets_are_shown_by_event_not_seed_number(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    body = clients["organiser"].get(
        reverse("buzzer_presets", kwargs={"slug": tournament.slug})).content.decode()
    assert "Seed 00" not in body
    for title in PRESET_TITLES.values():
        assert str(title) in body
