"""``manage.py up`` as a newcomer runs it: a real server process on a scratch database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_up(var_dir: Path, port: int) -> subprocess.Popen[str]:
    env = {**os.environ, "KYUSHU_VAR_DIR": str(var_dir), "PYTHONUNBUFFERED": "1"}
    env.pop("DATABASE_URL", None)  # the quick start runs on the embedded SQLite
    return subprocess.Popen(
        [sys.executable, "manage.py", "up", "--addr", "127.0.0.1", "--port", str(port), "--noinput"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def wait_for(url: str, proc: subprocess.Popen[str]) -> bytes:
    for _ in range(300):
        if proc.poll() is not None:
            raise AssertionError(f"up exited early: {proc.stdout.read() if proc.stdout else ''}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return bytes(response.read())
        except OSError:
            time.sleep(0.2)
    raise AssertionError("server did not answer")


def stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    return out


@pytest.mark.slow
def test_up_serves_and_keeps_data_on_second_run(tmp_path: Path) -> None:
    port = free_port()
    proc = start_up(tmp_path, port)
    body = wait_for(f"http://127.0.0.1:{port}/", proc)
    assert "大会".encode() in body
    static = wait_for(f"http://127.0.0.1:{port}/static/vendor/bootstrap.min.css", proc)
    assert b"Bootstrap" in static
    out = stop(proc)
    assert proc.returncode == 0, out
    assert "パスワード:" in out
    assert "停止しました" in out

    # An entrant created between runs survives a second `up`.
    env = {**os.environ, "KYUSHU_VAR_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    script = (
        "from brackets.models import *;"
        "v=QmaVersion.objects.get(slug='qma-2016');"
        "t=Tournament.objects.create(slug='t1',name='T',version=v);"
        "Entrant.objects.create(tournament=t,name='山田',card_name='ヤマダ')"
    )
    subprocess.run([sys.executable, "manage.py", "shell", "--no-imports", "-c", script], cwd=ROOT, env=env, check=True)
    proc = start_up(tmp_path, port)
    wait_for(f"http://127.0.0.1:{port}/", proc)
    out = stop(proc)
    assert "パスワード:" not in out, "the organiser account must be created once only"
    count = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c",
         "from brackets.models import Entrant; print(Entrant.objects.count())"],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    ).stdout.strip()
    assert count == "1"
