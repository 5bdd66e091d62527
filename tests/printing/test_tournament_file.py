"""The whole-tournament file: export → import into an empty database → export gives the
same file (modulo the timestamp) and the same standings; bad files change nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from brackets.exporters.tournament_file import (
    TournamentFileError,
    checksum,
    file_models,
    tournament_file_export,
    tournament_file_import,
)
from brackets.models import Entrant, Membership, QmaVersion, Tournament
from brackets.selectors.round_documents import final_ranking

pytestmark = pytest.mark.django_db


def without_stamp(content: bytes) -> dict[str, Any]:
    data = json.loads(content)
    data.pop("exported_at")
    return data


def empty_the_database() -> None:
    """Delete every tournament, its facts, the staff accounts and the catalog."""
    for spec in reversed(file_models()):
        spec.model.objects.all().delete()
    Membership.objects.all().delete()
    Tournament.objects.all().delete()
    get_user_model().objects.all().delete()
    QmaVersion.objects.all().delete()


def standings(t: Tournament) -> list[tuple[int, str, str, str]]:
    return [(r.place, r.name, r.round_name, r.detail) for r in final_ranking(t)]


def test_round_trip_through_an_empty_database(kyushu_finished: Tournament) -> None:
    first = tournament_file_export(tournament=kyushu_finished)
    before = standings(kyushu_finished)
    data = json.loads(first)
    kinds = set(data["records"])
    # Every fact of a played tournament is in the file, with who and when.
    assert {"entrant", "entrantrevision", "round", "roundstep", "group", "seat",
            "selectionfact", "resultfact", "specialfact"} <= kinds
    fact = data["records"]["resultfact"][0]
    assert fact["by"] == "org" and fact["at"].endswith("+00:00")
    assert data["tournament"]["lottery_seed"] == "test-seed"
    assert data["catalog"] == "qma-2016"

    # Next to the original under another slug: the same file but for the slug.
    copy = tournament_file_import(data=first, slug="kyushu9-copy")
    assert standings(copy) == before
    a, b = without_stamp(first), without_stamp(tournament_file_export(tournament=copy))
    for d in (a, b):
        d["tournament"].pop("slug")
        d.pop("checksum")
    assert a == b

    empty_the_database()
    assert not Tournament.objects.exists()
    imported = tournament_file_import(data=first)

    again = tournament_file_export(tournament=imported)
    assert without_stamp(again) == without_stamp(first)
    assert standings(imported) == before
    assert Membership.objects.filter(tournament=imported).count() == 3
    # Imported accounts exist for the staff but cannot log in until given a password.
    assert not get_user_model().objects.get(username="desk").has_usable_password()


def counts() -> tuple[int, ...]:
    return (Tournament.objects.count(), Entrant.objects.count(),
            get_user_model().objects.count(), Membership.objects.count())


@pytest.fixture
def exported(tournament: Tournament, cast: dict[str, Any]) -> dict[str, Any]:
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, cast["organiser"], count=16, seeds=2, upto=1)
    data: dict[str, Any] = json.loads(tournament_file_export(tournament=tournament))
    return data


def refused(data: Any, match: str, **kwargs: Any) -> None:
    before = counts()
    with pytest.raises(TournamentFileError, match=match):
        tournament_file_import(data=data, **kwargs)
    assert counts() == before


def test_newer_version_is_refused(exported: dict[str, Any]) -> None:
    from brackets.exporters.tournament_file.layout import VERSION

    exported["version"] = VERSION + 1
    exported["tournament"]["slug"] = "newer"
    exported.pop("checksum")
    refused(exported, f"version {VERSION + 1}")


def test_other_formats_and_broken_json_are_refused(exported: dict[str, Any]) -> None:
    refused({"format": "something-else", "version": 1}, "大会ファイルではありません")
    text = json.dumps(exported, ensure_ascii=False)
    refused(text[: len(text) // 2].encode(), "JSONとして読めません")
    refused(b"\xff\xfe\x00garbage", "JSONとして読めません")
    refused("[1, 2, 3]", "大会ファイルではありません")


def test_edited_file_fails_its_checksum(exported: dict[str, Any]) -> None:
    exported["records"]["resultfact"][0]["score"] = "399.99"
    exported["tournament"]["slug"] = "edited"
    refused(exported, "チェックサム")


def test_a_bad_record_late_in_the_file_leaves_nothing_behind(exported: dict[str, Any]
                                                             ) -> None:
    exported.pop("checksum")
    exported["tournament"]["slug"] = "half"
    exported["users"].append("newcomer")
    exported["records"]["roundstep"][-1]["by"] = "newcomer"  # would create an account
    exported["records"]["resultfact"][-1]["seat"] = 99999    # a dangling reference
    refused(exported, "seat の id 99999 がありません")
    assert not get_user_model().objects.filter(username="newcomer").exists()


def test_unknown_records_and_fields_are_refused(exported: dict[str, Any]) -> None:
    exported.pop("checksum")
    exported["tournament"]["slug"] = "unknown"
    exported["records"]["laserbeam"] = [{"id": 1}]
    refused(exported, "知らない記録")
    exported["records"].pop("laserbeam")
    exported["records"]["entrant"][0]["favourite_colour"] = "青"
    refused(exported, "知らない項目")
    exported["records"]["entrant"][0].pop("favourite_colour")
    exported["records"]["entrant"][0]["q_level"] = "九十"
    refused(exported, "q_level")


def test_taken_slug_and_unknown_catalog_are_refused(exported: dict[str, Any]) -> None:
    refused(exported, "既にあります")
    exported["catalog"] = "qma-2099"
    exported["checksum"] = checksum(exported)
    refused(exported, "qma-2099", slug="elsewhere")


def test_a_hand_written_minimal_file_imports(catalog: QmaVersion) -> None:
    """Readers such as replay scripts may write files by hand: no checksum, defaults."""
    data = {"format": "kyushu-tournament", "version": 1, "catalog": "qma-2016",
            "tournament": {"slug": "hand", "name": "手書き大会"},
            "records": {"entrant": [{"id": 1, "name": "山田太郎", "card_name": "ヤマダ"}]}}
    t = tournament_file_import(data=data)
    entrant = Entrant.objects.get(tournament=t)
    assert entrant.card_name == "ヤマダ" and entrant.q_level == 0


def test_buzzer_rounds_and_paper_markings_round_trip(tournament: Tournament,
                                                     cast: dict[str, Any]) -> None:
    """Models of other areas are in the file without this module naming them: live buzzer
    rounds (with a sudden-death child pointing at its parent), their taps, paper marks."""
    from brackets.models import BuzzerEvent, BuzzerRound
    from brackets.selectors.buzzer import latest_seq
    from brackets.services.buzzer import buzzer_event_append
    from tests.buzzer_web.factories import make_matrix_buzzer_world

    world = make_matrix_buzzer_world(tournament)
    round_ = BuzzerRound.objects.get(tournament=tournament, name="matrix", parent=None)
    for kind, player in (("correct", "s1"), ("wrong", "s2")):
        buzzer_event_append(round=round_, data={"kind": kind, "player": player},
                            expected_seq=latest_seq(round_.pk), by=cast["bracket"])
    first = tournament_file_export(tournament=tournament)
    data = json.loads(first)
    assert {"buzzerround", "buzzerplayer", "buzzerevent", "papermarking"} <= set(data["records"])
    assert any(r["parent"] for r in data["records"]["buzzerround"])
    assert world
    empty_the_database()
    imported = tournament_file_import(data=first)
    assert without_stamp(tournament_file_export(tournament=imported)) == without_stamp(first)
    child = BuzzerRound.objects.get(tournament=imported, parent__isnull=False)
    assert child.parent.tournament_id == imported.pk
    assert BuzzerEvent.objects.filter(round__tournament=imported).count() == 2


def assert_older_file_imports_as_today(tournament: Tournament,
                                       edit: Callable[[dict[str, Any]], None]) -> None:
    """Today's file of ``tournament`` made older by ``edit`` imports into an empty database
    as the same tournament: same standings, and exported again it gives today's file."""
    today = json.loads(tournament_file_export(tournament=tournament))
    before = standings(tournament)
    older = json.loads(json.dumps(today))
    edit(older)
    older["checksum"] = checksum(older)
    empty_the_database()
    imported = tournament_file_import(data=json.dumps(older).encode("utf-8"))
    assert standings(imported) == before
    again = without_stamp(tournament_file_export(tournament=imported))
    today.pop("exported_at")
    assert again == today


