"""Seed 004 from the event page: every round laid out with the rule page's name; a round is
seated from the rounds it follows when they finish, previewed, and created as previewed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from brackets.engine.buzzer import PRESETS
from brackets.models import BuzzerRound, Tournament
from tests.buzzer_web.factories import round_form_data, tap, url

pytestmark = pytest.mark.django_db

ABC = PRESETS.get("abc-the25th-004")
NAMES = ["青木", "石田", "上野", "江藤", "大野", "加藤", "木村", "工藤", "小林"]
RULE_PAGE_NAMES = [
    "2nd Round 連答つき5○2×", "3rd Round Number10 10 up-down", "3rd Round Number10 Freeze10",
    "3rd Round Number10 Swedish10", "3rd Round Number10 10by10", "Extra Round First Step",
    "Extra Round Second Step", "準決勝 Nine Hundred 第1セット", "準決勝 Nine Hundred 第2セット",
    "準決勝 Nine Hundred 第3セット", "決勝 トリプルセブン",
]


def _event(tournament: Tournament) -> str:
    return reverse("buzzer_event", kwargs={"slug": tournament.slug, "preset": ABC.slug})


def _round(tournament: Tournament, slug: str) -> str:
    return reverse("buzzer_event_round",
                   kwargs={"slug": tournament.slug, "preset": ABC.slug, "round_slug": slug})


def _text(html: str) -> str:
    """What a reader sees: the page without tags and attributes."""
    return re.sub(r"<[^>]+>", " ", html)


def _rows(tournament: Tournament) -> dict[str, str]:
    from brackets.selectors.buzzer_event import event_layout

    return {row.preset.slug: row.status for row in event_layout(tournament, ABC.slug)}


def test_every_round_is_laid_out_in_order_with_the_rule_pages_name_and_no_slug(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    text = _text(clients["organiser"].get(_event(tournament)).content.decode())
    positions = [text.index(name) for name in RULE_PAGE_NAMES]
    assert positions == sorted(positions)
    assert "1st Round 100問ペーパークイズ" in text
    for rp in ABC.rounds:
        assert rp.slug not in text.replace("Round", "")  # 3r-swedish, sf-1 … never shown
    assert "ラウンドの作成・設定の変更は主催者だけができます" in text


def test_bracket_staff_see_the_layout_and_are_told_the_organiser_creates_rounds(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    body = clients["bracket"].get(_event(tournament)).content.decode()
    assert "ラウンドの作成・設定の変更は主催者が行います" in body
    assert "席順を確認して作成" not in body
    assert clients["bracket"].get(_round(tournament, "2r")).status_code == 403


def test_2nd_round_preview_snakes_the_1st_round_and_is_what_is_created(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    org = clients["organiser"]
    ranking = [f"選手{n:02d}" for n in range(1, 49)]
    page = org.get(_round(tournament, "2r"), {"first_round": "\n".join(ranking)})
    plan = page.context["plan"]
    assert [g.group_name for g in plan.groups] == ["A組", "B組", "C組", "D組"]
    preview = {g.group_name: [p["name"] for p in g.players] for g in plan.groups}
    assert preview["A組"] == [ranking[i - 1] for i in (1, 8, 9, 16, 17, 24, 25, 32, 33, 40, 41, 48)]
    assert "選手08" in _text(page.content.decode())
    assert not BuzzerRound.objects.exists()  # a preview writes nothing

    data = page.context["settings_form"].post_data()
    data.update({"first_round": "\n".join(ranking), "paper": "", "groups": "",
                 "expect": plan.digest()})
    response = org.post(_round(tournament, "2r"), data)
    assert response.status_code == 302
    created = BuzzerRound.objects.filter(round_slug="2r").order_by("position")
    assert [r.name for r in created] == ["2nd Round 連答つき5○2×"] * 4
    seated = {r.group_name: [p.name for p in sorted(r.players.all(), key=lambda p: p.seat)]
              for r in created}
    assert seated == preview
    assert _rows(tournament)["2r"] == "created"
    assert _rows(tournament)["3r-updown"] == "waiting"


def test_settings_changed_on_the_preview_apply_to_the_created_round(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    org = clients["organiser"]
    ranking = "\n".join(f"選手{n:02d}" for n in range(1, 13))
    page = org.get(_round(tournament, "2r"), {"first_round": ranking, "groups": "1"})
    data = page.context["settings_form"].post_data()
    data.update({"first_round": ranking, "groups": "1", "expect": page.context["plan"].digest(),
                 "question_limit": "40"})
    assert org.post(_round(tournament, "2r"), data).status_code == 302
    assert BuzzerRound.objects.get(round_slug="2r").config["question_limit"] == 40
    bad = dict(data, question_limit="0")
    BuzzerRound.objects.all().delete()
    response = org.post(_round(tournament, "2r"), bad)
    assert response.status_code == 200 and "限定問題数は 1 以上で入力してください" in (
        response.content.decode())
    assert not BuzzerRound.objects.exists()


def _play_set1(org: Client, tournament: Tournament) -> BuzzerRound:
    new = reverse("buzzer_round_new", kwargs={"slug": tournament.slug})
    page = org.get(new, {"template": f"{ABC.slug}:sf-1"})
    data = page.context["form"].post_data()
    data.update({"players": "\n".join(NAMES)})
    assert org.post(f"{new}?template={ABC.slug}:sf-1", data).status_code == 302
    set1 = BuzzerRound.objects.get(round_slug="sf-1")
    tap(org, set1, kind="clock_start")
    for name in ("青木", "青木", "石田", "上野"):
        tap(org, set1, kind="correct", player=set1.players.get(name=name).key)
    for name in ("工藤", "小林"):
        tap(org, set1, kind="wrong", player=set1.players.get(name=name).key)
        tap(org, set1, kind="thru")
    return set1


def test_nine_hundred_set_2_waits_for_set_1_then_seats_its_survivors_as_previewed(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    org = clients["organiser"]
    set1 = _play_set1(org, tournament)
    assert _rows(tournament)["sf-2"] == "waiting"
    waiting = _text(org.get(_event(tournament)).content.decode())
    assert "準決勝 Nine Hundred 第1セット の終了後に席が決まります" in waiting
    body: dict[str, Any] = tap(org, set1, kind="clock_expire", question_in_play="0")
    assert body["phase"] == "over"
    assert _rows(tournament)["sf-2"] == "ready"

    page = org.get(_round(tournament, "sf-2"))
    plan = page.context["plan"]
    (group,) = plan.groups
    preview = [(p["name"], p["carried"]["points"]) for p in group.players]
    assert preview[:2] == [("石田", 1), ("上野", 1)] and len(preview) == 6
    data = page.context["settings_form"].post_data()
    data["expect"] = "not-what-was-previewed"
    stale = org.post(_round(tournament, "sf-2"), data)
    assert "席順が変わりました" in stale.content.decode()
    assert not BuzzerRound.objects.filter(round_slug="sf-2").exists()

    data["expect"] = plan.digest()
    assert org.post(_round(tournament, "sf-2"), data).status_code == 302
    set2 = BuzzerRound.objects.get(round_slug="sf-2")
    seated = sorted(set2.players.all(), key=lambda p: p.seat)
    assert [(p.name, p.carried["points"]) for p in seated] == preview
    assert set2.name == "準決勝 Nine Hundred 第2セット"
    console = org.get(url("buzzer_console", set2)).content.decode()
    assert _event(tournament) in console  # the console's "next round" goes to the layout
    assert "data-next-url" in console


def test_a_plain_round_from_the_blank_form_is_5o2x(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    new = reverse("buzzer_round_new", kwargs={"slug": tournament.slug})
    clients["organiser"].post(new, round_form_data(name="予選", players="甲\n乙\n丙"))
    config = BuzzerRound.objects.get(name="予選").config
    assert config["win"] == {"slug": "correct-at-least", "params": {"n": 5}}
    assert config["loss"] == {"slug": "wrong-at-least", "params": {"n": 2}}


def _finish_2r_by_seven_outs(tournament: Tournament) -> None:
    """M2: seven players out (two wrongs each) in every group; the five left advance."""
    from brackets.services.buzzer import buzzer_event_append

    for round_ in BuzzerRound.objects.filter(round_slug="2r"):
        seated = sorted(round_.players.all(), key=lambda p: p.seat)
        for player in seated[5:]:
            for _time in range(2):
                done = buzzer_event_append(round=round_, expected_seq=None,
                                           data={"kind": "wrong", "player": player.key})
                if done.state.phase != "over":
                    buzzer_event_append(round=round_, data={"kind": "thru"}, expected_seq=None)


def test_number10_courses_preview_the_entry_then_create_each_course_as_previewed(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    from brackets.services.buzzer_presets import preset_round_seat

    ranking = [f"選手{n:02d}" for n in range(1, 49)]
    preset_round_seat(tournament=tournament, preset=ABC.slug, round_slug="2r",
                      first_round=ranking)
    assert _rows(tournament)["3r-swedish"] == "waiting"
    _finish_2r_by_seven_outs(tournament)
    assert _rows(tournament)["3r-swedish"] == "ready"

    org = clients["organiser"]
    page = org.get(_round(tournament, "3r-updown"))
    priority = page.context["priority"]
    assert len(priority) == 20 and not page.context["plan"].groups  # entry not yet known
    order = {"order-3r-updown": "2", "order-3r-freeze": "1", "order-3r-swedish": "3",
             "order-3r-10by10": "4"}
    raised = {"raised-3r-freeze": "\n".join(priority[:7]),
              "raised-3r-updown": "\n".join(priority[7:9])}
    page = org.get(_round(tournament, "3r-updown"), {**order, **raised})
    plan = page.context["plan"]
    assert [g.name for g in plan.groups] == [
        "3rd Round Number10 Freeze10", "3rd Round Number10 10 up-down",
        "3rd Round Number10 Swedish10", "3rd Round Number10 10by10"]
    preview = {g.round_slug: [p["name"] for p in g.players] for g in plan.groups}
    assert preview["3r-freeze"] == priority[:5]  # overflow: the five with the best priority
    assert set(priority[7:9]) <= set(preview["3r-updown"])

    response = org.post(_round(tournament, "3r-updown"),
                        {**order, **raised, "expect": plan.digest()})
    assert response.status_code == 302
    for slug, names in preview.items():
        course = BuzzerRound.objects.get(round_slug=slug)
        assert [p.name for p in sorted(course.players.all(), key=lambda p: p.seat)] == names
    assert _rows(tournament)["3r-10by10"] == "created"


def test_seed_003_is_laid_out_with_its_rule_pages_names_and_groups_to_choose(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    org = clients["organiser"]
    page = org.get(reverse("buzzer_event", kwargs={"slug": tournament.slug, "preset": "quiz-003"}))
    text = _text(page.content.decode())
    names = ["2nd Round 5○2×クイズ", "3rd Round 7○3×クイズ", "Extra Round 1st Step 15問脱落式筆記クイズ",
             "Quarter Final Phase 2 早押しボードクイズ", "Semi Final 2nd Set +1/2休クイズ",
             "Final 12○5×クイズ"]
    positions = [text.index(name) for name in names]
    assert positions == sorted(positions)
    second = org.get(reverse("buzzer_event_round", kwargs={
        "slug": tournament.slug, "preset": "quiz-003", "round_slug": "2r"}),
        {"first_round": "\n".join(f"p{n}" for n in range(1, 13)), "groups": "2"})
    plan = second.context["plan"]
    assert [[p["head_start"] for p in g.players][:6] for g in plan.groups] == [[3, 2, 2, 1, 1, 1]] * 2
    bad = org.get(second.request["PATH_INFO"], {"first_round": "a\nb", "groups": "99"})
    assert "組数は1〜26で入力してください。" in bad.content.decode()
