"""#14 items 3 and 6 on the public copy: the pushes of a series' tournaments make the copy
serve the series page (/s/<slug>/) the venue serves, with the qualifiers, their berth
winners and who is still eligible, while the registry and the grants' sources stay at the
venue. As in test_receiver, venue and copy share the test database: the venue's state is
encoded, then forgotten, so the copy starts empty."""

from __future__ import annotations

import datetime
from typing import Any

from django.urls import reverse

from brackets.models import (
    Achievement,
    BerthWithdrawal,
    PlayerCard,
    PlayerLink,
    QmaVersion,
    SeriesBerthGrant,
    Tournament,
)
from brackets.services.players import player_create
from brackets.services.series import berth_grant, berth_withdraw, tournament_series_set
from tests.hosted.test_receiver import copy_mode, post, public_html, push_body
from tests.players.helpers import register
from tests.series.helpers import forget_everything, kansai5, play, pool, qualifier
from tests.states import use_katata

__all__ = ["copy_mode"]  # the module's autouse fixture: every test here runs as a copy


def test_the_copy_serves_the_venues_series_page(
        tournament: Any, cast: dict[str, Any], catalog: QmaVersion) -> None:
    series = kansai5(cast)
    holder = player_create(name="大津の覇者", reading="おおつのはしゃ", card_name="OTSU",
                           q_level=80, by=cast["desk"])
    berth_grant(series=series, player=holder, qualifier="大津予選",
                held_on=datetime.date(2019, 1, 5), place=1, source="大津予選の結果ページ",
                by=cast["organiser"])
    players = pool(13)
    q1 = qualifier(series, "katata-1", datetime.date(2019, 1, 13), catalog, cast)
    champion = play(q1, players, cast)
    # Two players of the first qualifier enter the second: the copy must know them as the
    # same people, or they would be listed twice among the eligible.
    q2 = qualifier(series, "katata-2", datetime.date(2019, 2, 10), catalog, cast)
    for p in [p for p in players if p != champion][:2]:
        card = p.cards.get()
        register(q2, cast["desk"], name=p.name, card=card.card_name, q=card.q_level, player=p)
    use_katata(tournament)
    tournament_series_set(tournament=tournament, series=series, role="main")
    url = reverse("public_series", args=[series.slug])
    venue_page = public_html(url)
    bodies = [push_body(t, 1) for t in (q1, q2, tournament)]

    forget_everything()
    for body in bodies:
        response = post(body)
        assert response.status_code == 200, response.content

    assert public_html(url) == venue_page
    assert champion.name in venue_page and "大津の覇者" in venue_page
    # The registry and the grants' sources never left the venue.
    assert not PlayerCard.objects.exists() and not Achievement.objects.exists()
    assert not PlayerLink.objects.exists()
    grant = SeriesBerthGrant.objects.get()
    assert (grant.source, grant.by) == ("", None)

    # A newer push of a qualifier replaces it: it joins the series again, the grant it
    # carries is the one the copy has, and the page stays the venue's.
    response = post(push_body(q1, 2))
    assert response.json()["status"] == "applied"
    assert public_html(url) == venue_page
    assert SeriesBerthGrant.objects.count() == 1


def test_a_berth_withdrawn_at_the_venue_leaves_the_copy_on_the_next_push(
        tournament: Any, cast: dict[str, Any]) -> None:
    series = kansai5(cast)
    holder = player_create(name="大津の覇者", reading="おおつのはしゃ", card_name="OTSU",
                           q_level=80, by=cast["desk"])
    grant = berth_grant(series=series, player=holder, qualifier="大津予選",
                        held_on=datetime.date(2019, 1, 5), place=1, source="大津予選の結果ページ",
                        by=cast["organiser"])
    use_katata(tournament)
    tournament_series_set(tournament=tournament, series=series, role="main")
    url = reverse("public_series", args=[series.slug])
    first = push_body(tournament, 1)
    revision = Tournament.objects.get(pk=tournament.pk).revision
    berth_withdraw(series=series, grant_id=grant.pk, reason="順位の入力誤り", by=cast["organiser"])
    # The withdrawal moves the member's revision: the pusher sends it again.
    assert Tournament.objects.get(pk=tournament.pk).revision != revision
    venue_page = public_html(url)
    assert "大津の覇者" not in venue_page
    second = push_body(tournament, 2)

    forget_everything()
    assert post(first).status_code == 200
    assert "大津の覇者" in public_html(url)
    assert post(second).json()["status"] == "applied"
    assert public_html(url) == venue_page
    withdrawal = BerthWithdrawal.objects.get()
    assert (withdrawal.reason, withdrawal.by) == ("", None)  # staff data stays at the venue
