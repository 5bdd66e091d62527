"""An organiser withdraws a berth granted by hand: the withdrawal is recorded (who, when,
why), the grant stays as entered, and the berth no longer counts for H0 or on the series
pages. The place may be granted again afterwards, but never to two players at once."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from brackets.messages import ERROR_TEXT
from brackets.models import BerthWithdrawal, SeriesBerthGrant, Tournament
from brackets.selectors.registry import eligibility_for
from brackets.selectors.series import holds_series_berth, series_view
from brackets.services.players import player_create
from brackets.services.series import berth_grant, berth_withdraw, tournament_series_set
from tests.conftest import client_for
from tests.series.helpers import kansai5
from tests.states import use_katata


def _grant(series: Any, player: Any, **extra: Any) -> SeriesBerthGrant:
    data = {"qualifier": "大津予選", "held_on": datetime.date(2019, 1, 5), "place": 1,
            "source": "大津予選の結果ページ", "by": None, **extra}
    return berth_grant(series=series, player=player, **data)


def _state(tournament: Tournament, cast: dict[str, Any]) -> tuple[Any, Any, SeriesBerthGrant]:
    use_katata(tournament)
    series = kansai5(cast)
    tournament_series_set(tournament=tournament, series=series)
    holder = player_create(name="大津の覇者", reading="", card_name="OTSU", q_level=80, by=None)
    return series, holder, _grant(series, holder)


def test_a_withdrawn_berth_no_longer_counts_for_h0_or_the_series_page(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    series, holder, grant = _state(tournament, cast)
    assert holds_series_berth(tournament=tournament, player=holder)
    assert eligibility_for(tournament=tournament, player=holder, card_name="OTSU")
    row = berth_withdraw(series=series, grant_id=grant.pk, reason="別シリーズの予選だった",
                         by=cast["organiser"])
    assert (row.grant, row.reason, row.by) == (grant, "別シリーズの予選だった", cast["organiser"])
    assert not holds_series_berth(tournament=tournament, player=holder)
    assert eligibility_for(tournament=tournament, player=holder, card_name="OTSU") == []
    view = series_view(series=series)
    assert all(not line.berths for line in view.qualifiers)
    assert [w.grant for w in view.withdrawn] == [grant]
    assert SeriesBerthGrant.objects.filter(pk=grant.pk).exists()  # never deleted


def test_the_place_may_be_granted_again_after_a_withdrawal_but_never_twice_at_once(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    series, _holder, grant = _state(tournament, cast)
    other = player_create(name="本当の覇者", reading="", card_name="HONTO", q_level=70, by=None)
    berth_withdraw(series=series, grant_id=grant.pk, reason="選手の取り違え", by=cast["organiser"])
    again = _grant(series, other)
    assert again.follows == grant.withdrawal
    third = player_create(name="三人目", reading="", card_name="SAN", q_level=60, by=None)
    with pytest.raises(ValidationError) as twice:
        _grant(series, third)
    assert twice.value.message_dict == {"place": [
        "大津予選の1位の出場権は既に付与されています。同じ順位に二度付与することはできません"]}
    view = series_view(series=series)
    assert [b.name for line in view.qualifiers for b in line.berths] == ["本当の覇者"]
    # The database holds one grant in force per place too: a second first grant fails.
    with pytest.raises(IntegrityError), transaction.atomic():
        SeriesBerthGrant.objects.create(series=series, player=third, qualifier="大津予選",
                                        held_on=datetime.date(2019, 1, 5), place=1, source="x")


def test_a_refused_withdrawal_says_why_and_changes_nothing(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    series, _holder, grant = _state(tournament, cast)
    with pytest.raises(ValidationError) as empty:
        berth_withdraw(series=series, grant_id=grant.pk, reason=" ", by=cast["organiser"])
    assert empty.value.message_dict == {"reason": [str(ERROR_TEXT["correction_no_reason"])]}
    assert not BerthWithdrawal.objects.exists()
    berth_withdraw(series=series, grant_id=grant.pk, reason="一度目", by=cast["organiser"])
    with pytest.raises(ValidationError) as twice:
        berth_withdraw(series=series, grant_id=grant.pk, reason="二度目", by=cast["organiser"])
    assert twice.value.messages == [str(ERROR_TEXT["correction_already_withdrawn"])]
    assert BerthWithdrawal.objects.count() == 1


def test_the_series_page_withdraws_and_lists_the_withdrawal(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    series, _holder, grant = _state(tournament, cast)
    client = client_for(cast["organiser"])
    url = reverse("series_berth_withdraw", args=[tournament.slug, series.slug, grant.pk])
    refused = client.post(url, {"reason": ""})
    assert refused.status_code == 422
    assert str(ERROR_TEXT["correction_no_reason"]) in refused.content.decode()
    assert client.post(url, {"reason": "出典の確認ができない"}).status_code == 302
    text = client.get(reverse("series_edit", args=[tournament.slug, series.slug])).content.decode()
    assert 'id="berths-withdrawn"' in text and "出典の確認ができない" in text
    public = client_for(None).get(reverse("public_series", args=[series.slug])).content.decode()
    assert "大津の覇者" not in public


def test_desk_staff_cannot_withdraw_a_berth(tournament: Tournament,
                                            cast: dict[str, Any]) -> None:
    series, _holder, grant = _state(tournament, cast)
    url = reverse("series_berth_withdraw", args=[tournament.slug, series.slug, grant.pk])
    assert client_for(cast["desk"]).post(url, {"reason": "理由"}).status_code == 403
    assert not BerthWithdrawal.objects.exists()
