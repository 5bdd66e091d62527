"""The server's threads take waiting requests by lane (kyushu/serving.py): logged-in staff,
then visitors, then login attempts, each lane in arrival order."""

from __future__ import annotations

import threading
from concurrent.futures import Future

from kyushu.serving import LOGIN, STAFF, VISITOR, LanedThreads, lane_of


def scope(path: str, cookie: bytes | None = None) -> dict[str, object]:
    headers = [(b"host", b"venue")] + ([(b"cookie", cookie)] if cookie is not None else [])
    return {"type": "http", "path": path, "headers": headers}


def test_a_session_cookie_is_staff_the_login_page_without_one_is_a_login_attempt() -> None:
    assert lane_of(scope("/t/demo/match/3/results/", b"csrftoken=a; sessionid=b")) == STAFF
    assert lane_of(scope("/accounts/login/", b"sessionid=b")) == STAFF
    assert lane_of(scope("/accounts/login/", b"csrftoken=a")) == LOGIN
    assert lane_of(scope("/accounts/login/")) == LOGIN
    assert lane_of(scope("/p/demo/r/1/", b"csrftoken=a")) == VISITOR
    assert lane_of(scope("/p/demo/r/1/")) == VISITOR


def test_waiting_work_runs_staff_first_then_visitors_then_logins_each_in_arrival_order(
) -> None:
    threads = LanedThreads(workers=1)
    release = threading.Event()
    busy = threads.submit(VISITOR, release.wait)  # the one thread is taken
    ran: list[str] = []
    waiting = [threads.submit(lane, lambda name=name: ran.append(name)) for lane, name in (
        (LOGIN, "login 1"), (VISITOR, "phone 1"), (STAFF, "tablet 1"), (LOGIN, "login 2"),
        (VISITOR, "phone 2"), (STAFF, "tablet 2"))]
    release.set()
    busy.result(timeout=10)
    for future in waiting:
        future.result(timeout=10)
    assert ran == ["tablet 1", "tablet 2", "phone 1", "phone 2", "login 1", "login 2"]


def test_work_whose_caller_went_away_is_not_run_and_an_error_reaches_the_caller() -> None:
    threads = LanedThreads(workers=1)
    release = threading.Event()
    busy = threads.submit(VISITOR, release.wait)
    ran: list[str] = []
    gone: Future[object] = threads.submit(VISITOR, lambda: ran.append("gone"))
    assert gone.cancel()

    def broken() -> None:
        raise ValueError("the view failed")

    failed = threads.submit(STAFF, broken)
    release.set()
    busy.result(timeout=10)
    try:
        failed.result(timeout=10)
    except ValueError as error:
        assert str(error) == "the view failed"
    else:
        raise AssertionError("the error did not reach the caller")
    assert threads.submit(VISITOR, lambda: "done").result(timeout=10) == "done"
    assert ran == []


class Page(list[bytes]):
    streaming = False  # as Django's HttpResponse says of itself


def answer(status: str) -> object:
    def app(environ: dict[str, object], start_response: object) -> Page:
        start_response(status, [("Content-Type", "text/html")])  # type: ignore[operator]
        return Page([b"page"])
    return app


def served(status: str, method: str, path: str, monkeypatch: object) -> list[float]:
    """The waits the server takes before answering, and checks the answer went out."""
    import asyncio

    import kyushu.serving as serving

    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(serving.asyncio, "sleep", no_wait)  # type: ignore[attr-defined]
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "headers": [],
             "query_string": b"", "server": ("venue", 80), "client": ("10.0.0.9", 5000),
             "scheme": "http", "http_version": "1.1", "root_path": ""}
    asyncio.run(serving.ThreadedWSGI(answer(status), workers=1)(scope, receive, send))
    assert sent[0]["status"] == int(status.split()[0]) and sent[-1]["body"] == b"page"
    return waits


def test_a_refused_login_is_answered_after_a_wait_on_the_event_loop(monkeypatch: object
                                                                   ) -> None:
    from kyushu.serving import REFUSED_LOGIN_SECONDS

    assert served("200 OK", "POST", "/accounts/login/", monkeypatch) == [REFUSED_LOGIN_SECONDS]
    assert served("429 Too Many Requests", "POST", "/accounts/login/", monkeypatch) == [
        REFUSED_LOGIN_SECONDS]
    # A login that succeeded, the login page itself and every other page: no wait.
    assert served("302 Found", "POST", "/accounts/login/", monkeypatch) == []
    assert served("200 OK", "GET", "/accounts/login/", monkeypatch) == []
    assert served("200 OK", "POST", "/t/demo/match/3/results/", monkeypatch) == []
