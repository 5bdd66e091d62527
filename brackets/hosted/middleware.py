"""The public copy's two roles in the request path.

On a copy (``KYUSHU_PUBLIC_COPY_MODE=1``) every request that is not a public page, a
static file, the language switch or the venue's push is refused: the copy holds no staff
and takes no writes, whatever its database says. On a venue server with
``KYUSHU_PUBLIC_COPY_URL`` the middleware starts the pusher when the server loads it, then
steps out of the request path.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from brackets.hosted.pusher import ENDPOINT, pusher_start

READ_METHODS = ("GET", "HEAD", "OPTIONS")


def copy_allows(path: str, method: str) -> bool:
    """Whether a read-only copy serves this request."""
    if path == "/" + ENDPOINT:
        return method == "POST"
    if path.startswith("/i18n/"):
        return True  # the language switch only sets a cookie
    read = method in READ_METHODS
    return read and (path == "/" or path.startswith(("/p/", "/s/", "/static/")))


class PublicCopyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        if not settings.PUBLIC_COPY_MODE:
            pusher_start()
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if copy_allows(request.path, request.method or "GET"):
            return self.get_response(request)
        body = render_to_string("brackets/hosted/read_only.html", request=request)
        return HttpResponse(body, status=403)
