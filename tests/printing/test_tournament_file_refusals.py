"""Issue 19, defect 5 (and the file side of 1, 2 and 4): the tournament-file import
accepted records the tablets would refuse. A file can now hold only what a person could
enter: every field passes the bounds the models read (``brackets.engine.bounds``) and every
group passes the check a tablet's save runs. Each refusal names its key and changes
nothing: the database counts and the original tournament's export stay as they were."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from brackets.exporters.tournament_file import TournamentFileError, tournament_file_import
from brackets.models import Group, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.printing.test_tournament_file import counts

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    """九州杯IX round 1 running: its first group played, with one penalty recorded."""
    import random

    from tests.rounds.conftest import running_round_one
    from tests.rounds.helpers import play_group

    first = running_round_one(tournament, 16, cast["organiser"])
    group = Group.objects.filter(round=first).order_by("number").first()
    assert group is not None
    play_group(group, cast["bracket"], random.Random(19))
    seat = next(s for s in sel.group_view(group).seats if s.entrant_id)
    svc.penalty_add(group=group, by=cast["bracket"], seat_number=seat.number, points="400",
                    reason="バグ技")
    tournament.refresh_from_db()
    return tournament


def _file(tournament: Tournament) -> dict[str, Any]:
    from brackets.exporters.tournament_file import tournament_file_export

    data: dict[str, Any] = json.loads(tournament_file_export(tournament=tournament))
    data.pop("checksum")  # a hand-edited file: the checks below are not the checksum's
    data.pop("exported_at")
    data["tournament"]["slug"] = "edited"
    return data


def refused(tournament: Tournament, data: Any, where: str, why: str) -> None:
    from brackets.exporters.tournament_file import tournament_file_data

    before, original = counts(), tournament_file_data(tournament=tournament)
    with pytest.raises(TournamentFileError) as info:
        tournament_file_import(data=data)
    assert where in info.value.message and why in info.value.message
    assert counts() == before
    after = tournament_file_data(tournament=tournament)
    assert {k: v for k, v in after.items() if k != "exported_at"} == {
        k: v for k, v in original.items() if k != "exported_at"}


def _first_group_results(data: dict[str, Any]) -> list[dict[str, Any]]:
    first = data["records"]["resultfact"][0]["group"]
    return [r for r in data["records"]["resultfact"] if r["group"] == first]


def test_score_5000_is_refused(played: Tournament) -> None:
    data = _file(played)
    data["records"]["resultfact"][0]["score"] = "5000.00"
    refused(played, data, "records.resultfact[0].score", "1000")


def test_placement_9_is_refused(played: Tournament) -> None:
    data = _file(played)
    data["records"]["resultfact"][0]["placement"] = 9
    refused(played, data, "records.resultfact[0].placement", "4")


def test_duplicated_placements_no_screen_shows_are_refused_as_the_tablet_refuses_them(
        played: Tournament) -> None:
    # A tie the result screen can show (1, 2, 2, 4) is a legal entry (H9); two players on
    # 1st followed by a 2nd (1, 1, 2, 3) is not, on the tablet or in a file.
    data = _file(played)
    for row, place in zip(_first_group_results(data), (1, 1, 2, 3), strict=True):
        row["placement"] = place
    refused(played, data, "records.group", "画面どおり1位から付けてください")


def test_twenty_character_card_name_is_refused(played: Tournament) -> None:
    data = _file(played)
    data["records"]["entrant"][0]["card_name"] = "ア" * 20
    refused(played, data, "records.entrant[0].card_name", "8")


def test_unknown_round_kind_is_refused(played: Tournament) -> None:
    data = _file(played)
    data["records"]["round"][0]["kind"] = "cage_match"
    refused(played, data, "records.round[0].kind", "cage_match")


def test_result_on_another_groups_seat_is_refused(played: Tournament) -> None:
    data = _file(played)
    result = data["records"]["resultfact"][0]
    other = next(s for s in data["records"]["seat"] if s["group"] != result["group"])
    result["seat"] = other["id"]
    refused(played, data, "records.resultfact[0].seat", "別の組のサテ")


def test_penalty_of_100000_is_refused(played: Tournament) -> None:
    data = _file(played)
    data["records"]["penaltyfact"][0]["points"] = "100000.00"
    refused(played, data, "records.penaltyfact[0].points", "9999.99")


def test_huge_extra_lot_count_is_refused(played: Tournament) -> None:
    data = _file(played)
    data["records"]["entrant"][0]["shura_extra_lots"] = 3_000_000_000
    refused(played, data, "records.entrant[0].shura_extra_lots", "4")


def test_selection_outside_the_catalog_is_refused(played: Tournament) -> None:
    data = _file(played)
    data["records"]["selectionfact"][-1]["genre"] = "宇宙"
    refused(played, data, "records.group", "カタログにありません")


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000,
                                  '{"a":' * 5000 + "1" + "}" * 5000], ids=["lists", "objects"])
def test_deeply_nested_json_is_refused_with_a_clear_error(played: Tournament,
                                                          text: str) -> None:
    refused(played, text.encode(), "", "入れ子が64段より深く")


def test_deeply_nested_value_inside_a_record_is_refused(played: Tournament) -> None:
    data = _file(played)
    nested: Any = "x"
    for _ in range(200):
        nested = [nested]
    data["records"]["roundstep"][0]["data"] = {"deep": nested}
    refused(played, json.dumps(data, ensure_ascii=False), "", "入れ子が64段より深く")


def test_import_command_prints_file_key_message_and_exits_2(played: Tournament,
                                                           tmp_path: Path) -> None:
    data = _file(played)
    data["records"]["resultfact"][0]["score"] = "5000.00"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(CommandError) as info:
        call_command("tournament_import", str(path))
    assert info.value.returncode == 2
    assert str(info.value).startswith(f"{path}: records.resultfact[0].score: ")


def test_an_edited_file_that_a_person_could_have_entered_still_imports(played: Tournament
                                                                        ) -> None:
    data = _file(played)
    data["records"]["entrant"][0]["card_name"] = "ア" * 8
    data["records"]["penaltyfact"][0]["points"] = "9999.99"
    copy = tournament_file_import(data=data)
    assert copy.slug == "edited"
