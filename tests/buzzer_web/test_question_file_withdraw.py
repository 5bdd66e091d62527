"""Withdrawing the question file in effect (#16 item 4): a superseding record with who and
when; the round then runs without questions; the file stays in the history."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from brackets.models import BuzzerQuestionFile, Tournament
from brackets.selectors.buzzer import round_payload
from tests.buzzer_web.factories import make_round, tap, url
from tests.buzzer_web.test_question_files import load

pytestmark = pytest.mark.django_db


def test_withdrawing_the_file_records_who_and_the_round_runs_without_questions(
    tournament: Tournament, clients: dict[str, Client], cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    loaded = load(round_, by=cast["organiser"], name="first.csv")
    tap(clients["bracket"], round_, kind="correct", player="s1")
    response = clients["bracket"].post(url("buzzer_questions_withdraw", round_),
                                       {"file": loaded.pk}, follow=True)
    body = response.content.decode()
    assert "問題ファイル「first.csv」を取り下げました" in body
    withdrawal = BuzzerQuestionFile.objects.get(round=round_, withdrawn=True)
    assert withdrawal.supersedes == loaded and withdrawal.by == cast["bracket"]
    assert withdrawal.questions == [] and BuzzerQuestionFile.objects.filter(pk=loaded.pk).exists()
    payload = round_payload(round_, for_console=True)
    assert payload["questions"] is None and payload["answer"] is None
    history = body[body.index('id="questions-history"'):]
    assert "取り下げ" in history and "first.csv" in history and 'id="questions-none"' in body
    assert "取り下げ済み" in history and "置き換え済み" not in history
    assert 'id="questions-withdraw"' not in body


def test_a_stale_withdrawal_or_one_without_a_file_stores_nothing(
    tournament: Tournament, clients: dict[str, Client], cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    client = clients["bracket"]
    none = client.post(url("buzzer_questions_withdraw", round_), {"file": 1}, follow=True)
    assert "取り下げる問題ファイルがありません" in none.content.decode()
    first = load(round_, name="first.csv")
    load(round_, "番号,問題,答え\n1,新,シン\n".encode(), name="second.csv")
    stale = client.post(url("buzzer_questions_withdraw", round_), {"file": first.pk}, follow=True)
    assert "別の問題ファイルが読み込まれました" in stale.content.decode()
    bad = client.post(url("buzzer_questions_withdraw", round_), {"file": "x"}, follow=True)
    assert "問題ファイルは取り下げていません" in bad.content.decode()
    assert not BuzzerQuestionFile.objects.filter(withdrawn=True).exists()
    assert clients["desk"].post(url("buzzer_questions_withdraw", round_),
                                {"file": first.pk}).status_code in (302, 403, 404)
    assert not BuzzerQuestionFile.objects.filter(withdrawn=True).exists()


def test_a_file_loaded_after_a_withdrawal_is_in_effect_and_all_travel_in_the_tournament_file(
    tournament: Tournament, clients: dict[str, Client], cast: dict[str, Any]
) -> None:
    from brackets.exporters.tournament_file import tournament_file_export, tournament_file_import
    from tests.printing.test_tournament_file import empty_the_database, without_stamp

    round_ = make_round(tournament)
    first = load(round_, name="first.csv")
    clients["bracket"].post(url("buzzer_questions_withdraw", round_), {"file": first.pk})
    again = load(round_, "番号,問題,答え\n1,新,シン\n".encode(), name="second.csv")
    assert again.supersedes.withdrawn
    assert round_payload(round_, for_console=True)["questions"]["filename"] == "second.csv"
    exported = tournament_file_export(tournament=tournament)
    rows = json.loads(exported)["records"]["buzzerquestionfile"]
    assert [r["withdrawn"] for r in rows] == [False, True, False]
    empty_the_database()
    imported = tournament_file_import(data=exported)
    assert without_stamp(tournament_file_export(tournament=imported)) == without_stamp(exported)
