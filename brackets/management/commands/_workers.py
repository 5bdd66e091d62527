"""``manage.py up --workers N``: N server processes accepting on one listening socket.

One Python process computes in one thread at a time, so a big venue or a hosted series
server uses the machine's other cores by running several processes. The port is bound
once, here, and handed to each worker (multiprocessing passes a socket on Linux, macOS
and Windows alike); the kernel gives each new connection to whichever worker accepts it.
Workers start by ``spawn`` on every platform: nothing of the parent (its database
connections, its threads) is copied into them.

What the processes share lives outside them: the database, and with ``REDIS_URL`` the
caches and sessions (kyushu/settings.py). Without Redis each keeps its own caches, which
stays correct: sessions are read from the database, and public pages trust a revision for
1 s at most (brackets/perf/page_cache.py).
"""

from __future__ import annotations

import multiprocessing
import signal
import socket
from typing import Any


def bind(addr: str, port: int) -> socket.socket:
    """The listening socket every worker accepts on."""
    family = socket.AF_INET6 if ":" in addr else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((addr, port))
    sock.listen(1024)
    return sock


def worker(sock: socket.socket, threads: int) -> None:
    """One worker: Django set up afresh (spawned), then waitress on the shared socket."""
    import django

    django.setup()
    from waitress import serve

    from kyushu.wsgi import application

    try:
        serve(application, sockets=[sock], threads=threads, ident="kyushu")
    except KeyboardInterrupt:  # Ctrl-C reaches the whole process group
        pass


def serve_workers(addr: str, port: int, *, threads: int, workers: int) -> None:
    """Run ``workers`` processes on ``addr:port`` until Ctrl-C (or SIGTERM of this one)."""
    from django.db import connections

    connections.close_all()  # the preparation's connections are not the workers' to use
    sock = bind(addr, port)
    context = multiprocessing.get_context("spawn")
    processes: list[Any] = [
        context.Process(target=worker, args=(sock, threads), name=f"kyushu-worker-{n}")
        for n in range(1, workers + 1)
    ]
    for process in processes:
        process.start()
    # A service manager stops the server with SIGTERM: stop the workers with it.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        for process in processes:
            process.join()
    except KeyboardInterrupt:
        pass
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=10)
        sock.close()


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt
