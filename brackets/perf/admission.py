"""Requests take turns, first come first served, a few at a time.

One server process (waitress, which also runs on the venue's Windows laptop) runs every
request in Python, where only one thread computes at a time. With 16 tablets saving at
once, 16 threads would share that one interpreter by time slices handed out in no
particular order: each save then took 16 slices' worth of wall time, and some tablets
waited twice as long as others (loopback bench: p95 twice the median). Here requests run
one at a time in arrival order, so a save waits for the ones that came before it and no
longer; the work done per second is the same. A slow request (a PDF) does not hold the
others up: once it has run for ``REQUEST_PATIENCE_SECONDS`` the next one starts beside
it, up to ``REQUEST_LANES`` at once.

A streamed body (the buzzer scoreboard's live updates, open for up to ~40 s) is sent
after the view returns, outside its lane, so open screens never hold one. A request
waiting for a database lock holds its lane, but whoever holds that lock is inside its own
view, so it is running too and finishes; and a waiter that has run past the patience
lets the next request start anyway.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class FairLanes:
    """Requests run one at a time, in arrival order; when every running request has run
    for ``patience`` seconds (a slow page: a PDF, a round rebuilt after a write), the
    first in line starts beside them, up to ``lanes`` at once. A fast request is never
    held up behind a slow one for longer than ``patience``."""

    def __init__(self, lanes: int, patience: float) -> None:
        if lanes < 1:
            raise ValueError("lanes must be at least 1")
        self.lanes = lanes
        self.patience = patience
        self._lock = threading.Lock()
        self._running: dict[object, float] = {}  # ticket -> when it started
        self._waiting: deque[tuple[object, threading.Lock]] = deque()

    def acquire(self) -> object:
        """Wait for a turn; the ticket returned is given back to :meth:`release`."""
        ticket = object()
        with self._lock:
            if not self._running and not self._waiting:
                self._running[ticket] = time.monotonic()
                return ticket
            turn = threading.Lock()
            turn.acquire()
            self._waiting.append((ticket, turn))
        while not turn.acquire(timeout=self.patience):
            with self._lock:
                if self._waiting and self._waiting[0][0] is ticket and self._all_slow():
                    self._waiting.popleft()
                    self._running[ticket] = time.monotonic()
                    return ticket
        return ticket  # handed over by release(), which entered it as running

    def release(self, ticket: object) -> None:
        with self._lock:
            self._running.pop(ticket, None)
            if self._waiting and (not self._running or self._all_slow()):
                following, turn = self._waiting.popleft()
                self._running[following] = time.monotonic()
                turn.release()

    def _all_slow(self) -> bool:
        if len(self._running) >= self.lanes:
            return False
        now = time.monotonic()
        return all(now - started >= self.patience for started in self._running.values())


class AdmissionMiddleware:
    """Outermost middleware: the whole of Django's work on a request runs in a slot."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.lanes = FairLanes(settings.REQUEST_LANES, settings.REQUEST_PATIENCE_SECONDS)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        ticket = self.lanes.acquire()
        try:
            return self.get_response(request)
        finally:
            self.lanes.release(ticket)
