"""The live scoreboard streams of one server process, fed by one change-watcher.

An open scoreboard or operator console holds a server-sent-events stream for
``BUZZER_STREAM_SECONDS`` (up to half as long again). Under the ASGI server such a stream
is a coroutine waiting on an :class:`asyncio.Event`: it holds no thread and no database
connection. One :class:`ChangeWatcher` per process (per event loop) reads the display
version of every watched round (its newest tap, settings edit and question-file record:
:func:`~brackets.selectors.buzzer.display_versions`) in one query each
``BUZZER_POLL_SECONDS`` (at once after a tap, an edit or a question file committed through
this process), and when one moves it builds that round's state once per language and wakes
every stream of the round. A change saved through another server process reaches the
streams the same way, since the watcher reads the database, not this process's memory.

The watcher's database work runs in one thread of its own (one connection for all the
process's streams); it closes that connection whenever the last stream ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import translation
from django.utils.translation import gettext

from brackets.models import BuzzerEvent, BuzzerQuestionFile, BuzzerRound, BuzzerSettingsChange
from brackets.selectors.buzzer import display_versions, safe_payload

logger = logging.getLogger(__name__)

KEEPALIVE_SECONDS = 5
# Streams opened together (a room of phones after a restart or a Wi-Fi drop) end at
# different times, so their browsers reconnect spread out instead of all at once again.
STREAM_SPREAD = 1.5
T = TypeVar("T")


def sse_message(payload: dict[str, Any]) -> str:
    """One server-sent event carrying a state (``id`` is the round's display version: the
    log's sequence number while the round has no settings edit or question file)."""
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    version = payload.get("version", payload.get("seq", 0))
    return f"id: {version}\nevent: state\ndata: {body}\n\n"


@dataclass
class Watch:
    """What the watcher knows of one round: its display version and who waits on a change."""

    version: str | None = None
    streams: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    # The first read of the version, shared by every stream that opens before it is back.
    first_read: asyncio.Future[dict[int, str]] | None = None
    ended: bool = False

    def end(self) -> None:
        """Every stream of the round ends at its next step (see :func:`end_every_stream`)."""
        self.ended = True
        self.changed.set()

    def move_to(self, version: str) -> None:
        """A new display version: wake every stream waiting on the current event."""
        if version == self.version:
            return
        self.version = version
        woken, self.changed = self.changed, asyncio.Event()
        woken.set()


@dataclass
class BuiltState:
    """A round's payload as built for one language, and when (to advance its clock)."""

    asked: str
    payload: dict[str, Any]
    built_at: float
    _message: str = ""

    @property
    def version(self) -> str:
        """The version the payload stands for (newer than asked if the round moved on
        while it was built)."""
        return str(self.payload.get("version", self.asked))

    def message(self) -> str:
        """The event every stream sends: encoded once for all of them, unless a running
        clock makes each reading differ."""
        fresh = self.fresh_copy()
        if fresh is not self.payload:
            return sse_message(fresh)
        if not self._message:
            self._message = sse_message(self.payload)
        return self._message

    def fresh_copy(self) -> dict[str, Any]:
        """The payload with a running clock read now rather than when it was built."""
        clock = self.payload.get("clock")
        if not (isinstance(clock, dict) and clock.get("running")):
            return self.payload
        reading = clock.get("reading_ms")
        if reading is None:
            return self.payload
        since = int((time.monotonic() - self.built_at) * 1000)
        return {**self.payload, "clock": {**clock, "reading_ms": reading + since}}


def build_state(round_id: int, language: str) -> dict[str, Any]:
    """The public scoreboard state of a round in ``language`` (the watcher's thread)."""
    round_ = BuzzerRound.objects.filter(pk=round_id).first()
    with translation.override(language):
        if round_ is None:
            return {"error": gettext("このラウンドは削除されました。"), "seq": 0,
                    "round": {"id": round_id}}
        return safe_payload(round_)


def close_connection() -> None:
    """Close the calling thread's connection (``connection`` resolves in the caller's
    thread, so this runs in the thread that owns it)."""
    connection.close()


class ChangeWatcher:
    """Polls the watched rounds' display versions and wakes their streams."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.watches: dict[int, Watch] = {}
        self.built: dict[tuple[int, str], BuiltState] = {}
        self.building: dict[tuple[int, str, int], asyncio.Task[BuiltState]] = {}
        self.polls = 0
        self.poked = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="buzzer-watch")

    async def run(self, func: Callable[..., T], *args: Any) -> T:
        """Run ``func`` in the watcher's database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, partial(func, *args))

    async def watch(self, round_id: int) -> Watch:
        """Start watching a round for one more stream; its first version is read at once."""
        watch = self.watches.get(round_id)
        if watch is None:
            watch = self.watches[round_id] = Watch()
        watch.streams += 1
        if watch.version is None:
            if watch.first_read is None:
                watch.first_read = asyncio.ensure_future(self.run(display_versions, [round_id]))
            versions = await asyncio.shield(watch.first_read)
            if watch.version is None:
                watch.move_to(versions.get(round_id, "0"))
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._poll())
        return watch

    def unwatch(self, round_id: int) -> None:
        watch = self.watches.get(round_id)
        if watch is None:
            return
        watch.streams -= 1
        if watch.streams <= 0:
            del self.watches[round_id]
            for key in [k for k in self.built if k[0] == round_id]:
                del self.built[key]
        if not self.watches:
            if self._task is not None:
                self._task.cancel()
                self._task = None
            # Queued behind any query in flight, in the thread that owns the connection.
            self._executor.submit(close_connection)

    def end_streams(self) -> None:
        for watch in self.watches.values():
            watch.end()

    def close_connection_now(self, timeout: float) -> None:
        """Close the watcher thread's connection, waiting for any query in flight."""
        self._executor.submit(close_connection).result(timeout)

    async def _poll(self) -> None:
        """One query per interval for every watched round, while any stream is open."""
        while self.watches:
            with contextlib.suppress(TimeoutError):  # no tap here: read at the interval
                await asyncio.wait_for(self.poked.wait(), timeout=self.interval)
            self.poked.clear()
            ids = sorted(self.watches)
            if not ids:
                break
            try:
                versions = await self.run(display_versions, ids)
            except Exception:  # a lost database connection: reconnect on the next round
                logger.exception("buzzer watcher: reading the rounds' versions failed")
                await self.run(close_old_connections)
                continue
            self.polls += 1
            for round_id in ids:
                watch = self.watches.get(round_id)
                if watch is not None:
                    watch.move_to(versions.get(round_id, "0"))

    async def state(self, round_id: int, version: str, language: str) -> BuiltState:
        """The round's state at ``version`` in ``language``, built once for every stream."""
        built = self.built.get((round_id, language))
        if built is not None and version in (built.asked, built.version):
            return built
        key = (round_id, language, version)
        task = self.building.get(key)
        if task is None:
            # A task of its own, so a stream that goes away mid-build cancels only its wait.
            task = asyncio.get_running_loop().create_task(
                self._build(round_id, version, language))
            self.building[key] = task
            task.add_done_callback(lambda _done: self.building.pop(key, None))
        return await asyncio.shield(task)

    async def _build(self, round_id: int, version: str, language: str) -> BuiltState:
        payload = await self.run(build_state, round_id, language)
        built = BuiltState(version, payload, time.monotonic())
        if round_id in self.watches:
            self.built[(round_id, language)] = built
        return built


_WATCHERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, ChangeWatcher] = (
    weakref.WeakKeyDictionary()
)


def _poke_watchers() -> None:
    """A tap, a settings edit or a question file committed in this process: every watcher
    of the process reads at once instead of at its next interval (changes made by other
    processes still arrive by the interval)."""
    for loop, watcher in list(_WATCHERS.items()):
        # A stream's own loop (in_own_loop) may have closed meanwhile.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(watcher.poked.set)


@receiver(post_save, sender=BuzzerEvent, dispatch_uid="buzzer-stream-poke")
@receiver(post_save, sender=BuzzerSettingsChange, dispatch_uid="buzzer-stream-poke-settings")
@receiver(post_save, sender=BuzzerQuestionFile, dispatch_uid="buzzer-stream-poke-questions")
def _event_saved(sender: type, instance: Any, using: str, **kwargs: Any) -> None:
    transaction.on_commit(_poke_watchers, using=using)


def change_watcher() -> ChangeWatcher:
    """This event loop's watcher (the server has one loop per process)."""
    loop = asyncio.get_running_loop()
    watcher = _WATCHERS.get(loop)
    if watcher is None:
        interval = float(getattr(settings, "BUZZER_POLL_SECONDS", 0.15))
        watcher = _WATCHERS[loop] = ChangeWatcher(interval)
    return watcher


