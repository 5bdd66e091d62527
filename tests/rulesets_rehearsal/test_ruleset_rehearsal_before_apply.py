"""A rule set is rehearsed and its rule page read before it is applied (#17): the newest
version as composed, not the tournament's rules; a version with problems is refused with
them; nothing is saved and the tournament keeps its rules."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from brackets.engine import RuleSet
from brackets.models import RuleSetVersion, Tournament
from brackets.services.rulesets import current_version, ruleset_start
from tests.conftest import client_for
from tests.rulesets.helpers import edit_url, post_composer

pytestmark = pytest.mark.django_db

RUN = {"entrants": "40", "seeds": "0", "runs": "2", "minutes": "12", "seed": "x"}


def _url(name: str, tournament: Tournament, ruleset: Any) -> str:
    return reverse(name, kwargs={"slug": tournament.slug, "ruleset_id": ruleset.pk})


def test_a_rule_set_is_rehearsed_at_40_entrants_before_it_is_applied(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    preset_before = tournament.preset
    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="kyushu-cup-ix")
    page = client.get(edit_url(tournament.slug, ruleset.pk)).content.decode()
    form_at = page.index('id="rehearsal-form"')
    assert f'action="{_url("ruleset_rehearsal", tournament, ruleset)}"' in page[form_at - 200:
                                                                               form_at + 200]
    response = client.post(_url("ruleset_rehearsal", tournament, ruleset), RUN)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="rehearsal-table"' in html and "rehearsal-error" not in html
    assert response.context["report"].entrants == 40
    # The rounds rehearsed are the rule set's (K6 and 下関 rounds of 九州杯IX).
    assert [r.key for r in response.context["report"].rounds][:4] == ["r1", "r2", "r3", "r4"]
    tournament.refresh_from_db()
    assert tournament.preset == preset_before
    assert RuleSetVersion.objects.filter(ruleset=ruleset).count() == 1


def test_a_three_card_variant_is_rehearsed_as_composed(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="kyushu-cup-ix")
    post_composer(client, tournament.slug, ruleset.pk,
                  **{"p-k7_cards_per_draw": "3", "p-k7_extra_card": "never"})
    assert RuleSet.from_dict(current_version(ruleset).document).cards.cards_per_draw == 3
    response = client.post(_url("ruleset_rehearsal", tournament, ruleset), RUN)
    assert response.status_code == 200
    r4 = next(r for r in response.context["report"].rounds if r.key == "r4")
    assert r4.matches.low > 0


def test_a_rule_set_with_problems_is_refused_with_the_reason(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="kyushu-cup-ix")
    post_composer(client, tournament.slug, ruleset.pk, **{"p-k7_cards_per_draw": "1"})
    response = client.post(_url("ruleset_rehearsal", tournament, ruleset), RUN)
    html = response.content.decode()
    assert response.status_code == 400
    assert response.context["report"] is None and 'id="rehearsal-table"' not in html
    assert "リハーサルできません" in html
    assert "下関カードを1枚だけ引くときは" in html
    page = client.get(edit_url(tournament.slug, ruleset.pk)).content.decode()
    assert 'id="ruleset-try-blocked"' in page


def test_bad_rehearsal_input_for_a_rule_set_is_refused_in_japanese(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    ruleset = ruleset_start(by=cast["organiser"], preset="shop-top2")
    response = client_for(cast["organiser"]).post(
        _url("ruleset_rehearsal", tournament, ruleset), {**RUN, "entrants": "1"})
    assert response.status_code == 400
    assert "参加人数は2〜1024人の整数で入力してください。" in response.content.decode()


def test_the_rule_page_of_a_rule_set_is_previewed_before_it_is_applied(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    ruleset = ruleset_start(by=cast["organiser"], preset="kyushu-cup-ix")
    post_composer(client, tournament.slug, ruleset.pk,
                  **{"p-k7_cards_per_draw": "3", "p-k7_extra_card": "never"})
    html = client.get(_url("ruleset_rule_page", tournament, ruleset)).content.decode()
    assert 'id="rule-page-preview"' in html and 'id="rule-page"' in html
    assert "カードを3枚引き" in html and "追加で引くことはありません" in html
    public = client.get(reverse("public_rules", kwargs={"slug": tournament.slug}))
    assert "カードを3枚引き" not in public.content.decode()


def test_only_organisers_rehearse_a_rule_set(tournament: Tournament,
                                             cast: dict[str, Any]) -> None:
    ruleset = ruleset_start(by=cast["organiser"], preset="shop-top2")
    for name in ("ruleset_rehearsal", "ruleset_rule_page"):
        response = client_for(cast["desk"]).get(_url(name, tournament, ruleset))
        assert response.status_code in (302, 403)
