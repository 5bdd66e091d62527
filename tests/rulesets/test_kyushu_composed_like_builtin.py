"""#17 item 5, the first test: 九州杯IX composed through the forms plans the built-in's rounds.

An organiser starts a rule set from the built-in 九州杯IX, posts the composer (once with a
round changed, once with it put back), creates a tournament from the rule set on the new-
tournament page, and configures its rounds for the same field as a tournament on the
built-in preset: every planned round (its stored spec and the field it was planned for) is
the same.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.models import Round, RuleSetDoc, RuleSetVersion, Tournament
from brackets.services.rounds import rounds_configure
from tests.conftest import client_for
from tests.rulesets.helpers import post_composer
from tests.states import register_entrants, use_preset

ENTRANTS, SEEDS = 58, 7


def _planned(tournament: Tournament) -> list[tuple[Any, ...]]:
    """Each round's stored spec and what the round reads from the plan it belongs to."""
    out = []
    for r in Round.objects.filter(tournament=tournament).order_by("number"):
        rules = round_rules(r)
        out.append((r.number, r.name, r.kind, r.advance_per_group, r.target_size,
                    r.spec["round"], r.spec["planned_for"], rules.penalty, rules.tie_break,
                    rules.dummy_set, rules.k7_deck, rules.max_matches, rules.seeds_from_round,
                    rules.contenders_from, rules.order_from_round, rules.refuses_illegal))
    return out


@pytest.mark.django_db
def test_kyushu_ix_composed_from_the_builtin_plans_the_builtin_rounds(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    admin = client_for(cast["admin"])
    response = admin.post(reverse("ruleset_start", kwargs={"slug": tournament.slug}),
                          {"preset": "kyushu-cup-ix"})
    ruleset = RuleSetDoc.objects.get()
    assert response.status_code == 302
    assert post_composer(admin, tournament.slug, ruleset.pk, **{"r-1-size": "44"}
                         ).status_code == 302
    assert post_composer(admin, tournament.slug, ruleset.pk, **{"r-1-size": "40"}
                         ).status_code == 302
    assert list(RuleSetVersion.objects.order_by("number").values_list("number", flat=True)
                ) == [1, 2, 3]

    response = admin.post(reverse("tournament_new"), {
        "name": "九州杯X", "slug": "kyushu10", "date": "2020-03-20", "venue": "テスト店",
        "capacity": 64, "seed_slots": 8, "fee": 0, "version": tournament.version_id,
        "preset": "shop-top2", "status": "preparing", "ruleset": ruleset.pk})
    assert response.status_code == 302, response.content.decode()[:2000]
    composed = Tournament.objects.get(slug="kyushu10")
    assert composed.preset == ea.RULESET_PRESET

    builtin = use_preset(tournament, "kyushu-cup-ix")
    for t in (builtin, composed):
        register_entrants(t, cast["admin"], ENTRANTS + SEEDS, seeds=SEEDS,
                          check_in_later=False)
        rounds_configure(tournament=t, by=cast["admin"])
    planned = _planned(composed)
    assert [row[1] for row in planned] == ["1回戦", "2回戦", "3回戦", "4回戦", "準決勝",
                                           "3位決定戦", "決勝"]
    assert planned == _planned(builtin)
    assert planned[0][6] == [ENTRANTS, SEEDS]
