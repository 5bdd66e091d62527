"""The public stage scoreboard of a buzzer round (no login), pushed by server-sent events.

:func:`public_buzzer_stream` is fed by the process's change-watcher, which reads the
watched rounds' newest sequence numbers *in the database*, so a tap made through any server
process reaches every screen. Each stream ends after ``BUZZER_STREAM_SECONDS``; the
browser's EventSource reconnects by itself (also after a restart).
"""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import translation

from brackets.models import Tournament
from brackets.permissions import public_tournament
from brackets.selectors.buzzer import safe_payload
from brackets.views.buzzer import round_or_404
from brackets.views.buzzer_stream import (
    change_watcher,
    close_connection,
    in_own_loop,
    state_stream,
)


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


def _stream_round(slug: str, round_id: int) -> int:
    """The public round's id (404 otherwise)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    return round_or_404(tournament, round_id).pk


async def public_buzzer_stream(
    request: HttpRequest, slug: str, round_id: int
) -> HttpResponse:
    """Server-sent events with the scoreboard state (bounded; EventSource reconnects).

    An async view: under the ASGI server the open stream waits on the process's
    change-watcher and holds no thread or database connection
    (``brackets/views/buzzer_stream.py``). A WSGI server (Django's test server, a
    deployment through ``kyushu.wsgi``) gets the same stream as a plain iterator, which
    holds its thread as any WSGI response does.
    """
    # In the watcher's thread, on the connection it keeps: a thread and a connection of the
    # request's own made each of a room of screens reconnecting at once wait seconds.
    watcher = change_watcher()
    round_id = await watcher.run(_stream_round, slug, round_id)
    if not isinstance(request, ASGIRequest):
        # A WSGI server's request has a loop of its own, which ends with it (and so does
        # its watcher); the stream below gets another.
        await watcher.run(close_connection)
    raw = request.headers.get("Last-Event-ID", "")
    stream = partial(
        state_stream,
        round_id,
        last_seen=raw if raw and len(raw) <= 40 else None,
        seconds=float(getattr(settings, "BUZZER_STREAM_SECONDS", 40)),
        # From the request itself: the server answers this view without middleware.
        language=translation.get_language_from_request(request),
    )
    response = StreamingHttpResponse(
        stream() if isinstance(request, ASGIRequest) else in_own_loop(stream),
        content_type="text/event-stream; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


public_buzzer_stream.required_roles = ()  # type: ignore[attr-defined]
