"""The copy's receiving endpoint: ``POST /public-copy/push/`` from the venue's pusher."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from brackets.exporters.tournament_file import TournamentFileError
from brackets.hosted.payload import PayloadError, decode
from brackets.hosted.receive import public_copy_receive


def _token_ok(request: HttpRequest) -> bool:
    expected = settings.PUBLIC_COPY_TOKEN
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    return bool(expected) and hmac.compare_digest(given.encode(), expected.encode())


@csrf_exempt  # a machine posts here with its token; there is no session or form
@require_POST
def public_copy_push(request: HttpRequest) -> JsonResponse:
    """Apply a push: 200 ``applied``/``ignored``, 403 bad token, 411/413 length missing or
    too big, 400 unreadable, 409 a file this copy cannot import. Exists only on a copy
    (404 elsewhere)."""
    if not settings.PUBLIC_COPY_MODE:
        raise Http404
    if not _token_ok(request):
        return JsonResponse({"error": gettext("トークンが違います。")}, status=403)
    limit = settings.PUBLIC_COPY_MAX_BYTES
    length = request.headers.get("Content-Length", "")
    if not length.isdigit():
        return JsonResponse({"error": gettext("送信の長さ（Content-Length）がありません。")},
                            status=411)
    if int(length) > limit:
        return JsonResponse({"error": gettext("送信内容が大きすぎます。")}, status=413)
    try:
        envelope = decode(request.read(limit + 1), max_bytes=limit)
    except PayloadError as exc:
        return JsonResponse({"error": str(exc)}, status=exc.status)
    try:
        received = public_copy_receive(envelope=envelope)
    except PayloadError as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    except TournamentFileError as exc:
        return JsonResponse({"error": exc.message}, status=409)
    return JsonResponse({"status": received.status, "slug": received.slug,
                         "sequence": received.sequence})