def test_a_file_exported_before_the_typed_round_spec_still_imports(
        kyushu_finished: Tournament) -> None:
    """A file whose rounds carry the old flat spec (renamed kinds ``rule_select``,
    ``partner``, ``series``; fields ``window``/``bans``/``per_group`` …) imports as the same
    tournament: same standings, and exported again it gives today's file."""
    from brackets.adapters.rounds import stored_to_legacy

    def legacy_specs(legacy: dict[str, Any]) -> None:
        for row in legacy["records"]["round"]:
            row["spec"], row["kind"] = stored_to_legacy(row["spec"], row["number"])
        assert {r["kind"] for r in legacy["records"]["round"]} == {
            "groups", "rule_select", "partner", "series"}
        assert all("version" not in r["spec"] and "per_group" in r["spec"]
                   for r in legacy["records"]["round"])

    assert_older_file_imports_as_today(kyushu_finished, legacy_specs)


def test_a_file_exported_with_stored_selection_violations_still_imports(
        kyushu_finished: Tournament) -> None:
    """Files written before a selection's violations and penalty were derived carry them on
    every selection fact: the importer ignores them (the engine derives both), the
    tournament is the same and exported again it gives today's file."""
    def stored_violations(older: dict[str, Any]) -> None:
        for row in older["records"]["selectionfact"]:
            row["violations"] = ([{"code": "genre_lot", "text": "芸能 は修羅くじで使用不可"}]
                                 if row["accepted_illegal"] else [])
            row["penalty"] = "400.00" if row["accepted_illegal"] else "0.00"

    assert_older_file_imports_as_today(kyushu_finished, stored_violations)


def test_a_round_spec_that_cannot_be_read_back_is_refused(
        exported: dict[str, Any]) -> None:
    exported["records"]["round"][0]["spec"]["round"]["kind"] = "knockout"
    exported["checksum"] = checksum(exported)
    with pytest.raises(TournamentFileError, match="records.round"):
        tournament_file_import(data=json.dumps(exported).encode("utf-8"), slug="bad-spec")
