"""A buzzer round's files: the spreadsheet (question by question with the decided version of
a protest and a thrown-out question, the standings, the protest history, the settings), the
whole event's spreadsheet, who may download them, and where staff find the links."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from brackets.models import BuzzerRound, Tournament
from tests.buzzer_web.factories import make_round, nomx, played_round_with_protests, url

pytestmark = pytest.mark.django_db


def download(t: Tournament, slug: str, **options: Any) -> str:
    base = reverse("document_download", kwargs={"slug": t.slug, "doc_slug": slug})
    return base + ("?" + "&".join(f"{k}={v}" for k, v in options.items()) if options else "")


def sheets(content: bytes) -> dict[str, list[tuple[Any, ...]]]:
    book = load_workbook(io.BytesIO(content))
    return {ws.title: list(ws.iter_rows(values_only=True)) for ws in book}


def test_round_workbook_shows_the_decided_version_question_by_question(
    tournament: Tournament, cast: dict[str, Any], clients: dict[str, Client]
) -> None:
    round_ = played_round_with_protests(tournament, cast)
    response = clients["bracket"].get(download(tournament, "buzzer-round-xlsx", round=round_.pk))
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith(f'-buzzer-round-xlsx-round{round_.pk}.xlsx"')
    book = sheets(response.content)
    assert list(book) == ["問題ごと", "現在の順位", "審議・没問", "設定"]
    questions = book["問題ごと"]
    assert questions[0] == ("問", "解答", "判定", "1. 選手1", "2. 選手2", "3. 選手3",
                            "4. 選手4", "備考（審議・没問）")
    assert questions[1][:7] == (1, "選手1× → 選手2○", "○", "0○1×", "1○0×", "0○0×", "0○0×")
    # The protest: 選手3's ○ is now a ×, the question closed without a correct answer.
    assert questions[2][:3] == (2, "選手3×", "×（正解なし）")
    assert questions[2][5] == "0○1×"
    assert questions[2][7] == "審議: 第2問 選手3 の判定を○→×に変更（bracket）"
    assert questions[3][:3] == (3, "選手4○", "○") and questions[3][7] is None
    # Q4 was thrown out (選手1's ○ gone); its replacement is the 4th question.
    assert questions[4][:3] == (4, "選手2○", "○")
    assert questions[4][3:7] == ("0○1×", "2○0×", "0○1×", "1○0×")
    assert questions[4][7] == "没問の差し替え問題（org） 元の問題: 選手1○"
    assert len(questions) == 5

    standings = book["現在の順位"]
    assert standings[0] == ("順位", "席", "選手", "○数", "×数", "状態", "基準順位", "備考")
    assert [row[:5] for row in standings[1:]] == [
        (1, 2, "選手2", 2, 0), (2, 4, "選手4", 1, 0), (3, 1, "選手1", 0, 1),
        (4, 3, "選手3", 0, 1)]
    assert standings[3][7] == "同点（基準順位で決定）"

    protests = book["審議・没問"]
    assert [(row[2], row[3], row[4]) for row in protests[1:]] == [
        ("bracket", "第2問 選手3 の判定を○→×に変更", "有効"),
        ("org", "第4問を没問（差し替え）", "有効")]
    settings_rows = dict(row[:2] for row in book["設定"][1:])
    assert settings_rows["ルール"].startswith("5○2×・勝ち抜け2人・限定35問")
    assert settings_rows["限定問題数"] == 35 and settings_rows["審議できる問題数"] == 2


def test_an_undone_protest_is_listed_as_taken_back_and_changes_nothing(
    tournament: Tournament, cast: dict[str, Any], clients: dict[str, Client]
) -> None:
    from brackets.engine.buzzer import Rejudge
    from brackets.selectors.buzzer import latest_seq
    from brackets.services.buzzer import buzzer_event_append
    from brackets.services.buzzer_protests import buzzer_protest_record

    round_ = make_round(tournament)
    buzzer_event_append(round=round_, data={"kind": "correct", "player": "s1"},
                        expected_seq=0, by=cast["bracket"])
    buzzer_protest_record(round=round_, event=Rejudge(1, "s1", False), expected_seq=1,
                          by=cast["bracket"])
    buzzer_event_append(round=round_, data={"kind": "undo"}, expected_seq=latest_seq(round_.pk),
                        by=cast["bracket"])
    book = sheets(clients["bracket"].get(
        download(tournament, "buzzer-round-xlsx", round=round_.pk)).content)
    assert book["問題ごと"][1][:4] == (1, "選手1○", "○", "1○0×")
    assert book["問題ごと"][1][-1] is None
    assert book["審議・没問"][1][4] == "取り消し済み"


def test_event_workbook_has_an_overview_and_every_rounds_standings(
    tournament: Tournament, cast: dict[str, Any], clients: dict[str, Client]
) -> None:
    played_round_with_protests(tournament, cast)
    make_round(tournament, name="3R", group="B組")
    response = clients["organiser"].get(download(tournament, "buzzer-event-xlsx"))
    assert response.status_code == 200
    book = sheets(response.content)
    assert list(book) == ["全体", "1. 2R　A組", "2. 3R　B組"]
    overview = book["全体"]
    assert overview[1][:3] == ("2R", "A組", "進行中") and overview[1][4] == 4
    assert overview[1][5] == "1. 選手2、2. 選手4、3. 選手1、4. 選手3"
    assert overview[2][:2] == ("3R", "B組") and overview[2][4] == 0
    assert book["1. 2R　A組"][1][:3] == (1, 2, "選手2")


def test_round_workbook_headers_follow_the_staff_language(
    tournament: Tournament, cast: dict[str, Any], clients: dict[str, Client]
) -> None:
    round_ = played_round_with_protests(tournament, cast)
    client = clients["bracket"]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    book = sheets(client.get(download(tournament, "buzzer-round-xlsx", round=round_.pk)).content)
    with translation.override("en"):
        questions = translation.gettext("問題ごと")
        judgement = translation.gettext("判定")
    assert questions != "問題ごと" and questions in book
    assert book[questions][0][2] == judgement != "判定"
    # Names stay as entered.
    assert book[questions][0][3] == "1. 選手1"


def test_only_round_staff_download_buzzer_files(
    tournament: Tournament, cast: dict[str, Any], clients: dict[str, Client]
) -> None:
    round_ = played_round_with_protests(tournament, cast)
    targets = [download(tournament, "buzzer-round-xlsx", round=round_.pk),
               download(tournament, "buzzer-event-xlsx"),
               download(tournament, "buzzer-scoresheet", round=round_.pk),
               download(tournament, "buzzer-scoresheet", round=round_.pk, filled=1)]
    for target in targets:
        for user, expected in (("bracket", 200), ("organiser", 200), ("admin", 200),
                               ("desk", 403), ("outsider", 403), ("anonymous", 302)):
            assert clients[user].get(target).status_code == expected, (target, user)


def test_a_round_of_another_tournament_is_refused(
    tournament: Tournament, other_tournament: Tournament, cast: dict[str, Any],
    clients: dict[str, Client]
) -> None:
    theirs = make_round(other_tournament)
    for slug in ("buzzer-round-xlsx", "buzzer-scoresheet"):
        response = clients["bracket"].get(download(tournament, slug, round=theirs.pk))
        assert response.status_code == 400
        assert "その早押しラウンドはありません" in response.content.decode()


def test_console_round_list_and_documents_page_link_the_files(
    tournament: Tournament, cast: dict[str, Any], clients: dict[str, Client]
) -> None:
    round_ = played_round_with_protests(tournament, cast)
    client = clients["bracket"]
    console = client.get(url("buzzer_console", round_)).content.decode()
    sheet = download(tournament, "buzzer-scoresheet")
    assert f'{sheet}?round={round_.pk}&amp;filled=1' in console
    assert f'{download(tournament, "buzzer-round-xlsx")}?round={round_.pk}' in console
    index = client.get(reverse("buzzer_index", kwargs={"slug": tournament.slug})).content.decode()
    assert f"{sheet}?round={round_.pk}" in index
    assert download(tournament, "buzzer-event-xlsx") in index
    page = client.get(reverse("document_list", kwargs={"slug": tournament.slug})).content.decode()
    assert "早押し記録用紙" in page
    assert f"{sheet}?round={round_.pk}&amp;filled=1" in page
    assert download(tournament, "buzzer-event-xlsx") in page
    desk = clients["desk"].get(reverse("document_list", kwargs={"slug": tournament.slug}))
    assert "buzzer-scoresheet" not in desk.content.decode()


def test_documents_page_leaves_buzzer_files_off_without_buzzer_rounds(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    assert not BuzzerRound.objects.filter(tournament=tournament).exists()
    page = clients["organiser"].get(reverse("document_list", kwargs={"slug": tournament.slug}))
    body = page.content.decode()
    assert "早押し記録用紙" not in body and "buzzer-event-xlsx" not in body


def test_written_console_links_the_files(tournament: Tournament, clients: dict[str, Client]
                                         ) -> None:
    from brackets.engine.buzzer import QUIZ_003
    from brackets.services.buzzer import buzzer_round_create

    rp = QUIZ_003.round("extra-1")
    round_ = buzzer_round_create(tournament=tournament, name=rp.name, group_name="",
                                 config=rp.config,
                                 players=[{"name": f"選手{n}"} for n in range(1, 21)])
    page = clients["bracket"].get(url("buzzer_console", round_)).content.decode()
    assert f'{download(tournament, "buzzer-scoresheet")}?round={round_.pk}&amp;filled=1' in page
    assert f'{download(tournament, "buzzer-round-xlsx")}?round={round_.pk}' in page


def test_standings_say_how_a_sudden_death_placed_the_tied(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    from brackets.selectors.buzzer import latest_seq, round_state
    from brackets.services.buzzer import buzzer_event_append

    round_ = make_round(tournament, players=3, config=nomx(3, 3, slots=1, question_limit=2))
    for _n in range(2):
        buzzer_event_append(round=round_, data={"kind": "thru"},
                            expected_seq=latest_seq(round_.pk))
    state = round_state(round_)
    assert state.pending and state.pending[0].side == "win"
    target = download(tournament, "buzzer-round-xlsx", round=round_.pk)
    waiting = sheets(clients["bracket"].get(target).content)["現在の順位"]
    assert {row[7] for row in waiting[1:]} == {"サドンデス待ち"}
    buzzer_event_append(round=round_, data={"kind": "tiebreak", "side": "win",
                                            "order": ["s3", "s1", "s2"]},
                        expected_seq=latest_seq(round_.pk))
    book = sheets(clients["bracket"].get(target).content)
    decided = book["最終順位"]
    assert [(row[2], row[7]) for row in decided[1:]] == [
        ("選手3", "サドンデス1位"), ("選手1", "サドンデス2位"), ("選手2", "サドンデス3位")]
    assert decided[1][5] == "1抜け"


@pytest.mark.parametrize(("preset", "slug", "expected"), [
    ("quiz-003", "2r", ("5○2×", "勝ち抜け5人", "限定35問", "アドバンテージ 3,2,2,1,1,1")),
    ("abc-the25th-004", "3r-10by10", ("10 by 10", "制限時間15分00秒", "早押しプレーオフ")),
    ("abc-the25th-004", "sf-3", ("+2/−2", "勝ち抜け1人", "制限時間5分00秒")),
    ("abc-the25th-004", "final", ("勝ち抜け: ○数が 7 以上", "3セット先取")),
    ("quiz-003", "extra-1", ("筆記（脱落式）", "2回の誤答・無回答で着席", "最終問題 第15問")),
])
def test_rule_summary_names_the_rounds_settings(preset: str, slug: str,
                                                expected: tuple[str, ...]) -> None:
    from brackets.engine.buzzer import PRESETS
    from brackets.selectors.buzzer_documents import rule_summary

    with translation.override("ja"):
        summary = rule_summary(PRESETS.get(preset).round(slug).config)
    assert set(expected) <= set(summary), summary