def end_every_stream(timeout: float = 5.0) -> None:
    """End every stream this process is running and wait until no watcher holds a database
    connection. Called from outside the streams' threads by whatever must have the database
    to itself next (the tests, before they empty it).

    A stream on a loop that is not running (a WSGI response nobody reads any more) makes no
    query until it is read again; only the running ones are waited for.
    """
    watchers = list(_WATCHERS.items())
    for loop, watcher in watchers:
        with contextlib.suppress(RuntimeError):  # closed meanwhile
            loop.call_soon_threadsafe(watcher.end_streams)
    give_up = time.monotonic() + timeout
    for loop, watcher in watchers:
        while watcher.watches and loop.is_running() and time.monotonic() < give_up:
            time.sleep(0.01)
        watcher.close_connection_now(max(give_up - time.monotonic(), 0.1))


def stream_life(seconds: float) -> float:
    """How long one stream stays open: ``seconds`` to ``STREAM_SPREAD`` × ``seconds``."""
    return seconds * random.uniform(1.0, STREAM_SPREAD)


async def state_stream(
    round_id: int, *, last_seen: str | None, seconds: float, language: str
) -> AsyncIterator[str]:
    """The round's state whenever its display version moves, for ``seconds`` to
    ``STREAM_SPREAD`` × ``seconds``.

    A comment line every ``KEEPALIVE_SECONDS`` keeps proxies from closing the connection;
    the server cancels the stream as soon as the browser goes away. When the stream ends
    the browser's EventSource reconnects with ``Last-Event-ID``.
    """
    watcher = change_watcher()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + stream_life(seconds)
    yield "retry: 500\n\n"
    watch = await watcher.watch(round_id)
    try:
        seen = last_seen
        asked: str | None = None
        last_write = loop.time()
        while not watch.ended:
            version = watch.version
            if version is not None and version != seen and version != asked:
                asked = version
                built = await watcher.state(round_id, version, language)
                seen = built.version
                yield built.message()
                last_write = loop.time()
                continue  # the round may have moved on while its state was built
            now = loop.time()
            if now >= deadline:
                return
            if now - last_write >= KEEPALIVE_SECONDS:
                yield ": ping\n\n"
                last_write = now
            wait = min(deadline - now, KEEPALIVE_SECONDS - (now - last_write))
            try:
                await asyncio.wait_for(watch.changed.wait(), timeout=max(wait, 0.01))
            except TimeoutError:
                pass
    finally:
        watcher.unwatch(round_id)


def in_own_loop(stream: Callable[[], AsyncIterator[str]]) -> Iterator[str]:
    """An async stream as a plain iterator, for WSGI servers (which would otherwise read
    the whole stream before sending any of it). The stream runs on an event loop of its
    own, so it has a watcher of its own too."""
    loop = asyncio.new_event_loop()
    parts = stream()
    try:
        while True:
            try:
                yield loop.run_until_complete(anext(parts))
            except StopAsyncIteration:
                return
    finally:
        loop.run_until_complete(parts.aclose())  # type: ignore[attr-defined]
        loop.close()
