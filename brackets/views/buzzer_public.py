"""The public stage scoreboard of a buzzer round (no login), pushed by server-sent events.

:func:`public_buzzer_stream` watches the round's newest sequence number *in the database*
(one indexed query every ``BUZZER_POLL_SECONDS``), so a tap made through any server process
or thread reaches every screen. Each stream ends after ``BUZZER_STREAM_SECONDS`` so it never
holds a waitress thread for long; the browser's EventSource reconnects by itself (also
after a restart).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import render

from brackets.models import BuzzerRound, Tournament
from brackets.permissions import public_tournament
from brackets.selectors.buzzer import latest_seq, safe_payload
from brackets.views.buzzer import round_or_404


@public_tournament
def public_buzzer_scoreboard(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """The stage scoreboard for the projector (no login): huge type, pushed by SSE."""
    round_ = round_or_404(tournament, round_id)
    return render(
        request,
        "brackets/buzzer/scoreboard.html",
        {"tournament": tournament, "round": round_, "payload": safe_payload(round_)},
    )


@public_tournament
def public_buzzer_state(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> JsonResponse:
    """The scoreboard state as plain JSON (the scoreboard's fallback poll; other tools)."""
    round_ = round_or_404(tournament, round_id)
    response = JsonResponse(safe_payload(round_), json_dumps_params={"ensure_ascii": False})
    # Asked again on every poll, and answered 304 while the state is the same (ETag from
    # its content: ConditionalGetMiddleware).
    response["Cache-Control"] = "no-cache"
    return response


KEEPALIVE_SECONDS = 5


def sse_message(payload: dict[str, Any]) -> str:
    """One server-sent event carrying a state (``id`` is the log's sequence number)."""
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return f"id: {payload.get('seq', 0)}\nevent: state\ndata: {body}\n\n"


def state_stream(
    round_: BuzzerRound,
    *,
    last_seen: int | None,
    seconds: float,
    interval: float,
    disconnected: Any = None,
) -> Iterator[str]:
    """Yield the round's state whenever its newest sequence number changes in the database.

    Every ``interval`` one indexed query reads the newest ``seq``; a change sends the full
    state. A comment line every ``KEEPALIVE_SECONDS`` keeps proxies from closing the
    connection and lets waitress notice a closed browser tab (its write fails), so a
    forgotten stream frees its thread within seconds. The stream
    ends after ``seconds`` (or when waitress reports the client gone), and the browser
    reconnects with ``Last-Event-ID``.
    """
    yield "retry: 500\n\n"
    seen = last_seen
    deadline = time.monotonic() + seconds
    last_write = time.monotonic()
    while True:
        seq = latest_seq(round_.pk)
        if seq != seen:
            payload = safe_payload(round_)
            seen = int(payload.get("seq", seq))
            yield sse_message(payload)
            last_write = time.monotonic()
        elif time.monotonic() - last_write > KEEPALIVE_SECONDS:
            yield ": ping\n\n"
            last_write = time.monotonic()
        if time.monotonic() >= deadline:
            return
        if disconnected is not None and disconnected():
            return
        time.sleep(interval)


@public_tournament
def public_buzzer_stream(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """Server-sent events with the scoreboard state (bounded; EventSource reconnects)."""
    round_ = round_or_404(tournament, round_id)
    raw = request.headers.get("Last-Event-ID", "")
    response = StreamingHttpResponse(
        state_stream(
            round_,
            last_seen=int(raw) if raw.isdigit() else None,
            seconds=float(getattr(settings, "BUZZER_STREAM_SECONDS", 40)),
            interval=float(getattr(settings, "BUZZER_POLL_SECONDS", 0.15)),
            disconnected=request.META.get("waitress.client_disconnected"),
        ),
        content_type="text/event-stream; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response

