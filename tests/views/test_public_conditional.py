"""Pages that travel light: public pages and the pollers' endpoints come compressed and
answer a poller that already has them with 304, until something they show changes."""

from __future__ import annotations

import gzip
from typing import Any

import pytest

from brackets.models import Group, Tournament
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.states import round_1_running

pytestmark = pytest.mark.django_db


def test_public_round_page_is_sent_gzipped_to_a_browser_that_accepts_it(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    round_1_running(tournament, cast["organiser"])
    url = f"/p/{tournament.slug}/r/1/"
    plain = client_for(None).get(url)
    packed = client_for(None).get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    html = gzip.decompress(packed.content).decode()
    assert len(packed.content) < len(plain.content) / 3
    for g in Group.objects.filter(round__tournament=tournament, round__number=1):
        assert f'id="pg-{g.label}"' in html


def test_public_round_page_answers_304_until_a_result_is_saved(
        tournament: Tournament, cast: dict[str, Any],
        django_capture_on_commit_callbacks: Any) -> None:
    round_1_running(tournament, cast["organiser"])
    url = f"/p/{tournament.slug}/r/1/"
    phone = client_for(None)
    first = phone.get(url)
    etag = first["ETag"]
    assert "no-cache" in first["Cache-Control"]
    again = phone.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    group = Group.objects.filter(round__tournament=tournament, round__number=1).first()
    with django_capture_on_commit_callbacks(execute=True):  # the save is committed
        svc.results_save(group=group, by=cast["organiser"],
                         rows={1: ("432.10", 1), 2: ("250.00", 2), 3: ("200.00", 3),
                               4: ("150.00", 4)})
    after = phone.get(url, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200
    assert after["ETag"] != etag
    assert "432.10" in after.content.decode()


def test_public_etag_differs_per_language(tournament: Tournament,
                                          cast: dict[str, Any]) -> None:
    round_1_running(tournament, cast["organiser"])
    url = f"/p/{tournament.slug}/r/1/"
    japanese = client_for(None).get(url)
    english = client_for(None).get(url, HTTP_ACCEPT_LANGUAGE="en",
                                   HTTP_IF_NONE_MATCH=japanese["ETag"])
    assert english.status_code == 200
    assert english["ETag"] != japanese["ETag"]


def test_bracket_and_player_pages_revalidate_with_304(tournament: Tournament,
                                                      cast: dict[str, Any]) -> None:
    round_1_running(tournament, cast["organiser"])
    seat = (Group.objects.filter(round__tournament=tournament, round__number=1).first()
            .seats.exclude(entrant=None).first())
    phone = client_for(None)
    for url in (f"/p/{tournament.slug}/bracket/", f"/p/{tournament.slug}/players/{seat.entrant_id}/",
                f"/p/{tournament.slug}/r/1/projector/"):
        etag = phone.get(url)["ETag"]
        assert phone.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304, url


# The watcher builds the stream's state on its own connection: the test commits what it writes.
@pytest.mark.django_db(transaction=True)
def test_scoreboard_state_json_is_compressed_and_revalidated_but_its_stream_is_not_compressed(
        tournament: Tournament, cast: dict[str, Any], settings: Any) -> None:
    from tests.states import buzzer_round_running

    settings.BUZZER_STREAM_SECONDS = 0.2
    round_ = buzzer_round_running(tournament, cast["organiser"])
    base = f"/p/{tournament.slug}/buzzer/{round_.pk}"
    phone = client_for(None)
    state = phone.get(f"{base}/state.json", HTTP_ACCEPT_ENCODING="gzip")
    assert state.status_code == 200
    assert "ETag" in state
    again = phone.get(f"{base}/state.json", HTTP_IF_NONE_MATCH=state["ETag"])
    assert again.status_code == 304
    stream = phone.get(f"{base}/stream/", HTTP_ACCEPT_ENCODING="gzip")
    assert stream["Content-Type"].startswith("text/event-stream")
    assert not stream.has_header("Content-Encoding")
    body = b"".join(stream.streaming_content)
    assert b"data:" in body
    assert b'"error"' not in body  # the round's own state, not "deleted"
