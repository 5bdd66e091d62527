"""Real server processes for the multi-process tests, and a browser to talk to them.

Each server is ``manage.py up --addr 127.0.0.1 --port P --noinput`` in a subprocess, as an
organiser would start it, on the database and cache the test gives it. Its output goes to
a file (a pipe nobody reads would fill up and stall the server).
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import Message
from http.cookiejar import Cookie, CookieJar
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
#: Generous: a server's first answer waits for migrate, the catalog and Django's start-up,
#: on a machine other jobs share.
START_SECONDS = 120.0


def free_port() -> int:
    """A free port: from ``KYUSHU_TEST_PORTS`` (``first-last``) when set (a machine shared
    with other jobs gives each its range), else whichever the system picks."""
    wanted = os.environ.get("KYUSHU_TEST_PORTS", "")
    candidates = [0]
    if wanted:
        first, last = (int(part) for part in wanted.split("-"))
        candidates = list(range(first, last + 1))
    for port in candidates:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise AssertionError(f"no free port in {wanted}")


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)


def start_server(env: dict[str, str], log_dir: Path, name: str) -> Server:
    """``manage.py up`` on a free port; returns once it answers."""
    port = free_port()
    log = log_dir / f"server-{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "up", "--addr", "127.0.0.1", "--port", str(port),
             "--noinput"],
            cwd=ROOT, env={**env, "PYTHONUNBUFFERED": "1"}, stdout=out,
            stderr=subprocess.STDOUT)
    server = Server(port, process, log)
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"server {name} exited early:\n{server.output()}")
        try:
            with urllib.request.urlopen(f"{server.url}/accounts/login/", timeout=5):
                return server
        except OSError:
            time.sleep(0.2)
    server.stop()
    raise AssertionError(f"server {name} did not answer:\n{server.output()}")


def database_url(settings_dict: dict[str, Any]) -> str:
    """A DATABASE_URL naming the PostgreSQL database the test process is connected to."""
    user = urllib.parse.quote(settings_dict.get("USER") or "")
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{urllib.parse.quote(password)}@" if password else f"{user}@"
    host = settings_dict.get("HOST") or "localhost"
    port = settings_dict.get("PORT") or "5432"
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@dataclass
class Response:
    status: int
    body: str
    headers: Message  # header names are case-insensitive, as HTTP says


@dataclass
class Browser:
    """A browser's cookies, shared by every server on 127.0.0.1 (as behind one address):
    cookies are per host, not per port. Redirects are reported, not followed."""

    jar: CookieJar = field(default_factory=CookieJar)

    def __post_init__(self) -> None:
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect)

    def request(self, url: str, data: dict[str, str] | None = None,
                headers: dict[str, str] | None = None) -> Response:
        body = None if data is None else urllib.parse.urlencode(data).encode()
        req = urllib.request.Request(url, data=body, headers=headers or {})
        try:
            with self.opener.open(req, timeout=60) as response:
                return Response(response.status, response.read().decode(),
                                response.headers)
        except urllib.error.HTTPError as error:
            return Response(error.code, error.read().decode(errors="replace"),
                            error.headers)

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def set_cookie(self, name: str, value: str) -> None:
        self.jar.set_cookie(Cookie(
            0, name, value, None, False, "127.0.0.1", False, False, "/", True, False, None,
            False, None, None, {}))

    def post(self, url: str, data: dict[str, str], *, headers: dict[str, str] | None = None,
             ) -> Response:
        """A form post with this browser's CSRF token (from its cookie, as a form has it)."""
        token = self.cookie("csrftoken")
        assert token is not None, "no CSRF cookie: open a page with a form first"
        return self.request(url, {**data, "csrfmiddlewaretoken": token}, headers)

    def log_in(self, server: Server, username: str, password: str) -> None:
        self.request(f"{server.url}/accounts/login/")
        response = self.post(f"{server.url}/accounts/login/",
                             {"username": username, "password": password})
        assert response.status == 302, f"login refused ({response.status})"

    def log_out(self, server: Server) -> None:
        response = self.post(f"{server.url}/accounts/logout/", {})
        assert response.status == 302, f"logout failed ({response.status})"


def form_values(html: str, name: str) -> list[str]:
    return re.findall(rf'name="{name}" value="([^"]*)"', html)


def organiser_password(server: Server) -> str:
    """The password ``up`` prints once when it creates the organiser account."""
    found = re.search(r"パスワード: (\S+)", server.output())
    assert found, f"no organiser password in the output:\n{server.output()}"
    return found.group(1)


def sse_events(url: str, *, last_event_id: int, seconds: float) -> Iterator[dict[str, str]]:
    """The server-sent events of ``url`` (each as its fields), for at most ``seconds``."""
    parsed = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=seconds)
    try:
        connection.request("GET", parsed.path, headers={
            "Accept": "text/event-stream", "Last-Event-ID": str(last_event_id)})
        response = connection.getresponse()
        assert response.status == 200, response.status
        event: dict[str, str] = {}
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            line = response.readline().decode()
            if line == "":
                return
            line = line.rstrip("\n")
            if line == "":
                if "data" in event:
                    yield event
                event = {}
            elif not line.startswith(":") and ":" in line:
                key, value = line.split(":", 1)
                event[key] = value.strip()
    finally:
        connection.close()


def environment(**extra: str | None) -> dict[str, str]:
    """This process's environment with ``extra`` set (``None`` removes a variable)."""
    env = dict(os.environ)
    for name, value in extra.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env
