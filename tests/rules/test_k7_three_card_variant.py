"""A 下関 variant on the match page (#17): always three cards, no redraw. The app draws
three, the physical-draw form has three rows, and a wrong count is explained against the
variant, not against K7's two-and-a-redraw."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.adapters.rounds import round_rules
from brackets.models import Group, Round, Seat, SpecialFact, Tournament
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.helpers import add_entrants

pytestmark = pytest.mark.django_db


def _three_card_group(tournament: Tournament, user: Any) -> Group:
    """A running round 4 of 九州杯IX with its 下関 settings at three cards, no redraw;
    seated directly so the cards are the first thing the match does."""
    from brackets.services import preset_settings as pss

    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    pss.settings_save(tournament=tournament, by=user,
                      values={"k7_cards_per_draw": 3, "k7_extra_card": "never"})
    people = add_entrants(tournament, 4)
    svc.rounds_configure(tournament=tournament, by=user)
    r4 = Round.objects.get(tournament=tournament, number=4)
    assert (round_rules(r4).k7_cards_per_draw, round_rules(r4).k7_card_slots) == (3, 3)
    Round.objects.filter(id=r4.id).update(status=Round.Status.RUNNING)
    group = Group.objects.create(round=r4, number=1, label="A")
    for n, e in enumerate(people, start=1):
        Seat.objects.create(group=group, number=n, entrant=e)
    return group


def test_the_app_draws_three_cards_without_redraw(tournament: Tournament,
                                                  cast: dict[str, Any]) -> None:
    group = _three_card_group(tournament, cast["bracket"])
    svc.card_draw(group=group, by=cast["bracket"])
    fact = SpecialFact.objects.get(group=group, kind="card_draw")
    assert len(fact.data["cards"]) == 3


def test_the_physical_form_has_three_rows_and_records_three(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    group = _three_card_group(tournament, cast["bracket"])
    client = client_for(cast["bracket"])
    html = client.get(f"/t/{tournament.slug}/match/{group.id}/").content.decode()
    assert 'name="card_group_3"' in html and 'name="card_group_4"' not in html
    response = client.post(f"/t/{tournament.slug}/match/{group.id}/special/", {
        "action": "cards_physical", "card_genre_1": "芸能", "card_group_1": "セレクト",
        "card_genre_2": "芸能", "card_group_2": "パネル",
        "card_genre_3": "社会", "card_group_3": "パネル"})
    assert response.status_code < 400
    fact = SpecialFact.objects.get(group=group, kind="card_draw")
    assert fact.data["cards"] == [["芸能", "セレクト"], ["芸能", "パネル"], ["社会", "パネル"]]
    page = client.get(f"/t/{tournament.slug}/match/{group.id}/").content.decode()
    # Three cards are the variant's draw, not a redraw after an overlap.
    assert "追加で引いたカードを含む" not in page


def test_two_cards_are_refused_against_the_variant_in_japanese(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    group = _three_card_group(tournament, cast["bracket"])
    response = client_for(cast["bracket"]).post(
        f"/t/{tournament.slug}/match/{group.id}/special/",
        {"action": "cards_physical", "card_genre_1": "芸能", "card_group_1": "セレクト",
         "card_genre_2": "社会", "card_group_2": "パネル"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "このルールでは最初に3枚引きます" in html
    assert "3枚目も" not in html
    assert not SpecialFact.objects.filter(group=group, kind="card_draw").exists()
