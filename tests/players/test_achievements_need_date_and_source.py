"""Achievements entered by hand carry a game version, a date and a source; one without a
date or a source is refused in Japanese and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from brackets.models import Achievement, Tournament
from brackets.services.players import player_create
from tests.conftest import client_for

GOOD = {"kind": "national_title", "title": "賢帝", "game_version": "tg",
        "held_on": "2016-03-01", "source": "QMA公式 全国大会結果"}


@pytest.mark.parametrize("missing, message", [
    ("held_on", "日付のない実績は登録できません。"),
    ("source", "出典のない実績は登録できません。"),
])
def test_achievement_without_date_or_source_is_refused(
        tournament: Tournament, cast: dict[str, Any], missing: str, message: str) -> None:
    player = player_create(name="A", reading="", card_name="A", q_level=1, by=None)
    data = {**GOOD, missing: ""}
    response = client_for(cast["desk"]).post(
        reverse("registry_achievement_add", args=[tournament.slug, player.pk]), data)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Achievement.objects.exists()


def test_achievement_with_date_and_source_is_recorded_with_who(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player = player_create(name="A", reading="", card_name="A", q_level=1, by=None)
    response = client_for(cast["desk"]).post(
        reverse("registry_achievement_add", args=[tournament.slug, player.pk]), GOOD)
    assert response.status_code == 302
    row = Achievement.objects.get()
    assert (row.title, row.game_version, str(row.held_on), row.by) == (
        "賢帝", "tg", "2016-03-01", cast["desk"])
    page = client_for(cast["desk"]).get(reverse("registry_player", args=[tournament.slug, player.pk]))
    assert "QMA公式 全国大会結果" in page.content.decode()


def test_the_service_refuses_a_blank_source_too(db: Any) -> None:
    from django.core.exceptions import ValidationError

    from brackets.services.players import achievement_add

    player = player_create(name="A", reading="", card_name="A", q_level=1, by=None)
    import datetime

    with pytest.raises(ValidationError) as refused:
        achievement_add(player=player, data={**GOOD, "held_on": datetime.date(2016, 3, 1),
                                             "source": "   "}, by=None)
    assert "source" in refused.value.message_dict
    assert not Achievement.objects.exists()
