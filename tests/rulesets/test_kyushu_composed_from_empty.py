"""#17: 九州杯IX composed FROM EMPTY on the composer's pages equals the built-in, and plays the
same event.

An organiser starts 空から作成, types the event's rules, adds each round with 「回戦を追加」 and
each K6 rule with 「ルールを追加」 (every press shows the page again with what was typed kept),
and saves once. The saved document equals ``ruleset_of("kyushu-cup-ix")`` on every rule: only
the slug and the round keys the composer gave (r1 … r7, ``losers_to`` pointing at the same
round) differ. A tournament running it replays the built-in's whole event identically.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from brackets import engine_adapter as ea
from brackets.engine import RuleSet, ruleset_of, validate_ruleset
from brackets.models import RuleSetDoc, Tournament
from brackets.services.replay import tournament_play_export, tournament_replay, tournament_summary
from brackets.services.rulesets import current_version
from tests.conftest import client_for
from tests.rounds.test_full_events import run_kyushu
from tests.rulesets.helpers import edit_url, page_values

MAIN = {"read_window": "main", "record_window": "main"}
NO_WINDOW = {"read_window": "", "record_window": ""}

#: Each round as the organiser types it (a key absent from the page stays as it shows;
#: None unticks a box). Rules of a K6 round come in the same shape under "rules".
ROUNDS: list[dict[str, Any]] = [
    {"name": "1回戦", "kind": "groups", "target": 40, "draw_in_advance": "on", **MAIN,
     "lots": None},
    {"name": "2回戦", "size": 40, "target": 20, "seeds_enter": "on", **MAIN, "lots": None},
    {"name": "3回戦", "kind": "rule_selection", "size": 20, **MAIN, "rules": [
        {"name": "ルールA", "capacity": 12, "advance_per_group": 2, **MAIN, "lots": None},
        {"name": "ルールB", "capacity": 8, "advance_per_group": 1, **NO_WINDOW,
         "lots": None}]},
    {"name": "4回戦", "size": 8, **MAIN, "lots": None, "cards": "on"},
    {"name": "準決勝", "kind": "final_group", "size": 4, "draw": "fixed", **MAIN,
     "lots": None, "match_bans": "on", "losers_to": "r6"},
    {"name": "3位決定戦", "kind": "partner_match", "size": 2, "draw": "fixed", **NO_WINDOW,
     "lots": None, "pair_sets": "on"},
    {"name": "決勝", "kind": "partner_series", "size": 2, "draw": "fixed", "wins_needed": 2,
     "read_window": "final", "record_window": "final", "lots": None, "pair_sets": "on",
     "pair_history": "on"},
]


def _typed(values: dict[str, str], prefix: str, fields: dict[str, Any]) -> None:
    for name, value in fields.items():
        if name == "rules":
            continue
        if value is None:
            values.pop(f"{prefix}-{name}", None)
        else:
            values[f"{prefix}-{name}"] = str(value)


def _press(client: Client, url: str, values: dict[str, str], button: str, value: str,
           new: str) -> dict[str, str]:
    """Press one of the page's buttons: the page comes back, nothing saved, typed kept."""
    response = client.post(url, {**values, button: value})
    assert response.status_code == 200
    shown = page_values(response.content.decode())
    # What was typed is on the page again: every value posted shows as posted (the forms'
    # counts and the CSRF token aside).
    typed = {k: v for k, v in values.items() if not k.endswith("_FORMS")
             and k != "csrfmiddlewaretoken"}
    assert {k: v for k, v in shown.items() if k in typed} == typed
    # … and nothing else but the fields of what the button added (named ``new…``).
    assert all(k.startswith(new) for k in set(shown) - set(values))
    return shown


