"""The console and the stage scoreboard draw the engine's display hints and decide no rule."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from brackets.engine.buzzer import PRESETS, SCORING, RoundConfig, Rule, display_hints
from brackets.models import Tournament
from tests.buzzer_web.factories import make_round, players, tap, url

ABC = PRESETS.get("abc-the25th-004")

JS = Path(__file__).resolve().parents[2] / "brackets/static/brackets/buzzer.js"


def test_scoreboard_point_unit_matches_the_console() -> None:
    """The stage's unit is the console's "P", not an English "pts".

    Both screens take the unit from the payload's ``display.unit``, which says "P" for
    every scoring that shows points.
    """
    js = JS.read_text()
    assert '"pts"' not in js
    assert 'className: "bzb-unit", text: unit' in js
    assert "var unit = display(s).unit;" in js
    assert 'text: String(p.main) + display(s).unit' in js
    for slug in SCORING.slugs():
        hints = display_hints(RoundConfig(scoring=Rule(slug)))
        assert hints["unit"] == ("P" if hints["main"] == "points" else "○")


def test_the_javascript_compares_no_scoring_or_rule_slug() -> None:
    """Which number, unit, factors, sets and tie-break name a round shows come from hints."""
    js = JS.read_text()
    assert "POINT_SCORINGS" not in js
    for field in ("scoring", "tie_rule", "sets_to_win", "format"):
        assert not re.search(rf"\.{field}\b", js), field
    # "board" is also an operator action the engine allows (Allowed.round), so it may appear.
    slugs = [s for s in SCORING.slugs() if s != "board"] + ["split-1o1x", "rank", "written"]
    for slug in slugs:
        assert f'"{slug}"' not in js, slug


@pytest.mark.django_db
def test_payloads_carry_the_display_hints(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    """The public state and the console state both say how the round is displayed."""
    config = RoundConfig(
        scoring=Rule("by", {"n": 10}), win=Rule("points-at-least", {"n": 50}), slots=1
    )
    round_ = make_round(tournament, 3, config)
    kwargs = {"slug": tournament.slug, "round_id": round_.pk}
    for client, name in (
        (clients["anonymous"], "public_buzzer_state"),
        (clients["bracket"], "buzzer_console_state"),
    ):
        body = client.get(reverse(name, kwargs=kwargs)).json()
        assert body["display"] == {
            "main": "points",
            "unit": "P",
            "factors": True,
            "sets": False,
            "tiebreak": "sudden_death",
        }
        assert [p["factors"] for p in body["players"]] == [[0, 10]] * 3
        assert [p["main"] for p in body["players"]] == [0, 0, 0]


@pytest.mark.django_db
def test_triple_seven_screens_get_the_sets_taken(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament, players=3, config=ABC.round("final").config, name="決勝")
    for _ in range(7):
        body = tap(clients["bracket"], round_, kind="correct", player="s1")
    rows = players(body)
    # The set is taken: ○ start again from 0, so the sets are the only trace of it.
    assert rows["s1"]["correct"] == 0 and rows["s1"]["sets"] == 1
    assert body["round"]["sets_to_win"] == 3
    public = clients["anonymous"].get(url("public_buzzer_state", round_)).json()
    assert public["round"]["sets_to_win"] == 3
    assert players(public)["s1"]["sets"] == 1
    # The badge text is in the translated string blob the scripts read.
    page = clients["anonymous"].get(url("public_buzzer_scoreboard", round_)).content.decode()
    blob = re.search(r'<script id="bz-i18n" type="application/json">(.*?)</script>', page)
    assert blob is not None and "{n}セット" in json.loads(blob.group(1))


@pytest.mark.django_db
def test_a_round_without_sets_says_so(tournament: Tournament, clients: dict[str, Client]) -> None:
    round_ = make_round(tournament, players=2, config=ABC.round("3r-freeze").config)
    body = clients["anonymous"].get(url("public_buzzer_state", round_)).json()
    assert body["round"]["sets_to_win"] is None


@pytest.mark.django_db
def test_playoff_rounds_tell_the_screens_to_say_playoff(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    """M3/M5 ties go to an 早押しプレーオフ (L11 keeps サドンデス): the screens need the rule."""
    nine = make_round(tournament, players=3, config=ABC.round("sf-1").config, name="SF")
    body = clients["anonymous"].get(url("public_buzzer_state", nine)).json()
    assert body["round"]["tie_rule"] == "playoff"
    page = clients["anonymous"].get(url("public_buzzer_scoreboard", nine)).content.decode()
    blob = re.search(r'<script id="bz-i18n" type="application/json">(.*?)</script>', page)
    assert blob is not None
    strings = json.loads(blob.group(1))
    assert {"プレーオフ", "プレーオフ（{side}）が必要です", "プレーオフを開始（別画面）"} <= set(strings)


@pytest.mark.django_db
def test_new_screen_strings_are_in_the_blob(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament, players=3, config=ABC.round("sf-1").config)
    page = clients["anonymous"].get(url("public_buzzer_scoreboard", round_)).content.decode()
    blob = re.search(r'<script id="bz-i18n" type="application/json">(.*?)</script>', page)
    assert blob is not None
    assert {
        "{n}問 終了 ・ プレーオフ待ち", "{n}問 終了 ・ サドンデス待ち", "プレーオフの結果を元のラウンドに反映"
    } <= set(
        json.loads(blob.group(1))
    )
