"""Rule-set writes (#17): versions that supersede, a tournament's own copy of the rules,
files in and out, and the refusals (nothing stored on any of them)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from brackets import engine_adapter as ea
from brackets.engine import RuleRefusal
from brackets.engine.rulesets import RULESET_VERSION, ruleset_of
from brackets.models import PresetSettingChange, RuleSetDoc, RuleSetVersion, Tournament
from brackets.services import rulesets as svc
from brackets.services.rounds import rounds_configure
from brackets.services.tournaments import tournament_create
from tests.states import register_entrants


def _doc(ruleset: RuleSetDoc) -> dict[str, Any]:
    return dict(svc.current_version(ruleset).document)


@pytest.mark.django_db
def test_start_from_a_builtin_holds_its_document_as_version_1(cast: dict[str, Any]) -> None:
    ruleset = svc.ruleset_start(by=cast["organiser"], preset="katata-kansai5-qualifier")
    version = svc.current_version(ruleset)
    assert (version.number, version.by, version.supersedes) == (1, cast["organiser"], None)
    assert version.document == ruleset_of("katata-kansai5-qualifier").to_dict()
    assert svc.ruleset_problems(version.document) == []


@pytest.mark.django_db
def test_an_edit_is_a_new_version_superseding_the_last_and_the_old_one_stays(
        cast: dict[str, Any]) -> None:
    ruleset = svc.ruleset_start(by=cast["organiser"], preset="shop-top2")
    first = svc.current_version(ruleset)
    edited = {**first.document, "name": "店舗大会（改）"}
    second = svc.ruleset_save(ruleset=ruleset, document=edited, by=cast["admin"])
    assert second is not None and (second.number, second.supersedes) == (2, first)
    first.refresh_from_db()
    assert first.document["name"] != "店舗大会（改）"
    assert svc.ruleset_save(ruleset=ruleset, document=edited, by=cast["admin"]) is None
    assert RuleSetVersion.objects.filter(ruleset=ruleset).count() == 2


@pytest.mark.django_db
def test_a_tournament_keeps_the_rules_it_was_created_with_when_the_rule_set_changes(
        catalog: Any, cast: dict[str, Any]) -> None:
    ruleset = svc.ruleset_start(by=cast["admin"], preset="shop-top2")
    t = tournament_create(creator=cast["admin"], ruleset=svc.current_version(ruleset),
                          slug="shop2", name="店舗大会2", version=catalog)
    before = ea.preset_for(t)
    doc = _doc(ruleset)
    doc["ladder"] = {**doc["ladder"], "advance_per_group": 1}
    svc.ruleset_save(ruleset=ruleset, document=doc, by=cast["admin"])
    t.refresh_from_db()
    assert t.preset == ea.RULESET_PRESET
    assert ea.preset_for(t).rounds_for(16, 0) == before.rounds_for(16, 0)
    assert [r.advance_per_group for r in before.rounds_for(16, 0)[:-1]] == [2, 2]


@pytest.mark.django_db
def test_a_rule_set_with_problems_is_refused_for_a_tournament(
        catalog: Any, cast: dict[str, Any]) -> None:
    ruleset = svc.ruleset_start(by=cast["admin"], preset="shop-top2")
    svc.ruleset_save(ruleset=ruleset, by=cast["admin"],
                     document={**_doc(ruleset), "tie_break": []})
    with pytest.raises(svc.RuleSetError, match="要修正"):
        tournament_create(creator=cast["admin"], ruleset=svc.current_version(ruleset),
                          slug="shop3", name="店舗大会3", version=catalog)
    assert not Tournament.objects.filter(slug="shop3").exists()


@pytest.mark.django_db
def test_a_rule_file_exported_and_imported_gives_the_same_document(
        cast: dict[str, Any]) -> None:
    ruleset = svc.ruleset_start(by=cast["admin"], preset="kyushu-cup-ix")
    name, content_type, body = svc.ruleset_file(svc.current_version(ruleset))
    assert name.endswith(".json") and content_type == "application/json"
    copy = svc.ruleset_import(by=cast["organiser"], content=body, filename=name)
    assert _doc(copy) == _doc(ruleset)


@pytest.mark.parametrize(("change", "said"), [
    ({"version": RULESET_VERSION + 1}, "新しい版"),
    ({"ladder_size": 3}, "ladder_size"),
])
@pytest.mark.django_db
def test_a_rule_file_of_a_newer_version_or_with_an_unknown_key_is_refused_whole(
        cast: dict[str, Any], change: dict[str, Any], said: str) -> None:
    data = {**ruleset_of("shop-top2").to_dict(), **change}
    with pytest.raises(svc.RuleSetError, match=said):
        svc.ruleset_import(by=cast["admin"], content=json.dumps(data).encode())
    assert not RuleSetDoc.objects.exists()


@pytest.mark.django_db
def test_a_rule_file_that_is_not_json_is_refused(cast: dict[str, Any]) -> None:
    with pytest.raises(svc.RuleSetError, match="JSON"):
        svc.ruleset_import(by=cast["admin"], content=b"\xff{not json")
    assert not RuleSetDoc.objects.exists()


@pytest.mark.django_db
def test_applying_a_rule_set_before_the_draw_replans_the_rounds_and_is_recorded(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    register_entrants(tournament, cast["organiser"], 12, check_in_later=False)
    rounds_configure(tournament=tournament, by=cast["organiser"])
    ruleset = svc.ruleset_start(by=cast["organiser"], preset="shop-top2")
    doc = _doc(ruleset)
    doc["ladder"] = {**doc["ladder"], "advance_per_group": 1}
    svc.ruleset_save(ruleset=ruleset, document=doc, by=cast["organiser"])
    svc.tournament_ruleset_apply(tournament=tournament, version=svc.current_version(ruleset),
                                 by=cast["organiser"])
    tournament.refresh_from_db()
    assert tournament.preset == ea.RULESET_PRESET
    assert [r.advance_per_group for r in tournament.rounds.order_by("number")][:1] == [1]
    change = PresetSettingChange.objects.get(tournament=tournament)
    assert (change.key, change.by, change.new_value["number"]) == ("document",
                                                                  cast["organiser"], 2)


@pytest.mark.django_db
def test_the_rules_of_a_started_tournament_are_not_changed_but_can_be_cloned(
        round_1_running: Tournament, cast: dict[str, Any]) -> None:
    t = round_1_running
    ruleset = svc.ruleset_start(by=cast["organiser"], preset="shop-top2")
    before = (t.preset, dict(t.preset_settings))
    with pytest.raises(svc.RuleSetError, match="複製"):
        svc.tournament_ruleset_apply(tournament=t, version=svc.current_version(ruleset),
                                     by=cast["organiser"])
    t.refresh_from_db()
    assert (t.preset, t.preset_settings) == before
    clone = svc.ruleset_clone_tournament(by=cast["organiser"], tournament=t)
    assert _doc(clone) == ruleset_of(t.preset, ea.preset_source(t)[1]).to_dict()


def test_a_rule_set_tournament_with_an_unreadable_document_is_refused_with_the_key() -> None:
    with pytest.raises(RuleRefusal) as caught:
        ea.ruleset_preset({"document": {**ruleset_of("shop-top2").to_dict(), "extra": 1}})
    assert caught.value.code == "ruleset_key_unknown"
    assert caught.value.params["key"] == "extra"


@pytest.mark.django_db
def test_a_rule_set_tournament_file_carries_its_rules_to_another_server(
        catalog: Any, cast: dict[str, Any]) -> None:
    from brackets.exporters.tournament_file import tournament_file_export, tournament_file_import

    ruleset = svc.ruleset_start(by=cast["admin"], preset="shop-top2")
    t = tournament_create(creator=cast["admin"], ruleset=svc.current_version(ruleset),
                          slug="shop4", name="店舗大会4", version=catalog)
    register_entrants(t, cast["admin"], 10, check_in_later=False)
    rounds_configure(tournament=t, by=cast["admin"])
    copy = tournament_file_import(data=tournament_file_export(tournament=t), slug="shop4b")
    RuleSetDoc.objects.all().delete()
    assert copy.preset_settings == t.preset_settings
    assert [r.spec for r in copy.rounds.order_by("number")] == [
        r.spec for r in t.rounds.order_by("number")]
    assert ea.preset_for(copy).rounds_for(10, 0) == ea.preset_for(t).rounds_for(10, 0)


def test_each_composed_event_is_its_own_event_for_past_wins() -> None:
    """6-c-iii reads the earlier editions of the same event: two rule-set tournaments are
    editions of one event only when their rules name the same event (the document's slug),
    never merely because both were composed."""
    from brackets import engine_adapter as ea
    from brackets.engine import ruleset_of

    def composed(event: str, pk: int) -> Tournament:
        document = {**ruleset_of("katata-kansai5-qualifier", {}).to_dict(), "slug": event}
        return Tournament(pk=pk, preset=ea.RULESET_PRESET,
                          preset_settings={"document": document})

    assert ea.event_key(composed("shimonoseki", 1)) == ea.event_key(composed("shimonoseki", 2))
    assert ea.event_key(composed("shimonoseki", 1)) != ea.event_key(composed("katata", 3))
    assert ea.event_key(Tournament(preset="katata-kansai5-qualifier")) == \
        "katata-kansai5-qualifier"
