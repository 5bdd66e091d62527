"""Question files on the console (#16 item 4): loading a file with a preview, every bad row
refused with its row number, the file superseded but kept, the reader's card following taps,
undo and thrown-out questions, and the answer kept off public payloads until judged (and
then only with the round's show_answer setting)."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from brackets.engine.buzzer import ThrowOut, check_question_table, read_position
from brackets.models import BuzzerQuestionFile, BuzzerRound, Tournament
from brackets.selectors.buzzer import latest_seq, round_payload
from brackets.services.buzzer_protests import buzzer_protest_record
from brackets.services.buzzer_questions import buzzer_questions_confirm, question_file_read
from brackets.views.buzzer_stream import build_state
from tests.buzzer_web.factories import make_round, nomx, tap, url

pytestmark = pytest.mark.django_db

GOOD_CSV = (
    "番号,問題,答え,備考\n"
    "1,日本で一番高い山は？,富士山,3776m\n"
    "2,日本で一番長い川は？,信濃川,\n"
    "3,日本で一番大きな湖は？,琵琶湖,滋賀県\n"
    "4,日本で一番深い湖は？,田沢湖,秋田県\n"
    "5,日本で一番面積の広い都道府県は？,北海道,\n"
)
ANSWERS = ("富士山", "信濃川", "琵琶湖", "田沢湖", "北海道")


def upload(client: Client, round_: BuzzerRound, content: bytes, name: str = "q.csv") -> Any:
    return client.post(url("buzzer_questions", round_),
                       {"file": SimpleUploadedFile(name, content)})


def load(round_: BuzzerRound, content: bytes = GOOD_CSV.encode(), by: Any = None,
         name: str = "q.csv") -> BuzzerQuestionFile:
    preview = question_file_read(round=round_, filename=name, content=content)
    assert not preview.problems, preview.problems
    return buzzer_questions_confirm(round=round_, token=preview.token, by=by)


def problems_of(content: bytes, name: str = "q.csv") -> list[str]:
    round_ = BuzzerRound.objects.first()
    return list(question_file_read(round=round_, filename=name, content=content).problems)


# ------------------------------------------------------------------ upload and preview


def test_an_upload_shows_a_preview_and_stores_nothing_until_confirmed(
    tournament: Tournament, clients: dict[str, Client], cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    response = upload(clients["bracket"], round_, GOOD_CSV.encode())
    assert response.status_code == 200
    body = response.content.decode()
    assert "5問を読み込みます" in body and "琵琶湖" in body
    assert BuzzerQuestionFile.objects.count() == 0
    token = response.context["preview"].token

    confirmed = clients["bracket"].post(url("buzzer_questions_confirm", round_), {"token": token})
    assert confirmed.status_code == 302
    stored = BuzzerQuestionFile.objects.get()
    assert stored.by == cast["bracket"] and stored.filename == "q.csv"
    assert [q["answer"] for q in stored.questions] == list(ANSWERS)


def test_shift_jis_csv_and_english_headers_are_read() -> None:
    checked = check_question_table([["number", "question", "answer", "notes"],
                                    ["2", "Q two", "B", ""], ["1", "Q one", "A", "note"]])
    assert checked.ok and [q.answer for q in checked.questions] == ["A", "B"]


def test_a_shift_jis_file_is_read(tournament: Tournament) -> None:
    make_round(tournament)
    assert problems_of(GOOD_CSV.encode("cp932")) == []


def test_an_xlsx_file_with_japanese_headers_is_read(tournament: Tournament) -> None:
    from openpyxl import Workbook

    round_ = make_round(tournament)
    book = Workbook()
    sheet = book.active
    sheet.append(["第2ラウンド 問題"])
    sheet.append(["番号", "問題", "答え", "備考"])
    sheet.append([1, "日本で一番高い山は？", "富士山", None])
    sheet.append([2, "日本で一番長い川は？", "信濃川", "別解なし"])
    out = io.BytesIO()
    book.save(out)
    preview = question_file_read(round=round_, filename="q.xlsx", content=out.getvalue())
    assert preview.problems == ()
    assert [(q.number, q.answer, q.notes) for q in preview.questions] == [
        (1, "富士山", ""), (2, "信濃川", "別解なし")]


def test_every_bad_row_is_refused_with_its_row_and_reason(tournament: Tournament) -> None:
    make_round(tournament)
    bad = (
        "番号,問題,答え,備考\n"
        "1,問題一,答一,\n"
        "1,問題二,答二,\n"          # row 3: duplicate number
        "x,問題三,答三,\n"          # row 4: wrong type
        "4,,答四,\n"               # row 5: no question
        "5,問題五,,\n"             # row 6: no answer
        f"6,{'長' * 1001},答六,\n"  # row 7: too long
    )
    problems = problems_of(bad.encode())
    assert problems == [
        "3行目: 番号 1 は2行目と重複しています。",
        "4行目: 番号「x」は1以上の整数で入力してください。",
        "5行目: 問題文がありません。",
        "6行目: 答えがありません。",
        "7行目: 問題が長すぎます（1001文字、1000文字まで）。",
    ]


def test_a_file_with_bad_rows_is_refused_on_the_page_and_nothing_is_stored(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    response = upload(clients["bracket"], round_, "番号,問題,答え\n1,,答\n".encode())
    body = response.content.decode()
    assert "2行目: 問題文がありません。" in body and "何も保存していません" in body
    assert 'id="questions-confirm"' not in body
    assert BuzzerQuestionFile.objects.count() == 0


@pytest.mark.parametrize(
    ("content", "name", "expected"),
    [
        ("名前,答え\n甲,乙\n".encode(), "q.csv", "見出しの行に必要な列がありません: 番号、問題"),
        ("問題,答え\nQ,A\n".encode(), "q.csv", "見出しの行に必要な列がありません: 番号"),
        (b"\xd0\xcf\x11\xe0rest", "q.xls", "古いExcel形式（.xls）は読めません"),
        (b"PK\x03\x04broken", "q.xlsx", "Excelファイル（.xlsx）として読めませんでした"),
        ("番号,問題,答え\n".encode(), "q.csv", "見出しの下に問題の行がありません。"),
        (b"", "q.csv", "ファイルが空です。"),
    ],
)
def test_unreadable_files_and_missing_columns_are_refused_in_japanese(
    tournament: Tournament, content: bytes, name: str, expected: str
) -> None:
    make_round(tournament)
    problems = problems_of(content, name)
    assert len(problems) == 1 and expected in problems[0]


def test_a_newer_file_supersedes_the_older_which_is_kept_with_who_and_when(
    tournament: Tournament, clients: dict[str, Client], cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    first = load(round_, by=cast["organiser"], name="first.csv")
    second = load(round_, "番号,問題,答え\n1,新しい問題,新しい答え\n".encode(), by=cast["bracket"],
                  name="second.csv")
    assert second.supersedes == first
    assert BuzzerQuestionFile.objects.filter(round=round_).count() == 2
    body = clients["bracket"].get(url("buzzer_questions", round_)).content.decode()
    history = body[body.index('id="questions-history"'):]
    assert "first.csv" in history and "second.csv" in history and "置き換え済み" in history
    assert "org" in history and "bracket" in history


def test_a_preview_confirmed_after_another_file_was_stored_is_refused(
    tournament: Tournament, cast: dict[str, Any]
) -> None:
    from brackets.services.buzzer import BuzzerRefused

    round_ = make_round(tournament)
    stale = question_file_read(round=round_, filename="a.csv", content=GOOD_CSV.encode())
    load(round_, name="b.csv")
    with pytest.raises(BuzzerRefused, match="別の問題ファイルが読み込まれました"):
        buzzer_questions_confirm(round=round_, token=stale.token, by=cast["bracket"])
    assert BuzzerQuestionFile.objects.count() == 1


def test_a_tampered_or_foreign_token_stores_nothing(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    other = make_round(tournament, name="3R")
    token = question_file_read(round=other, filename="q.csv", content=GOOD_CSV.encode()).token
    for bad in (token, token[:-3] + "abc", ""):
        response = clients["bracket"].post(url("buzzer_questions_confirm", round_),
                                           {"token": bad}, follow=True)
        assert response.status_code == 200
        assert "もう一度ファイルを選んでください" in response.content.decode()
    assert BuzzerQuestionFile.objects.count() == 0


def test_desk_staff_and_outsiders_cannot_load_a_file(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    for who in ("desk", "outsider"):
        assert upload(clients[who], round_, GOOD_CSV.encode()).status_code in (302, 403, 404)
    assert BuzzerQuestionFile.objects.count() == 0


# -------------------------------------------------------------- the reader's card


def card(round_: BuzzerRound) -> dict[str, Any]:
    data: dict[str, Any] = round_payload(round_, for_console=True)["questions"]
    return data


def test_a_round_without_a_file_runs_as_before(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    body = tap(clients["bracket"], round_, kind="correct", player="s1")
    assert body["questions"] is None and body["answer"] is None


def test_the_current_question_follows_taps_and_undo(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    load(round_)
    assert card(round_)["current"]["answer"] == "富士山" and card(round_)["judged"] is None
    tap(clients["bracket"], round_, kind="wrong", player="s1")
    assert card(round_)["current"]["number"] == 1  # a wrong leaves the question open
    tap(clients["bracket"], round_, kind="correct", player="s2")
    assert card(round_)["current"]["answer"] == "信濃川"
    assert card(round_)["judged"]["answer"] == "富士山"
    tap(clients["bracket"], round_, kind="thru")
    assert card(round_)["current"]["number"] == 3
    tap(clients["bracket"], round_, kind="undo")
    assert card(round_)["current"]["number"] == 2


def test_a_thrown_out_question_is_replaced_by_the_next_unused_one(
    tournament: Tournament, clients: dict[str, Client], cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    load(round_)
    tap(clients["bracket"], round_, kind="correct", player="s1")   # file Q1
    tap(clients["bracket"], round_, kind="wrong", player="s2")     # file Q2 in play
    buzzer_protest_record(round=round_, event=ThrowOut(2), expected_seq=latest_seq(round_.pk),
                          by=cast["bracket"])
    shown = card(round_)
    assert shown["thrown"] == 1
    assert shown["current"]["number"] == 3  # the replacement of round question 2
    tap(clients["bracket"], round_, kind="correct", player="s3")
    assert card(round_)["current"]["number"] == 4
    assert card(round_)["judged"]["number"] == 3
    tap(clients["bracket"], round_, kind="undo")
    tap(clients["bracket"], round_, kind="undo")  # the throw-out itself
    assert card(round_)["current"]["number"] == 2 and card(round_)["thrown"] == 0


def test_a_question_thrown_out_after_later_ones_were_read_keeps_their_file_questions(
    tournament: Tournament, clients: dict[str, Client], cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    load(round_)
    tap(clients["bracket"], round_, kind="correct", player="s1")   # Q1 file 1
    tap(clients["bracket"], round_, kind="correct", player="s2")   # Q2 file 2
    tap(clients["bracket"], round_, kind="correct", player="s3")   # Q3 file 3
    buzzer_protest_record(round=round_, event=ThrowOut(2), expected_seq=latest_seq(round_.pk),
                          by=cast["bracket"])
    # Round question 2 is now what was file question 3; file question 4 is read next.
    assert card(round_)["judged"]["number"] == 3
    assert card(round_)["current"]["number"] == 4
    assert read_position((2,), 2) == 3


def test_the_card_says_when_the_file_runs_out(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    load(round_, "番号,問題,答え\n1,一,イチ\n".encode())
    tap(clients["bracket"], round_, kind="thru")
    shown = card(round_)
    assert shown["current"] is None and shown["exhausted"] is True


def test_the_console_page_links_the_question_file(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    body = clients["bracket"].get(url("buzzer_console", round_)).content.decode()
    assert url("buzzer_questions", round_) in body and 'id="bz-qcard"' in body


# ------------------------------------------------------------------ public pages


def public_texts(client: Client, round_: BuzzerRound) -> list[str]:
    """Everything a public screen receives about the round, as text."""
    return [
        client.get(url("public_buzzer_state", round_)).content.decode(),
        client.get(url("public_buzzer_scoreboard", round_)).content.decode(),
        client.get(url("public_buzzer_overlay_lower", round_)).content.decode(),
        client.get(url("public_buzzer_overlay_side", round_)).content.decode(),
        json.dumps(build_state(round_.pk, "ja"), ensure_ascii=False),
    ]


def leaked(texts: list[str], words: tuple[str, ...]) -> set[str]:
    # Pages and JSON write some non-ASCII as \uXXXX escapes: the words are looked for in
    # the unescaped text.
    plain = [re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), t)
             for t in texts]
    return {w for w in words if any(w in t for t in plain)}


def test_no_answer_reaches_a_public_page_before_its_question_is_judged(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament, config=nomx(question_limit=35, show_answer=True))
    load(round_)
    anonymous = Client()
    assert leaked(public_texts(anonymous, round_), ANSWERS) == set()
    tap(clients["bracket"], round_, kind="wrong", player="s1")  # question 1 still open
    assert leaked(public_texts(anonymous, round_), ANSWERS) == set()
    tap(clients["bracket"], round_, kind="correct", player="s2")  # question 1 judged
    assert leaked(public_texts(anonymous, round_), ANSWERS) == {"富士山"}
    body = anonymous.get(url("public_buzzer_state", round_)).json()
    assert body["answer"] == {"round_question": 1, "number": 1,
                              "question": "日本で一番高い山は？", "answer": "富士山"}
    assert "questions" not in body and "3776m" not in json.dumps(body, ensure_ascii=False)


def test_with_the_setting_off_no_answer_is_ever_public(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    load(round_)
    tap(clients["bracket"], round_, kind="correct", player="s1")
    tap(clients["bracket"], round_, kind="thru")
    assert leaked(public_texts(Client(), round_), ANSWERS) == set()
    assert Client().get(url("public_buzzer_state", round_)).json()["answer"] is None


def test_the_setting_is_a_round_form_field_off_by_default(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    from brackets.forms.buzzer_settings import RoundSettingsForm

    form = RoundSettingsForm()
    assert form.fields["show_answer"].initial is False
    assert "答え" in str(form.fields["show_answer"].label)


# -------------------------------------------------------------- the tournament file


def test_question_files_travel_in_the_tournament_file_with_their_history(
    tournament: Tournament, cast: dict[str, Any]
) -> None:
    from brackets.exporters.tournament_file import tournament_file_export, tournament_file_import
    from tests.printing.test_tournament_file import empty_the_database, without_stamp

    round_ = make_round(tournament)
    load(round_, by=cast["organiser"], name="first.csv")
    load(round_, "番号,問題,答え\n1,新,シン\n".encode(), by=cast["bracket"], name="second.csv")
    first = tournament_file_export(tournament=tournament)
    rows = json.loads(first)["records"]["buzzerquestionfile"]
    assert [r["filename"] for r in rows] == ["first.csv", "second.csv"]
    empty_the_database()
    imported = tournament_file_import(data=first)
    assert without_stamp(tournament_file_export(tournament=imported)) == without_stamp(first)
    files = BuzzerQuestionFile.objects.filter(round__tournament=imported).order_by("pk")
    assert files[1].supersedes == files[0] and files[1].by.get_username() == "bracket"


def test_an_older_file_without_question_files_still_imports(
    tournament: Tournament, cast: dict[str, Any]
) -> None:
    from brackets.exporters.tournament_file import (
        checksum,
        tournament_file_export,
        tournament_file_import,
    )
    from tests.printing.test_tournament_file import empty_the_database

    make_round(tournament)
    data = json.loads(tournament_file_export(tournament=tournament))
    data["records"].pop("buzzerquestionfile", None)
    data["checksum"] = checksum(data)
    empty_the_database()
    imported = tournament_file_import(data=json.dumps(data, ensure_ascii=False).encode())
    assert BuzzerRound.objects.filter(tournament=imported).count() == 1


@pytest.mark.parametrize(
    ("questions", "why"),
    [
        ("not a list", "形式が違います"),
        ([{"number": 1, "question": "", "answer": "A", "notes": ""}], "問題文がありません"),
        ([{"number": 2, "question": "Q", "answer": "A", "notes": ""},
          {"number": 1, "question": "Q", "answer": "A", "notes": ""}], "番号順"),
    ],
)
def test_a_tournament_file_with_a_broken_question_file_is_refused(
    tournament: Tournament, questions: Any, why: str
) -> None:
    from brackets.exporters.tournament_file import (
        TournamentFileError,
        checksum,
        tournament_file_export,
        tournament_file_import,
    )
    from tests.printing.test_tournament_file import empty_the_database

    load(make_round(tournament))
    data = json.loads(tournament_file_export(tournament=tournament))
    data["records"]["buzzerquestionfile"][0]["questions"] = questions
    data["checksum"] = checksum(data)
    empty_the_database()
    with pytest.raises(TournamentFileError, match=why):
        tournament_file_import(data=json.dumps(data, ensure_ascii=False).encode())
    assert not BuzzerQuestionFile.objects.exists()


def test_the_written_page_shows_the_reader_the_question_and_answer(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    from brackets.engine.buzzer import RoundConfig, WrittenRules
    from brackets.services.buzzer import buzzer_round_create

    round_ = buzzer_round_create(
        tournament=tournament, name="筆記", config=RoundConfig(format="written", slots=0,
                                                             written=WrittenRules()),
        players=[{"name": f"選手{i}"} for i in range(1, 21)])
    load(round_)
    body = clients["bracket"].get(url("buzzer_console", round_)).content.decode()
    assert "日本で一番高い山は？" in body and "富士山" in body and "3776m" in body
