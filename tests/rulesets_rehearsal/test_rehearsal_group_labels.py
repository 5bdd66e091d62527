"""The rehearsal's table of matches that ran out of choices names each group as the live
pages do, in the reader's language (「1組」 / "Group 1"), never the engine's fixed label."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings

from brackets.models import Tournament
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def _shortfall_groups(tournament: Tournament, cast: dict[str, Any], language: str) -> list[str]:
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    client = client_for(cast["organiser"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.post(f"/t/{tournament.slug}/rules/rehearsal/", {
        "entrants": "58", "seeds": "7", "runs": "3", "minutes": "12", "seed": "x"}
    ).content.decode()
    table = html[html.index('id="shortfalls-r4"'):]
    table = table[:table.index("</table>")]
    # The second cell of each row is the group.
    return [cells[1] for cells in (re.findall(r"<td[^>]*>(.*?)</td>", row)
                                   for row in re.findall(r"<tr>(.*?)</tr>", table)) if cells]


def test_rehearsal_groups_are_japanese_for_a_japanese_reader(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    groups = _shortfall_groups(tournament, cast, "ja")
    assert groups and all(re.fullmatch(r"\d+組", g) for g in groups)


def test_rehearsal_groups_are_english_for_an_english_reader(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    groups = _shortfall_groups(tournament, cast, "en")
    assert groups and all(re.fullmatch(r"Group \d+", g) for g in groups)
