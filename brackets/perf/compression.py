"""Compressed responses: Django's GZipMiddleware, except for event streams.

A round page at 1,024 entrants is ~340 KB of HTML and ~20 KB gzipped; phones on the
venue's Wi-Fi feel the difference. A visitor's cached public page is compressed once, when
it is cached (:func:`compressed`), and sent as it is on every hit: at a venue of 500
polling phones, compressing per response is a tenth of the server's time.

BREACH: staff pages carry a CSRF token (the logout form, the htmx header). Compressing them
is safe because the token is never the same twice: ``get_token()`` masks the secret with
fresh random bytes per response (Django's own BREACH defence), and GZipMiddleware also pads
each response with random bytes (Heal the Breach). Public pages carry no secret at all.

An event stream (the buzzer scoreboard) is left as it is: its events are a few hundred
bytes each and must leave at once, and the async path would compress each chunk as a
separate gzip member.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware, re_accepts_gzip
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string


class CompressionMiddleware(GZipMiddleware):
    def process_response(self, request: Any, response: Any) -> Any:
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)


def accepts_gzip(request: HttpRequest) -> bool:
    return bool(re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))


def compressed(content: bytes) -> bytes | None:
    """``content`` gzipped as the middleware would, or None when that is no shorter."""
    packed = compress_string(content, max_random_bytes=GZipMiddleware.max_random_bytes)
    return packed if len(packed) < len(content) else None


def gzipped_response(packed: bytes) -> HttpResponse:
    """A page compressed once and kept (brackets/perf/page_cache.py), sent as it is."""
    response = HttpResponse(packed)
    response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ("Accept-Encoding",))
    return response
