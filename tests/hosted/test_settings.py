"""The public copy's settings fail loudly: a copy or a pushing venue without a token would
either take anybody's pushes or never be taken."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("setting", [{"KYUSHU_PUBLIC_COPY_MODE": "1"},
                                     {"KYUSHU_PUBLIC_COPY_URL": "http://127.0.0.1:18499/"}])
def test_a_copy_or_a_pushing_venue_without_a_token_refuses_to_start(
        setting: dict[str, str], tmp_path: Path) -> None:
    env = {**os.environ, "KYUSHU_VAR_DIR": str(tmp_path), **setting,
           "KYUSHU_PUBLIC_COPY_TOKEN": "short"}
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=BASE_DIR, env=env, check=False,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "KYUSHU_PUBLIC_COPY_TOKEN" in result.stderr
