"""A composed 修羅 (#17) derives its own duties at the desk and in the lottery: the lots each
3-a ground owes, whether 修羅の道 may be chosen, whether a past champion draws format lots.

Every state is built through the services: a rule set started from 堅田 and edited, the
tournament made to run it, a returning player with a record registered at the desk, the
duties read as every page reads them (``selectors.duties``)."""

from __future__ import annotations

import datetime
from dataclasses import replace
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from brackets import engine_adapter as ea
from brackets.engine import ShuraRules
from brackets.engine.rulesets import RuleSet, ruleset_of
from brackets.models import Entrant, Tournament
from brackets.selectors.duties import in_force_of
from brackets.selectors.registry import entrant_duties
from brackets.services import rounds as rounds_svc
from brackets.services import rulesets as svc
from brackets.services.players import achievement_add, player_create
from tests.players.helpers import register, title

KATATA = "katata-kansai5-qualifier"


def _run(tournament: Tournament, by: Any, ruleset: RuleSet) -> None:
    """Make ``tournament`` run ``ruleset``, as the composer's 「この大会に使う」 does."""
    doc = svc.ruleset_start(by=by, preset=KATATA)
    svc.ruleset_save(ruleset=doc, document=ruleset.to_dict(), by=by)
    version = svc.current_version(doc)
    assert svc.ruleset_problems(version.document) == []
    svc.tournament_ruleset_apply(tournament=tournament, version=version, by=by)
    tournament.refresh_from_db()


def _composed(**shura: Any) -> RuleSet:
    rs = ruleset_of(KATATA)
    return replace(rs, slug="katata-composed", shura=replace(rs.shura, **shura))


def _title_and_seed_right(cast: dict[str, Any]) -> Any:
    """A national title in ゑ (3-a-i) and a 関西杯 seed right in 栗東 (3-a-iii)."""
    player = player_create(name="修羅太郎", reading="しゅらたろう", card_name="シュラ",
                           q_level=85, by=cast["desk"])
    title(player, cast["desk"], "we")
    achievement_add(player=player, by=cast["desk"], data={
        "kind": "seed_right", "title": "関西杯 シード権", "game_version": "tg",
        "held_on": datetime.date(2016, 8, 1), "source": "関西杯 告知ページ"})
    return player


def test_builtin_katata_as_a_rule_set_owes_one_lot_per_ground(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    _run(tournament, cast["organiser"], ruleset_of(KATATA))
    assert ea.preset_for(tournament).shura_rules == ShuraRules()
    entrant = register(tournament, cast["desk"], name="修羅太郎", card="シュラ", q=85,
                       player=_title_and_seed_right(cast))
    owed = in_force_of(entrant).owed
    assert owed is not None
    assert (owed.genre_lots, owed.reasons) == (2, ("national_title", "seed_or_invitation"))


def test_composed_lots_per_ground_change_the_lots_owed_and_drawn(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """A title owes three lots, a seed right none: the same record owes three, all for the
    title, and the app's lottery draws three genres."""
    _run(tournament, cast["organiser"], _composed(national_title=3, seed_or_invitation=0))
    entrant = register(tournament, cast["desk"], name="修羅太郎", card="シュラ", q=85,
                       player=_title_and_seed_right(cast))
    owed = in_force_of(entrant).owed
    assert owed is not None
    assert (owed.genre_lots, owed.reasons) == (3, ("national_title",) * 3)
    duties = entrant_duties(entrant=entrant)
    assert duties is not None and duties.owed is not None and duties.owed.genre_lots == 3
    for i in range(6):
        register(tournament, cast["desk"], name=f"他{i}", card=f"T{i}", q=40)
    rounds_svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    entrant.refresh_from_db()
    fact = rounds_svc.shura_lots_draw(tournament=tournament, entrant=entrant, by=cast["desk"])
    assert len(fact.data["genres"]) == 3
    assert fact.data["reasons"] == ["national_title"] * 3


def test_a_ground_owing_no_lot_leaves_its_holder_out_of_shura(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    _run(tournament, cast["organiser"], _composed(national_title=0, seed_or_invitation=0))
    entrant = register(tournament, cast["desk"], name="修羅太郎", card="シュラ", q=85,
                       player=_title_and_seed_right(cast))
    owed = in_force_of(entrant).owed
    assert owed is not None and (owed.genre_lots, owed.shura) == (0, False)


def test_without_voluntary_lots_the_desk_refuses_a_volunteer_and_changes_nothing(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    _run(tournament, cast["organiser"], _composed(voluntary=False))
    with pytest.raises(ValidationError) as err:
        register(tournament, cast["desk"], name="志願者", card="シガン", q=60,
                 shura_voluntary=True)
    assert "自己申告による修羅の道" in str(err.value)
    with pytest.raises(ValidationError):
        register(tournament, cast["desk"], name="志願者", card="シガン", q=60,
                 shura_extra_lots=2)
    assert not Entrant.objects.filter(tournament=tournament, name="志願者").exists()


def test_with_voluntary_lots_the_same_volunteer_owes_one_lot(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    _run(tournament, cast["organiser"], _composed())
    entrant = register(tournament, cast["desk"], name="志願者", card="シガン", q=60,
                       shura_voluntary=True)
    owed = in_force_of(entrant).owed
    assert owed is not None and (owed.genre_lots, owed.reasons) == (1, ("volunteer",))


@pytest.mark.parametrize(("champion_format_lots", "l_past"), [(True, 5), (False, 0)])
def test_past_champions_format_lots_follow_the_composed_rule(
        tournament: Tournament, cast: dict[str, Any], champion_format_lots: bool,
        l_past: int) -> None:
    """6-c-iii on or off: the L_past the desk typed is in force only where past champions
    draw format lots, so the allowance is 0 without the rule."""
    _run(tournament, cast["organiser"],
         _composed(national_title=4, champion_format_lots=champion_format_lots))
    player = player_create(name="前回王者", reading="", card_name="オウジャ", q_level=90,
                           by=cast["desk"])
    title(player, cast["desk"], "we")
    entrant = register(tournament, cast["desk"], name="前回王者", card="オウジャ", q=90,
                       player=player, past_win_lots=5)
    for i in range(6):
        register(tournament, cast["desk"], name=f"他{i}", card=f"T{i}", q=40)
    rounds_svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    duties = in_force_of(entrant).duties
    assert duties.past_win_lots == l_past
    allowed = rounds_svc.shura_format_lots_allowed(tournament=tournament, entrant=entrant,
                                                   genre_lots=4)
    assert (allowed > 0) is champion_format_lots
