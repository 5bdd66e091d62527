"""Regressions from driving M5 (Nine Hundred) sets 1 → 2 → 3 and M4 by hand in Chromium.

* A set 1 made from the preset's template on the 「早押しラウンドを作成」 page (the way staff
  start M5 when the earlier rounds were run elsewhere) did not join the preset's chain: the
  presets page then refused set 2 with 「1R順位を入力してください。」, so carried points could
  not be seated at all.
* While the M5 playoff was pending after the 5 minutes, console and stage read 「第7問」 as if
  a question were still to come.
* A playoff sub-round's console called itself サドンデス (badge, end prompt, apply button).
* A written round's lone survivor (M4) was labelled 「1抜け」 instead of 敗者復活, and the
  players passing on together 「1抜け」…「12抜け」 as if they had won in turn.
* The console header wrapped (clock buttons / scoreboard link on a second row) at 768 px.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from brackets.engine.buzzer import PRESETS
from brackets.models import BuzzerRound, Membership, Role, Tournament
from tests.browser.conftest import browser, login, projector_page, tablet_page  # noqa: F401
from tests.buzzer_web.factories import make_round

ABC = PRESETS.get("abc-the25th-004")
NAMES = ["青木", "石田", "上野", "江藤", "大野", "加藤", "木村", "工藤", "小林"]


def url(name: str, round_: BuzzerRound) -> str:
    return reverse(name, kwargs={"slug": round_.tournament.slug, "round_id": round_.pk})


def tap(client: Client, round_: BuzzerRound, **data: Any) -> dict[str, Any]:
    response = client.post(url("buzzer_tap", round_), data, HTTP_ACCEPT="application/json")
    body: dict[str, Any] = response.json()
    assert response.status_code == 200, body
    return body


def by_name(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in body["players"]}


def seat_key(round_: BuzzerRound, name: str) -> str:
    return str(round_.players.get(name=name).key)


def score(client: Client, round_: BuzzerRound, name: str, kind: str) -> dict[str, Any]:
    """One ○ or × for ``name``; a × is followed by スルー so the next tap is a new question."""
    body = tap(client, round_, kind=kind, player=seat_key(round_, name))
    if kind == "wrong":
        body = tap(client, round_, kind="thru")
    return body


def create_set(client: Client, tournament: Tournament, slug: str) -> BuzzerRound:
    """Seat a Nine Hundred set from the presets page, as staff do after the previous set."""
    response = client.post(
        reverse("buzzer_presets", kwargs={"slug": tournament.slug}),
        {"preset": ABC.slug, "round_slug": slug, "first_round": "", "groups": ""},
        follow=True,
    )
    assert "1個のラウンドを作成しました。" in response.content.decode()
    return BuzzerRound.objects.get(tournament=tournament, preset=ABC.slug, round_slug=slug)


@pytest.mark.django_db
def test_nine_hundred_sets_from_the_template_carry_points(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    """M5: set 1 made from the template seats sets 2 and 3 with the points carried over."""
    org = clients["organiser"]
    new = reverse("buzzer_round_new", kwargs={"slug": tournament.slug})
    page = org.get(new, {"template": f"{ABC.slug}:sf-1"})
    config = page.context["form"].initial["config"]
    response = org.post(
        f"{new}?template={ABC.slug}:sf-1",
        {"name": "準決勝 第1セット", "group_name": "", "config": config, "players": "\n".join(NAMES)},
    )
    assert response.status_code == 302
    set1 = BuzzerRound.objects.get(tournament=tournament, name="準決勝 第1セット")
    assert (set1.preset, set1.round_slug) == (ABC.slug, "sf-1")
    # The console offers the next round of the preset once the set is over.
    assert url("buzzer_console", set1) and "data-next-url" in org.get(
        url("buzzer_console", set1)
    ).content.decode()

    # Set 1 (+1/−1): 青木 3, 石田 2, 上野 2, 江藤 1, 大野 1, 加藤 0, 木村 0, 工藤 −1, 小林 −2.
    tap(org, set1, kind="clock_start")
    for name in ("青木", "青木", "青木", "石田", "石田", "上野", "上野", "江藤", "大野"):
        score(org, set1, name, "correct")
    for name in ("工藤", "小林", "小林"):
        score(org, set1, name, "wrong")
    body = tap(org, set1, kind="clock_expire", question_in_play="0")
    rows = by_name(body)
    assert body["phase"] == "over"
    assert [n for n in NAMES if rows[n]["status"] == "won"] == ["青木"]
    assert [n for n in NAMES if rows[n]["status"] == "out"] == ["工藤", "小林"]

    # Set 2 (+1/−2): the six still in, in set-1 order, points carried.
    set2 = create_set(org, tournament, "sf-2")
    seated = sorted(set2.players.all(), key=lambda p: p.seat)
    assert [(p.name, p.carried["points"]) for p in seated] == [
        ("石田", 2), ("上野", 2), ("江藤", 1), ("大野", 1), ("加藤", 0), ("木村", 0)
    ]
    tap(org, set2, kind="clock_start")
    for name in ("江藤", "江藤", "上野", "加藤"):
        score(org, set2, name, "correct")
    for name in ("木村", "大野"):
        body = score(org, set2, name, "wrong")
    assert by_name(body)["木村"]["points"] == -2  # −2 per wrong in set 2
    body = tap(org, set2, kind="clock_expire", question_in_play="0")
    # 江藤 3 = 上野 3 on the winning line: an 早押しプレーオフ, points untouched.
    assert body["phase"] == "deciding"
    (decision,) = [d for d in body["decisions"] if not d["resolved"]]
    assert decision["side"] == "win" and sorted(decision["names"]) == ["上野", "江藤"]
    org.post(url("buzzer_tiebreak_start", set2), {"side": "win"})
    playoff = BuzzerRound.objects.get(parent=set2)
    console = org.get(url("buzzer_console", playoff)).content.decode()
    assert 'data-playoff="1"' in console and ">プレーオフ</span>" in console
    tap(org, playoff, kind="correct", player=seat_key(playoff, "上野"))
    org.post(url("buzzer_tiebreak_apply", playoff))
    body = clients["anonymous"].get(url("public_buzzer_state", set2)).json()
    rows = by_name(body)
    assert body["phase"] == "over" and rows["上野"]["status"] == "won"
    assert rows["上野"]["points"] == rows["江藤"]["points"] == 3
    assert {n for n, p in rows.items() if p["status"] == "out"} == {"大野", "木村"}

    # Set 3 (+2/−2): 江藤 3, 石田 2, 加藤 1 carried.
    set3 = create_set(org, tournament, "sf-3")
    seated = sorted(set3.players.all(), key=lambda p: p.seat)
    assert [(p.name, p.carried["points"]) for p in seated] == [("江藤", 3), ("石田", 2), ("加藤", 1)]
    tap(org, set3, kind="clock_start")
    score(org, set3, "加藤", "correct")
    score(org, set3, "加藤", "correct")
    body = score(org, set3, "江藤", "wrong")
    body = tap(org, set3, kind="clock_expire", question_in_play="0")
    rows = by_name(body)
    assert (rows["加藤"]["points"], rows["江藤"]["points"], rows["石田"]["points"]) == (5, 1, 2)
    assert body["phase"] == "over" and [rows[n]["status"] for n in ("加藤", "石田", "江藤")] == [
        "won", "out", "out"
    ]


@pytest.mark.django_db
def test_a_hand_made_round_without_template_stays_out_of_presets(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    org = clients["organiser"]
    new = reverse("buzzer_round_new", kwargs={"slug": tournament.slug})
    config = json.dumps(ABC.round("sf-1").config.to_dict(), ensure_ascii=False)
    org.post(new, {"name": "手作り", "group_name": "", "config": config, "players": "A\nB"})
    round_ = BuzzerRound.objects.get(tournament=tournament, name="手作り")
    assert (round_.preset, round_.round_slug, round_.first_round) == ("", "", [])


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


@pytest.mark.django_db
def test_new_screen_strings_are_in_the_blob(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament, players=3, config=ABC.round("sf-1").config)
    page = clients["anonymous"].get(url("public_buzzer_scoreboard", round_)).content.decode()
    blob = re.search(r'<script id="bz-i18n" type="application/json">(.*?)</script>', page)
    assert blob is not None
    assert {
        "{n}問 終了 ・ プレーオフ待ち", "{n}問 終了 ・ サドンデス待ち", "プレーオフの結果を元のラウンドに反映"
    } <= set(
        json.loads(blob.group(1))
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_pending_playoff_header_and_one_line_console_head(
    live_server: Any, tournament: Tournament, tablet_page: Any, projector_page: Any  # noqa: F811
) -> None:
    """M5 after time: 「n問 終了 ・ プレーオフ待ち」, not 「第n問」; the 768 px head is one row."""
    user = get_user_model().objects.create_user("qa-nine", password="qa-nine-pass")
    Membership.objects.create(tournament=tournament, user=user, role=Role.BRACKET)
    round_ = make_round(
        tournament, players=9, config=ABC.round("sf-2").config,
        name="Semi Final Nine Hundred set 2 (+1/−2)",
    )
    c = Client()
    c.force_login(user)
    tap(c, round_, kind="clock_start")
    login(tablet_page, live_server.url, "qa-nine", "qa-nine-pass")
    tablet_page.goto(f"{live_server.url}/t/{tournament.slug}/buzzer/{round_.pk}/")
    tablet_page.wait_for_selector(".bz-seat")
    head = tablet_page.evaluate(
        "() => ['#bz-question', '#bz-clock', '#bz-clock-toggle', '#bz-clock-expire']"
        ".map(s => Math.round(document.querySelector(s).getBoundingClientRect().top))"
    )
    link = tablet_page.locator(".bz-head a.btn", has_text="スコアボード").bounding_box()
    title = tablet_page.locator(".bz-title").bounding_box()
    assert max(head) - min(head) < 20, head  # question, clock and its buttons on one row
    assert link["y"] + link["height"] <= title["y"] + title["height"] + 1  # link inside title

    tap(c, round_, kind="correct", player="s1")
    tap(c, round_, kind="correct", player="s2")
    body = tap(c, round_, kind="clock_expire", question_in_play="0")
    assert body["phase"] == "deciding"
    tablet_page.reload()
    tablet_page.wait_for_selector(".bz-seat")
    assert tablet_page.inner_text("#bz-question") == "2問 終了 ・ プレーオフ待ち"
    projector_page.goto(f"{live_server.url}/p/{tournament.slug}/buzzer/{round_.pk}/")
    projector_page.wait_for_selector(".bzb-card")
    assert projector_page.inner_text("#bzb-question") == "2問 終了 ・ プレーオフ待ち"
    q = projector_page.locator("#bzb-question").bounding_box()
    assert q["height"] < 1080 * 0.11  # one line inside the header
