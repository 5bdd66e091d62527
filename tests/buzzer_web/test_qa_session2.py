"""Regressions from driving M4/M5/M6, 10 up-down, Freeze10 and 10by10 by hand in Chromium.

* M6 (Triple Seven): a set's ○ go back to 0, yet neither the console nor the stage showed
  how many sets each player had taken — the audience could not follow the race to 3 sets.
* Players who were merely not among the winners (Number10 courses once both places are
  taken, the Triple Seven runners-up) were labelled 失格 as if they had hit the loss
  condition; the rules keep 失格 for that (and for M5's explicit "下位2名が失格").
* A hovered or just-tapped ○/× turned white on white (Bootstrap's .btn:hover background).
* Two-digit ○ counts overflowed the cards of a 13–16 seat scoreboard.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from brackets.engine.buzzer import PRESETS
from brackets.models import BuzzerRound, Tournament
from tests.buzzer_web.factories import make_round

ABC = PRESETS.get("abc-the25th-004")


def url(name: str, round_: BuzzerRound) -> str:
    return reverse(name, kwargs={"slug": round_.tournament.slug, "round_id": round_.pk})


def tap(client: Client, round_: BuzzerRound, **data: Any) -> dict[str, Any]:
    response = client.post(url("buzzer_tap", round_), data, HTTP_ACCEPT="application/json")
    body: dict[str, Any] = response.json()
    assert response.status_code == 200, body
    return body


def players(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in body["players"]}


@pytest.mark.django_db
def test_triple_seven_screens_get_the_sets_taken(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament, players=3, config=ABC.round("final").config, name="決勝")
    for _ in range(7):
        body = tap(clients["bracket"], round_, kind="correct", player="s1")
    rows = players(body)
    # The set is taken: ○ start again from 0, so the sets are the only trace of it.
    assert rows["s1"]["correct"] == 0 and rows["s1"]["sets"] == 1
    assert body["round"]["sets_to_win"] == 3
    public = clients["anonymous"].get(url("public_buzzer_state", round_)).json()
    assert public["round"]["sets_to_win"] == 3
    assert players(public)["s1"]["sets"] == 1
    # The badge text is in the translated string blob the scripts read.
    page = clients["anonymous"].get(url("public_buzzer_scoreboard", round_)).content.decode()
    blob = re.search(r'<script id="bz-i18n" type="application/json">(.*?)</script>', page)
    assert blob is not None and "{n}セット" in json.loads(blob.group(1))


@pytest.mark.django_db
def test_a_round_without_sets_says_so(tournament: Tournament, clients: dict[str, Client]) -> None:
    round_ = make_round(tournament, players=2, config=ABC.round("3r-freeze").config)
    body = clients["anonymous"].get(url("public_buzzer_state", round_)).json()
    assert body["round"]["sets_to_win"] is None


@pytest.mark.django_db
def test_updown_losers_are_beaten_not_disqualified(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament, players=4, config=ABC.round("3r-updown").config)
    c = clients["bracket"]
    tap(c, round_, kind="clock_start")
    tap(c, round_, kind="wrong", player="s1")
    tap(c, round_, kind="thru")
    tap(c, round_, kind="wrong", player="s1")  # 2 wrongs: out by the rule
    for seat in ("s2", "s3"):
        for _ in range(10):
            body = tap(c, round_, kind="correct", player=seat)
    assert body["phase"] == "over" and body["winners"] == ["s2", "s3"]
    rows = players(body)
    assert rows["s1"]["label"] == "失格"
    assert rows["s4"]["status"] == "out" and rows["s4"]["label"] == "敗退"
    assert [rows[s]["label"] for s in ("s2", "s3")] == ["1抜け", "2抜け"]


@pytest.mark.django_db
def test_10by10_six_wrongs_is_disqualified(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament, players=3, config=ABC.round("3r-10by10").config)
    c = clients["bracket"]
    tap(c, round_, kind="clock_start")
    for _ in range(6):
        body = tap(c, round_, kind="wrong", player="s1")
        if players(body)["s1"]["status"] == "active":
            tap(c, round_, kind="thru")
    assert players(body)["s1"]["label"] == "失格"


@pytest.mark.django_db
def test_nine_hundred_bottom_two_stay_disqualified(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    """M5: "下位2名が失格" — an explicit elimination line keeps the word 失格."""
    round_ = make_round(tournament, players=5, config=ABC.round("sf-1").config)
    c = clients["bracket"]
    tap(c, round_, kind="clock_start")
    tap(c, round_, kind="correct", player="s1")
    tap(c, round_, kind="correct", player="s1")
    tap(c, round_, kind="correct", player="s2")
    tap(c, round_, kind="wrong", player="s4")
    tap(c, round_, kind="thru")
    tap(c, round_, kind="wrong", player="s5")
    tap(c, round_, kind="wrong", player="s4")
    body = tap(c, round_, kind="clock_expire", question_in_play="0")
    rows = players(body)
    assert body["phase"] == "over" and body["winners"] == ["s1"]
    assert rows["s4"]["label"] == "失格" and rows["s5"]["label"] == "失格"
    assert rows["s2"]["status"] == "active" and rows["s3"]["status"] == "active"


@pytest.mark.django_db
def test_triple_seven_runners_up_are_beaten(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament, players=3, config=ABC.round("final").config)
    for _ in range(21):
        body = tap(clients["bracket"], round_, kind="correct", player="s1")
    rows = players(body)
    assert body["winners"] == ["s1"] and rows["s1"]["sets"] == 3
    assert rows["s2"]["label"] == "敗退" and rows["s3"]["label"] == "敗退"


@pytest.mark.django_db
def test_playoff_rounds_tell_the_screens_to_say_playoff(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    """M3/M5 ties go to an 早押しプレーオフ (L11 keeps サドンデス): the screens need the rule."""
    nine = make_round(tournament, players=3, config=ABC.round("sf-1").config, name="SF")
    body = clients["anonymous"].get(url("public_buzzer_state", nine)).json()
    assert body["round"]["tie_rule"] == "playoff"
    page = clients["anonymous"].get(url("public_buzzer_scoreboard", nine)).content.decode()
    blob = re.search(r'<script id="bz-i18n" type="application/json">(.*?)</script>', page)
    assert blob is not None
    strings = json.loads(blob.group(1))
    assert {"プレーオフ", "プレーオフ（{side}）が必要です", "プレーオフを開始（別画面）"} <= set(strings)


@pytest.mark.django_db
def test_playoff_sub_round_is_named_and_reported_as_playoff(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    """M5: a tie on the winning line opens an 早押しプレーオフ, not a サドンデス."""
    parent = make_round(tournament, players=4, config=ABC.round("sf-1").config, name="SF1")
    c = clients["bracket"]
    tap(c, parent, kind="clock_start")
    tap(c, parent, kind="correct", player="s1")
    tap(c, parent, kind="correct", player="s2")
    body = tap(c, parent, kind="clock_expire", question_in_play="0")
    assert body["phase"] == "deciding"
    c.post(url("buzzer_tiebreak_start", parent), {"side": "win"})
    sub = BuzzerRound.objects.get(parent=parent)
    assert "プレーオフ" in sub.name and "サドンデス" not in sub.name
    tap(c, sub, kind="correct", player="s2")
    response = c.post(url("buzzer_tiebreak_apply", sub), follow=True)
    assert "プレーオフの結果を反映しました。" in response.content.decode()
    final = clients["anonymous"].get(url("public_buzzer_state", parent)).json()
    assert final["winners"] == ["s2"]


@pytest.mark.django_db
def test_finished_written_round_offers_no_next_question_and_undo_says_so(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    """M4 first step: after the pass at Q10 the page said 「第11問を入力」; undo was silent."""
    round_ = make_round(tournament, players=3, config=ABC.round("extra-1").config, name="敗者復活")
    c = clients["bracket"]
    for _ in range(10):  # everyone right: a top tie of 3 (2–12) passes at the Q10 check
        c.post(url("buzzer_written_entry", round_), {"wrong_seats": ""})
    page = c.get(url("buzzer_console", round_)).content.decode()
    assert "終了（10問）" in page and "第11問" not in page
    assert url("buzzer_written_entry", round_) not in page
    response = c.post(url("buzzer_tap", round_), {"kind": "undo"}, follow=True)
    body = response.content.decode()
    assert "直前の入力を取り消しました。" in body and "第10問を入力" in body
