"""The composer's pages (#17): problems in Japanese beside their fields, drafts kept and
refused for a tournament, bad input changing nothing, files refused with the reason."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from brackets.engine.rulesets import RULESET_VERSION, ruleset_of
from brackets.models import RuleSetDoc, RuleSetVersion, Tournament
from brackets.services.rulesets import current_version, ruleset_start
from tests.conftest import client_for
from tests.rulesets.helpers import edit_url, post_composer


def _field_block(html: str, field_id: str) -> str:
    """The composer's markup from a field's input to the next field."""
    start = html.index(f'id="{field_id}"')
    end = html.find('<div class="col-12 col-md-6 col-xl-4">', start)
    return html[start:end]


@pytest.mark.django_db
def test_a_problem_is_shown_in_japanese_beside_its_field_and_the_draft_is_kept(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="katata-kansai5-qualifier")
    response = post_composer(client, tournament.slug, ruleset.pk,
                             **{"p-pinpoint_min_q": "90", "l-final_size": "9"})
    assert response.status_code == 302
    assert current_version(ruleset).number == 2
    html = client.get(edit_url(tournament.slug, ruleset.pk)).content.decode()
    assert "要修正" in html
    assert "ピンポイントの開始Qレベル（90）" in _field_block(html, "id_p-pinpoint_min_q")
    assert "決勝は1組です" in _field_block(html, "id_l-final_size")


@pytest.mark.django_db
def test_a_round_problem_is_shown_beside_the_round_field(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="kyushu-cup-ix")
    post_composer(client, tournament.slug, ruleset.pk, **{"r-2-size": "24"})
    html = client.get(edit_url(tournament.slug, ruleset.pk)).content.decode()
    assert "3回戦は24名ですが" in _field_block(html, "id_r-2-size")


@pytest.mark.django_db
def test_input_the_form_cannot_read_saves_nothing(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="shop-top2")
    response = post_composer(client, tournament.slug, ruleset.pk,
                             **{"p-bomber_min_q": "八十", "l-single_advance_rounds": "1,x"})
    assert response.status_code == 400
    assert "整数" in response.content.decode()
    assert RuleSetVersion.objects.filter(ruleset=ruleset).count() == 1


@pytest.mark.django_db
def test_a_draft_with_problems_is_refused_on_the_new_tournament_page(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    admin = client_for(cast["admin"])
    ruleset = ruleset_start(by=cast["admin"], preset="shop-top2")
    post_composer(admin, tournament.slug, ruleset.pk,
                  **{"p-tie_break_1": "", "p-tie_break_2": "", "p-tie_break_3": ""})
    response = admin.post(reverse("tournament_new"), {
        "name": "店舗大会", "slug": "shop9", "capacity": 64, "seed_slots": 8, "fee": 0,
        "version": tournament.version_id, "preset": "shop-top2", "status": "preparing",
        "ruleset": ruleset.pk})
    assert response.status_code == 200
    assert "要修正" in response.content.decode()
    assert not Tournament.objects.filter(slug="shop9").exists()


@pytest.mark.django_db
def test_a_newer_rule_file_is_refused_on_the_page_with_the_reason(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    data = {**ruleset_of("shop-top2").to_dict(), "version": RULESET_VERSION + 1}
    upload = SimpleUploadedFile("next.json", json.dumps(data).encode(), "application/json")
    response = client.post(reverse("ruleset_import", kwargs={"slug": tournament.slug}),
                           {"file": upload})
    assert response.status_code == 400
    assert f"第{RULESET_VERSION + 1}版" in response.content.decode()
    assert not RuleSetDoc.objects.exists()


@pytest.mark.django_db
def test_the_exported_file_is_the_newest_version(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="shop-top2")
    post_composer(client, tournament.slug, ruleset.pk, **{"p-name": "店舗大会・改"})
    response = client.get(reverse("ruleset_export", kwargs={"slug": tournament.slug,
                                                            "ruleset_id": ruleset.pk}))
    assert response["Content-Disposition"].endswith('-v2.json"')
    assert json.loads(response.content)["name"] == "店舗大会・改"


@pytest.mark.django_db
def test_a_started_tournament_offers_to_clone_its_rules_instead_of_applying(
        round_1_running: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    before = (round_1_running.preset, dict(round_1_running.preset_settings))
    ruleset = ruleset_start(by=cast["organiser"], preset="shop-top2")
    url = reverse("ruleset_apply", kwargs={"slug": round_1_running.slug,
                                           "ruleset_id": ruleset.pk})
    page = client.post(url, follow=True).content.decode()
    assert "開始済み" in page and "この大会のルールを複製" in page
    round_1_running.refresh_from_db()
    assert (round_1_running.preset, round_1_running.preset_settings) == before


@pytest.mark.django_db
def test_a_rule_set_tournament_keeps_its_rules_through_the_settings_form(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    from brackets.services.rulesets import tournament_ruleset_apply

    ruleset = ruleset_start(by=cast["organiser"], preset="shop-top2")
    tournament_ruleset_apply(tournament=tournament, version=current_version(ruleset),
                             by=cast["organiser"])
    rules = dict(tournament.preset_settings)
    client = client_for(cast["organiser"])
    response = client.post(reverse("tournament_edit", args=[tournament.slug]), {
        "name": "九州杯IX・改", "slug": tournament.slug, "capacity": 64, "seed_slots": 8,
        "fee": 0, "version": tournament.version_id, "preset": tournament.preset,
        "status": tournament.status})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.preset_settings) == ("九州杯IX・改", rules)
    rounds = client.get(reverse("rounds_index", args=[tournament.slug])).content.decode()
    assert "ルールセット「店舗大会" in rounds
    settings = client.get(reverse("preset_settings", args=[tournament.slug])).content.decode()
    assert 'id="settings-ruleset"' in settings


@pytest.mark.django_db
def test_a_rule_set_tournament_has_its_rule_page_and_rehearsal_from_its_own_copy(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    from brackets.services.rulesets import tournament_ruleset_apply

    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="shop-top2")
    tournament_ruleset_apply(tournament=tournament, version=current_version(ruleset),
                             by=cast["organiser"])
    post_composer(client, tournament.slug, ruleset.pk,
                  **{"p-illegal": "penalty", "p-penalty": "300"})
    page = client_for(None).get(reverse("public_rules", args=[tournament.slug])).content
    assert "基本ルール" in page.decode() and "300点" not in page.decode()
    rehearsal = client.post(reverse("rules_rehearsal", args=[tournament.slug]), {
        "entrants": 12, "seeds": 0, "runs": 1, "seed": 1, "minutes": 10})
    assert rehearsal.status_code == 200
    assert "1回戦" in rehearsal.content.decode()
