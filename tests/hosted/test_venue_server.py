"""End to end with both sides as ``manage.py up`` servers on loopback, each on its own SQLite
file: the venue's pusher is started by the server itself (the middleware), staff work
through the venue's pages, phones read the copy, and the copy is stopped and started again
in the middle. The venue's staff page shows how the pushes go."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.hosted.test_two_servers import (
    BASE_DIR,
    TOKEN,
    CopyServer,
    eventually,
    free_port,
)

DEMO = "demo"


class VenueServer:
    def __init__(self, var_dir: str, port: int, copy_url: str) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.port = port
        self.env = {**os.environ, "KYUSHU_VAR_DIR": var_dir, "KYUSHU_PUBLIC_COPY_URL": copy_url,
                    "KYUSHU_PUBLIC_COPY_TOKEN": TOKEN, "KYUSHU_PUBLIC_COPY_DEBOUNCE": "0.2",
                    "KYUSHU_PUBLIC_COPY_MAX_WAIT": "1", "KYUSHU_PUBLIC_COPY_MAX_BACKOFF": "1",
                    "KYUSHU_PUBLIC_COPY_SWEEP": "0.5"}
        for name in ("DATABASE_URL", "KYUSHU_PUBLIC_COPY_MODE", "DJANGO_SETTINGS_MODULE"):
            self.env.pop(name, None)
        self.log_path = Path(var_dir) / "server.log"
        self.log = open(self.log_path, "ab")  # noqa: SIM115
        self.process: subprocess.Popen[bytes] | None = None

    def manage(self, *args: str) -> str:
        return subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=self.env,
                              check=True, capture_output=True, text=True, timeout=300).stdout

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "up", "--addr", "127.0.0.1", "--port", str(self.port),
             "--noinput"], cwd=BASE_DIR, env=self.env, stdout=self.log, stderr=self.log)
        eventually(lambda: _status(self.url + "/") == 200, "the venue server answers")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)
        self.log.close()


def _status(url: str) -> int:
    try:
        return requests.get(url, timeout=10).status_code
    except requests.RequestException:
        return 0


@pytest.fixture
def servers() -> Iterator[tuple[VenueServer, CopyServer, str]]:
    with tempfile.TemporaryDirectory(prefix="kyushu-copy-") as copy_dir, \
            tempfile.TemporaryDirectory(prefix="kyushu-venue-") as venue_dir:
        copy = CopyServer(copy_dir, free_port())
        copy.start()
        venue = VenueServer(venue_dir, free_port(), copy.url)
        try:
            prepared = venue.manage("up", "--no-serve", "--noinput")
            password = re.search(r"パスワード: (\S+)", prepared).group(1)  # type: ignore[union-attr]
            venue.manage("demo")
            venue.start()
            yield venue, copy, password
        finally:
            venue.stop()
            copy.stop()


def log_in(venue: VenueServer, password: str) -> requests.Session:
    session = requests.Session()
    session.get(venue.url + "/accounts/login/", timeout=10)
    response = session.post(venue.url + "/accounts/login/", timeout=10, data={
        "username": "organiser", "password": password,
        "csrfmiddlewaretoken": session.cookies["csrftoken"]})
    assert response.status_code == 200 and "/accounts/login/" not in response.url
    return session


def walk_in(session: requests.Session, venue: VenueServer, name: str, card: str) -> int:
    """Register a walk-in through the desk's form; returns the new entrant's id."""
    url = f"{venue.url}/t/{DEMO}/desk/new/"
    session.get(url, timeout=10)
    response = session.post(url, timeout=20, data={
        "name": name, "card_name": card, "q_level": "50",
        "csrfmiddlewaretoken": session.cookies["csrftoken"]})
    assert response.status_code == 200 and name in response.text, response.status_code
    ids = re.findall(rf"/t/{DEMO}/desk/entrants/(\d+)/", response.text)
    return max(int(i) for i in ids)


def test_a_venue_server_keeps_its_copy_current_across_a_dropped_link(
        servers: tuple[VenueServer, CopyServer, str]) -> None:
    venue, copy, password = servers
    eventually(lambda: copy.get(f"/p/{DEMO}/")[0] == 200, "the demo tournament reaches the copy")
    session = log_in(venue, password)
    first = walk_in(session, venue, "当日一郎", "トウジツ")
    _status, page = eventually(
        lambda: (r := copy.get(f"/p/{DEMO}/players/{first}/"))[0] == 200 and r,
        "a walk-in registered at the desk reaches the copy")
    assert "当日一郎" in page
    dashboard = eventually(lambda: (t := session.get(f"{venue.url}/t/{DEMO}/", timeout=10).text)
                           and "送信済み" in t and "送信待ち" not in t and t,
                           "the staff page says the copy is current")
    assert copy.url in dashboard

    copy.stop()
    second = walk_in(session, venue, "遅刻次郎", "チコク")
    eventually(lambda: "送信できていません" in session.get(f"{venue.url}/t/{DEMO}/",
                                                       timeout=10).text,
               "the staff page says the link is down")
    copy.start()
    _status, page = eventually(
        lambda: (r := copy.get(f"/p/{DEMO}/players/{second}/"))[0] == 200 and r,
        "the walk-in registered while the link was down reaches the copy")
    assert "遅刻次郎" in page
    assert copy.get(f"/p/{DEMO}/players/{first}/")[0] == 200
    assert copy.get(f"/t/{DEMO}/desk/")[0] == 403
    venue.log.flush()
    assert "Traceback" not in venue.log_path.read_text(errors="replace")
