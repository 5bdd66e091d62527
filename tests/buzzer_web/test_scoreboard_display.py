"""The console and the stage scoreboard draw the engine's display hints and decide no rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from brackets.engine.buzzer import SCORING, RoundConfig, Rule, display_hints
from brackets.models import Tournament
from tests.buzzer_web.factories import make_round

JS = Path(__file__).resolve().parents[2] / "brackets/static/brackets/buzzer.js"


def test_scoreboard_point_unit_matches_the_console() -> None:
    """The projector showed an English "pts" under every score; the console says "P".

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
