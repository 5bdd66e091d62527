"""The venue's side: number the public state after each change and send it to the copy.

One :class:`Pusher` thread per server process (started by the middleware when
``KYUSHU_PUBLIC_COPY_URL`` is set) hears of committed changes two ways: a post_save /
post_delete hook on every model the tournament file holds (on commit, so a rolled-back
write sends nothing), and a sweep every few seconds of the tournaments' revisions, which
catches writes that send no signal (``bulk_create``, ``update()``), writes of other server
processes and anything left unsent when the server last stopped. It sends per
:class:`~brackets.hosted.schedule.PushSchedule`; a staff request never waits for it.
"""

from __future__ import annotations

import logging
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import OperationalError, close_old_connections, connections, transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone
from django.utils.translation import gettext

from brackets.exporters.tournament_file import file_models
from brackets.models import PublicCopyPush
from brackets.hosted.payload import encode, tournament_snapshot
from brackets.hosted.schedule import PushSchedule
from brackets.models import Tournament

log = logging.getLogger(__name__)
ENDPOINT = "public-copy/push/"


@dataclass(frozen=True)
class PushConfig:
    """Where to push and how often (settings ``PUBLIC_COPY_*``, docs/public-copy.md)."""

    url: str
    token: str
    debounce: float = 0.5
    max_wait: float = 2.0
    max_backoff: float = 60.0
    sweep: float = 5.0
    timeout: float = 10.0

    @property
    def endpoint(self) -> str:
        return self.url.rstrip("/") + "/" + ENDPOINT

    @classmethod
    def from_settings(cls) -> PushConfig | None:
        url = getattr(settings, "PUBLIC_COPY_URL", "")
        if not url or getattr(settings, "PUBLIC_COPY_MODE", False):
            return None
        return cls(url=url, token=settings.PUBLIC_COPY_TOKEN,
                   debounce=settings.PUBLIC_COPY_DEBOUNCE_SECONDS,
                   max_wait=settings.PUBLIC_COPY_MAX_WAIT_SECONDS,
                   max_backoff=settings.PUBLIC_COPY_MAX_BACKOFF_SECONDS,
                   sweep=settings.PUBLIC_COPY_SWEEP_SECONDS)


@dataclass(frozen=True)
class Prepared:
    tournament_id: int
    sequence: int
    body: bytes


class PushFailed(Exception):
    """The copy did not take the push; the message (Japanese) is shown to the organiser."""


@contextmanager
def _snapshot() -> Iterator[bool]:
    """One consistent read of the whole tournament, without holding a write lock.

    Yields whether the state row may be locked inside (PostgreSQL: one REPEATABLE READ
    transaction). SQLite's transactions here begin IMMEDIATE, taking the write lock every
    tablet save waits for, so the export reads in a plain deferred transaction instead and
    the number is taken afterwards."""
    connection = connections["default"]
    if connection.in_atomic_block:  # a test's transaction: already one snapshot
        with transaction.atomic():
            yield True
        return
    if connection.vendor == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            yield True
        return
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("BEGIN DEFERRED")
        try:
            yield False
        finally:
            cursor.execute("COMMIT")


def _number(tournament: Tournament, checksum: str, *, lock: bool) -> PublicCopyPush:
    state, _created = PublicCopyPush.objects.get_or_create(tournament=tournament)
    if lock:
        state = PublicCopyPush.objects.select_for_update().get(pk=state.pk)
    if checksum != state.checksum:
        state.sequence += 1
        state.checksum = checksum
        state.save(update_fields=["sequence", "checksum"])
    return state


def push_prepare(*, tournament_id: int, force: bool = False) -> Prepared | None:
    """The tournament's public state under its number, or None when the copy already has
    it (or the tournament is gone); ``force`` sends it anyway. Equal content keeps its
    number, so a retry or a restart resends the same push, which the copy then ignores."""
    for attempt in range(3):
        try:
            with _snapshot() as locked_inside:
                tournament = Tournament.objects.select_related("version").filter(
                    pk=tournament_id).first()
                if tournament is None:
                    return None
                data, ids = tournament_snapshot(tournament)
                if locked_inside:
                    state = _number(tournament, data["checksum"], lock=True)
            if not locked_inside:
                with transaction.atomic():
                    state = _number(tournament, data["checksum"], lock=False)
            break
        except OperationalError:  # another process numbered it meanwhile (serialisation)
            if attempt == 2:
                raise
    if state.acknowledged >= state.sequence and not force:
        return None
    return Prepared(tournament_id, state.sequence,
                    encode(source=str(state.source), sequence=state.sequence, data=data, ids=ids))


def push_send(prepared: Prepared, config: PushConfig) -> None:
    """POST the body to the copy; raises :class:`PushFailed` unless the copy took it."""
    request = urllib.request.Request(config.endpoint, data=prepared.body, method="POST", headers={
        "Authorization": f"Bearer {config.token}", "Content-Type": "application/json",
        "Content-Encoding": "gzip"})
    try:
        with urllib.request.urlopen(request, timeout=config.timeout) as response:
            response.read()
    except urllib.error.HTTPError as exc:
        detail = exc.read(500).decode("utf-8", "replace").strip()
        if exc.code == 403:
            raise PushFailed(gettext("公開コピーがトークンを受け付けません（HTTP 403）。")) from None
        raise PushFailed(gettext("公開コピーが受け付けません（HTTP {code}）：{detail}").format(
            code=exc.code, detail=detail)) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise PushFailed(gettext("公開コピーにつながりません：{reason}").format(reason=reason)) from None


