"""``REDIS_URL`` as an organiser sets it: a Redis that does not answer stops ``up`` at once
with a message, instead of a server that answers every request with an error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.multiprocess.servers import ROOT, environment, free_port

pytestmark = pytest.mark.slow


def test_up_refuses_to_start_when_redis_does_not_answer(tmp_path: Path) -> None:
    nobody = f"redis://127.0.0.1:{free_port()}/0"  # a free port: nothing listens there
    env = environment(KYUSHU_VAR_DIR=str(tmp_path), DATABASE_URL=None, REDIS_URL=nobody)
    done = subprocess.run([sys.executable, "manage.py", "up", "--no-serve", "--noinput"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode != 0
    assert "REDIS_URL の Redis に接続できません" in done.stderr
    # Stopped before migrating: the settings leave at most the empty 0600 file SQLite
    # will fill (kyushu/settings.py private_file), never a database.
    database = tmp_path / "db.sqlite3"
    assert not database.exists() or database.stat().st_size == 0
