"""The composer's buttons (#17): 空から作成 as a ladder, and the add / move buttons given
values no page shows: the page comes back, nothing is saved, nothing breaks."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from brackets.engine import LadderRules, RuleSet
from brackets.models import RuleSetDoc, RuleSetVersion, Tournament
from brackets.services.rulesets import current_version
from tests.conftest import client_for
from tests.rulesets.helpers import edit_url, page_values

pytestmark = pytest.mark.django_db


def test_an_empty_ladder_starts_with_the_default_ladder_and_no_rounds(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    response = client.post(reverse("ruleset_start_empty", kwargs={"slug": tournament.slug}),
                           {"name": "店舗杯", "shape": "ladder"})
    ruleset = RuleSetDoc.objects.get()
    assert response.status_code == 302
    rs = RuleSet.from_dict(current_version(ruleset).document)
    assert (rs.name, rs.ladder, rs.rounds) == ("店舗杯", LadderRules(), ())
    assert rs.slug.startswith("composed-")
    html = client.get(edit_url(tournament.slug, ruleset.pk)).content.decode()
    assert 'id="ruleset-ladder"' in html and 'id="ruleset-add-round"' not in html


def test_an_empty_start_without_a_name_is_refused_in_japanese(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    response = client_for(cast["organiser"]).post(
        reverse("ruleset_start_empty", kwargs={"slug": tournament.slug}),
        {"name": "", "shape": "rounds"})
    assert response.status_code == 400
    assert "このフィールドは必須です" in response.content.decode()
    assert not RuleSetDoc.objects.exists()


@pytest.mark.parametrize("button", [
    {"move": "0:up"}, {"move": "9:down"}, {"move": "x"}, {"add_variant": "99"},
    {"add_variant": "-"}, {"add_round": "1", "r-TOTAL_FORMS": "500"},
    {"add_round": "1", "r-TOTAL_FORMS": "x"}, {"add_variant": "0", "r-0-v-TOTAL_FORMS": "9"},
])
def test_buttons_with_values_no_page_shows_save_nothing(
        tournament: Tournament, cast: dict[str, Any], button: dict[str, str]) -> None:
    client = client_for(cast["organiser"])
    client.post(reverse("ruleset_start_empty", kwargs={"slug": tournament.slug}),
                {"name": "空の大会", "shape": "rounds"})
    ruleset = RuleSetDoc.objects.get()
    url = edit_url(tournament.slug, ruleset.pk)
    values = page_values(client.get(url).content.decode())
    response = client.post(url, {**values, **button})
    assert response.status_code == 200
    assert RuleSetVersion.objects.count() == 1
