"""The scoreboard's server-sent events: async views fed by one change-watcher per process.

The streams are driven through Django's ASGI test client (``AsyncClient``), as the ASGI
server drives them; the watcher reads the database from a thread of its own, so these
tests commit what they write (``transaction=True``).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, override_settings
from django.urls import reverse

from brackets.models import BuzzerRound, Tournament
from brackets.services.buzzer import buzzer_event_append
from brackets.views import buzzer_stream
from tests.buzzer_web.factories import make_round


def stream_url(round_: BuzzerRound) -> str:
    return reverse(
        "public_buzzer_stream", kwargs={"slug": round_.tournament.slug, "round_id": round_.pk}
    )


def parse(chunk: bytes | str) -> dict[str, Any]:
    text = chunk.decode() if isinstance(chunk, bytes) else chunk
    fields = dict(line.split(": ", 1) for line in text.strip().splitlines() if ": " in line)
    # The id is the round's display version: its seq until a settings edit or a question file.
    event_id = int(fields["id"]) if fields["id"].isdigit() else fields["id"]
    return {"id": event_id, "data": json.loads(fields["data"]), "event": fields["event"]}


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    """Run an async scenario; its sync_to_async calls share the test's database thread."""
    async_to_sync(scenario)()


append = sync_to_async(buzzer_event_append)


async def next_event(chunks: AsyncIterator[bytes]) -> dict[str, Any]:
    """The next state event of a stream (keep-alive comments skipped)."""
    while True:
        chunk = await asyncio.wait_for(anext(chunks), timeout=5)
        if b"event: state" in chunk:
            return parse(chunk)


class Screen:
    """An open scoreboard: reads its stream in a task; closing it cancels the task, as the
    ASGI server does when a browser goes away."""

    def __init__(self, response: Any) -> None:
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self._read(response))

    async def _read(self, response: Any) -> None:
        async for chunk in response.streaming_content:
            if b"event: state" in chunk:
                await self.events.put(parse(chunk))

    async def next_event(self) -> dict[str, Any]:
        return await asyncio.wait_for(self.events.get(), timeout=5)

    async def close(self) -> None:
        self.task.cancel()
        try:
            await self.task
        except asyncio.CancelledError:
            pass


@pytest.mark.django_db(transaction=True)
@override_settings(BUZZER_STREAM_SECONDS=3, BUZZER_POLL_SECONDS=0.05)
def test_stream_yields_the_state_after_an_append(tournament: Tournament) -> None:
    round_ = make_round(tournament)

    async def scenario() -> None:
        response = await AsyncClient().get(stream_url(round_))
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/event-stream")
        assert response["Cache-Control"] == "no-cache"
        chunks = aiter(response.streaming_content)
        assert (await anext(chunks)).startswith(b"retry:")
        first = await next_event(chunks)
        assert first["id"] == 0 and first["event"] == "state"
        assert first["data"]["players"][0]["name"] == "選手1"
        await append(round=round_, data={"kind": "correct", "player": "s1"}, expected_seq=0)
        started = time.monotonic()
        second = await next_event(chunks)
        assert time.monotonic() - started < 1.0
        assert second["id"] == 1
        assert second["data"]["players"][0]["correct"] == 1
        # The stream's end (its bound) lets the watcher go.
        assert [chunk async for chunk in chunks if b"event: state" in chunk] == []

    run(scenario)


@pytest.mark.django_db(transaction=True)
@override_settings(BUZZER_STREAM_SECONDS=0.5, BUZZER_POLL_SECONDS=0.05)
def test_stream_ends_after_a_bounded_time_and_resumes_from_last_event_id(
    tournament: Tournament,
) -> None:
    round_ = make_round(tournament)
    buzzer_event_append(round=round_, data={"kind": "thru"}, expected_seq=0)

    async def scenario() -> None:
        started = time.monotonic()
        # Reconnecting with the id already seen: no repeat of the same state, then the end.
        response = await AsyncClient().get(stream_url(round_), headers={"Last-Event-ID": "1"})
        body = b"".join([chunk async for chunk in response.streaming_content])
        assert time.monotonic() - started < 3
        assert b"id: " not in body
        # A client that missed an event gets the current state at once.
        response = await AsyncClient().get(stream_url(round_), headers={"Last-Event-ID": "0"})
        screen = Screen(response)
        assert (await screen.next_event())["id"] == 1
        await screen.close()

    run(scenario)


