"""The composer's 下関 cards (#17): cards per draw and a redraw rule of "never" are saved
into the document; one card with a redraw rule is shown beside the redraw field. A ルール
選択 (K6) round's own 各組の勝ち抜け人数 is not offered (each rule's applies) and is kept."""

from __future__ import annotations

import re
from typing import Any

import pytest

from brackets.engine import RuleSet, ruleset_of
from brackets.forms.rulesets import PoliciesForm
from brackets.models import Tournament
from brackets.services.rulesets import current_version, ruleset_start
from tests.conftest import client_for
from tests.rulesets.helpers import edit_url, page_values, post_composer


def _field_block(html: str, field_id: str) -> str:
    start = html.index(f'id="{field_id}"')
    end = html.find('<div class="col-12 col-md-6 col-xl-4">', start)
    return html[start:end]


def _policies(**changes: str) -> PoliciesForm:
    rs = ruleset_of("kyushu-cup-ix")
    data = {f"p-{k}": v for k, v in PoliciesForm.initial_of(rs).items()
            if v not in (None, False)}
    data.update({f"p-{k}": v for k, v in changes.items()})
    return PoliciesForm(data, prefix="p")


@pytest.mark.parametrize(("value", "ok"), [("1", True), ("3", True), ("6", True),
                                           ("0", False), ("7", False), ("三", False)])
def test_cards_per_draw_is_a_whole_number_from_one_to_six(value: str, ok: bool) -> None:
    form = _policies(k7_cards_per_draw=value)
    assert form.is_valid() is ok
    if not ok:
        assert "k7_cards_per_draw" in form.errors


def test_never_is_a_redraw_rule_the_form_offers() -> None:
    assert _policies(k7_extra_card="never").is_valid()


@pytest.mark.django_db
def test_three_cards_without_redraw_are_saved_into_the_document(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="kyushu-cup-ix")
    html = client.get(edit_url(tournament.slug, ruleset.pk)).content.decode()
    cards = html[html.index('id="ruleset-cards"'):html.index('id="ruleset-shura"')]
    assert 'id="id_p-k7_cards_per_draw"' in cards and 'id="id_p-k7_extra_card"' in cards
    response = post_composer(client, tournament.slug, ruleset.pk,
                             **{"p-k7_cards_per_draw": "3", "p-k7_extra_card": "never"})
    assert response.status_code == 302
    cards_rule = RuleSet.from_dict(current_version(ruleset).document).cards
    assert (cards_rule.cards_per_draw, cards_rule.extra_card) == (3, "never")


@pytest.mark.django_db
def test_one_card_with_a_redraw_rule_is_shown_beside_the_redraw_field(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="kyushu-cup-ix")
    post_composer(client, tournament.slug, ruleset.pk, **{"p-k7_cards_per_draw": "1"})
    html = client.get(edit_url(tournament.slug, ruleset.pk)).content.decode()
    assert "要修正" in html
    assert "下関カードを1枚だけ引くときは" in _field_block(html, "id_p-k7_extra_card")


@pytest.mark.django_db
def test_a_k6_rounds_own_advancers_are_hidden_and_kept(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="kyushu-cup-ix")
    html = client.get(edit_url(tournament.slug, ruleset.pk)).content.decode()
    k6 = html[html.index('id="ruleset-round-3"'):html.index('id="ruleset-round-4"')]
    inputs = re.findall(r'<input[^>]*name="r-2-advance_per_group"[^>]*>', k6)
    assert len(inputs) == 1 and 'type="hidden"' in inputs[0]
    assert 'for="id_r-2-advance_per_group"' not in k6  # no label, no visible field
    assert "各組の勝ち抜け人数と出題制限は、ルールごとに指定します。" in k6
    # Rule A's and rule B's advancers are still offered with each rule.
    assert 'name="r-2-v-0-advance_per_group"' in k6 and 'name="r-2-v-1-advance_per_group"' in k6
    # A group round keeps its field.
    r2 = html[html.index('id="ruleset-round-2"'):html.index('id="ruleset-round-3"')]
    assert 'name="r-1-advance_per_group"' in r2 and 'type="hidden" name="r-1-advance' not in r2

    before = ruleset_of("kyushu-cup-ix").rounds[2].advance_per_group
    values = page_values(html)
    assert values["r-2-advance_per_group"] == str(before)
    post_composer(client, tournament.slug, ruleset.pk, **{"p-description": "K6 kept"})
    saved = RuleSet.from_dict(current_version(ruleset).document)
    assert saved.description == "K6 kept"
    assert saved.rounds[2].advance_per_group == before
