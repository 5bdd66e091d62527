"""Tap → scoreboard latency over loopback with the real server (a script, not a test).

    python3 bench/scoreboard.py [--taps 60] [--viewers 3]

Starts ``manage.py up`` (uvicorn, as at the venue) on a scratch database, logs in as an
operator, opens ``--viewers`` scoreboard streams (server-sent events, read from raw
sockets exactly as bytes arrive), then taps ○ / × / スルー through the console's JSON
endpoint one by one. For each tap it measures the time from sending the POST to the moment
every viewer has received the state with that tap's sequence number, and prints p50, p95
and the maximum (target: p95 < 0.5 s).

Why through a real server: the push goes through the database (each stream polls the
round's newest sequence number), so this is the path a projector sees, including the
server's own buffering of streamed responses.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
USERNAME = "bench-operator"
PASSWORD = "bench-password-123"

SETUP = """
from django.contrib.auth import get_user_model
from brackets.models import QmaVersion, Tournament
from brackets.engine.buzzer import RoundConfig, Rule
from brackets.services.buzzer import buzzer_round_create
user = get_user_model().objects.filter(username={username!r}).first() or get_user_model().objects.create_superuser({username!r}, '', {password!r})
t = Tournament.objects.filter(slug='bench').first() or Tournament.objects.create(slug='bench', name='Bench', version=QmaVersion.objects.first())
config = RoundConfig(scoring=Rule('nomx'), win=Rule('correct-at-least', {{'n': 1000}}), loss=Rule('wrong-at-least', {{'n': 1000}}), slots=1)
r = buzzer_round_create(tournament=t, name='Bench', group_name='A組', config=config, players=[{{'name': 'P%d' % i}} for i in range(1, 13)])
print('ROUND', r.pk)
"""


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(var_dir: Path, keep_database: bool = False) -> dict[str, str]:
    """The environment of a scratch server: its var dir, and SQLite unless told to keep
    ``DATABASE_URL``."""
    env = {**os.environ, "KYUSHU_VAR_DIR": str(var_dir), "PYTHONUNBUFFERED": "1"}
    if not keep_database:
        env.pop("DATABASE_URL", None)
    return env


def _env(var_dir: Path) -> dict[str, str]:
    return server_env(var_dir)


def prepare(var_dir: Path) -> int:
    """Migrate a scratch database, create an operator and a 12-seat round; its id."""
    env = _env(var_dir)
    subprocess.run(
        [sys.executable, "manage.py", "up", "--no-serve", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    script = SETUP.format(username=USERNAME, password=PASSWORD)
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", script],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    match = re.search(r"ROUND (\d+)", out)
    assert match, out
    return int(match.group(1))


def start_server(
    var_dir: Path, port: int, env: dict[str, str] | None = None
) -> subprocess.Popen[str]:
    """``manage.py up`` on loopback, waiting until it answers."""
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "up", "--addr", "127.0.0.1", "--port", str(port),
         "--noinput"],
        cwd=ROOT,
        env=env or _env(var_dir),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    for _ in range(300):
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {proc.stdout.read() if proc.stdout else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


def stop_server(proc: subprocess.Popen[str]) -> None:
    """Ctrl-C the server and wait for it."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class StreamViewer:
    """A scoreboard: reads the SSE stream from a raw socket and notes when each seq arrives.

    Reconnects (like EventSource) when the server ends a stream, sending Last-Event-ID.
    """

    def __init__(self, port: int, path: str) -> None:
        self.port = port
        self.path = path
        self.seen: dict[int, float] = {}
        self.last_id: int | None = None
        self.cond = threading.Condition()
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while self.running:
            try:
                self._once()
            except OSError:
                time.sleep(0.2)

    def _once(self) -> None:
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as sock:
            extra = f"Last-Event-ID: {self.last_id}\r\n" if self.last_id is not None else ""
            request = (
                f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                f"{extra}Connection: close\r\n\r\n"
            )
            sock.sendall(request.encode())
            buffer = b""
            sock.settimeout(60)
            while self.running:
                chunk = sock.recv(65536)
                if not chunk:
                    return
                now = time.perf_counter()
                buffer += chunk
                for match in re.finditer(rb"\nid: (\d+)\n|^id: (\d+)\n", buffer):
                    seq = int(match.group(1) or match.group(2))
                    with self.cond:
                        self.seen.setdefault(seq, now)
                        self.last_id = seq
                        self.cond.notify_all()
                buffer = buffer[-64:]

    def wait_for(self, seq: int, timeout: float) -> float | None:
        """When ``seq`` arrived (perf_counter), waiting up to ``timeout`` seconds."""
        deadline = time.perf_counter() + timeout
        with self.cond:
            while seq not in self.seen:
                left = deadline - time.perf_counter()
                if left <= 0:
                    return None
                self.cond.wait(left)
            return self.seen[seq]

    def close(self) -> None:
        self.running = False


