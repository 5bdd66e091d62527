"""The public series page: read-only, no login, each qualifier with its date, status and
berth winners, the main event, and the registry players still eligible."""

from __future__ import annotations

import datetime
from typing import Any

from django.urls import reverse

from brackets.models import QmaVersion
from brackets.services.players import player_create
from brackets.services.series import berth_grant, tournament_series_set
from tests.conftest import client_for
from tests.players.helpers import register
from tests.series.helpers import kansai5, qualifier


def test_public_page_lists_qualifiers_berths_and_who_is_eligible(
        tournament: Any, cast: dict[str, Any], catalog: QmaVersion) -> None:
    series = kansai5(cast)
    q1 = qualifier(series, "katata-1", datetime.date(2019, 1, 13), catalog, cast)
    tournament_series_set(tournament=tournament, series=series, role="main")
    walker = player_create(name="まだの人", reading="", card_name="MADA", q_level=50, by=None)
    register(q1, cast["desk"], name=walker.name, card="MADA", q=50, player=walker)
    holder = player_create(name="大津の覇者", reading="", card_name="OTSU", q_level=80, by=None)
    berth_grant(series=series, player=holder, qualifier="大津予選",
                held_on=datetime.date(2019, 1, 5), place=1, source="結果ページ",
                by=cast["organiser"])
    page = client_for(None).get(reverse("public_series", args=[series.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert html.index("大津予選") < html.index(q1.name)  # in date order
    assert "大津の覇者" in html and "手入力" in html
    assert "大会終了後に決まります" in html  # q1 is not finished yet
    assert tournament.name in html  # the main event
    eligible = html[html.index('id="series-eligible"'):]
    assert "まだの人" in eligible and "大津の覇者" not in eligible
    assert "結果ページ" not in html  # sources and who entered them are staff data
    assert "csrfmiddlewaretoken" not in html


def test_unknown_series_is_404(db: Any) -> None:
    assert client_for(None).get(reverse("public_series", args=["nope"])).status_code == 404
