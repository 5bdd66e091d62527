"""The badge under each player: 失格 only by a rule, 敗退 otherwise; n抜け, 敗者復活, 通過.

失格 is what the rules call hitting the loss condition (2 wrongs in 10 up-down, 6 in
10by10) or an explicit elimination line (M5 "下位2名が失格"). Players still standing when
the places fill, or beaten in the final (M6), are 敗退. A written round's survivors go on
together: a lone top is 敗者復活 (M4), a top tie passing on is 通過, never 1抜け…n抜け.
"""

from __future__ import annotations

import pytest
from django.test import Client

from brackets.engine.buzzer import PRESETS
from brackets.models import Tournament
from tests.buzzer_web.factories import make_round, players, tap, url

ABC = PRESETS.get("abc-the25th-004")


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
def test_written_revival_and_pass_labels(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    """M4: a lone top is 敗者復活; a top tie passing on together is 通過 (not 1抜け, 2抜け)."""
    c = clients["bracket"]
    lone = make_round(tournament, players=4, config=ABC.round("extra-1").config, name="EX1")
    c.post(url("buzzer_written_entry", lone), {"wrong_seats": "2 3 4"})
    for _ in range(9):
        c.post(url("buzzer_written_entry", lone), {"wrong_seats": ""})
    body = c.get(url("buzzer_console_state", lone)).json()
    assert body["end_reason"] == "revived"
    labels = {p["id"]: p["label"] for p in body["players"]}
    assert labels["s1"] == "敗者復活" and labels["s2"] == "失格"
    assert "敗者復活" in c.get(url("buzzer_console", lone)).content.decode()

    tie = make_round(tournament, players=4, config=ABC.round("extra-1").config, name="EX1b")
    c.post(url("buzzer_written_entry", tie), {"wrong_seats": "4"})
    for _ in range(9):
        c.post(url("buzzer_written_entry", tie), {"wrong_seats": ""})
    body = c.get(url("buzzer_console_state", tie)).json()
    labels = {p["id"]: p["label"] for p in body["players"]}
    assert [labels[s] for s in ("s1", "s2", "s3")] == ["通過"] * 3 and labels["s4"] == "失格"
