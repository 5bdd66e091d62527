"""kyushu/settings.py reads numbers from the environment and names the variable it refuses
(moved here from the request-lane tests when the lanes went)."""

from __future__ import annotations

import pytest

from kyushu.settings import env_number


@pytest.mark.parametrize("raw", ["x", "0", "-1", "2.5"])
def test_bad_thread_counts_are_refused_with_the_variable_named(
        raw: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KYUSHU_THREADS", raw)
    with pytest.raises(ValueError, match="KYUSHU_THREADS must be a whole number"):
        env_number("KYUSHU_THREADS", 8, minimum=1, integer=True)


@pytest.mark.parametrize(("raw", "expected"), [("", 8), ("1", 1), ("24", 24)])
def test_thread_count_from_the_environment(raw: str, expected: int,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KYUSHU_THREADS", raw)
    assert env_number("KYUSHU_THREADS", 8, minimum=1, integer=True) == expected


@pytest.mark.parametrize(("raw", "expected"), [("", 0.05), ("0", 0.0), ("0.2", 0.2)])
def test_fractional_numbers_from_the_environment(raw: str, expected: float,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KYUSHU_SOME_SECONDS", raw)
    assert env_number("KYUSHU_SOME_SECONDS", 0.05, minimum=0) == expected
    monkeypatch.setenv("KYUSHU_SOME_SECONDS", "nan")
    with pytest.raises(ValueError, match="KYUSHU_SOME_SECONDS"):
        env_number("KYUSHU_SOME_SECONDS", 0.05, minimum=0)
