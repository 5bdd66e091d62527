"""``/favicon.ico``: browsers ask for it on every page whatever the page links, so the
app answers it from its own static files (the venue may be offline; no CDN)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

FAVICON = Path(__file__).resolve().parent.parent / "static" / "brackets" / "favicon.ico"


@cache
def _favicon_bytes() -> bytes:
    return FAVICON.read_bytes()


@require_safe
@cache_control(public=True, max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    """The app's icon; a browser keeps it a day, so it costs one request per device."""
    return HttpResponse(_favicon_bytes(), content_type="image/x-icon")
