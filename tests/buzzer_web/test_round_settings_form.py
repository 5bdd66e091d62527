"""The round form: every setting of a round is its own field (label, default, range), built
from the engine's descriptions; out of range is refused in Japanese and nothing is created."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from brackets.engine.buzzer import PRESETS, setting_fields
from brackets.forms.buzzer_settings import RoundForm, field_name
from brackets.models import BuzzerRound, Tournament
from brackets.selectors.buzzer import round_state
from tests.buzzer_web.factories import round_form_data

pytestmark = pytest.mark.django_db


def _new(tournament: Tournament) -> str:
    return reverse("buzzer_round_new", kwargs={"slug": tournament.slug})


def test_every_engine_setting_is_a_field_with_a_label_and_no_json_field_is_left(
    tournament: Tournament,
) -> None:
    with translation.override("ja"):
        form = RoundForm(tournament=tournament)
        for sf in setting_fields():
            field = form.fields[field_name(sf.key)]
            assert field.label and "既定" in field.help_text, sf.key
            if sf.param.kind == "int":
                assert "範囲" in field.help_text
        assert "config" not in form.fields
        assert not any("JSON" in str(f.label) for f in form.fields.values())


def test_the_page_shows_japanese_labels_defaults_and_ranges(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    body = clients["organiser"].get(_new(tournament)).content.decode()
    for text in ("勝ち抜け人数", "限定問題数", "範囲: 1〜1000問", "得点の付け方", "勝ち抜け条件",
                 "アドバンテージ（上位の席から）", "ラウンドの作成・設定の変更は主催者だけができます"):
        assert text in body
    assert "ルール設定（JSON）" not in body


def test_a_round_made_from_fields_plays_by_those_settings(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    data = round_form_data(name="2R", group_name="A組", players="甲\n乙\n丙", slots="1",
                           advantages="2,1", question_limit="20")
    data.update({"win__correct-at-least__n": "7", "loss": "wrong-at-least",
                 "loss__wrong-at-least__n": "3"})
    response = clients["organiser"].post(_new(tournament), data)
    assert response.status_code == 302
    round_ = BuzzerRound.objects.get(name="2R")
    state = round_state(round_)
    assert state.config.win is not None and state.config.win.params["n"] == 7
    assert state.config.loss is not None and state.config.loss.params["n"] == 3
    assert (state.config.slots, state.config.question_limit) == (1, 20)
    assert [state.players[p].correct for p in state.seat_order] == [2, 1, 0]


@pytest.mark.parametrize(("field", "value", "message"), [
    ("slots", "-1", "勝ち抜け人数は 0 以上で入力してください（範囲: 0〜200人）。"),
    ("question_limit", "5000", "限定問題数は 1000 以下で入力してください（範囲: 1〜1000問）。"),
    ("win__correct-at-least__n", "0", "以上で入力してください"),
    ("advantages", "3,-2", "-2 は範囲外です"),
    ("clock_ms", "abc", "制限時間は整数で入力してください。"),
])
def test_out_of_range_is_refused_with_a_japanese_message_and_nothing_changes(
    tournament: Tournament, clients: dict[str, Client], field: str, value: str, message: str
) -> None:
    before = BuzzerRound.objects.count()
    response = clients["organiser"].post(
        _new(tournament), round_form_data(name="x", players="甲\n乙", **{field: value}))
    assert response.status_code == 200
    body = response.content.decode()
    assert message in body and "ラウンドは作成していません" in body
    assert BuzzerRound.objects.count() == before


def test_a_preset_template_fills_every_field_with_the_rule_pages_numbers(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    page = clients["organiser"].get(_new(tournament), {"template": "abc-the25th-004:final"})
    form = page.context["form"]
    assert form["name"].initial == "決勝 トリプルセブン"
    assert (form["win__correct-at-least__n"].initial, form["sets_to_win"].initial) == (7, 3)
    assert form["lockout__misses-at-least__n"].initial == 3
    course = PRESETS.get("abc-the25th-004").round("3r-swedish")
    page = clients["organiser"].get(_new(tournament), {"template": "abc-the25th-004:3r-swedish"})
    assert page.context["form"]["clock_ms"].initial == 15 * 60
    assert page.context["form"]["name"].initial == course.name
    assert "3r-swedish" not in page.context["form"]["name"].initial


def test_bracket_staff_may_not_create_a_round(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    response = clients["bracket"].post(_new(tournament), round_form_data(name="x", players="甲"))
    assert response.status_code in (302, 403)
    assert not BuzzerRound.objects.filter(name="x").exists()


def test_the_m4_written_step_keeps_its_checkpoints_through_the_form(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    new = _new(tournament)
    page = clients["organiser"].get(new, {"template": "abc-the25th-004:extra-1"})
    form = page.context["form"]
    assert form["written__checkpoints"].initial == "10:correct / 15:correct+later_first_miss"
    data = form.post_data()
    data["players"] = "\n".join(f"p{n}" for n in range(1, 16))
    assert clients["organiser"].post(f"{new}?template=abc-the25th-004:extra-1", data
                                     ).status_code == 302
    round_ = BuzzerRound.objects.get(round_slug="extra-1")
    expected = PRESETS.get("abc-the25th-004").round("extra-1").config
    assert round_state(round_).config.written == expected.written  # type: ignore[union-attr]
    data["written__checkpoints"] = "10:correct / x:y"
    response = clients["organiser"].post(new, data)
    assert "「x:y」が読めません" in response.content.decode()