def compose_kyushu_from_empty(client: Client, slug: str) -> RuleSetDoc:
    builtin = ruleset_of("kyushu-cup-ix")
    response = client.post(reverse("ruleset_start_empty", kwargs={"slug": slug}),
                           {"name": builtin.name, "shape": "rounds"})
    assert response.status_code == 302
    ruleset = RuleSetDoc.objects.get()
    url = edit_url(slug, ruleset.pk)
    values = page_values(client.get(url).content.decode())
    assert values["r-TOTAL_FORMS"] == "1"
    _typed(values, "p", {"description": builtin.description, "capacity": 64, "max_seeds": 8,
                         "mode": "bomber", "penalty": "400"})
    for i, fields in enumerate(ROUNDS):
        if i:
            values = _press(client, url, values, "add_round", "1", f"r-{i}-")
            assert values["r-TOTAL_FORMS"] == str(i + 1)
            assert values[f"r-{i}-key"] == f"r{i + 1}"
        _typed(values, f"r-{i}", fields)
        if "rules" in fields:
            values = _press(client, url, values, "add_variant", str(i), f"r-{i}-v-")
            assert values[f"r-{i}-v-TOTAL_FORMS"] == "2"
            for j, rule in enumerate(fields["rules"]):
                _typed(values, f"r-{i}-v-{j}", rule)
    response = client.post(url, values)
    assert response.status_code == 302, response.content.decode()[:3000]
    return ruleset


def _with_composer_keys(rs: RuleSet, keys: list[str]) -> RuleSet:
    """``rs`` with its rounds' keys renamed in order to ``keys`` (``losers_to`` too)."""
    renamed = dict(zip([r.key for r in rs.rounds], keys, strict=True))
    return replace(rs, rounds=tuple(
        replace(r, key=renamed[r.key],
                losers_to=renamed[r.losers_to] if r.losers_to else None) for r in rs.rounds))


@pytest.mark.django_db
def test_kyushu_ix_composed_from_empty_equals_the_builtin_and_replays_its_event(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    ruleset = compose_kyushu_from_empty(client, tournament.slug)
    document = current_version(ruleset).document
    composed = RuleSet.from_dict(document)
    assert current_version(ruleset).number == 1 + 1  # created, then saved once
    assert validate_ruleset(composed) == []
    builtin = ruleset_of("kyushu-cup-ix")
    keys = [f"r{n}" for n in range(1, 8)]
    assert [r.key for r in composed.rounds] == keys
    assert replace(composed, slug=builtin.slug) == _with_composer_keys(builtin, keys)

    run_kyushu(tournament, cast["organiser"], random.Random(5))
    expected = tournament_summary(tournament)
    data = tournament_play_export(tournament)
    data["tournament"] = {**data["tournament"], "preset": ea.RULESET_PRESET,
                          "preset_settings": {"document": document}}
    replayed = tournament_replay(data=data, slug="composed")
    assert replayed.preset == ea.RULESET_PRESET
    summary = tournament_summary(replayed)
    assert summary["rounds"][-1]["final_order"]
    assert {**summary, "preset": expected["preset"]} == expected


@pytest.mark.django_db
def test_rounds_move_and_delete_keeping_their_keys_and_typed_values(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    client = client_for(cast["organiser"])
    client.post(reverse("ruleset_start_empty", kwargs={"slug": tournament.slug}),
                {"name": "三回戦の大会", "shape": "rounds"})
    ruleset = RuleSetDoc.objects.get()
    url = edit_url(tournament.slug, ruleset.pk)
    values = page_values(client.get(url).content.decode())
    values = _press(client, url, values, "add_round", "1", "r-1-")
    values = _press(client, url, values, "add_round", "1", "r-2-")
    values.update({"r-0-name": "予選", "r-1-name": "決勝", "r-2-name": "消す回戦",
                   "r-1-kind": "final_group", "r-1-ranks_all": "on", "r-1-size": "4"})
    # 決勝 is typed second: one press moves it last, where it belongs.
    moved = page_values(client.post(url, {**values, "move": "1:down"}).content.decode())
    assert [moved[f"r-{i}-name"] for i in range(3)] == ["予選", "消す回戦", "決勝"]
    assert [moved[f"r-{i}-key"] for i in range(3)] == ["r1", "r3", "r2"]
    assert moved["r-2-ranks_all"] == "on" and moved["r-2-size"] == "4"
    moved.update({"r-1-DELETE": "on", "p-capacity": "8"})
    assert client.post(url, moved).status_code == 302
    saved = RuleSet.from_dict(current_version(ruleset).document)
    assert [(r.key, r.name, r.kind) for r in saved.rounds] == [
        ("r1", "予選", "groups"), ("r2", "決勝", "final_group")]
    assert saved.rounds[1].ranks_all and saved.rounds[1].size == 4
    assert validate_ruleset(saved) == []
