"""The stage scoreboard in a full hall: 100 audience streams open, a tap shows within 1 s.

Served by uvicorn and the app of ``manage.py up`` (``kyushu/serving.py``; pytest-django's
live server is Django's threaded WSGI server, where each stream would hold a thread): the
app runs in a thread of this process on a port of its own, against the test database.
"""

from __future__ import annotations

import selectors
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from brackets.models import Membership, Role, Tournament
from tests.browser.conftest import login
from tests.buzzer_web.factories import make_round, nomx

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "crowd-browser-pass"
AUDIENCE = 100


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def asgi_server() -> Iterator[str]:
    """uvicorn serving ``kyushu.asgi`` from a thread; its base URL."""
    import uvicorn
    from django.db import connections

    from kyushu.serving import build_application

    # The server's threads close their connections after each request here, so none is
    # left open on the test database when it is dropped.
    database = connections.settings["default"]
    kept_for = database["CONN_MAX_AGE"]
    database["CONN_MAX_AGE"] = 0
    port = free_port()
    config = uvicorn.Config(build_application(), host="127.0.0.1", port=port, lifespan="off",
                            log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    database["CONN_MAX_AGE"] = kept_for


class Audience:
    """``count`` phones holding the scoreboard stream, read in one thread (and counted)."""

    def __init__(self, base: str, path: str, count: int) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.selector = selectors.DefaultSelector()
        self.states = [0] * count
        self.running = True
        request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n"
        for index in range(count):
            sock = socket.create_connection((host, int(port)))
            sock.sendall(request.encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, index)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while self.running:
            for key, _ in self.selector.select(timeout=0.1):
                try:
                    chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                self.states[key.data] += chunk.count(b"event: state")

    def wait_until_every_one_has_a_state(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(self.states):
                return True
            time.sleep(0.05)
        return False

    def close(self) -> None:
        self.running = False
        self.thread.join(timeout=5)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self.selector.close()


@override_settings(BUZZER_STREAM_SECONDS=30, BUZZER_POLL_SECONDS=0.15)
def test_the_scoreboard_shows_a_tap_within_a_second_with_100_streams_open(
    asgi_server: str, tournament: Tournament, tablet_page: Any, projector_page: Any
) -> None:
    operator = get_user_model().objects.create_user("operator", password=PASSWORD)
    Membership.objects.create(tournament=tournament, user=operator, role=Role.BRACKET)
    round_ = make_round(tournament, players=4, config=nomx(5, 2, slots=2, question_limit=35))
    audience = Audience(asgi_server, f"/p/{tournament.slug}/buzzer/{round_.pk}/stream/",
                        AUDIENCE)
    try:
        assert audience.wait_until_every_one_has_a_state(30), "the audience's streams"

        board = projector_page
        board.goto(f"{asgi_server}/p/{tournament.slug}/buzzer/{round_.pk}/")
        board.wait_for_selector('.bzb-card[data-player="s1"]')
        # The board is live on its own stream before the tap (not on the fallback poll).
        board.wait_for_selector("#bzb-conn.bzb-up")
        console = tablet_page
        login(console, asgi_server, "operator", PASSWORD)
        console.goto(f"{asgi_server}/t/{tournament.slug}/buzzer/{round_.pk}/")
        console.wait_for_selector('button[aria-label="1番 ○"]:not([disabled])')
        before = list(audience.states)

        console.click('button[aria-label="1番 ○"]')
        board.wait_for_function(
            "() => document.querySelector('.bzb-card[data-player=\"s1\"] .bzb-main')"
            ".textContent === '1'",
            timeout=1000,
        )
        # The audience got it too, and every stream is still open.
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not all(
            now > then for now, then in zip(audience.states, before)
        ):
            time.sleep(0.05)
        assert all(now > then for now, then in zip(audience.states, before))
    finally:
        audience.close()
