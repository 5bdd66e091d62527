"""Rendered page bodies, cached per tournament revision, with per-request holes.

A staff page's body (the match page's four seats with every option and the engine's
reason for each, a round's 256 group cards) costs far more to build than to send, and it
changes only when the tournament does. So the body is rendered once per
``Tournament.revision`` (which moves in the same transaction as every write:
brackets/perf/revision.py) and served from the cache until the next write.

What must differ per request is never cached: the body is rendered without the request
(no user, no messages; base.html around it is rendered per request) and with two holes,
filled on the way out:

- ``csrf_token``: this session's token, so a cached form posts for whoever loads it;
- ``key``: a fresh idempotency key per page load. Two tablets that loaded the same cached
  page must not share a key, or the second save would be taken for a double tap of the
  first and dropped.

The cache key also carries the language and the viewer's roles, so a page never shows
another language or another role's controls.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags, quote_etag
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from brackets.perf.compression import accepts_gzip, compressed, gzipped_response
from brackets.permissions import public_tournament
from brackets.selectors.rounds import tournament_version

# Letters only, so template escaping leaves them as they are.
CSRF_HOLE = "csrfHoleQx7w"
KEY_HOLE = "keyHoleQx7w"
BODY_HOLE = "bodyHoleQx7w"
# A page that is not read again is dropped after this; a new revision never hits it anyway.
TTL_SECONDS = 600


def render_page(request: HttpRequest, frame: str, body: str,
                build: Callable[[], dict[str, Any]], *, tournament: Any,
                cache_as: Iterable[Any] | None, status: int = 200) -> HttpResponse:
    """The page ``frame`` (base.html around ``{{ body }}``, rendered per request) with
    ``body`` rendered from ``build()``'s context, holes filled for this request.

    ``build()`` may put plain values the frame needs (its title) under ``"frame"``; they
    are cached with the body, so a cached page runs no query of its own — ``build``
    itself must therefore check that what it shows belongs to ``tournament`` (a 404 there
    is never cached). ``cache_as`` names the page (``("match", group_id)``); ``None``
    renders without the cache, for a page that shows what this request posted."""
    key = None
    entry = None
    if cache_as is not None:
        roles = ",".join(sorted(getattr(request, "roles", ())))
        key = ":".join(str(part) for part in (
            "page", *cache_as, tournament_version(tournament), get_language(), roles))
        entry = caches["pages"].get(key)
    if entry is None:
        context = build()
        frame_values = context.pop("frame", {})
        context.update(csrf_token=CSRF_HOLE, key=KEY_HOLE)
        entry = (render_to_string(body, context).encode(), frame_values)
        if key is not None:
            caches["pages"].set(key, entry, TTL_SECONDS)
    body_bytes, frame_values = entry
    # The frame is rendered around a placeholder and the body joined in as bytes: a round
    # page's body is ~200 KB, which would otherwise be copied, scanned and encoded again
    # on every request by the template and the response.
    frame_html = render_to_string(frame, {"tournament": tournament, **frame_values,
                                          "body": mark_safe(BODY_HOLE)}, request)
    before, after = frame_html.encode().split(BODY_HOLE.encode(), 1)
    return HttpResponse(before + fill_holes(request, body_bytes) + after, status=status)


def fill_holes(request: HttpRequest, page: bytes) -> bytes:
    """This request's CSRF token and a fresh idempotency key in place of the holes."""
    if CSRF_HOLE.encode() in page:
        page = page.replace(CSRF_HOLE.encode(), get_token(request).encode())
    if KEY_HOLE.encode() in page:
        page = page.replace(KEY_HOLE.encode(), uuid.uuid4().hex.encode())
    return page


# A visitor's page may show a tournament as it was this long ago at most: the public
# pages trust the revision they last read for this long instead of reading it on every
# request (the pages promise results no more than 2 s old, and poll every few seconds).
PUBLIC_FRESH_SECONDS = 1


def csrf_hole(request: HttpRequest) -> dict[str, str]:
    """Context processor: a page being rendered for the public cache gets the CSRF hole
    (filled per request) instead of this visitor's token."""
    return {"csrf_token": CSRF_HOLE} if getattr(request, "csrf_hole", False) else {}


