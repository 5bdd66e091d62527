"""Question files in Chromium: the operator's card at 1024 px beside the seats, and the
stage and the overlay showing the last judged answer (the round's show_answer setting).

Screenshots go to ``$SHOTS_DIR`` when it is set (a person looks at them)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from brackets.models import Membership, Role, Tournament
from tests.browser.conftest import login
from tests.buzzer_web.factories import make_round, nomx, tap
from tests.buzzer_web.test_question_files import load

QUESTIONS = (
    "番号,問題,答え,備考\n"
    "1,日本で一番高い山は？,富士山,標高3776m\n"
    "2,「走れメロス」「人間失格」などの作品で知られる、青森県出身の小説家は誰？,太宰治,"
    "本名「津島修治」も正解\n"
    "3,元素記号「Au」で表される元素は何？,金,「ゴールド」も正解\n"
)


def _shot(page: Any, name: str) -> None:
    folder = os.environ.get("SHOTS_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_console_card_and_stage_answer(
    live_server: Any, tournament: Tournament, browser: Any, projector_page: Any
) -> None:
    user = get_user_model().objects.create_user("qa-reader", password="qa-reader-pass")
    Membership.objects.create(tournament=tournament, user=user, role=Role.BRACKET)
    round_ = make_round(tournament, players=12, name="2nd Round 連答つき5○2×",
                        config=nomx(question_limit=35, slots=3, show_answer=True))
    load(round_, QUESTIONS.encode(), by=user, name="2R問題.csv")
    client = Client()
    client.force_login(user)
    tap(client, round_, kind="correct", player="s3")  # question 1 judged

    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="ja-JP")
    page = context.new_page()
    page.set_default_timeout(10_000)
    login(page, live_server.url, "qa-reader", "qa-reader-pass")
    page.goto(f"{live_server.url}/t/{tournament.slug}/buzzer/{round_.pk}/")
    card = page.locator("#bz-qcard")
    card.wait_for()
    assert "太宰治" in card.inner_text() and "津島修治" in card.inner_text()
    assert "富士山" in card.inner_text()  # the previous question's answer, small
    # With the card, the twelfth seat's ○ still sits above the sticky footer at 1024×768.
    last = page.locator('button[aria-label="12番 ○"]').bounding_box()
    foot = page.locator(".bz-foot").bounding_box()
    assert last is not None and foot is not None and last["y"] + last["height"] <= foot["y"]
    _shot(page, "console-1024.png")

    # A file with bad rows: every row named, nothing offered to confirm.
    page.goto(f"{live_server.url}/t/{tournament.slug}/buzzer/{round_.pk}/questions/")
    page.set_input_files("#id_file", files=[{
        "name": "bad.csv", "mimeType": "text/csv",
        "buffer": "番号,問題,答え\n1,問題,答\n1,問題,\nx,,答\n".encode("cp932")}])
    page.click("#questions-form button")
    problems = page.locator("#questions-problems").inner_text()
    assert "3行目: 番号 1 は2行目と重複しています。" in problems and "4行目: 問題文がありません。" in problems
    assert page.locator("#questions-confirm").count() == 0
    _shot(page, "questions-refused-1024.png")
    page.set_input_files("#id_file", files=[{
        "name": "2R問題_差し替え.csv", "mimeType": "text/csv", "buffer": QUESTIONS.encode()}])
    page.click("#questions-form button")
    page.locator("#questions-confirm").wait_for()
    _shot(page, "questions-preview-1024.png")
    context.close()

    stage = projector_page
    stage.goto(f"{live_server.url}/p/{tournament.slug}/buzzer/{round_.pk}/")
    stage.wait_for_selector("#bzb-answer:not([hidden])")
    text = stage.locator("#bzb-answer").inner_text()
    assert "第1問の答え" in text and "富士山" in text
    assert "太宰治" not in stage.content()  # the question being read stays off the stage
    _shot(stage, "stage-1920-answer.png")

    stage.goto(f"{live_server.url}/p/{tournament.slug}/buzzer/{round_.pk}/overlay/lower/")
    stage.wait_for_selector("#bzo-answer:not([hidden])")
    _shot(stage, "overlay-lower-answer.png")
    stage.goto(f"{live_server.url}/p/{tournament.slug}/buzzer/{round_.pk}/overlay/side/")
    stage.wait_for_selector("#bzo-answer:not([hidden])")
    _shot(stage, "overlay-side-answer.png")
