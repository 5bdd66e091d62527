"""The venue's ASGI application: uvicorn's event loop in front of Django's two handlers.

uvicorn's event loop holds every connection: a phone's kept-alive connection between its
polls and an open scoreboard stream cost a socket, not a thread. Requests then go one of
two ways, by the view their path resolves to:

- an async view (the scoreboard stream, ``brackets/views/buzzer_stream.py``) runs on the
  event loop through Django's ASGI handler and waits there without a thread;
- every other request runs through Django's WSGI handler on one of ``KYUSHU_THREADS``
  threads that live as long as the process, queued in arrival order when all are busy.
  Each thread keeps its database connection. Django's ASGI handler would run a sync view
  too, but in a new thread per request with a new connection and a thread hop per
  middleware: measured on the public round page over loopback, 4.3 ms of server CPU a
  page that way against 1.9 ms this way (waitress alone: 1.3-1.7 ms).
"""

from __future__ import annotations

import os
from typing import Any

from asgiref.sync import iscoroutinefunction

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kyushu.settings")


def build_application() -> Any:
    """The venue's ASGI application (Django set up once, both handlers beside each other)."""
    from a2wsgi import WSGIMiddleware
    from django.conf import settings
    from django.core.asgi import get_asgi_application
    from django.core.wsgi import get_wsgi_application
    from django.urls import Resolver404, resolve

    on_loop = get_asgi_application()
    in_threads = WSGIMiddleware(get_wsgi_application(), workers=settings.SERVER_THREADS)
    async_paths: dict[str, bool] = {}

    def is_async(path: str) -> bool:
        known = async_paths.get(path)
        if known is None:
            try:
                known = iscoroutinefunction(resolve(path).func)
            except Resolver404:
                known = False
            if len(async_paths) < 10_000:
                async_paths[path] = known
        return known

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and is_async(scope["path"]):
            await on_loop(scope, receive, send)
        elif scope["type"] == "lifespan":
            return
        else:
            await in_threads(scope, receive, send)

    return application
