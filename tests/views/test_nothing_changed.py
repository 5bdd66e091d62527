"""A save that changes nothing says 変更はありません, not 保存しました (issue 19, defect 9);
names lose the invisible characters they were pasted with."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from brackets.models import Entrant, Tournament
from brackets.text import visible_text
from tests.conftest import client_for
from tests.desk.test_views import edit_data

pytestmark = pytest.mark.django_db


def _message(client: Client, response: Any) -> str:
    return client.get(response["Location"]).content.decode()


def test_an_entrant_edit_that_changes_nothing_says_so(tournament: Tournament,
                                                      cast: dict[str, Any]) -> None:
    from brackets.services.entrants import entrant_register

    entrant = entrant_register(tournament=tournament, by=cast["desk"],
                               data={"name": "山田", "reading": "やまだ", "card_name": "ヤマダ"})
    desk = client_for(cast["desk"])
    url = reverse("desk_entrant_edit", args=[tournament.slug, entrant.pk])
    same = desk.post(url, edit_data(entrant))
    page = _message(desk, same)
    assert "変更はありません" in page and "保存しました" not in page
    entrant.refresh_from_db()
    assert entrant.revision == 1
    changed = desk.post(url, edit_data(entrant, q_level=40))
    assert "保存しました" in _message(desk, changed)


def test_tournament_settings_that_change_nothing_say_so(tournament: Tournament,
                                                        cast: dict[str, Any]) -> None:
    organiser = client_for(cast["organiser"])
    url = reverse("tournament_edit", args=[tournament.slug])
    form = organiser.get(url).context["form"]
    data = {name: form[name].value() for name in form.fields}
    data = {k: ("" if v is None else v) for k, v in data.items() if v is not False}
    same = organiser.post(url, data)
    assert same.status_code == 302
    page = _message(organiser, same)
    assert "変更はありません" in page and "保存しました" not in page
    changed = organiser.post(url, {**data, "venue": "別の店"})
    assert "大会設定を保存しました" in _message(organiser, changed)


def test_adding_a_staff_member_twice_says_nothing_changed(tournament: Tournament,
                                                          cast: dict[str, Any]) -> None:
    organiser = client_for(cast["organiser"])
    url = reverse("staff_list", args=[tournament.slug])
    again = organiser.post(url, {"username": "desk", "role": "desk"})
    page = _message(organiser, again)
    assert "変更はありません" in page and "追加しました" not in page


@pytest.mark.parametrize(("typed", "kept"), [
    ("\u200b", ""), ("ヤマ\u200bダ", "ヤマダ"), ("\ufeffABC", "ABC"), ("A\u202eB", "AB"),
    (" 山田\u00ad ", "山田"), ("👍🏽", "👍🏽"),
])
def test_visible_text_drops_what_nobody_sees(typed: str, kept: str) -> None:
    assert visible_text(typed) == kept


def test_notes_keep_their_line_breaks() -> None:
    assert visible_text("一行目\r\n二行目\u200b", multiline=True) == "一行目\n二行目"


def test_a_zero_width_space_card_name_is_refused(tournament: Tournament,
                                                 cast: dict[str, Any]) -> None:
    desk = client_for(cast["desk"])
    response = desk.post(reverse("desk_entrant_new", args=[tournament.slug]),
                         {"name": "山田", "card_name": "\u200b"})
    assert response.status_code == 200
    assert "カードネームを入力してください" in response.content.decode()
    assert not Entrant.objects.exists()


def test_a_card_name_pasted_with_a_zero_width_space_is_stored_without_it(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    desk = client_for(cast["desk"])
    desk.post(reverse("desk_entrant_new", args=[tournament.slug]),
              {"name": "山田\u200b", "card_name": "ヤマ\u200bダ"})
    entrant = Entrant.objects.get()
    assert (entrant.name, entrant.card_name) == ("山田", "ヤマダ")
