"""The scoreboard's server-sent events: pushed through the database, bounded, flushed."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from brackets.models import BuzzerRound, Tournament
from brackets.services.buzzer import buzzer_event_append
from tests.buzzer_web.factories import make_round


def stream_url(round_: BuzzerRound) -> str:
    return reverse(
        "public_buzzer_stream", kwargs={"slug": round_.tournament.slug, "round_id": round_.pk}
    )


def parse(chunk: bytes | str) -> dict[str, Any]:
    text = chunk.decode() if isinstance(chunk, bytes) else chunk
    fields = dict(line.split(": ", 1) for line in text.strip().splitlines() if ": " in line)
    return {"id": int(fields["id"]), "data": json.loads(fields["data"]), "event": fields["event"]}


@pytest.mark.django_db
@override_settings(BUZZER_STREAM_SECONDS=3, BUZZER_POLL_SECONDS=0.05)
def test_stream_yields_the_state_after_an_append(tournament: Tournament, client: Client) -> None:
    round_ = make_round(tournament)
    response = client.get(stream_url(round_))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    assert response["Cache-Control"] == "no-cache"
    chunks = iter(response.streaming_content)
    assert next(chunks).startswith(b"retry:")
    first = parse(next(chunks))
    assert first["id"] == 0 and first["event"] == "state"
    assert first["data"]["players"][0]["name"] == "選手1"
    buzzer_event_append(round=round_, data={"kind": "correct", "player": "s1"}, expected_seq=0)
    started = time.monotonic()
    second = parse(next(chunks))
    assert time.monotonic() - started < 1.0
    assert second["id"] == 1
    assert second["data"]["players"][0]["correct"] == 1


@pytest.mark.django_db
@override_settings(BUZZER_STREAM_SECONDS=0.5, BUZZER_POLL_SECONDS=0.05)
def test_stream_ends_after_a_bounded_time_and_resumes_from_last_event_id(
    tournament: Tournament, client: Client
) -> None:
    round_ = make_round(tournament)
    buzzer_event_append(round=round_, data={"kind": "thru"}, expected_seq=0)
    started = time.monotonic()
    # Reconnecting with the id already seen: no repeat of the same state, then the end.
    response = client.get(stream_url(round_), HTTP_LAST_EVENT_ID="1")
    body = b"".join(response.streaming_content)
    assert time.monotonic() - started < 3
    assert b"id: " not in body
    # A client that missed an event gets the current state at once.
    response = client.get(stream_url(round_), HTTP_LAST_EVENT_ID="0")
    chunks = iter(response.streaming_content)
    next(chunks)
    assert parse(next(chunks))["id"] == 1
    response.close()


@pytest.mark.slow
def test_waitress_flushes_each_message_promptly(tmp_path: Path) -> None:
    """A real ``manage.py up`` (waitress): a tap reaches an open stream well within 1 s."""
    from bench.scoreboard import (
        Operator,
        StreamViewer,
        free_port,
        prepare,
        start_server,
        stop_server,
    )

    round_id = prepare(tmp_path)
    port = free_port()
    proc = start_server(tmp_path, port, threads=8)
    viewer = None
    try:
        operator = Operator(port, "bench", round_id)
        operator.login()
        viewer = StreamViewer(port, f"/p/bench/buzzer/{round_id}/stream/")
        assert viewer.wait_for(0, 10) is not None
        for kind, player in (("correct", "s1"), ("wrong", "s2"), ("thru", None)):
            sent = time.perf_counter()
            fields = {"kind": kind} | ({"player": player} if player else {})
            assert operator.tap(**fields)["ok"]
            arrived = viewer.wait_for(operator.seq, 2)
            assert arrived is not None, f"tap {operator.seq} not pushed"
            assert arrived - sent < 1.0
    finally:
        if viewer is not None:
            viewer.close()
        stop_server(proc)


@pytest.mark.slow
def test_closed_scoreboards_free_their_waitress_threads(tmp_path: Path) -> None:
    """Two threads, two scoreboard tabs opened and closed: the next request is not starved."""
    import socket
    import urllib.request

    from bench.scoreboard import free_port, prepare, start_server, stop_server

    round_id = prepare(tmp_path)
    port = free_port()
    proc = start_server(tmp_path, port, threads=2)
    try:
        for _ in range(2):
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(
                    f"GET /p/bench/buzzer/{round_id}/stream/ HTTP/1.1\r\nHost: x\r\n\r\n".encode()
                )
                assert sock.recv(100)
        started = time.monotonic()
        url = f"http://127.0.0.1:{port}/p/bench/buzzer/{round_id}/state.json"
        with urllib.request.urlopen(url, timeout=30) as response:
            assert json.loads(response.read())["seq"] == 0
        assert time.monotonic() - started < 10
    finally:
        stop_server(proc)
