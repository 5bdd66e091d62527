"""End to end on loopback (the copy a ``manage.py up`` subprocess, the venue this test
process with its pusher thread, as in test_two_servers): the copy serves a series page the
venue's pushes build, and a berth granted at the venue afterwards, which changes no
tournament record, still reaches it (the grant moves its tournaments' revisions, which
the pusher's sweep sees). Lean on purpose: no round is played."""

from __future__ import annotations

import datetime
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from brackets.hosted.pusher import Pusher
from brackets.models import QmaVersion, Tournament
from brackets.services.players import player_create
from brackets.services.series import berth_grant, tournament_series_set
from tests.hosted.test_two_servers import CopyServer, copy_server, eventually, venue_pusher
from tests.players.helpers import register
from tests.series.helpers import kansai5, qualifier
from tests.states import use_katata

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["copy_server", "venue_pusher"]


def comparable(html: str) -> str:
    """The page without what differs per visitor (the CSRF token of the language form)."""
    return re.sub(r"\b[A-Za-z0-9]{64}\b", "<token>", html)


def while_pusher_reads(write: Callable[[], Any]) -> Any:
    """``write`` (one transaction), again if it met the pusher thread's read: the test
    database is SQLite's shared in-memory one, where a write meeting another connection's
    read fails at once ("table is locked") instead of waiting as a database file does."""
    for _attempt in range(50):
        try:
            return write()
        except OperationalError as exc:
            if "locked" not in str(exc):
                raise
            time.sleep(0.1)
    return write()


def test_the_copy_serves_the_series_page_and_follows_a_berth_granted_later(
        tournament: Tournament, cast: dict[str, Any], catalog: QmaVersion,
        copy_server: CopyServer, venue_pusher: Pusher) -> None:
    series = kansai5(cast)
    q1 = qualifier(series, "katata-1", datetime.date(2019, 1, 13), catalog, cast)
    walker = player_create(name="まだの人", reading="まだのひと", card_name="MADA", q_level=50,
                           by=cast["desk"])
    register(q1, cast["desk"], name=walker.name, card="MADA", q=50, player=walker)
    use_katata(tournament)
    tournament_series_set(tournament=tournament, series=series, role="main")
    otsu = player_create(name="大津の覇者", reading="おおつのはしゃ", card_name="OTSU",
                         q_level=80, by=cast["desk"])
    berth_grant(series=series, player=otsu, qualifier="大津予選",
                held_on=datetime.date(2019, 1, 5), place=1, source="大津予選の結果ページ",
                by=cast["organiser"])
    path = reverse("public_series", args=[series.slug])
    venue_pusher.start()

    def shown(name: str) -> str | bool:
        status, page = copy_server.get(path)
        return status == 200 and name in page and page

    page = eventually(lambda: shown(tournament.name) and shown("まだの人"),
                      "both tournaments reach the copy")
    assert comparable(page) == comparable(Client().get(path).content.decode())
    assert "大津予選の結果ページ" not in page

    # The walker wins a berth at another venue's qualifier: no tournament record changes.
    while_pusher_reads(lambda: berth_grant(
        series=series, player=walker, qualifier="草津予選", held_on=datetime.date(2019, 1, 20),
        place=1, source="草津予選の結果ページ", by=cast["organiser"]))
    page = eventually(lambda: shown("草津予選"), "the later grant reaches the copy")
    assert comparable(page) == comparable(Client().get(path).content.decode())
    eligible = page[page.index("出場権をまだ持っていない予選参加者"):]
    assert "まだの人" not in eligible
