"""Python's cycle collector, tuned for a long-running server (both entry points call it).

Every Django request leaves its objects in reference cycles (request <-> messages storage,
the lazy user), freed only when the collector runs. With 16 tablets' requests in flight,
the default young generation (700 objects) filled mid-request, so each request's objects
were promoted and piled up in the oldest generation, whose full scans (every few seconds,
~0.2 s, with all requests waiting) were the loopback bench's slowest saves. A larger young
generation is collected after the requests that filled it have finished, so their cycles
die young; freeze() leaves what the app loaded at start (it lives as long as the process)
out of every scan.
"""

import gc


def tune_for_server() -> None:
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