@pytest.mark.django_db(transaction=True)
@override_settings(BUZZER_STREAM_SECONDS=5, BUZZER_POLL_SECONDS=0.05)
def test_one_watcher_query_serves_every_open_stream(
    tournament: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty screens on two rounds: each poll is one query naming both rounds, and a tap's
    state is built once for all the screens of its round."""
    first_round = make_round(tournament, name="2R")
    second_round = make_round(tournament, name="3R")
    polled: list[list[int]] = []
    in_flight: list[int] = []
    built: list[tuple[int, str]] = []
    real_seqs, real_build = buzzer_stream.display_versions, buzzer_stream.build_state

    def counting_seqs(round_ids: list[int]) -> dict[int, str]:
        polled.append(list(round_ids))
        in_flight.append(1)
        try:
            return real_seqs(round_ids)
        finally:
            in_flight.pop()

    async def settled(watcher: Any) -> tuple[int, int]:
        # A poll's query is listed when it starts and counted by the watcher once the loop
        # resumes it: read both between polls, when no query has started or ended for a
        # while, never with one query half counted.
        for _ in range(1000):
            seen = len(polled)
            if not in_flight:
                await asyncio.sleep(0.02)
                if not in_flight and len(polled) == seen:
                    break
            else:
                await asyncio.sleep(0.002)
        return len(polled), watcher.polls

    def counting_build(round_id: int, language: str) -> dict[str, Any]:
        built.append((round_id, language))
        return real_build(round_id, language)

    monkeypatch.setattr(buzzer_stream, "display_versions", counting_seqs)
    monkeypatch.setattr(buzzer_stream, "build_state", counting_build)

    async def scenario() -> None:
        client = AsyncClient()
        streams = []
        for i in range(20):
            round_ = first_round if i % 2 == 0 else second_round
            screen = Screen(await client.get(stream_url(round_)))
            assert (await screen.next_event())["id"] == 0
            streams.append((round_, screen))
        watcher = buzzer_stream.change_watcher()
        queries_before, polls_before = await settled(watcher)
        await append(round=first_round, data={"kind": "thru"}, expected_seq=0)
        for round_, screen in streams:
            if round_ == first_round:
                assert (await screen.next_event())["id"] == 1
        queries_after, polls_after = await settled(watcher)
        # Every poll since the tap was one query for both rounds; no stream asked alone.
        assert queries_after - queries_before == polls_after - polls_before
        assert all(ids == sorted([first_round.pk, second_round.pk])
                   for ids in polled[queries_before:])
        assert built.count((first_round.pk, "ja")) == 2  # seq 0 once, seq 1 once
        for _, screen in streams:
            await screen.close()
        assert watcher.watches == {}

    run(scenario)


@pytest.mark.django_db(transaction=True)
@override_settings(BUZZER_STREAM_SECONDS=5, BUZZER_POLL_SECONDS=5)
def test_screens_opening_together_share_one_first_read_of_the_round(
    tournament: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A room of scoreboards reconnecting at once (a restart, a Wi-Fi drop): the round's
    version is read once for all of them, not once per screen."""
    round_ = make_round(tournament)
    polled: list[list[int]] = []
    real_seqs = buzzer_stream.display_versions

    def counting_seqs(round_ids: list[int]) -> dict[int, str]:
        polled.append(list(round_ids))
        return real_seqs(round_ids)

    monkeypatch.setattr(buzzer_stream, "display_versions", counting_seqs)

    async def scenario() -> None:
        client = AsyncClient()
        responses = await asyncio.gather(*(client.get(stream_url(round_)) for _ in range(30)))
        screens = [Screen(response) for response in responses]
        for screen in screens:
            assert (await screen.next_event())["id"] == 0
        # The poll interval (5 s) has not come round: the one read is the shared first one.
        assert polled == [[round_.pk]]
        for screen in screens:
            await screen.close()

    run(scenario)


def test_streams_opened_together_end_spread_over_half_their_length_again() -> None:
    """Each stream lives ``seconds`` to 1.5 × ``seconds``, so screens that opened together
    do not all reconnect together again."""
    lives = [buzzer_stream.stream_life(40) for _ in range(200)]
    assert all(40 <= life <= 60 for life in lives)
    assert max(lives) - min(lives) >= 10


@pytest.mark.slow
def test_a_tap_through_the_server_or_another_process_reaches_an_open_stream(
    tmp_path: Path,
) -> None:
    """A real ``manage.py up`` (uvicorn): a tap reaches an open stream well within 1 s, also
    one saved by another process writing the same database."""
    import subprocess
    import sys

    from bench.scoreboard import (
        ROOT,
        Operator,
        StreamViewer,
        _env,
        free_port,
        prepare,
        start_server,
        stop_server,
    )

    round_id = prepare(tmp_path)
    port = free_port()
    proc = start_server(tmp_path, port)
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
        script = (
            "from brackets.models import BuzzerRound;"
            "from brackets.services.buzzer import buzzer_event_append;"
            f"buzzer_event_append(round=BuzzerRound.objects.get(pk={round_id}),"
            f"data={{'kind': 'thru'}}, expected_seq={operator.seq})"
        )
        subprocess.run([sys.executable, "manage.py", "shell", "--no-imports", "-c", script],
                       cwd=ROOT, env=_env(tmp_path), check=True)
        saved = time.perf_counter()
        arrived = viewer.wait_for(operator.seq + 1, 5)
        assert arrived is not None, "a save by another process never reached the stream"
        assert arrived - saved < 1.0
    finally:
        if viewer is not None:
            viewer.close()
        stop_server(proc)


@pytest.mark.slow
def test_open_scoreboards_hold_no_server_thread(tmp_path: Path) -> None:
    """Sixty open scoreboard streams (40 stopped the waitress server of old) and two closed
    ones: an ordinary request is still answered at once."""
    import socket
    import urllib.request

    from bench.scoreboard import free_port, prepare, start_server, stop_server

    round_id = prepare(tmp_path)
    port = free_port()
    proc = start_server(tmp_path, port)
    request = f"GET /p/bench/buzzer/{round_id}/stream/ HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    held: list[socket.socket] = []
    try:
        for _ in range(2):
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(request)
                assert sock.recv(100)
        for _ in range(60):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(request)
            held.append(sock)
        for sock in held:
            sock.settimeout(10)
            assert sock.recv(100)
        started = time.monotonic()
        url = f"http://127.0.0.1:{port}/p/bench/buzzer/{round_id}/state.json"
        with urllib.request.urlopen(url, timeout=30) as response:
            assert json.loads(response.read())["seq"] == 0
        assert time.monotonic() - started < 10
    finally:
        for sock in held:
            sock.close()
        stop_server(proc)


@pytest.mark.django_db(transaction=True)
@override_settings(BUZZER_STREAM_SECONDS=3, BUZZER_POLL_SECONDS=0.05)
def test_a_wsgi_server_gets_the_stream_message_by_message(tournament: Tournament) -> None:
    """Through Django's WSGI handler (its test server, ``kyushu.wsgi``) the same stream
    arrives as it happens, not read whole first."""
    from django.test import Client

    round_ = make_round(tournament)
    response = Client().get(stream_url(round_))
    chunks = iter(response.streaming_content)
    assert next(chunks).startswith(b"retry:")
    assert parse(next(chunks))["id"] == 0
    buzzer_event_append(round=round_, data={"kind": "thru"}, expected_seq=0)
    started = time.monotonic()
    assert parse(next(chunks))["id"] == 1
    assert time.monotonic() - started < 1.0
    response.close()


@pytest.mark.django_db(transaction=True)
@override_settings(BUZZER_STREAM_SECONDS=60, BUZZER_POLL_SECONDS=0.05)
def test_ending_every_stream_stops_a_stream_served_in_another_thread(
    tournament: Tournament,
) -> None:
    """A WSGI server's thread keeps a stream whose browser has gone until its next write;
    ending every stream stops it at once, and its watcher lets go of the database."""
    import threading

    from django.test import Client

    round_ = make_round(tournament)
    response = Client().get(stream_url(round_))
    chunks = iter(response.streaming_content)
    assert next(chunks).startswith(b"retry:")
    rest: list[bytes] = []
    first_state = threading.Event()

    def serve() -> None:
        for chunk in chunks:
            rest.append(chunk)
            first_state.set()

    served = threading.Thread(target=serve)
    served.start()
    assert first_state.wait(timeout=10)
    buzzer_stream.end_every_stream(timeout=10)
    served.join(timeout=10)
    assert not served.is_alive()
    assert parse(rest[0])["id"] == 0
    assert all(not watcher.watches for watcher in buzzer_stream._WATCHERS.values())


@pytest.mark.django_db
def test_the_watcher_reads_every_watched_round_in_one_query(tournament: Tournament) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from brackets.selectors.buzzer import display_versions

    tapped, untouched = make_round(tournament, name="2R"), make_round(tournament, name="3R")
    buzzer_event_append(round=tapped, data={"kind": "thru"}, expected_seq=0)
    buzzer_event_append(round=tapped, data={"kind": "thru"}, expected_seq=1)
    with CaptureQueriesContext(connection) as ctx:
        assert display_versions([tapped.pk, untouched.pk]) == {tapped.pk: "2", untouched.pk: "0"}
    assert len(ctx.captured_queries) == 1
    assert "buzzerevent" in ctx.captured_queries[0]["sql"].lower()  # the newest tap is read there


@pytest.mark.django_db(transaction=True)
@override_settings(BUZZER_STREAM_SECONDS=3, BUZZER_POLL_SECONDS=5)
def test_show_answer_turned_on_or_the_file_withdrawn_mid_round_reaches_the_stage_at_once(
    tournament: Tournament,
) -> None:
    """A settings edit or a question file (no new tap) wakes the streams as a tap does:
    the poke, not the poll (5 s here), brings the change to the stage."""
    from brackets.engine.buzzer import RoundConfig
    from brackets.services.buzzer_questions import buzzer_questions_withdraw
    from brackets.services.buzzer_settings import buzzer_settings_change
    from tests.buzzer_web.test_question_files import load

    round_ = make_round(tournament)
    loaded = load(round_)
    buzzer_event_append(round=round_, data={"kind": "correct", "player": "s1"}, expected_seq=0)
    change = sync_to_async(buzzer_settings_change)
    withdraw = sync_to_async(buzzer_questions_withdraw)
    shown = RoundConfig.from_dict({**round_.config, "show_answer": True})

    async def scenario() -> None:
        screen = Screen(await AsyncClient().get(stream_url(round_)))
        first = await screen.next_event()
        assert first["data"]["answer"] is None
        await change(round=round_, config=shown)
        started = time.monotonic()
        second = await screen.next_event()
        assert time.monotonic() - started < 1.0
        assert second["data"]["answer"]["answer"] == "富士山"
        assert second["data"]["seq"] == first["data"]["seq"] == 1
        assert second["id"] != first["id"]
        # Withdrawing the question file wakes the stage the same way: no answer any more.
        await withdraw(round=round_, file_id=loaded.pk)
        third = await screen.next_event()
        assert third["data"]["answer"] is None and third["id"] != second["id"]
        await screen.close()

    run(scenario)
