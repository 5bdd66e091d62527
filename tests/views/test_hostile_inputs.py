"""Hostile or clumsy values on the staff forms get a clear error in Japanese and change
nothing, never a 500 (issue 19, defect 4)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from brackets.models import BuzzerRound, Group, SpecialFact, Tournament
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def group(round_1_running: Tournament) -> Group:
    return Group.objects.filter(round__tournament=round_1_running,
                                round__number=1).order_by("number").first()


@pytest.mark.parametrize("entrant", ["abc", "", "1.5", "9" * 40, "-3"])
def test_ban_form_refuses_an_entrant_that_is_not_an_id(group: Group, cast: dict[str, Any],
                                                       entrant: str) -> None:
    url = reverse("match_special", kwargs={"slug": group.round.tournament.slug,
                                           "group_id": group.id})
    response = client_for(cast["bracket"]).post(
        url, {"action": "ban", "entrant": entrant, "genre": "芸能"})
    assert response.status_code in (400, 404)
    assert not SpecialFact.objects.filter(kind=SpecialFact.Kind.BAN).exists()


@pytest.mark.parametrize("entrant", ["abc", "1.5", "9" * 40])
def test_shura_form_refuses_an_entrant_that_is_not_an_id(tournament: Tournament,
                                                         cast: dict[str, Any],
                                                         entrant: str) -> None:
    url = reverse("shura_desk", kwargs={"slug": tournament.slug})
    response = client_for(cast["desk"]).post(url, {"entrant": entrant, "method": "app"})
    assert response.status_code in (200, 400, 404)
    if response.status_code != 404:
        assert "入力を確認してください" in response.content.decode()
    assert not SpecialFact.objects.filter(kind=SpecialFact.Kind.SHURA_LOTS).exists()


@pytest.mark.parametrize(("field", "value"), [("slots", "-1"), ("slots", "9" * 40),
                                            ("question_limit", "1e9"), ("advantages", "3,x"),
                                            ("win__correct-at-least__n", "0"), ("scoring", "[]")])
def test_buzzer_round_setting_out_of_range_is_refused(
        tournament: Tournament, cast: dict[str, Any], field: str, value: str) -> None:
    from tests.buzzer_web.factories import round_form_data

    url = reverse("buzzer_round_new", kwargs={"slug": tournament.slug})
    response = client_for(cast["organiser"]).post(
        url, round_form_data(name="2R", players="甲\n乙", **{field: value}))
    assert response.status_code == 200  # the form again, with its error
    assert response.context["form"].errors[field]
    assert not BuzzerRound.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize("template", ["abc", " ", "Infinity", "9" * 40, "１"])
def test_new_buzzer_round_from_a_template_that_is_not_an_id_is_a_blank_form(
        tournament: Tournament, cast: dict[str, Any], template: str) -> None:
    url = reverse("buzzer_round_new", kwargs={"slug": tournament.slug})
    response = client_for(cast["organiser"]).get(url, {"from": template})
    assert response.status_code == 200
    assert not response.context["form"].initial


@pytest.mark.parametrize("action", ["penalty", "dq", "rematch"])
def test_a_reason_longer_than_the_facts_keep_is_refused(group: Group, cast: dict[str, Any],
                                                        action: str) -> None:
    """On PostgreSQL a 300-character reason was a 500 (the column holds 200)."""
    from brackets.models import DisqualificationFact, PenaltyFact, RematchFact

    url = reverse("match_action", kwargs={"slug": group.round.tournament.slug,
                                          "group_id": group.id})
    response = client_for(cast["bracket"]).post(
        url, {"action": action, "seat": "1", "points": "400", "reason": "x" * 300})
    assert response.status_code == 400
    assert "200文字以内" in response.content.decode()
    assert not (PenaltyFact.objects.exists() or DisqualificationFact.objects.exists()
                or RematchFact.objects.exists())