def public_page(view: Callable[..., HttpResponse] | None = None, *,
                version: Callable[..., str | None] | None = None) -> Any:
    """``permissions.public_tournament`` plus a cache of the whole response for visitors.

    Only for pages that show nothing but what the tournament's revision covers (rounds,
    results, entrants; not the buzzer rounds, whose taps are not revisions). A logged-in
    viewer or a pending message skips the cache: those pages differ per person.

    ``version(request, slug, *args)``, if given, names what this one page shows (or None
    for the revision): the page is cached and revalidated (ETag) under it instead, so a
    save elsewhere in the tournament leaves it cached. It must cover everything the page
    shows and be read before the page is built."""
    if view is None:
        return lambda view: public_page(view, version=version)
    loaded = public_tournament(view)

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        cacheable = (request.method == "GET" and not request.user.is_authenticated
                     and "messages" not in request.COOKIES)
        if not cacheable:
            return loaded(request, slug, *args, **kwargs)
        trusted = _trusted_revision(slug)
        if version is not None:
            own = _page_version(request, slug, trusted, lambda: version(request, slug, *args,
                                                                        **kwargs))
            if own is not None:
                return _served(request, own,
                               lambda: _built(loaded, request, slug, args, kwargs))
        if trusted is not None:
            hit = _cached_response(request, trusted)
            if hit is not None:
                return hit
        with one_builder(f"{slug}:{get_language()}:{request.get_full_path()}"):
            # Phones that missed together wait for one build, then take it from the cache.
            trusted = _trusted_revision(slug)
            hit = None if trusted is None else _cached_response(request, trusted)
            return hit or _build_and_keep(loaded, request, slug, args, kwargs)

    wrapper.required_roles = ()  # type: ignore[attr-defined]
    return wrapper


def _build_and_keep(loaded: Callable[..., HttpResponse], request: HttpRequest, slug: str,
                    args: Any, kwargs: Any) -> HttpResponse:
    read_at = time.time()  # no later than the tournament's read in the view
    response = _built(loaded, request, slug, args, kwargs)
    if response.streaming:
        return response
    # The revision as loaded before the page was built: a write during the build
    # leaves the page under the older revision, never a stale page under a newer one.
    revision = tournament_version(request.tournament)
    caches["default"].set_many({f"public-version:{slug}": (revision, read_at),
                                f"public-slug:{request.tournament.pk}": slug},
                               PUBLIC_FRESH_SECONDS)
    return _kept(request, response, revision)


def _page_version(request: HttpRequest, slug: str, trusted: str | None,
                  read: Callable[[], str | None]) -> str | None:
    """The page's own version: as read for the revision this process trusts (for up to
    PUBLIC_FRESH_SECONDS, like every public page), else read again. ``read`` may leave
    ``request.revision_read`` (the tournament's revision, read before the page's
    version): the pair is then trusted until that revision moves."""
    key = f"public-page:{trusted}:{get_language()}:{request.get_full_path()}"
    if trusted is not None:
        found = caches["default"].get(key)
        if found is not None:
            return str(found) or None  # "": a page with no version of its own
    read_at = time.time()
    own = read()
    revision = getattr(request, "revision_read", None)
    if revision is not None:
        caches["default"].set_many({
            f"public-version:{slug}": (revision, read_at),
            f"public-slug:{request.tournament_id_read}": slug,  # type: ignore[attr-defined]
            f"public-page:{revision}:{get_language()}:{request.get_full_path()}": own or ""},
            PUBLIC_FRESH_SECONDS)
    return own


def _trusted_revision(slug: str) -> str | None:
    """The revision the public pages of ``slug`` trust, if it was read less than
    PUBLIC_FRESH_SECONDS ago. The age counts from the read, not from when it was stored: a
    page built for 300 ms must not stretch the promise to 1.3 s. Wall-clock time, because
    another server process may have read it."""
    found = caches["default"].get(f"public-version:{slug}")
    if found is None or time.time() - found[1] >= PUBLIC_FRESH_SECONDS:
        return None
    return str(found[0])


def _built(loaded: Callable[..., HttpResponse], request: HttpRequest, slug: str,
           args: Any, kwargs: Any) -> HttpResponse:
    """The page rendered for the visitors' cache: with the CSRF hole, not this token."""
    request.csrf_hole = True  # type: ignore[attr-defined]
    try:
        return loaded(request, slug, *args, **kwargs)
    finally:
        # An error page (404 for an unknown slug) is rendered after this returns:
        # it gets the visitor's own token.
        request.csrf_hole = False  # type: ignore[attr-defined]


def _cached_response(request: HttpRequest, version: str) -> HttpResponse | None:
    """304 when the visitor has ``version`` already, the cached page, or None."""
    if _has_version(request, version):
        return _revalidated(HttpResponseNotModified(), version)
    page = caches["pages"].get(_public_key(request, version))
    if page is not None:
        return _revalidated(_cached_page_response(request, page), version)
    return None


