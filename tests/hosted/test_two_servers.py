"""End to end on loopback: the venue (this test process, its pusher thread on the test
database) pushes to a hosted copy (``manage.py up`` in copy mode on its own SQLite file),
and the copy shows the venue's public pages, including after the link went down and came
back. Waits are for events with a generous deadline, never fixed sleeps."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from brackets.models import PublicCopyPush
from brackets.hosted.pusher import PushConfig, Pusher, connect, disconnect
from brackets.models import BuzzerRound, Entrant, Tournament
from brackets.services.buzzer import buzzer_event_append
from brackets.services.entrants import entrant_register
from tests import states

pytestmark = pytest.mark.django_db(transaction=True)

BASE_DIR = Path(__file__).resolve().parents[2]
TOKEN = "loopback-token-0123456789"
PORTS = range(18410, 18499)
DEADLINE = 90.0


def free_port() -> int:
    for port in PORTS:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 18410-18498")


def eventually(check: Callable[[], Any], what: str) -> Any:
    end = time.monotonic() + DEADLINE
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > end:
            raise AssertionError(f"not within {DEADLINE} s: {what}")
        time.sleep(0.1)


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()
    except (urllib.error.URLError, OSError):
        return 0, ""


def copy_env(var_dir: str) -> dict[str, str]:
    env = {**os.environ, "KYUSHU_VAR_DIR": var_dir, "KYUSHU_PUBLIC_COPY_MODE": "1",
           "KYUSHU_PUBLIC_COPY_TOKEN": TOKEN}
    for name in ("DATABASE_URL", "KYUSHU_PUBLIC_COPY_URL", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    return env


_PREPARED: list[Path] = []


def prepared_database() -> Path:
    """A copy's database as ``manage.py up`` leaves it before serving (migrated, catalogs
    loaded), made once per test run: each new copy starts on a copy of it, in seconds
    rather than the half minute the migrations take on the shared CI machine."""
    if not _PREPARED:
        folder = tempfile.mkdtemp(prefix="kyushu-copy-prepared-")
        atexit.register(shutil.rmtree, folder, True)
        subprocess.run([sys.executable, "manage.py", "up", "--no-serve", "--noinput"],
                       cwd=BASE_DIR, env=copy_env(folder), check=True,
                       stdout=subprocess.DEVNULL)
        _PREPARED.append(Path(folder) / "db.sqlite3")
    return _PREPARED[0]


class CopyServer:
    """``manage.py up`` as a read-only public copy; stop and start keep its database."""

    def __init__(self, var_dir: str, port: int) -> None:
        self.var_dir = var_dir
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = copy_env(self.var_dir)
        database = Path(self.var_dir) / "db.sqlite3"
        if not database.exists():
            shutil.copyfile(prepared_database(), database)
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "up", "--addr", "127.0.0.1", "--port", str(self.port),
             "--noinput"], cwd=BASE_DIR, env=env, stdout=subprocess.DEVNULL,
            stderr=open(Path(self.var_dir) / "server.log", "ab"))  # noqa: SIM115
        eventually(lambda: fetch(self.url + "/")[0] == 200, "the copy server answers")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)
            self.process = None

    def get(self, path: str) -> tuple[int, str]:
        return fetch(self.url + path)


@pytest.fixture
def copy_server() -> Iterator[CopyServer]:
    with tempfile.TemporaryDirectory(prefix="kyushu-copy-") as var_dir:
        server = CopyServer(var_dir, free_port())
        server.start()
        try:
            yield server
        finally:
            server.stop()


@pytest.fixture
def venue_pusher(copy_server: CopyServer, transactional_db: Any) -> Iterator[Pusher]:
    pusher = Pusher(PushConfig(url=copy_server.url, token=TOKEN, debounce=0.2, max_wait=1.0,
                               max_backoff=1.0, sweep=0.5, timeout=5.0))
    connect(pusher)
    try:
        yield pusher
    finally:
        pusher.stop()
        disconnect()


def copy_seq(copy: CopyServer, slug: str, round_id: int) -> int | None:
    status, body = copy.get(f"/p/{slug}/buzzer/{round_id}/state.json")
    return json.loads(body)["seq"] if status == 200 else None


def first_streamed_seq(copy: CopyServer, slug: str, round_id: int) -> int:
    """The ``seq`` of the first state the copy's scoreboard stream sends."""
    url = f"{copy.url}/p/{slug}/buzzer/{round_id}/stream/"
    with urllib.request.urlopen(url, timeout=30) as stream:
        for raw in stream:
            line = raw.decode().strip()
            if line.startswith("data: "):
                return int(json.loads(line.removeprefix("data: "))["seq"])
    raise AssertionError("the stream ended without a state")


def test_the_copy_follows_the_venue_and_catches_up_after_the_link_comes_back(
        tournament: Tournament, cast: dict[str, Any], copy_server: CopyServer,
        venue_pusher: Pusher) -> None:
    slug = tournament.slug
    states.entry_open(tournament, cast["desk"])
    round_ = states.buzzer_round_running(tournament, cast["organiser"])
    player = Entrant.objects.filter(tournament=tournament).order_by("pk")[2]
    venue_pusher.start()  # its first sweep finds the tournament as it stands

    _status, page = eventually(
        lambda: (r := copy_server.get(f"/p/{slug}/players/{player.pk}/"))[0] == 200 and r,
        "the first push reaches the copy")
    assert player.name in page
    assert eventually(lambda: copy_seq(copy_server, slug, round_.pk) == 4, "the buzzer round")
    assert copy_server.get(f"/t/{slug}/")[0] == 403
    assert copy_server.get("/accounts/login/")[0] == 403

    buzzer_event_append(round=BuzzerRound.objects.get(pk=round_.pk),
                        data={"kind": "correct", "player": "s3"}, expected_seq=4,
                        by=cast["organiser"])
    assert eventually(lambda: copy_seq(copy_server, slug, round_.pk) == 5, "a tap arrives")
    assert first_streamed_seq(copy_server, slug, round_.pk) == 5

    copy_server.stop()
    late = entrant_register(tournament=tournament, by=cast["desk"],
                            data={"name": "遅刻太郎", "card_name": "チコク", "q_level": 50})
    state = eventually(lambda: PublicCopyPush.objects.filter(tournament=tournament)
                       .exclude(error="").first(), "the pusher records the link down")
    assert "つながりません" in state.error
    assert state.acknowledged < state.sequence

    copy_server.start()
    _status, page = eventually(
        lambda: (r := copy_server.get(f"/p/{slug}/players/{late.pk}/"))[0] == 200 and r,
        "the change made while the link was down reaches the copy")
    assert "遅刻太郎" in page
    assert copy_seq(copy_server, slug, round_.pk) == 5
    state = eventually(lambda: PublicCopyPush.objects.filter(tournament=tournament, error="")
                       .first(), "the status line clears")
    assert state.acknowledged == state.sequence
