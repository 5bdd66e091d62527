"""A main-event berth won at a qualifier run elsewhere is granted by hand with its source,
once per place: a second grant for the same place, or to a player who already holds a berth,
is refused with the reason in Japanese and records nothing."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from brackets.models import SeriesBerthGrant
from brackets.selectors.series import holds_series_berth, series_view
from brackets.services.players import player_create
from brackets.services.series import berth_grant
from tests.conftest import client_for
from tests.series.helpers import kansai5


def _grant(series: Any, player: Any, place: int = 1, day: int = 5, **extra: Any) -> Any:
    data = {"qualifier": "大津予選", "held_on": datetime.date(2019, 1, day), "place": place,
            "source": "大津予選の結果ページ", "by": None, **extra}
    return berth_grant(series=series, player=player, **data)


def test_the_same_place_cannot_be_granted_twice(tournament: Any, cast: dict[str, Any]) -> None:
    series = kansai5(cast)
    a = player_create(name="大津の覇者", reading="", card_name="OTSU", q_level=80, by=None)
    b = player_create(name="別の人", reading="", card_name="BETSU", q_level=60, by=None)
    _grant(series, a)
    with pytest.raises(ValidationError) as twice:
        _grant(series, b, qualifier=" 大津予選 ")
    assert twice.value.message_dict == {"place": [
        "大津予選の1位の出場権は既に付与されています。同じ順位に二度付与することはできません"]}
    assert list(SeriesBerthGrant.objects.values_list("player_id", flat=True)) == [a.pk]
    _grant(series, b, place=2)  # the next place is free
    assert [line.title for line in series_view(series=series).qualifiers] == ["大津予選"]


def test_a_player_already_holding_a_berth_is_refused(tournament: Any,
                                                     cast: dict[str, Any]) -> None:
    series = kansai5(cast)
    a = player_create(name="大津の覇者", reading="", card_name="OTSU", q_level=80, by=None)
    _grant(series, a)
    with pytest.raises(ValidationError) as again:
        _grant(series, a, qualifier="草津予選", day=20)
    assert again.value.message_dict == {"player": [
        "この選手は既に本戦出場権を持っています（大津予選 1位）"]}
    assert SeriesBerthGrant.objects.count() == 1


def test_the_form_says_why_and_the_berth_refuses_the_next_qualifier(
        tournament: Any, cast: dict[str, Any]) -> None:
    from brackets.services.series import tournament_series_set
    from tests.states import use_katata

    series = kansai5(cast)
    use_katata(tournament)  # 2019-03-21, after the berth was won elsewhere
    tournament_series_set(tournament=tournament, series=series)
    a = player_create(name="大津の覇者", reading="", card_name="OTSU", q_level=80, by=None)
    url = reverse("series_berth_grant", args=[tournament.slug, series.slug])
    post = {"player": str(a.pk), "qualifier": "大津予選", "held_on": "2019-01-05",
            "place": "1", "source": "大津予選の結果ページ"}
    assert client_for(cast["organiser"]).post(url, post).status_code == 302
    grant = SeriesBerthGrant.objects.get()
    assert (grant.by, grant.source) == (cast["organiser"], "大津予選の結果ページ")
    refused = client_for(cast["organiser"]).post(url, post)
    assert refused.status_code == 422
    assert "同じ順位に二度付与することはできません" in refused.content.decode()
    no_source = client_for(cast["organiser"]).post(url, {**post, "place": "2", "source": ""})
    assert "出典のない出場権は登録できません" in no_source.content.decode()
    assert SeriesBerthGrant.objects.count() == 1
    assert holds_series_berth(tournament=tournament, player=a)


def test_an_app_qualifier_berth_is_not_granted_by_hand(tournament: Any,
                                                       cast: dict[str, Any]) -> None:
    from brackets.services.series import tournament_series_set

    series = kansai5(cast)
    tournament_series_set(tournament=tournament, series=series)
    a = player_create(name="選手", reading="", card_name="SENSHU", q_level=80, by=None)
    with pytest.raises(ValidationError) as derived:
        _grant(series, a, qualifier=tournament.name)
    assert "結果から決まるため手入力できません" in derived.value.messages[0]
    assert not SeriesBerthGrant.objects.exists()
