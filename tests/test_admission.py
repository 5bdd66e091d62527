"""brackets.perf.admission: requests run one at a time in arrival order; a slow one lets the
next start beside it, up to the lane limit; a failing view gives its lane back."""

from __future__ import annotations

import threading
import time

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory, override_settings

from brackets.perf.admission import AdmissionMiddleware, FairLanes

PATIENT = 60.0  # seconds: longer than any test, so only a release lets a waiter in


def _queue_waiters(lanes: FairLanes, count: int, order: list[int]) -> list[threading.Thread]:
    """Start ``count`` waiters one after another, each queued before the next starts."""
    threads = []
    for n in range(count):
        def wait(n: int = n) -> None:
            ticket = lanes.acquire()
            order.append(n)
            lanes.release(ticket)

        thread = threading.Thread(target=wait)
        thread.start()
        while len(lanes._waiting) < n + 1:
            time.sleep(0.001)
        threads.append(thread)
    return threads


def test_waiters_run_in_arrival_order() -> None:
    lanes = FairLanes(4, PATIENT)
    holder = lanes.acquire()
    order: list[int] = []
    threads = _queue_waiters(lanes, 6, order)
    assert order == []  # nobody overtook the running request
    lanes.release(holder)
    for thread in threads:
        thread.join(10)
    assert order == [0, 1, 2, 3, 4, 5]
    assert not lanes._running and not lanes._waiting


def test_a_slow_request_lets_the_next_start_beside_it() -> None:
    lanes = FairLanes(2, 0.01)
    slow = lanes.acquire()
    started = threading.Event()

    def fast() -> None:
        ticket = lanes.acquire()
        started.set()
        lanes.release(ticket)

    thread = threading.Thread(target=fast)
    thread.start()
    assert started.wait(10), "the next request waited for the slow one to finish"
    thread.join(10)
    lanes.release(slow)


def test_never_more_lanes_than_allowed() -> None:
    lanes = FairLanes(1, 0.01)
    slow = lanes.acquire()
    order: list[int] = []
    threads = _queue_waiters(lanes, 1, order)
    time.sleep(0.1)  # ten patiences: still only one lane
    assert order == []
    lanes.release(slow)
    threads[0].join(10)
    assert order == [0]


def test_lanes_must_be_positive() -> None:
    with pytest.raises(ValueError):
        FairLanes(0, 1.0)


@override_settings(REQUEST_LANES=1, REQUEST_PATIENCE_SECONDS=PATIENT)
def test_a_failing_view_gives_its_lane_back() -> None:
    def broken(request: HttpRequest) -> HttpResponse:
        raise RuntimeError("view failed")

    middleware = AdmissionMiddleware(broken)
    request = RequestFactory().get("/")
    for _attempt in range(3):  # would block on the second if the lane were kept
        with pytest.raises(RuntimeError):
            middleware(request)
    assert not middleware.lanes._running


@pytest.mark.parametrize("raw", ["x", "0", "-1", "2.5"])
def test_bad_lane_counts_are_refused_with_the_variable_named(
        raw: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from kyushu.settings import env_number

    monkeypatch.setenv("KYUSHU_REQUEST_LANES", raw)
    with pytest.raises(ValueError, match="KYUSHU_REQUEST_LANES must be a whole number"):
        env_number("KYUSHU_REQUEST_LANES", 4, minimum=1, integer=True)


@pytest.mark.parametrize(("raw", "expected"), [("", 0.05), ("0", 0.0), ("0.2", 0.2)])
def test_patience_from_the_environment(raw: str, expected: float,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from kyushu.settings import env_number

    monkeypatch.setenv("KYUSHU_REQUEST_PATIENCE", raw)
    assert env_number("KYUSHU_REQUEST_PATIENCE", 0.05, minimum=0) == expected
    monkeypatch.setenv("KYUSHU_REQUEST_PATIENCE", "nan")
    with pytest.raises(ValueError, match="KYUSHU_REQUEST_PATIENCE"):
        env_number("KYUSHU_REQUEST_PATIENCE", 0.05, minimum=0)
