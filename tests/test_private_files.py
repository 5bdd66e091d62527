"""The SQLite database (session keys, every entrant) and the secret key are readable by the
server's user only, and so is the folder that holds them (issue 19, defect 9)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _start(var: Path) -> None:
    """Load the settings and open the database as the server does, umask 022."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "DJANGO_SECRET_KEY")}
    env.update(KYUSHU_VAR_DIR=str(var), DJANGO_SETTINGS_MODULE="kyushu.settings")
    code = ("import os; os.umask(0o022); import django; django.setup(); "
            "from django.db import connection; connection.ensure_connection(); "
            "connection.cursor().execute('CREATE TABLE t (x int)')")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, timeout=120)


def test_a_new_database_and_key_are_private(tmp_path: Path) -> None:
    var = tmp_path / "var"
    _start(var)
    assert _mode(var) == 0o700
    assert _mode(var / "db.sqlite3") == 0o600
    assert _mode(var / "secret_key") == 0o600
    for side in ("db.sqlite3-wal", "db.sqlite3-shm"):
        if (var / side).exists():
            assert _mode(var / side) & 0o077 == 0, side


def test_a_database_left_readable_by_everyone_is_tightened(tmp_path: Path) -> None:
    var = tmp_path / "var"
    var.mkdir()
    (var / "db.sqlite3").touch()
    (var / "db.sqlite3").chmod(0o644)
    _start(var)
    assert _mode(var / "db.sqlite3") == 0o600
