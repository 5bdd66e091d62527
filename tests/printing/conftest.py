"""Named tournament states for the document tests: 九州杯IX played to the end, and 堅田大会
with 修羅 lots drawn and round 1 drawn."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Tournament
from tests.printing.world import build_katata, build_kyushu


@pytest.fixture
def kyushu_finished(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    build_kyushu(tournament, cast["organiser"])
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def katata_drawn(other_tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    build_katata(other_tournament, cast["organiser"])
    other_tournament.refresh_from_db()
    return other_tournament