class Operator:
    """A logged-in operator tapping through the console's JSON endpoint."""

    def __init__(self, port: int, slug: str, round_id: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.tap_url = f"{self.base}/t/{slug}/buzzer/{round_id}/tap/"
        self.console_url = f"{self.base}/t/{slug}/buzzer/{round_id}/"
        self.seq = 0

    def csrf(self) -> str:
        return next((c.value or "" for c in self.jar if c.name == "csrftoken"), "")

    def login(self, username: str = USERNAME, password: str = PASSWORD) -> None:
        self.opener.open(f"{self.base}/accounts/login/").read()
        data = urllib.parse.urlencode(
            {"username": username, "password": password, "csrfmiddlewaretoken": self.csrf()}
        ).encode()
        self.opener.open(urllib.request.Request(f"{self.base}/accounts/login/", data=data)).read()
        self.opener.open(self.console_url).read()

    def tap(self, **fields: Any) -> dict[str, Any]:
        """POST one tap with the expected sequence number; returns the JSON answer."""
        fields.setdefault("expected_seq", self.seq)
        request = urllib.request.Request(
            self.tap_url,
            data=urllib.parse.urlencode(fields).encode(),
            headers={
                "Accept": "application/json",
                "X-CSRFToken": self.csrf(),
                "Referer": self.console_url,
            },
        )
        try:
            with self.opener.open(request) as response:
                body: dict[str, Any] = json.loads(response.read())
        except urllib.error.HTTPError as error:
            body = json.loads(error.read())
        self.seq = int(body.get("seq", self.seq))
        return body


def run(taps: int, viewers: int, quiet: bool = False) -> list[float]:
    """Start a server, tap ``taps`` times, return the latencies in seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        var_dir = Path(tmp)
        round_id = prepare(var_dir)
        port = free_port()
        proc = start_server(var_dir, port)
        screens: list[StreamViewer] = []
        try:
            operator = Operator(port, "bench", round_id)
            operator.login()
            path = f"/p/bench/buzzer/{round_id}/stream/"
            screens = [StreamViewer(port, path) for _ in range(viewers)]
            for screen in screens:
                if screen.wait_for(0, 10) is None:
                    raise RuntimeError("scoreboard stream did not start")
            latencies: list[float] = []
            kinds = ["correct", "wrong", "thru"]
            for i in range(taps):
                kind = kinds[i % 3]
                fields: dict[str, Any] = {"kind": kind}
                if kind != "thru":
                    fields["player"] = f"s{i % 12 + 1}"
                sent = time.perf_counter()
                body = operator.tap(**fields)
                if not body.get("ok"):
                    raise RuntimeError(f"tap refused: {body.get('error')}")
                arrivals = [s.wait_for(operator.seq, 5) for s in screens]
                if any(a is None for a in arrivals):
                    raise RuntimeError(f"tap {operator.seq} never reached a scoreboard")
                latencies.append(max(a for a in arrivals if a is not None) - sent)
                time.sleep(0.05)
            return latencies
        finally:
            for screen in screens:
                screen.close()
            stop_server(proc)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by the nearest-rank method."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(q * len(ordered) + 0.5) - 1))
    return ordered[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=60)
    parser.add_argument("--viewers", type=int, default=3)
    args = parser.parse_args()
    latencies = run(args.taps, args.viewers)
    ms = [v * 1000 for v in latencies]
    print(
        f"tap → scoreboard over loopback, uvicorn, {args.viewers} scoreboard streams, {len(ms)} taps"
    )
    print(f"  p50 {percentile(ms, 0.5):7.1f} ms")
    print(f"  p95 {percentile(ms, 0.95):7.1f} ms   (target < 500 ms)")
    print(f"  max {max(ms):7.1f} ms   mean {statistics.mean(ms):.1f} ms")


if __name__ == "__main__":
    main()
