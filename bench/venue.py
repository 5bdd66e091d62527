"""A whole venue at once against the real server (a script, not a test):

    python3 bench/venue.py [--seconds 60] [--processes 1] [--phones 500] [--viewers 100]

On the 72-entrant demo tournament (``manage.py demo``, round 1 drawn and started, a live
buzzer round beside it), ``manage.py up`` serves, and one asyncio process (aiohttp) plays:

- 16 tablets (bracket staff, logged in) saving a result every 2 s each, to their groups;
- ``--phones`` phones polling the public round page every 2 s over kept-alive connections;
- ``--viewers`` stage scoreboards holding the buzzer stream (EventSource-like: reconnect
  with Last-Event-ID when a stream ends);
- one operator tapping ○ / × / スルー about once a second, timing each tap until every
  scoreboard has its state;
- 4 login flooders posting wrong passwords back to back from the tablets' own address:
  for the staff's username (``--flood-as staff``: locked out after AXES_FAILURE_LIMIT tries,
  which must not touch the tablets already logged in) or a new made-up username each time
  (``--flood-as unknown``: never locked out, every try costs the server a password hash).

It prints phones served, phone page p95, first-byte wait p95, tablet save p95, operator
tap → scoreboard p95, the login answers and errors; the servers' output is read as it comes
(``--server-log FILE`` keeps it). ``--processes 2`` starts two servers on one PostgreSQL
database (``DATABASE_URL``; ``REDIS_URL``, if set, passes through to them): phones,
tablets and scoreboards are spread over both, the operator taps on the first, so every
other scoreboard sees the tap through the database. Without ``DATABASE_URL`` the servers
use a scratch SQLite database in a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scoreboard import (
    PASSWORD,
    USERNAME,
    free_port,
    percentile,
    server_env,
    start_server,
    stop_server,
)

TABLETS = 16
FLOODERS = 4
PACE_SECONDS = 2.0

SETUP = """
from django.contrib.auth import get_user_model
from brackets.engine.buzzer import RoundConfig, Rule
from brackets.models import BuzzerRound, Group, Round, Seat, Tournament
from brackets.services import rounds as svc
from brackets.services.buzzer import buzzer_round_create
users = get_user_model().objects
user = users.filter(username={username!r}).first() or users.create_superuser({username!r}, '', {password!r})
t = Tournament.objects.get(slug='demo')
rounds = svc.rounds_configure(tournament=t, by=user)
first = Round.objects.get(pk=rounds[0].pk)
if first.status == Round.Status.CONFIGURED:
    svc.round_draw(round=first, by=user)
    first = Round.objects.get(pk=first.pk)
if first.status == Round.Status.DRAWN:
    svc.round_start(round=first, by=user)
groups = [g for g in Group.objects.filter(round=first).order_by('number')
          if Seat.objects.filter(group=g, entrant__isnull=False).count() == 4]
config = RoundConfig(scoring=Rule('nomx'), win=Rule('correct-at-least', {{'n': 100000}}),
                     loss=Rule('wrong-at-least', {{'n': 100000}}), slots=1)
r = BuzzerRound.objects.filter(tournament=t, name='Venue').first() or buzzer_round_create(
    tournament=t, name='Venue', group_name='A組', config=config,
    players=[{{'name': 'P%d' % i}} for i in range(1, 13)])
print('ROUND', first.number, r.pk)
for g in groups:
    seats = sorted(s.number for s in Seat.objects.filter(group=g, entrant__isnull=False))
    print('GROUP', g.pk, ','.join(map(str, seats)))
