"""The served app answers the scoreboard stream without Django's middleware
(``kyushu/serving.py``'s BareASGIHandler): what the middleware gave it, the stream still has."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from brackets.models import Tournament
from brackets.services.buzzer import buzzer_event_append
from kyushu.serving import build_application
from tests.buzzer_web.factories import make_round

pytestmark = pytest.mark.django_db(transaction=True)  # the watcher reads on its own connection


def first_state(path: str, language: str) -> tuple[int, dict[str, Any]]:
    """The status and first state event the served app sends for ``path``."""
    application = build_application()
    gone = asyncio.Event()
    sent: list[dict[str, Any]] = []
    asked: list[int] = []

    async def receive() -> dict[str, Any]:
        asked.append(1)
        if len(asked) == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await gone.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        if b"data: " in message.get("body", b"") or message.get("more_body") is False:
            gone.set()

    async def visit() -> None:
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(),
                 "query_string": b"", "root_path": "", "server": ("testserver", 80),
                 "client": ("127.0.0.1", 5000),
                 "headers": [(b"host", b"testserver"), (b"accept", b"text/event-stream"),
                             (b"accept-language", language.encode())]}
        task = asyncio.ensure_future(application(scope, receive, send))
        await asyncio.wait_for(gone.wait(), timeout=30)
        await asyncio.wait_for(task, timeout=30)

    asyncio.run(visit())
    status = int(sent[0]["status"])
    body = b"".join(m.get("body", b"") for m in sent[1:]).decode()
    data = [line[6:] for line in body.splitlines() if line.startswith("data: ")]
    return status, json.loads(data[0]) if data else {}


@pytest.mark.parametrize(("language", "label"), [("ja", "1抜け"), ("en", "Advanced #1")])
def test_the_stream_speaks_the_language_the_browser_asks_for(
    tournament: Tournament, language: str, label: str
) -> None:
    round_ = make_round(tournament)  # 5○2×: 選手1 wins with five correct answers
    for seq in range(5):
        buzzer_event_append(round=round_, data={"kind": "correct", "player": "s1"},
                            expected_seq=seq)
    status, state = first_state(f"/p/{tournament.slug}/buzzer/{round_.pk}/stream/", language)
    assert status == 200
    assert state["players"][0]["label"] == label


def test_a_stream_of_a_round_that_is_not_there_is_404(tournament: Tournament) -> None:
    status, state = first_state(f"/p/{tournament.slug}/buzzer/999999/stream/", "ja")
    assert status == 404
    assert state == {}