def push_record(*, tournament_id: int, sequence: int | None, error: str = "") -> None:
    """Write how the last try went where the organiser sees it (the staff page)."""
    now = timezone.now()
    with transaction.atomic():
        state = PublicCopyPush.objects.select_for_update().filter(
            tournament_id=tournament_id).first()
        if state is None:
            return
        state.attempted_at = now
        state.error = error
        if not error:
            state.succeeded_at = now
            if sequence is not None:
                state.acknowledged = max(state.acknowledged, sequence)
        state.save(update_fields=["attempted_at", "error", "succeeded_at", "acknowledged"])


class Pusher:
    """Hears of changes, keeps the schedule, and pushes what falls due."""

    def __init__(self, config: PushConfig, *, clock: Callable[[], float] = time.monotonic,
                 send: Callable[[Prepared, PushConfig], None] = push_send) -> None:
        self.config = config
        self.clock = clock
        self.send = send
        self.schedule = PushSchedule(debounce=config.debounce, max_wait=config.max_wait,
                                     max_backoff=config.max_backoff)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._revisions: dict[int, int] = {}
        self._unconfirmed: set[int] = set()
        self._next_sweep = 0.0

    def changed(self, tournament_id: int) -> None:
        with self._lock:
            self.schedule.changed(tournament_id, self.clock())
        self._wake.set()

    def sweep(self) -> None:
        """Schedule every tournament whose revision moved since the last sweep. The first
        sweep schedules all of them and sends each once even if the copy acknowledged it
        before: the copy may have been rebuilt meanwhile, and it ignores what it has."""
        first = not self._revisions
        for tournament_id, revision in Tournament.objects.values_list("pk", "revision"):
            if first:
                self._unconfirmed.add(tournament_id)
            if self._revisions.get(tournament_id) != revision:
                self._revisions[tournament_id] = revision
                self.changed(tournament_id)

    def flush(self, tournament_id: int) -> str:
        """Push one tournament now: ``sent``, ``current`` (nothing new) or ``failed``."""
        started = self.clock()
        sequence = None
        try:
            prepared = push_prepare(tournament_id=tournament_id,
                                    force=tournament_id in self._unconfirmed)
            cost = self.clock() - started  # the CPU part; waiting on the link is not
            if prepared is not None:
                sequence = prepared.sequence
                self.send(prepared, self.config)
                push_record(tournament_id=tournament_id, sequence=sequence)
            self._unconfirmed.discard(tournament_id)
        except Exception as exc:  # every failure is retried and shown
            message = str(exc) if isinstance(exc, PushFailed) else gettext(
                "送信の準備に失敗しました：{error}").format(error=exc)
            if not isinstance(exc, PushFailed):
                log.exception("public copy push of tournament %s", tournament_id)
            try:
                push_record(tournament_id=tournament_id, sequence=None, error=message)
            except Exception:  # the database itself is down
                log.exception("recording the public copy push failed")
            with self._lock:
                self.schedule.failed(tournament_id, self.clock())
            return "failed"
        with self._lock:
            self.schedule.pushed(tournament_id, started, cost=cost)
        return "current" if prepared is None else "sent"

    def flush_due(self) -> dict[int, str]:
        """Push every tournament that is due now."""
        with self._lock:
            due = self.schedule.due(self.clock())
        return {tournament_id: self.flush(tournament_id) for tournament_id in due}

    def run_once(self) -> float:
        """One turn of the thread: sweep when its time has come, push what is due;
        returns how long to sleep before the next turn."""
        now = self.clock()
        if now >= self._next_sweep:
            self.sweep()
            self._next_sweep = now + self.config.sweep
        self.flush_due()
        with self._lock:
            next_due = self.schedule.next_due()
        wake = self._next_sweep if next_due is None else min(next_due, self._next_sweep)
        return max(0.0, wake - self.clock())

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                delay = self.run_once()
            except Exception:  # the thread must outlive a bad moment
                log.exception("public copy pusher")
                delay = self.config.sweep
            finally:
                close_old_connections()
            self._wake.wait(delay)
            self._wake.clear()
        connections.close_all()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="public-copy-pusher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=30)


def _tournament_of(instance: Any, path: str) -> int | None:
    *hops, last = path.split("__")
    obj = instance
    for hop in hops:
        obj = getattr(obj, hop)
    return getattr(obj, f"{last}_id", None)


def connect(pusher: Pusher) -> None:
    """Tell ``pusher`` of every committed save or delete of a tournament's records."""
    paths: dict[type, str] = {Tournament: ""}
    paths.update({spec.model: spec.path for spec in file_models()})

    def heard(sender: type, instance: Any, using: str, **kwargs: Any) -> None:
        if kwargs.get("raw"):
            return
        try:
            path = paths[sender]
            tournament_id = instance.pk if not path else _tournament_of(instance, path)
        except Exception:  # noqa: BLE001 - a parent deleted in the same cascade
            return
        if tournament_id is not None:
            transaction.on_commit(lambda: pusher.changed(tournament_id), using=using)

    for model in paths:
        post_save.connect(heard, sender=model, weak=False,
                          dispatch_uid=f"public-copy-save-{model.__name__}")
        post_delete.connect(heard, sender=model, weak=False,
                            dispatch_uid=f"public-copy-delete-{model.__name__}")


def disconnect() -> None:
    for model in [Tournament, *(spec.model for spec in file_models())]:
        post_save.disconnect(dispatch_uid=f"public-copy-save-{model.__name__}", sender=model)
        post_delete.disconnect(dispatch_uid=f"public-copy-delete-{model.__name__}", sender=model)


_started: Pusher | None = None
_start_lock = threading.Lock()


def pusher_start() -> Pusher | None:
    """Start this process's pusher once, if the settings name a copy."""
    global _started
    with _start_lock:
        if _started is None:
            config = PushConfig.from_settings()
            if config is None:
                return None
            _started = Pusher(config)
            connect(_started)
            _started.start()
        return _started