"""


def prepare(env: dict[str, str]) -> tuple[int, int, dict[int, list[int]]]:
    """The demo tournament with round 1 running and a buzzer round; (round number, buzzer
    round id, {group id: occupied seat numbers})."""
    def manage(*args: str) -> str:
        return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                              check=True, capture_output=True, text=True).stdout

    manage("up", "--no-serve", "--noinput")
    manage("demo")
    out = manage("shell", "--no-imports", "-c",
                 SETUP.format(username=USERNAME, password=PASSWORD))
    found = re.search(r"ROUND (\d+) (\d+)", out)
    assert found, out
    groups = {int(gid): [int(n) for n in seats.split(",")]
              for gid, seats in re.findall(r"GROUP (\d+) ([\d,]+)", out)}
    return int(found.group(1)), int(found.group(2)), groups


def result_form(seats: list[int], counter: int) -> dict[str, Any]:
    """A group's scores and places as the match page posts them; the top score moves with
    ``counter``, so every save changes one seat (as bench/tablets.py does)."""
    data: dict[str, Any] = {"key": uuid.uuid4().hex}
    for place, seat in enumerate(seats, start=1):
        score = 300 + (counter % 9000) / 100 if place == 1 else 300 - 50 * place
        data[f"score_{seat}"] = f"{score:.2f}"
        data[f"place_{seat}"] = place
    return data


@dataclass
class Figures:
    phone_ms: list[float] = field(default_factory=list)
    first_byte_ms: list[float] = field(default_factory=list)
    first_page_s: dict[int, float] = field(default_factory=dict)
    save_ms: list[float] = field(default_factory=list)
    tap_ms: list[float] = field(default_factory=list)
    logins: int = 0
    login_status: dict[int, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    # (seconds since the start, what, ms): the same figures over the run's course
    timeline: list[tuple[float, str, float]] = field(default_factory=list)
    started: float = 0.0

    def add(self, what: str, values: list[float], ms: float) -> None:
        values.append(ms)
        self.timeline.append((time.perf_counter() - self.started, what, ms))

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


class Venue:
    def __init__(self, ports: list[int], round_number: int, buzzer_id: int,
                 groups: dict[int, list[int]], seconds: float, figures: Figures,
                 flood_as: str = "staff") -> None:
        import aiohttp

        self.aiohttp = aiohttp
        self.bases = [f"http://127.0.0.1:{p}" for p in ports]
        self.round_number = round_number
        self.buzzer_id = buzzer_id
        self.groups = groups
        self.seconds = seconds
        self.figures = figures
        self.flood_as = flood_as
        self.started = 0.0
        self.stop_at = 0.0
        self.seen: list[dict[int, float]] = []
        self.pids: list[int] = []
        self.cpu_at_start: list[float] = []
        self.arrived = asyncio.Event()

    def base(self, index: int) -> str:
        return self.bases[index % len(self.bases)]

    def running(self) -> bool:
        return time.perf_counter() < self.stop_at

    def session(self, limit: int = 1) -> Any:
        connector = self.aiohttp.TCPConnector(limit=limit, force_close=False)
        timeout = self.aiohttp.ClientTimeout(total=60)
        return self.aiohttp.ClientSession(connector=connector, timeout=timeout,
                                          cookie_jar=self.aiohttp.CookieJar(unsafe=True))

    async def login(self, session: Any, base: str, password: str = PASSWORD,
                    username: str = USERNAME) -> int:
        async with session.get(f"{base}/accounts/login/") as page:
            html = await page.text()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        data = {"username": username, "password": password,
                "csrfmiddlewaretoken": token.group(1) if token else ""}
        async with session.post(f"{base}/accounts/login/", data=data,
                                headers={"Referer": f"{base}/accounts/login/"},
                                allow_redirects=False) as answer:
            await answer.read()
            return int(answer.status)

    @staticmethod
    def csrf(session: Any) -> str:
        return next((c.value for c in session.cookie_jar if c.key == "csrftoken"), "")

    async def phone(self, index: int) -> None:
        url = f"{self.base(index)}/p/demo/r/{self.round_number}/"
        async with self.session() as session:
            await asyncio.sleep(random.uniform(0, PACE_SECONDS))
            first_asked = time.perf_counter()
            while self.running():
                sent = time.perf_counter()
                try:
                    async with session.get(url) as response:
                        first_byte = time.perf_counter()
                        await response.read()
                        done = time.perf_counter()
                        if response.status != 200:
                            self.figures.error(f"phone HTTP {response.status}")
                        else:
                            self.figures.add("phone", self.figures.phone_ms,
                                             (done - sent) * 1000)
                            self.figures.first_byte_ms.append((first_byte - sent) * 1000)
                            # From the phone's first ask (retries included), not from
                            # the bench's start: phones start spread over PACE_SECONDS.
                            self.figures.first_page_s.setdefault(index, done - first_asked)
                except (TimeoutError, self.aiohttp.ClientError) as error:
                    self.figures.error(f"phone {type(error).__name__}")
                await asyncio.sleep(max(0.0, PACE_SECONDS - (time.perf_counter() - sent)))

    async def tablet(self, index: int, session: Any) -> None:
        base = self.base(index)
        mine = list(self.groups)[index::TABLETS] or list(self.groups)[:1]
        counter = index * 100_000
        await asyncio.sleep(random.uniform(0, PACE_SECONDS))
        while self.running():
            group = mine[counter % len(mine)]
            counter += 1
            data = result_form(self.groups[group], counter)
            data["csrfmiddlewaretoken"] = self.csrf(session)
            sent = time.perf_counter()
            try:
                async with session.post(f"{base}/t/demo/match/{group}/results/", data=data,
                                        headers={"Referer": f"{base}/"},
                                        allow_redirects=False) as response:
                    await response.read()
                    ok = response.status == 302 and "/match/" in response.headers.get(
                        "Location", "")
                    if ok:
                        self.figures.add("save", self.figures.save_ms,
                                         (time.perf_counter() - sent) * 1000)
                    else:
                        self.figures.error(f"tablet HTTP {response.status}")
                session.cookie_jar.clear(lambda c: c.key == "messages")
            except (TimeoutError, self.aiohttp.ClientError) as error:
                self.figures.error(f"tablet {type(error).__name__}")
            await asyncio.sleep(max(0.0, PACE_SECONDS - (time.perf_counter() - sent)))

    async def viewer(self, index: int) -> None:
        url = f"{self.base(index)}/p/demo/buzzer/{self.buzzer_id}/stream/"
        seen = self.seen[index]
        last: int | None = None
        timeout = self.aiohttp.ClientTimeout(total=None, sock_read=30)
        async with self.session() as session:
            while True:  # until cancelled, once the operator's last tap is timed
                headers = {"Accept": "text/event-stream"}
                if last is not None:
                    headers["Last-Event-ID"] = str(last)
                try:
                    async with session.get(url, headers=headers, timeout=timeout) as response:
                        async for line in response.content:
                            if line.startswith(b"id: "):
                                last = int(line[4:])
                                seen.setdefault(last, time.perf_counter())
                                self.arrived.set()
                except (TimeoutError, self.aiohttp.ClientError) as error:
                    if self.running():
                        self.figures.error(f"stream {type(error).__name__}")
                    await asyncio.sleep(0.5)

    async def wait_all(self, seq: int, timeout: float) -> float | None:
        """When the last scoreboard had ``seq`` (perf_counter), or None after ``timeout``."""
        deadline = time.perf_counter() + timeout
        while True:
            if all(seq in seen for seen in self.seen):
                return max(seen[seq] for seen in self.seen)
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), timeout=min(left, 0.2))
            except TimeoutError:
                pass

    async def operator(self, session: Any) -> None:
        base = self.bases[0]
        console = f"{base}/t/demo/buzzer/{self.buzzer_id}/"
        async with session.get(console) as page:
            await page.read()
        async with session.get(f"{base}/p/demo/buzzer/{self.buzzer_id}/state.json") as state:
            seq = int((await state.json())["seq"])
        kinds = ["correct", "wrong", "thru"]
        i = 0
        while self.running():
            kind = kinds[i % 3]
            fields: dict[str, Any] = {"kind": kind, "expected_seq": seq}
            if kind != "thru":
                fields["player"] = f"s{i % 12 + 1}"
            i += 1
            sent = time.perf_counter()
            try:
                async with session.post(f"{console}tap/", data=fields, headers={
                        "Accept": "application/json", "X-CSRFToken": self.csrf(session),
                        "Referer": console}) as response:
                    body = await response.json(content_type=None)
            except (TimeoutError, self.aiohttp.ClientError) as error:
                self.figures.error(f"tap {type(error).__name__}")
                await asyncio.sleep(1)
                continue
            if not body.get("ok"):
                self.figures.error("tap refused")
                seq = int(body.get("seq", seq))
                continue
            seq = int(body["seq"])
            arrived = await self.wait_all(seq, 10)
            if arrived is None:
                self.figures.error("tap never reached every scoreboard")
            else:
                self.figures.add("tap", self.figures.tap_ms, (arrived - sent) * 1000)
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - sent)))

    async def flooder(self, index: int) -> None:
        """An attacker: wrong passwords back to back, for the staff's own username (locked
        out after AXES_FAILURE_LIMIT) or, with ``--flood-as unknown``, for a new made-up
        username every time (never locked out: each try costs the server a hash)."""
        base = self.base(index)
        async with self.session() as session:
            while self.running():
                username = USERNAME if self.flood_as == "staff" else f"x-{uuid.uuid4().hex[:12]}"
                try:
                    status = await self.login(session, base, password="wrong-password",
                                              username=username)
                    self.figures.login_status[status] = self.figures.login_status.get(status, 0) + 1
                    if status >= 500:
                        self.figures.error(f"login HTTP {status}")
                    self.figures.logins += 1
                except (TimeoutError, self.aiohttp.ClientError) as error:
                    self.figures.error(f"login {type(error).__name__}")

    async def run(self, phones: int, viewers: int, flooders: int) -> None:
        # Staff log in before the clock starts (password hashing is not what is measured).
        tablet_sessions = [self.session() for _ in range(TABLETS)]
        operator_session = self.session()
        for i, session in enumerate(tablet_sessions):
            assert await self.login(session, self.base(i)) == 302, "tablet login failed"
        assert await self.login(operator_session, self.bases[0]) == 302
        self.seen = [{} for _ in range(viewers)]
        self.started = time.perf_counter()
        self.stop_at = self.started + self.seconds + 30  # reset once the streams are open
        streams = [asyncio.create_task(self.viewer(i)) for i in range(viewers)]
        while viewers and not all(self.seen):
            await asyncio.sleep(0.05)
        self.cpu_at_start = [cpu_seconds(pid) for pid in self.pids]
        self.started = self.figures.started = time.perf_counter()
        self.stop_at = self.started + self.seconds
        tasks = [asyncio.create_task(self.phone(i)) for i in range(phones)]
        tasks += [asyncio.create_task(self.tablet(i, s)) for i, s in enumerate(tablet_sessions)]
        tasks += [asyncio.create_task(self.flooder(i)) for i in range(flooders)]
        if viewers:
            tasks.append(asyncio.create_task(self.operator(operator_session)))
        await asyncio.gather(*tasks)
        for stream in streams:
            stream.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
        for session in [*tablet_sessions, operator_session]:
            await session.close()


def drain(server: subprocess.Popen[str], log: Path) -> threading.Thread:
    """Copy a server's output into ``log`` as it comes. A pipe nobody reads fills at 64 KB,
    and then every server thread that logs (each refused login logs a line) blocks on it."""
    def copy() -> None:
        with log.open("a", encoding="utf-8") as out:
            for line in server.stdout or ():
                out.write(line)

    reader = threading.Thread(target=copy, daemon=True)
    reader.start()
    return reader


def log_summary(log: Path) -> str:
    """Lines the servers logged, and how many of them began a traceback."""
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines() if log.exists() else []
    tracebacks = sum(line.startswith("Traceback") for line in lines)
    return f"{len(lines)} lines, {tracebacks} tracebacks"


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return -1.0


def report(figures: Figures, args: argparse.Namespace, label: str, cpu: float,
           client_cpu: float) -> None:
    def p95(values: list[float]) -> str:
        return f"{percentile(values, 0.95):7.0f} ms" if values else "      – "

    served = len(figures.first_page_s)
    slowest_first = max(figures.first_page_s.values(), default=float("nan"))
    print(f"venue: {label}; {args.seconds:.0f} s; 72 entrants (demo), {TABLETS} tablets saving "
          f"every {PACE_SECONDS:.0f} s, {args.phones} phones polling every {PACE_SECONDS:.0f} s, "
          f"{args.viewers} scoreboard streams, {args.flooders} login flooders")
    print(f"  phones served           {served} of {args.phones} (slowest first page "
          f"{slowest_first:.2f} s after its first ask; {len(figures.phone_ms)} pages)")
    print(f"  phone page p95          {p95(figures.phone_ms)}   (target ≤ 300 ms)")
    print(f"  first-byte wait p95     {p95(figures.first_byte_ms)}")
    print(f"  tablet save p95         {p95(figures.save_ms)}   (target ≤ 150 ms; "
          f"{len(figures.save_ms)} saves)")
    print(f"  tap → scoreboard p95    {p95(figures.tap_ms)}   (target ≤ 300 ms; "
          f"{len(figures.tap_ms)} taps)")
    answers = ", ".join(f"{status}: {n}" for status, n in sorted(figures.login_status.items()))
    print(f"  login attempts          {figures.logins} as {args.flood_as}"
          f"{' (HTTP ' + answers + ')' if answers else ''}")
    total = sum(figures.errors.values())
    detail = ", ".join(f"{k}: {v}" for k, v in sorted(figures.errors.items()))
    print(f"  errors                  {total}{'  (' + detail + ')' if detail else ''}")
    if cpu >= 0:
        print(f"  server CPU              {cpu / args.seconds * 100:.0f}% of one core "
              f"(this client: {client_cpu / args.seconds * 100:.0f}%; load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


def report_windows(figures: Figures, width: float) -> None:
    """p95 per ``width`` seconds of the run: whether the figures hold or grow as it goes."""
    print(f"  per {width:.0f} s            phone p95 / save p95 / tap p95 (count)")
    last = max((t for t, _, _ in figures.timeline), default=0.0)
    start = 0.0
    while start <= last:
        cells = []
        for what in ("phone", "save", "tap"):
            values = [ms for t, w, ms in figures.timeline if w == what and start <= t < start + width]
            cells.append(f"{percentile(values, 0.95):5.0f} ({len(values):4d})" if values
                         else "    – (   0)")
        print(f"  {start:4.0f}–{start + width:<4.0f} s          " + " / ".join(cells))
        start += width


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--phones", type=int, default=500)
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--flooders", type=int, default=FLOODERS)
    parser.add_argument("--flood-as", choices=["staff", "unknown"], default="staff",
                        help="flooders try the staff's username (default) or a new made-up one "
                             "each time")
    parser.add_argument("--port", type=int, default=0,
                        help="first server port (the next ones follow); default: any free port")
    parser.add_argument("--server-log", default="",
                        help="keep the servers' output in this file (default: a scratch file)")
    parser.add_argument("--windows", type=float, default=0,
                        help="also print the p95s per this many seconds of the run")
    args = parser.parse_args()
    database = os.environ.get("DATABASE_URL", "")
    if args.processes > 1 and not database.startswith("postgres"):
        raise SystemExit("--processes 2 needs DATABASE_URL=postgres://… (one shared database)")
    with tempfile.TemporaryDirectory(prefix="kyushu-bench-venue-") as tmp:
        env = server_env(Path(tmp), keep_database=bool(database))
        round_number, buzzer_id, groups = prepare(env)
        ports = ([args.port + i for i in range(args.processes)] if args.port
                 else [free_port() for _ in range(args.processes)])
        servers = [start_server(Path(tmp), port, env=env) for port in ports]
        log = Path(args.server_log or Path(tmp) / "servers.log")
        readers = [drain(server, log) for server in servers]
        try:
            figures = Figures()
            venue = Venue(ports, round_number, buzzer_id, groups, args.seconds, figures,
                          flood_as=args.flood_as)
            venue.pids = [s.pid for s in servers]

            async def play() -> None:
                await venue.run(args.phones, args.viewers, args.flooders)

            client_before = time.process_time()
            asyncio.run(play())
            client_cpu = time.process_time() - client_before
            cpu = sum(cpu_seconds(s.pid) - b for s, b in zip(servers, venue.cpu_at_start))
        finally:
            for server in servers:
                stop_server(server)
            for reader in readers:
                reader.join(timeout=5)
            logged = log_summary(log)
    engine = "PostgreSQL" if database.startswith("postgres") else "SQLite"
    redis = ", REDIS_URL set" if os.environ.get("REDIS_URL") else ""
    report(figures, args, f"uvicorn × {args.processes} on {engine}{redis}", cpu, client_cpu)
    if args.windows:
        report_windows(figures, args.windows)
    print(f"  server log              {logged}"
          f"{' (' + args.server_log + ')' if args.server_log else ''}")


if __name__ == "__main__":
    main()
