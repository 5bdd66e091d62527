"""The venue's ASGI application: uvicorn's event loop in front of Django's two handlers.

uvicorn's event loop holds every connection: a phone's kept-alive connection between its
polls and an open scoreboard stream cost a socket, not a thread. Requests then go one of
two ways, by the view their path resolves to:

- an async view (the scoreboard stream, ``brackets/views/buzzer_stream.py``) runs on the
  event loop through Django's ASGI handler without the middleware (:class:`BareASGIHandler`)
  and waits there without a thread;
- every other request runs through Django's WSGI handler on one of ``KYUSHU_THREADS``
  threads that live as long as the process. Each thread keeps its database connection.
  When all are busy, requests wait by lane (:func:`lane_of`), in arrival order within a
  lane: logged-in staff first, then visitors, then login attempts. A flood of login
  attempts (each answered quickly, so a flooder asks again at once) then takes only what
  the tablets and the phones leave, and a refused login is answered a second later
  (:data:`REFUSED_LOGIN_SECONDS`), waited out on the event loop. Django's ASGI handler would run a sync view
  too, but in a new thread per request with a new connection and a thread hop per
  middleware: measured on the public round page over loopback, 4.3 ms of server CPU a
  page that way against 1.9 ms this way (waitress alone: 1.3-1.7 ms).

:class:`ThreadedWSGI` hands a request to a thread once and takes an ordinary (not
streaming) response back once, whole: a2wsgi's bridge waited on the event loop for the
response's start, each body chunk and its end, four thread hops a page, which was a
third of a cached public page's CPU (bench/venue.py's phones are almost all such pages).
A streaming response (a file download, a static file) still goes out chunk by chunk.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.exception import convert_exception_to_response

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kyushu.settings")

STAFF, VISITOR, LOGIN = 0, 1, 2


def lane_of(scope: dict[str, Any]) -> int:
    """A request's lane, from what it carries: a session cookie is staff (visitors never
    log in), the login page without one is someone logging in. A forged cookie only moves
    a request up the queue; what it may see is still decided by the session behind it."""
    for name, value in scope.get("headers", ()):
        if name == b"cookie" and b"sessionid=" in value:
            return STAFF
    return LOGIN if scope["path"].startswith("/accounts/login") else VISITOR


# A refused login (wrong password, busy, locked out) is answered after this long. The wait
# is on the event loop, so it holds no thread: someone who mistyped hardly notices, and a
# script trying passwords back to back on one connection tries one a second.
REFUSED_LOGIN_SECONDS = 1.0


def refused(sent: list[dict[str, Any]]) -> bool:
    """A login's answer other than the redirect of a login that succeeded."""
    return bool(sent) and sent[0].get("type") == "http.response.start" and not (
        300 <= int(sent[0].get("status", 200)) < 400)


class LanedThreads:
    """A fixed set of threads taking work lane by lane, first come first served within a
    lane. Work whose caller has gone (a phone that closed the page) is dropped unrun."""

    def __init__(self, workers: int) -> None:
        self.waiting: queue.PriorityQueue[tuple[int, int, Future[Any], Callable[[], Any]]] = (
            queue.PriorityQueue())
        self.arrivals = itertools.count()
        for number in range(workers):
            threading.Thread(target=self._work, name=f"django-{number}", daemon=True).start()

    def submit(self, lane: int, work: Callable[[], Any]) -> Future[Any]:
        future: Future[Any] = Future()
        self.waiting.put((lane, next(self.arrivals), future, work))
        return future

    def _work(self) -> None:
        while True:
            _lane, _arrival, future, work = self.waiting.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(work())
            except BaseException as error:  # noqa: BLE001 - handed to the waiting request
                future.set_exception(error)


class ThreadedWSGI:
    """A WSGI application (Django's handler) as an ASGI one, on a fixed set of threads."""

    def __init__(self, app: Any, workers: int) -> None:
        self.app = app
        self.threads = LanedThreads(workers)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        from a2wsgi.wsgi import Body, build_environ

        loop = asyncio.get_running_loop()
        environ = build_environ(scope, Body(loop, receive))  # the body is read on demand
        # Run in the thread's own context, not a copy of the event loop's: Django keeps
        # each thread's cache clients in context-local storage, and a fresh context per
        # request would open a new Redis connection for every request.
        work = partial(self.respond, environ, loop, send)
        lane = lane_of(scope)
        sent = await asyncio.wrap_future(self.threads.submit(lane, work))
        if lane == LOGIN and scope["method"] == "POST" and refused(sent):
            await asyncio.sleep(REFUSED_LOGIN_SECONDS)
        for message in sent:
            await send(message)

    def respond(self, environ: dict[str, Any], loop: Any, send: Any) -> list[dict[str, Any]]:
        """In a thread: the response's messages when it is ordinary (sent by the caller on
        the event loop), or ``[]`` once a streaming one has been sent chunk by chunk."""
        started: list[dict[str, Any]] = []

        def start_response(status: str, headers: list[tuple[str, str]],
                           exc_info: Any = None) -> Any:
            started[:] = [{"type": "http.response.start", "status": int(status.split(" ", 1)[0]),
                           "headers": [(name.lower().encode("latin1"), value.encode("latin1"))
                                       for name, value in headers]}]
            return None  # Django never calls write()

        response = self.app(environ, start_response)
        try:
            if not getattr(response, "streaming", True):
                return [*started, {"type": "http.response.body", "body": b"".join(response)}]

            def sent(message: dict[str, Any]) -> None:
                asyncio.run_coroutine_threadsafe(send(message), loop).result()

            sent(started[0])
            for chunk in response:
                if chunk:
                    sent({"type": "http.response.body", "body": chunk, "more_body": True})
            sent({"type": "http.response.body", "body": b""})
            return []
        finally:
            # Django's request_finished: the thread's database connection is checked.
            getattr(response, "close", lambda: None)()


class BareASGIHandler(ASGIHandler):
    """Django's ASGI handler with no middleware, for the async views: the public
    scoreboard stream needs neither a session nor a user, reads its language from the
    request itself and is never compressed or cached. Through the middleware chain each
    opening stream took a thread of its own and about twenty hops onto it, so a room of
    screens reconnecting at once (a restart, a Wi-Fi drop) waited seconds for its first
    state."""

    def load_middleware(self, is_async: bool = False) -> None:
        # What BaseHandler.load_middleware builds from an empty MIDDLEWARE.
        self._view_middleware: list[Any] = []
        self._template_response_middleware: list[Any] = []
        self._exception_middleware: list[Any] = []
        self._middleware_chain = convert_exception_to_response(
            self._get_response_async if is_async else self._get_response)


def build_application() -> Any:
    """The venue's ASGI application (Django set up once, both handlers beside each other)."""
    from django.conf import settings
    from django.core.asgi import get_asgi_application
    from django.core.wsgi import get_wsgi_application
    from django.urls import Resolver404, resolve

    get_asgi_application()  # django.setup(), as the ASGI entry point does
    on_loop = BareASGIHandler()
    in_threads = ThreadedWSGI(get_wsgi_application(), workers=settings.SERVER_THREADS)
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
