"""``manage.py up --workers N``: N server processes on one port, stopped with the command."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.multiprocess.servers import ROOT, START_SECONDS, environment, free_port

pytestmark = pytest.mark.slow


def worker_pids(parent: int) -> set[int]:
    """The server workers ``parent`` spawned (multiprocessing's own helper excluded)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == parent and b"spawn_main" in cmdline:
            found.add(int(stat.parent.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_up_with_two_workers_runs_two_processes_on_one_port_and_stops_them_all(
        tmp_path: Path) -> None:
    port = free_port()
    env = environment(KYUSHU_VAR_DIR=str(tmp_path), DATABASE_URL=None, REDIS_URL=None,
                      PYTHONUNBUFFERED="1")
    log = tmp_path / "up.log"
    with log.open("wb") as out:
        up = subprocess.Popen(
            [sys.executable, "manage.py", "up", "--addr", "127.0.0.1", "--port", str(port),
             "--noinput", "--workers", "2"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_SECONDS
        answers = 0
        while answers < 10 and time.monotonic() < deadline:
            assert up.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/",
                                            timeout=5) as response:
                    answers += response.status == 200
            except OSError:
                time.sleep(0.2)
        assert answers == 10, log.read_text()
        workers = worker_pids(up.pid)
        assert len(workers) == 2
    finally:
        up.send_signal(signal.SIGINT)
        up.wait(timeout=60)
    assert up.returncode == 0, log.read_text()
    assert "サーバープロセス: 2" in log.read_text()
    assert not {pid for pid in workers if Path(f"/proc/{pid}").exists()
                and b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()}
