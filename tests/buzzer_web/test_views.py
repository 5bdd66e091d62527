"""Console, scoreboard, JSON state, written entry, sudden death and presets through the client."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from brackets.engine.buzzer import PRESETS, RoundConfig, WrittenRules
from brackets.models import BuzzerEvent, BuzzerRound, Tournament
from brackets.selectors.buzzer import round_state
from brackets.services.buzzer import buzzer_round_create
from tests.buzzer_web.factories import make_round, nomx, round_form_data

pytestmark = pytest.mark.django_db


def url(name: str, round_: BuzzerRound, **kw: Any) -> str:
    return reverse(name, kwargs={"slug": round_.tournament.slug, "round_id": round_.pk, **kw})


def post_tap(client: Client, round_: BuzzerRound, **data: Any) -> Any:
    return client.post(url("buzzer_tap", round_), data, HTTP_ACCEPT="application/json")


def test_console_for_bracket_staff(tournament: Tournament, clients: dict[str, Client]) -> None:
    round_ = make_round(tournament)
    response = clients["bracket"].get(url("buzzer_console", round_))
    assert response.status_code == 200
    body = response.content.decode()
    assert "スルー" in body and "キー操作" in body
    assert [p["name"] for p in response.context["payload"]["players"]] == [
        "選手1",
        "選手2",
        "選手3",
        "選手4",
    ]
    assert clients["desk"].get(url("buzzer_console", round_)).status_code == 403


def test_scoreboard_is_public(tournament: Tournament, clients: dict[str, Client]) -> None:
    round_ = make_round(tournament)
    response = clients["anonymous"].get(url("public_buzzer_scoreboard", round_))
    assert response.status_code == 200
    body = response.content.decode()
    assert response.context["payload"]["players"][0]["name"] == "選手1"
    assert "2R" in body and "A組" in body
    assert "brackets/buzzer.js" in body


def test_json_state_is_public_and_has_no_staff_data(
    tournament: Tournament, clients: dict[str, Client], cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    post_tap(clients["bracket"], round_, kind="correct", player="s1", expected_seq=0)
    data = clients["anonymous"].get(url("public_buzzer_state", round_)).json()
    assert data["seq"] == 1
    assert data["players"][0]["name"] == "選手1" and data["players"][0]["correct"] == 1
    assert data["round"]["name"] == "2R" and data["round"]["group"] == "A組"
    assert "log" not in data and "bracket" not in json.dumps(data)


def test_tap_through_the_console_json(
    tournament: Tournament, clients: dict[str, Client], cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    response = post_tap(
        clients["bracket"], round_, kind="wrong", player="s2", expected_seq=0, key="k1"
    )
    assert response.status_code == 200
    data = response.json()
    assert data["ok"] and data["seq"] == 1
    assert data["log"][0]["by"] == "bracket"
    assert BuzzerEvent.objects.get(round=round_).by == cast["bracket"]
    # The same key again (a resend after a dropped connection): recorded once.
    again = post_tap(
        clients["bracket"], round_, kind="wrong", player="s2", expected_seq=0, key="k1"
    )
    assert again.status_code == 200 and again.json()["duplicate"]
    assert BuzzerEvent.objects.filter(round=round_).count() == 1


def test_refused_taps_answer_in_japanese_and_change_nothing(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    post_tap(clients["bracket"], round_, kind="wrong", player="s2", expected_seq=0)
    stale = post_tap(clients["bracket"], round_, kind="thru", expected_seq=0)
    assert stale.status_code == 409 and "別の端末" in stale.json()["error"]
    again = post_tap(clients["bracket"], round_, kind="correct", player="s2", expected_seq=1)
    assert again.status_code == 400
    assert again.json()["error"] == "この人はこの問題ですでに誤答しています。"
    assert again.json()["seq"] == 1
    assert BuzzerEvent.objects.filter(round=round_).count() == 1


def test_form_tap_redirects_with_a_message(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    response = clients["bracket"].post(url("buzzer_tap", round_), {"kind": "undo"}, follow=True)
    assert "取り消せません" in response.content.decode()


def test_desk_cannot_tap(tournament: Tournament, clients: dict[str, Client]) -> None:
    round_ = make_round(tournament)
    assert post_tap(clients["desk"], round_, kind="thru").status_code == 403
    assert not BuzzerEvent.objects.exists()


@pytest.mark.parametrize("name", ["buzzer_console_state", "public_buzzer_state", "buzzer_console"])
def test_query_count_does_not_grow_with_players(
    name: str, tournament: Tournament, clients: dict[str, Client]
) -> None:
    counts = []
    for size in (3, 12):
        round_ = make_round(tournament, players=size, name=f"r{size}")
        for seat in range(1, size + 1):
            post_tap(clients["bracket"], round_, kind="wrong", player=f"s{seat}")
            post_tap(clients["bracket"], round_, kind="thru")
        client = clients["anonymous"] if name.startswith("public") else clients["bracket"]
        client.get(url(name, round_))  # warm the session
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url(name, round_)).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


def test_sudden_death_prompt_and_result_flow(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    # 2 players, 1 slot, 1-question limit, nobody answers: a tie straddles the line (L11).
    round_ = make_round(tournament, players=2, config=nomx(5, 2, slots=1, question_limit=1))
    post_tap(clients["bracket"], round_, kind="thru", expected_seq=0)
    state = clients["bracket"].get(url("buzzer_console_state", round_)).json()
    assert state["phase"] == "deciding"
    assert state["decisions"][0]["names"] == ["選手1", "選手2"]
    assert state["allowed"] == ["tiebreak", "undo"]
    # A buzz while deciding is refused.
    refused = post_tap(clients["bracket"], round_, kind="correct", player="s1", expected_seq=1)
    assert (
        refused.status_code == 400
        and refused.json()["error"] == "サドンデス（プレーオフ）の結果を先に入力してください。"
    )
    # Open the sudden death as its own round, play it, carry the result back.
    side = state["decisions"][0]["side"]
    response = clients["bracket"].post(url("buzzer_tiebreak_start", round_), {"side": side})
    sub = BuzzerRound.objects.get(parent=round_)
    assert response["Location"].endswith(f"/buzzer/{sub.pk}/")
    post_tap(clients["bracket"], sub, kind="correct", player="s2", expected_seq=0)
    clients["bracket"].post(url("buzzer_tiebreak_apply", sub))
    final = round_state(round_)
    assert final.phase == "over" and final.winners == ("s2",)


def test_playoff_order_entered_directly(tournament: Tournament, clients: dict[str, Client]) -> None:
    round_ = make_round(tournament, players=2, config=nomx(5, 2, slots=1, question_limit=1))
    post_tap(clients["bracket"], round_, kind="thru", expected_seq=0)
    side = round_state(round_).decisions[0].side
    bad = post_tap(
        clients["bracket"], round_, kind="tiebreak", side=side, order=["s1"], expected_seq=1
    )
    assert bad.status_code == 400 and "全員" in bad.json()["error"]
    ok = post_tap(
        clients["bracket"], round_, kind="tiebreak", side=side, order=["s2", "s1"], expected_seq=1
    )
    assert ok.status_code == 200 and ok.json()["winners"] == ["s2"]


def written_round(tournament: Tournament, players: int) -> BuzzerRound:
    config = RoundConfig(
        format="written",
        judge_keys=("correct", "fewer_wrong"),
        written=WrittenRules(lives=2, last_question=15, pass_max=12, checkpoints=()),
    )
    return buzzer_round_create(
        tournament=tournament,
        name="Extra",
        config=config,
        players=[{"name": f"参加者{i}"} for i in range(1, players + 1)],
    )


def test_written_entry_for_hundreds(tournament: Tournament, clients: dict[str, Client]) -> None:
    round_ = written_round(tournament, 300)
    page = clients["bracket"].get(url("buzzer_console", round_))
    assert page.status_code == 200 and "参加者300" in page.content.decode()
    wrong = [f"s{i}" for i in range(1, 151)]
    response = clients["bracket"].post(
        url("buzzer_written_entry", round_),
        {
            "wrong": wrong[:100],
            "wrong_seats": " ".join(str(i) for i in range(101, 151)),
            "expected_seq": 0,
            "question": 1,
        },
    )
    assert response.status_code == 302
    state = round_state(round_)
    assert state.question == 1
    assert sum(1 for p in state.players.values() if p.misses == 1) == 150
    # A sitting player ticked later is refused with a message, nothing stored.
    for q in (2,):
        clients["bracket"].post(
            url("buzzer_written_entry", round_),
            {"wrong": wrong, "expected_seq": 1, "question": q},
        )
    assert round_state(round_).players["s1"].status == "out"
    follow = clients["bracket"].post(
        url("buzzer_written_entry", round_), {"wrong": ["s1"], "expected_seq": 2}, follow=True
    )
    assert "すでに着席" in follow.content.decode()
    assert BuzzerEvent.objects.filter(round=round_).count() == 2


def test_unknown_seat_number_in_written_quick_entry(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = written_round(tournament, 20)
    follow = clients["bracket"].post(
        url("buzzer_written_entry", round_),
        {"wrong_seats": "3 999", "expected_seq": 0},
        follow=True,
    )
    assert "999" in follow.content.decode()
    assert not BuzzerEvent.objects.filter(round=round_).exists()


@pytest.mark.django_db
def test_finished_written_round_offers_no_next_question_and_undo_says_so(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    """M4 first step: once the pass at Q10 ends the round, the page offers no 第11問 and
    its undo says that it worked."""
    abc = PRESETS.get("abc-the25th-004")
    round_ = make_round(tournament, players=3, config=abc.round("extra-1").config, name="敗者復活")
    c = clients["bracket"]
    for _ in range(10):  # everyone right: a top tie of 3 (2–12) passes at the Q10 check
        c.post(url("buzzer_written_entry", round_), {"wrong_seats": ""})
    page = c.get(url("buzzer_console", round_)).content.decode()
    assert "終了（10問）" in page and "第11問" not in page
    assert url("buzzer_written_entry", round_) not in page
    response = c.post(url("buzzer_tap", round_), {"kind": "undo"}, follow=True)
    body = response.content.decode()
    assert "直前の入力を取り消しました。" in body and "第10問を入力" in body


def test_round_new_by_hand(tournament: Tournament, clients: dict[str, Client]) -> None:
    config = nomx(question_limit=35, advantages=(3, 2, 2, 1, 1, 1), slots=5)
    response = clients["organiser"].post(
        reverse("buzzer_round_new", kwargs={"slug": tournament.slug}),
        round_form_data(config, name="2R", group_name="B組", players="甲\n乙,0\n丙"),
    )
    round_ = BuzzerRound.objects.get(group_name="B組")
    assert response.status_code == 302
    state = round_state(round_)
    assert [state.players[p].correct for p in state.seat_order] == [3, 0, 2]
    bad = clients["organiser"].post(
        reverse("buzzer_round_new", kwargs={"slug": tournament.slug}),
        round_form_data(config, name="x", players="甲", slots="-1"),
    )
    assert "勝ち抜け人数は 0 以上で入力してください" in bad.content.decode()
    assert not BuzzerRound.objects.filter(name="x").exists()


def test_paper_upload_and_ranking_view(tournament: Tournament, clients: dict[str, Client]) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    sheet = "名前,1,2,3,4\n甲,1,1,0,1\n乙,1,0,1,1\n丙,0,0,0,0\n丁,1,1,1,1\n"
    response = clients["bracket"].post(
        reverse("paper_upload", kwargs={"slug": tournament.slug}),
        {
            "name": "1R",
            "questions": 4,
            "first_half": 2,
            "sheet": SimpleUploadedFile("m.csv", sheet.encode()),
        },
    )
    assert response.status_code == 302
    page = clients["bracket"].get(response["Location"]).content.decode()
    # 丁 4 → 甲 3 (前半 2) → 乙 3 (前半 1) → 丙 0
    assert page.index("丁") < page.index("甲") < page.index("乙") < page.index("丙")
    assert "前半" in page
    missing = clients["bracket"].post(
        reverse("paper_upload", kwargs={"slug": tournament.slug}),
        {
            "name": "1R",
            "questions": 5,
            "first_half": 2,
            "sheet": SimpleUploadedFile("m.csv", sheet.encode()),
        },
    )
    assert missing.status_code == 200 and "Q5" in missing.content.decode()


def test_presets_page_lists_the_engine_presets(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    page = clients["organiser"].get(reverse("buzzer_presets", kwargs={"slug": tournament.slug}))
    assert page.status_code == 200
    body = page.content.decode()
    assert "abc-the25th-004" in body


def test_preset_rounds_feed_winners_into_the_next(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    """Seed 004: 2nd Round groups come from the paper ranking by snake; winners feed on."""
    names = [f"選手{i:02d}" for i in range(1, 49)]
    response = clients["organiser"].post(
        reverse("buzzer_presets", kwargs={"slug": tournament.slug}),
        {"preset": "abc-the25th-004", "round_slug": "2r", "first_round": "\n".join(names)},
    )
    assert response.status_code == 302
    rounds = list(
        BuzzerRound.objects.filter(preset="abc-the25th-004", round_slug="2r").order_by("position")
    )
    assert [r.group_name for r in rounds] == ["A組", "B組", "C組", "D組"]
    first = round_state(rounds[0])
    # Snake: A gets 1, 8, 9, 16 ... ; seat advantages 3/2,2/1,1,1 come from the preset.
    seated = [rounds[0].players.get(key=pid).name for pid in first.seat_order[:3]]
    assert seated == ["選手01", "選手08", "選手09"]
    assert first.players[first.seat_order[0]].points == 3


def test_number10_courses_from_plates_raised(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    """Seed 004 M3: 20 2R winners choose courses; overflow by priority, shortfall filled."""
    from brackets.services.buzzer_presets import preset_round_seat
    from tests.buzzer_web.test_services import play_to_the_end

    names = [f"選手{i:02d}" for i in range(1, 49)]
    groups = preset_round_seat(
        tournament=tournament, preset="abc-the25th-004", round_slug="2r", first_round=names
    )
    for group in groups:
        play_to_the_end(group)
    winners = [g.players.get(key=pid).name for g in groups for pid in round_state(g).winners]
    assert len(winners) == 20
    presets_url = reverse("buzzer_presets", kwargs={"slug": tournament.slug})
    # Everyone raises for up-down: the top 5 by priority get it; Freeze10 nobody: filled
    # from the lowest priority.
    data = {
        "preset": "abc-the25th-004",
        "courses": "1",
        "order-3r-updown": 1,
        "order-3r-freeze": 2,
        "order-3r-swedish": 3,
        "order-3r-10by10": 4,
        "raised-3r-updown": "\n".join(winners),
        "raised-3r-freeze": "",
        "raised-3r-swedish": "",
        "raised-3r-10by10": "",
    }
    response = clients["organiser"].post(presets_url, data)
    assert response.status_code == 302
    courses = {r.round_slug: r for r in BuzzerRound.objects.filter(round_slug__startswith="3r-")}
    assert set(courses) == {"3r-updown", "3r-freeze", "3r-swedish", "3r-10by10"}
    seated = {slug: [p.name for p in r.players.order_by("seat")] for slug, r in courses.items()}
    assert sum(len(v) for v in seated.values()) == 20
    assert {name for names_ in seated.values() for name in names_} == set(winners)
    # Priority: 2R win order first (the four first winners), then 1R rank.
    first_winners = {g.players.get(key=round_state(g).winners[0]).name for g in groups}
    assert first_winners <= set(seated["3r-updown"])
    config = RoundConfig.from_dict(courses["3r-freeze"].config)
    assert config.clock_ms == 15 * 60_000
    # A name that is not a 2R winner is refused with a message, nothing created twice.
    again = clients["organiser"].post(presets_url, data, follow=True)
    assert "すでに作成" in again.content.decode()


def test_a_round_of_another_tournament_is_not_found(
    tournament: Tournament, other_tournament: Tournament, clients: dict[str, Client]
) -> None:
    theirs = make_round(other_tournament)
    for name in ("buzzer_console", "buzzer_console_state"):
        path = reverse(name, kwargs={"slug": tournament.slug, "round_id": theirs.pk})
        assert clients["bracket"].get(path).status_code == 404
    path = reverse("buzzer_tap", kwargs={"slug": tournament.slug, "round_id": theirs.pk})
    assert clients["bracket"].post(path, {"kind": "thru"}).status_code == 404
    assert clients["outsider"].post(url("buzzer_tap", theirs), {"kind": "thru"}).status_code == 302
    assert not BuzzerEvent.objects.filter(round=theirs, by__username="bracket").exists()


def test_board_question_with_a_buzz_is_one_event(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    """L6: one board question — the buzzer judged ±4, the boards +2 (+1 with ≤2 correct)."""
    from brackets.engine.buzzer import PRESETS

    config = PRESETS.get("quiz-003").round("qf-2").config
    assert config is not None
    round_ = make_round(tournament, players=8, config=config)
    state = clients["bracket"].get(url("buzzer_console_state", round_)).json()
    assert "board" in state["allowed"]
    response = post_tap(
        clients["bracket"],
        round_,
        kind="board",
        correct=["s2"],
        buzzer="s1",
        buzzer_correct="1",
        expected_seq=0,
    )
    assert response.status_code == 200, response.json().get("error")
    points = {p["id"]: p["points"] for p in response.json()["players"]}
    assert points == {"s1": 4, "s2": 3} | {f"s{i}": 0 for i in range(3, 9)}
    assert BuzzerEvent.objects.get(round=round_).kind == "board"
    # The buzzing player cannot also be on the board: refused, nothing stored.
    refused = post_tap(
        clients["bracket"],
        round_,
        kind="board",
        correct=["s1"],
        buzzer="s1",
        buzzer_correct="0",
        expected_seq=1,
    )
    assert refused.status_code == 400
    assert BuzzerEvent.objects.filter(round=round_).count() == 1


def test_round_form_loads_a_preset_round_as_template(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    path = reverse("buzzer_round_new", kwargs={"slug": tournament.slug})
    page = clients["organiser"].get(path, {"template": "quiz-003:final"})
    form = page.context["form"]
    assert form["win"].initial == "correct-at-least"
    assert form["win__correct-at-least__n"].initial == 12
    assert form["question_limit"].initial == 50
    assert form["name"].initial == "Final 12○5×クイズ"