def _has_version(request: HttpRequest, version: str) -> bool:
    # Weak comparison, as ConditionalGetMiddleware does: the ETag of a compressed page
    # comes back weak (W/"…").
    sent = {tag.removeprefix("W/") for tag in parse_etags(
        request.headers.get("If-None-Match", ""))}
    return _public_etag(version) in sent or "*" in sent


def _cached_page_response(request: HttpRequest, page: CachedPage) -> HttpResponse:
    if page.gzipped is not None and accepts_gzip(request):
        return gzipped_response(page.gzipped)
    return HttpResponse(fill_holes(request, page.content))


def _served(request: HttpRequest, version: str,
            build: Callable[[], HttpResponse]) -> HttpResponse:
    hit = _cached_response(request, version)
    if hit is not None:
        return hit
    with one_builder(f"{version}:{get_language()}:{request.get_full_path()}"):
        hit = _cached_response(request, version)
        if hit is not None:
            return hit
        response = build()
        return response if response.streaming else _kept(request, response, version)


class Builders:
    """Locks under which pages are built: when a save makes a page stale, the requests
    that find it so together wait for one build instead of each building it. A fixed set
    of locks, so no visitor's URL makes a new one. Each family of pages has its own set,
    and a build holds a lock of the outer family before one of the inner (a whole page
    before a round body inside it), never the other way round."""

    def __init__(self, size: int = 64) -> None:
        self.locks = [threading.Lock() for _ in range(size)]

    def __call__(self, name: str) -> threading.Lock:
        return self.locks[hash(name) % len(self.locks)]


one_builder = Builders()


def _kept(request: HttpRequest, response: HttpResponse, version: str) -> HttpResponse:
    """Cache a built page under ``version`` and fill its holes for this visitor."""
    # Kept as the bytes sent (a round page is ~300 KB: no decoding, escaping or
    # re-encoding per hit, only the token put in).
    if response.status_code == 200 and response["Content-Type"] == "text/html; charset=utf-8":
        page = CachedPage.of(response.content)
        caches["pages"].set(_public_key(request, version), page, TTL_SECONDS)
        if page.gzipped is not None and accepts_gzip(request):
            response = gzipped_response(page.gzipped)
    if not response.has_header("Content-Encoding"):
        response.content = fill_holes(request, response.content)
    if response.status_code == 200:
        # ConditionalGetMiddleware answers a poller that sends it back with a 304.
        _revalidated(response, version)
    return response


def revision_moved(tournament_id: int) -> None:
    """Called once a write that moved the tournament's revision is committed (brackets.
    revision): the revision the public pages trust is dropped, so the next visitor reads
    the new one instead of waiting out PUBLIC_FRESH_SECONDS. On a shared cache (REDIS_URL)
    that is every server process; with per-process caches the others wait it out, which
    is what bounds a result's age on the public pages."""
    slug = caches["default"].get(f"public-slug:{tournament_id}")
    if slug is not None:
        caches["default"].delete(f"public-version:{slug}")


# A new process (a new release of the app) never answers 304 to a page an older one sent.
_BOOT = uuid.uuid4().hex[:8]


def _public_etag(version: str) -> str:
    """A visitor's page changes only with the tournament's revision and the language (the
    URL is the browser's own key). The page's CSRF token differs per response but stays
    valid, so a page kept on a 304 still posts."""
    return quote_etag(f"{version}.{get_language()}.{_BOOT}")


@dataclass(frozen=True)
class CachedPage:
    """A visitor's page as sent: ``gzipped`` once, when the page holds no per-request hole
    (a public page carries no CSRF token: kyushu/urls.py), so a hit costs no compression."""

    content: bytes
    gzipped: bytes | None

    @classmethod
    def of(cls, content: bytes) -> CachedPage:
        holes = CSRF_HOLE.encode() in content or KEY_HOLE.encode() in content
        return cls(content, None if holes else compressed(content))


def _revalidated(response: HttpResponse, version: str) -> HttpResponse:
    """The public ETag, and "ask before reusing it" so a poll is a 304 while nothing
    changed and the new page as soon as something did."""
    # Weak once compressed, as GZipMiddleware makes it: the same page, other bytes.
    weak = "W/" if response.has_header("Content-Encoding") else ""
    response["ETag"] = weak + _public_etag(version)
    patch_cache_control(response, private=True, no_cache=True)
    return response


def _public_key(request: HttpRequest, version: str) -> str:
    return f"public:{version}:{get_language()}:{request.get_full_path()}"
