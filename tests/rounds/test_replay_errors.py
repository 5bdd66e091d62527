"""A malformed replay file: a message naming the line or key, non-zero exit."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from brackets.models import Tournament
from brackets.services.replay import tournament_play_export
from tests.rounds.test_full_events import run_katata

pytestmark = pytest.mark.django_db


def replay_error(tmp_path: Any, text: str) -> CommandError:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError) as info:
        call_command("replay", str(path))
    assert info.value.returncode == 2
    return info.value


def test_broken_json_names_the_line(tmp_path: Any) -> None:
    err = replay_error(tmp_path, '{\n  "format": "kyushu-tournament",\n  "version" 1\n}')
    assert "line 3" in str(err)


def test_wrong_format_and_missing_key(tmp_path: Any, catalog: Any) -> None:
    assert "format" in str(replay_error(tmp_path, json.dumps({"format": "x", "version": 1})))
    assert "version" in str(replay_error(tmp_path, json.dumps(
        {"format": "kyushu-tournament", "version": 99})))
    err = replay_error(tmp_path, json.dumps({"format": "kyushu-tournament", "version": 1,
                                             "catalog": "qma-2016", "tournament": {}}))
    assert "tournament.name: missing key" in str(err)


def test_inconsistent_play_names_the_key(tmp_path: Any, tournament: Tournament,
                                         cast: dict[str, Any]) -> None:
    run_katata(tournament, cast["organiser"], random.Random(3))
    data = tournament_play_export(tournament)
    data["tournament"]["slug"] = "again"
    group = data["play"][0]["groups"]["A"]
    card = next(c for c in group["results"] if c != "dummy")
    outsider = next(c for c in data["play"][0]["groups"]["B"]["results"] if c != "dummy")
    group["results"][outsider] = group["results"].pop(card)
    err = replay_error(tmp_path, json.dumps(data, ensure_ascii=False))
    assert f"play[0].groups.A.results.{outsider}" in str(err)
    data = tournament_play_export(tournament)
    first = data["play"][0]["groups"]["A"]["results"]
    key = next(iter(first))
    first[key] = ["9999.00", first[key][1]]
    err = replay_error(tmp_path, json.dumps(data, ensure_ascii=False))
    assert "play[0].groups.A.results" in str(err) and "範囲外" in str(err)
    data["records"]["entrant"][0]["favourite_colour"] = "red"
    err = replay_error(tmp_path, json.dumps(data, ensure_ascii=False))
    assert "records.entrant[0].favourite_colour" in str(err)
