"""The composer's 修羅 fields (#17): what each achievement owes, 修羅の道, past champions'
format lots, saved into the document; contradictions shown in Japanese beside their
field; a rule file exported before these fields existed still imports as 堅田's rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from brackets.engine.rulesets import RuleSet, ruleset_of
from brackets.forms.rulesets import PoliciesForm
from brackets.models import RuleSetVersion, Tournament
from brackets.services.rulesets import current_version, ruleset_import, ruleset_start
from tests.conftest import client_for
from tests.rulesets.helpers import edit_url, post_composer

OLD_FILE = Path(__file__).resolve().parent / "files" / "katata-exported-before-shura-rules.json"


def _field_block(html: str, field_id: str) -> str:
    start = html.index(f'id="{field_id}"')
    end = html.find('<div class="col-12 col-md-6 col-xl-4">', start)
    return html[start:end]


def test_policies_form_shows_katatas_shura_as_its_initial_values() -> None:
    initial = PoliciesForm.initial_of(ruleset_of("katata-kansai5-qualifier"))
    assert {k: initial[k] for k in ("national_title_lots", "shiga_winner_lots",
                                    "seed_or_invitation_lots", "voluntary",
                                    "champion_format_lots")} == {
        "national_title_lots": 1, "shiga_winner_lots": 1, "seed_or_invitation_lots": 1,
        "voluntary": True, "champion_format_lots": True}


@pytest.mark.parametrize(("value", "ok"), [("0", True), ("4", True), ("5", False),
                                           ("-1", False), ("一", False)])
def test_lots_per_achievement_are_whole_numbers_up_to_four(value: str, ok: bool) -> None:
    rs = ruleset_of("katata-kansai5-qualifier")
    data = {f"p-{k}": v for k, v in PoliciesForm.initial_of(rs).items()
            if v not in (None, False)}
    data["p-national_title_lots"] = value
    form = PoliciesForm(data, prefix="p")
    assert form.is_valid() is ok
    if not ok:
        assert "national_title_lots" in form.errors


@pytest.mark.django_db
def test_composed_shura_is_saved_into_the_document(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="katata-kansai5-qualifier")
    response = post_composer(client, tournament.slug, ruleset.pk,
                             **{"p-national_title_lots": "2", "p-seed_or_invitation_lots": "0",
                                "p-voluntary": None, "p-champion_format_lots": None})
    assert response.status_code == 302
    shura = RuleSet.from_dict(current_version(ruleset).document).shura
    assert (shura.national_title, shura.shiga_winner, shura.seed_or_invitation,
            shura.voluntary, shura.champion_format_lots) == (2, 1, 0, False, False)
    html = client.get(edit_url(tournament.slug, ruleset.pk)).content.decode()
    assert "使用可" in html and "要修正" not in html


@pytest.mark.django_db
def test_a_ground_over_the_cap_is_shown_beside_its_field(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="katata-kansai5-qualifier")
    post_composer(client, tournament.slug, ruleset.pk,
                  **{"p-max_lots": "2", "p-shiga_winner_lots": "3"})
    html = client.get(edit_url(tournament.slug, ruleset.pk)).content.decode()
    assert "要修正" in html
    assert ("地元大会での優勝経験者のくじ（3本）が修羅くじの上限（2本）を超えています"
            in _field_block(html, "id_p-shiga_winner_lots"))


@pytest.mark.django_db
def test_lots_owed_while_shura_is_off_is_shown_beside_the_switch(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="katata-kansai5-qualifier")
    post_composer(client, tournament.slug, ruleset.pk,
                  **{"p-shura": None, "p-mode_source": "by_q", "p-national_title_lots": "2"})
    html = client.get(edit_url(tournament.slug, ruleset.pk)).content.decode()
    assert "修羅の道が「なし」なのに" in _field_block(html, "id_p-shura")


@pytest.mark.django_db
def test_a_rule_file_exported_before_the_shura_fields_imports_as_katatas(
        cast: dict[str, Any]) -> None:
    ruleset = ruleset_import(by=cast["organiser"], content=OLD_FILE.read_bytes(),
                             filename=OLD_FILE.name)
    version = current_version(ruleset)
    assert RuleSet.from_dict(version.document) == ruleset_of("katata-kansai5-qualifier")
    assert RuleSetVersion.objects.filter(ruleset=ruleset).count() == 1
