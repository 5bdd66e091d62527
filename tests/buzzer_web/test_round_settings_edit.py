"""Editing a created round's settings: the form prefilled from the round, every edit kept
with who, when and the value it replaced; once a tap is recorded only the settings that
cannot change a recorded result (the protest window, show_answer) may change, and the
refusal says so; the page greys out the others."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from brackets.engine.buzzer import RoundConfig
from brackets.forms.buzzer_settings import RoundSettingsForm
from brackets.models import BuzzerRound, BuzzerSettingsChange, Tournament
from brackets.services.buzzer import BuzzerRefused, buzzer_event_append
from brackets.services.buzzer_protests import buzzer_protest_record, protest_event
from brackets.services.buzzer_settings import buzzer_settings_change
from tests.buzzer_web.factories import make_round, tap, url

pytestmark = pytest.mark.django_db


def _form(round_: BuzzerRound, **changes: Any) -> dict[str, Any]:
    """What the settings page posts when staff change only ``changes``."""
    data = RoundSettingsForm(config=RoundConfig.from_dict(round_.config)).post_data()
    data.update(changes)
    return data


def test_the_page_is_prefilled_from_the_round(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    page = clients["organiser"].get(url("buzzer_round_settings", round_))
    form = page.context["settings_form"]
    assert form["question_limit"].initial == 35
    assert form["win__correct-at-least__n"].initial == 5
    assert "まだ記録がないので、すべての設定を変更できます。" in page.content.decode()


def test_an_edit_before_the_first_tap_changes_the_round_and_keeps_the_old_value(
    tournament: Tournament, clients: dict[str, Client], cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    before = dict(round_.config)
    org = clients["organiser"]
    response = org.post(url("buzzer_round_settings", round_),
                        _form(round_, question_limit="40", **{"win__correct-at-least__n": "7"}))
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.config["question_limit"] == 40
    assert round_.config["win"]["params"]["n"] == 7
    (change,) = BuzzerSettingsChange.objects.filter(round=round_)
    assert change.previous == before and change.config == round_.config
    assert change.changed == ["question_limit", "win:correct-at-least:n"]
    assert change.by == cast["organiser"] and change.at is not None and change.events == 0
    history = org.get(url("buzzer_round_settings", round_)).content.decode()
    assert "限定問題数、○数（○数が n 以上のとき）" in history and ">org<" in history


def test_a_started_round_refuses_a_result_changing_setting_and_names_what_stays_editable(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    tap(clients["bracket"], round_, kind="correct", player="s1")
    before = dict(round_.config)
    response = clients["organiser"].post(url("buzzer_round_settings", round_),
                                         _form(round_, **{"win__correct-at-least__n": "3"}))
    body = response.content.decode()
    assert response.status_code == 200
    assert ("このラウンドはすでに始まっています（記録 1 件）。記録済みの結果が変わるため"
            "「○数（○数が n 以上のとき）」は変更できません。始まった後も変更できるのは"
            "「審議できる問題数・判定後に答えをステージに表示」だけです。") in body
    round_.refresh_from_db()
    assert round_.config == before and not BuzzerSettingsChange.objects.exists()


def test_a_started_round_takes_a_wider_protest_window(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    tap(clients["bracket"], round_, kind="correct", player="s1")
    response = clients["organiser"].post(url("buzzer_round_settings", round_),
                                         _form(round_, protest_window="5"))
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.config["protest_window"] == 5
    assert BuzzerSettingsChange.objects.get(round=round_).events == 1


def test_a_started_round_greys_out_what_it_cannot_take_and_takes_show_answer_from_the_page(
    tournament: Tournament, clients: dict[str, Client], cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    tap(clients["bracket"], round_, kind="correct", player="s1")
    org = clients["organiser"]
    page = org.get(url("buzzer_round_settings", round_)).content.decode()
    live = page[page.index('data-section="live"'):page.index('data-section="round"')]
    assert 'name="protest_window"' in live and 'name="show_answer"' in live
    assert "disabled" not in live
    assert 'name="question_limit"' in page.split('data-section="live"')[0] + page[
        page.index('data-section="round"'):]
    assert re.search(r'<input type="number" name="question_limit"[^>]* disabled', page)
    assert page.count("記録済みの結果が変わるため、灰色の設定は変更できません。") == 1
    # What a browser posts: the greyed-out inputs are not sent.
    posted = {k: v for k, v in _form(round_).items()
              if k in ("protest_window", "csrfmiddlewaretoken")}
    response = org.post(url("buzzer_round_settings", round_), {**posted, "show_answer": "on"})
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.config["show_answer"] is True and round_.config["question_limit"] == 35
    change = BuzzerSettingsChange.objects.get(round=round_)
    assert change.changed == ["show_answer"] and change.by == cast["organiser"]


def test_a_narrower_window_that_would_void_a_recorded_protest_is_refused(
    tournament: Tournament,
) -> None:
    round_ = make_round(tournament)
    buzzer_event_append(round=round_, expected_seq=None, data={"kind": "correct", "player": "s1"})
    buzzer_protest_record(round=round_, expected_seq=None,
                          event=protest_event(kind="rejudge", question=1, player="s1",
                                              correct=False))
    narrower = RoundConfig.from_dict({**round_.config, "protest_window": 0})
    with pytest.raises(BuzzerRefused) as refused:
        buzzer_settings_change(round=round_, config=narrower)
    assert refused.value.code in ("settings_change_results", "protest_late")
    assert not BuzzerSettingsChange.objects.exists()


def test_nothing_changed_is_said_and_nothing_recorded(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    response = clients["organiser"].post(url("buzzer_round_settings", round_), _form(round_))
    assert "設定は変わっていません。" in response.content.decode()
    assert not BuzzerSettingsChange.objects.exists()


def test_an_out_of_range_value_is_a_field_error_and_changes_nothing(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    response = clients["organiser"].post(url("buzzer_round_settings", round_),
                                         _form(round_, slots="-1"))
    assert "勝ち抜け人数は 0 以上で入力してください" in response.content.decode()
    assert not BuzzerSettingsChange.objects.exists()


def test_bracket_staff_cannot_edit_and_the_console_links_the_page_for_the_organiser(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    assert clients["bracket"].get(url("buzzer_round_settings", round_)).status_code == 403
    link = url("buzzer_round_settings", round_)
    assert link in clients["organiser"].get(url("buzzer_console", round_)).content.decode()
    assert link not in clients["bracket"].get(url("buzzer_console", round_)).content.decode()
