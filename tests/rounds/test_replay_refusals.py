"""Issue 19, defect 5 on the replay side (and the replay half of 1, 2 and 4): replay goes
through the same checks as the desk and the tablets, refuses a newer ``play_version``,
and replays a file the app exported (``tournament_export``: ``card_key: unknown field``
before). Every refusal is ``FILE: key: message`` with exit status 2."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from brackets.exporters.tournament_file import tournament_file_export
from brackets.models import Tournament
from brackets.services.replay import tournament_play_export
from tests.rounds.test_full_events import run_katata
from tests.states import register_entrants

pytestmark = pytest.mark.django_db


def replay(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "event.json"
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    call_command("replay", str(path), stdout=(out := _Out()))
    return out.text


class _Out:
    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def refused(tmp_path: Path, data: Any) -> str:
    with pytest.raises(CommandError) as info:
        replay(tmp_path, data)
    assert info.value.returncode == 2
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'event.json'}: ")
    return message


@pytest.fixture
def played(tournament: Tournament, cast: dict[str, Any]) -> dict[str, Any]:
    run_katata(tournament, cast["organiser"], random.Random(3))
    data = tournament_play_export(tournament)
    data["tournament"]["slug"] = "again"
    return data


def test_play_version_2_is_refused(tmp_path: Path, played: dict[str, Any]) -> None:
    played["play_version"] = 2
    assert "play_version: this app reads play versions 1..1, got 2" in refused(tmp_path,
                                                                                played)


def test_a_file_exported_by_tournament_export_replays(tmp_path: Path, tournament: Tournament,
                                                      cast: dict[str, Any]) -> None:
    register_entrants(tournament, cast["desk"], 8, declarations={1: {"shura_voluntary": True}})
    exported = json.loads(tournament_file_export(tournament=tournament))
    assert {"card_key", "search_key"} <= set(exported["records"]["entrant"][0])
    exported["tournament"]["slug"] = "again"
    summary = json.loads(replay(tmp_path, exported))
    assert sorted(summary["remaining"]) == sorted(
        e["card_name"] for e in exported["records"]["entrant"])


def _first_group(played: dict[str, Any]) -> dict[str, Any]:
    return next(iter(played["play"][0]["groups"].values()))  # type: ignore[no-any-return]


def test_penalty_of_100000_is_refused(tmp_path: Path, played: dict[str, Any]) -> None:
    group = _first_group(played)
    player = next(c for c in group["results"] if c != "dummy")
    group["penalties"] = [{"player": player, "points": "100000", "reason": "バグ技"}]
    message = refused(tmp_path, played)
    assert "play[0].groups.A.penalties[0]: 減点は0.01〜9999.99" in message


def test_score_5000_and_placement_9_are_refused(tmp_path: Path, played: dict[str, Any]
                                                ) -> None:
    results = _first_group(played)["results"]
    card = next(iter(results))
    results[card] = ["5000.00", results[card][1]]
    assert "play[0].groups.A.results" in refused(tmp_path, played)
    results[card] = ["100.00", 9]
    assert "play[0].groups.A.results" in refused(tmp_path, played)


def test_entrant_records_pass_the_desk_checks(tmp_path: Path, played: dict[str, Any]) -> None:
    entrant = played["records"]["entrant"][0]
    entrant["card_name"] = "ア" * 20
    assert "records.entrant[0].card_name: カードネームは8文字以内" in refused(tmp_path, played)
    entrant["card_name"] = "OK"
    entrant["shura_extra_lots"] = 3_000_000_000
    assert "records.entrant[0].shura_extra_lots" in refused(tmp_path, played)


def test_values_of_the_wrong_shape_name_their_section(tmp_path: Path,
                                                      played: dict[str, Any]) -> None:
    played["play"][0]["withdrawn"] = 5
    assert "play[0]: a value of the wrong shape" in refused(tmp_path, played)
    played["play"][0].pop("withdrawn")
    _first_group(played)["bans"] = ["not", "an", "object"]
    assert "play[0].groups.A: a value of the wrong shape" in refused(tmp_path, played)


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000,
                                  '{"a":' * 5000 + "1" + "}" * 5000], ids=["lists", "objects"])
def test_deeply_nested_file_is_refused_with_a_clear_error(tmp_path: Path, text: str) -> None:
    assert "(top): nested deeper than 64 levels" in refused(tmp_path, text)


def test_a_field_no_preset_round_fits_is_refused_naming_the_preset(
        tmp_path: Path, tournament: Tournament, cast: dict[str, Any]) -> None:
    register_entrants(tournament, cast["desk"], 5)
    exported = json.loads(tournament_file_export(tournament=tournament))
    exported["tournament"]["slug"] = "again"
    assert "tournament.preset: ルールプリセット shop-top2 で回戦を作れません" in refused(
        tmp_path, exported)


def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "event.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(CommandError) as info:
        call_command("replay", str(path))
    assert info.value.returncode == 2 and "not UTF-8" in str(info.value)


def _exported_field(tournament: Tournament, cast: dict[str, Any], players: int
                    ) -> dict[str, Any]:
    """A shop event (top 2 of each group of 4) with ``players`` checked in, exported as the
    app writes it, with a first round to play."""
    register_entrants(tournament, cast["desk"], players)
    exported = json.loads(tournament_file_export(tournament=tournament))
    exported["tournament"]["slug"] = "again"
    exported["play"] = [{"round": 1, "groups": {}}]
    return exported


@pytest.mark.parametrize(("players", "round_name"), [(1, "決勝"), (2, "決勝"), (5, "準決勝")])
def test_a_field_too_small_for_the_preset_names_the_round_as_staff_call_it(
        tmp_path: Path, tournament: Tournament, cast: dict[str, Any], players: int,
        round_name: str) -> None:
    message = refused(tmp_path, _exported_field(tournament, cast, players))
    assert f"tournament.preset: ルールプリセット shop-top2 で回戦を作れません：{round_name}：" in message
    assert f"{players}人を4人ずつの組に分けられません" in message
    assert "：sf：" not in message and "：final：" not in message


@pytest.mark.parametrize(("players", "expected"), [
    # 8 are left: round 1 is re-planned and drawn for 8 (two groups, not the three of 9)
    # and stops only because its groups have no results, as the round page says.
    (9, "play[0].round: まだ結果が揃っていない組があります：A、B"),
    # 5 are left: no semi-final can be drawn for them, as the draw on the round page says.
    (6, ("play[0].round: ルールプリセット shop-top2 で回戦を作れません：準決勝：5人を4人ずつの組に"
         "分けられません")),
], ids=["8-left", "5-left"])
def test_a_player_withdrawn_before_round_1_is_left_out_of_the_draw(
        tmp_path: Path, tournament: Tournament, cast: dict[str, Any], players: int,
        expected: str) -> None:
    exported = _exported_field(tournament, cast, players)
    exported["play"][0]["withdrawn"] = ["P0001"]
    message = refused(tmp_path, exported)
    assert expected in message and "A、B、C" not in message
