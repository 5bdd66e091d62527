"""M5 (Nine Hundred): a set made from the preset's template joins the preset's chain.

Staff who ran the earlier rounds elsewhere start M5 from 「早押しラウンドを作成」 with the
preset round as a template; sets 2 and 3 are then seated from the presets page with the
points carried over, and the console offers the next round. A round made by hand without
a template stays outside the presets.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from brackets.engine.buzzer import PRESETS
from brackets.models import BuzzerRound, Tournament
from tests.buzzer_web.factories import round_form_data, tap, url

ABC = PRESETS.get("abc-the25th-004")
NAMES = ["青木", "石田", "上野", "江藤", "大野", "加藤", "木村", "工藤", "小林"]


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
    data = page.context["form"].post_data()
    data.update({"name": "準決勝 第1セット", "group_name": "", "players": "\n".join(NAMES)})
    response = org.post(f"{new}?template={ABC.slug}:sf-1", data)
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
    org.post(new, round_form_data(ABC.round("sf-1").config, name="手作り", players="A\nB"))
    round_ = BuzzerRound.objects.get(tournament=tournament, name="手作り")
    assert (round_.preset, round_.round_slug, round_.first_round) == ("", "", [])
