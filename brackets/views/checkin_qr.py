"""Check-in by QR (issue 15 item 5): the desk's scan field, the code's public address (the
player's own page) and the confirmation slip with the code.

The scan field is a plain form: a USB scanner types the code and Enter; the camera button
(brackets/static/brackets/checkin_scan.js with the vendored jsQR) fills the same field.
"""

from __future__ import annotations

from typing import Any

import segno
from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from brackets.models import Entrant, Role, Tournament
from brackets.permissions import public_tournament, role_required
from brackets.selectors.checkin_codes import CheckinCodeRefused, checkin_url, entrant_of_code
from brackets.selectors.entrants import desk_counts
from brackets.services.checkin_scan import entrant_check_in_by_code
from brackets.views.documents import _printed_base_url

DESK_ROLES = (Role.ORGANISER, Role.DESK)
CODE_MAX = 500


class ScanForm(forms.Form):
    code = forms.CharField(label=gettext_lazy("QRコード"), max_length=CODE_MAX, strip=True,
                           error_messages={"required": gettext_lazy("QRコードを読み取ってください。"),
                                           "max_length": gettext_lazy("受付票のQRコードではありません（長すぎます）。")})


def _scan_outcome(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    form = ScanForm(request.POST)
    if not form.is_valid():
        return {"ok": False, "text": " ".join(form.errors["code"])}
    try:
        entrant, changed = entrant_check_in_by_code(tournament=tournament,
                                                     code=form.cleaned_data["code"],
                                                     by=request.user)
    except CheckinCodeRefused as refused:
        return {"ok": False, "text": refused.message}
    names = {"name": entrant.name, "card": entrant.card_name}
    if changed:
        return {"ok": True, "entrant": entrant,
                "text": _("%(name)s さん（%(card)s）を受付しました。") % names}
    return {"ok": True, "again": True, "entrant": entrant,
            "text": _("%(name)s さん（%(card)s）は受付済みです。") % names}


@require_POST
@role_required(*DESK_ROLES)
def desk_scan(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """One scan checks the entrant in; a second scan says they already are."""
    outcome = _scan_outcome(request, tournament)
    if request.headers.get("HX-Request") != "true":
        level = messages.success if outcome["ok"] and not outcome.get("again") else (
            messages.info if outcome["ok"] else messages.error)
        level(request, outcome["text"])
        return redirect("desk", slug=tournament.slug)
    body = render_to_string("brackets/desk/_scan_result.html", {"outcome": outcome},
                            request=request)
    counts = render_to_string("brackets/desk/_counts.html",
                              {"counts": desk_counts(tournament=tournament),
                               "tournament": tournament, "oob": True}, request=request)
    # 200 either way: htmx swaps only 2xx, and the fragment itself says what went wrong.
    return HttpResponse(body + counts)


@require_GET
@public_tournament
def public_checkin_code(request: HttpRequest, tournament: Tournament, token: str) -> HttpResponse:
    """The address in the QR code, opened on a phone: the player's own page. Reading it
    checks nobody in (a GET changes nothing; the desk's scan does)."""
    try:
        entrant = entrant_of_code(tournament, token)
    except CheckinCodeRefused as refused:
        raise Http404(refused.message) from None
    return redirect("public_player", slug=tournament.slug, entrant_id=entrant.pk)


def qr_svg(data: str, scale: int = 6) -> str:
    """The QR code of ``data`` as inline SVG (segno, pure Python: no network, no image)."""
    return str(segno.make(data, error="m", micro=False).svg_inline(scale=scale, border=4))


@require_GET
@role_required(*DESK_ROLES)
def desk_entrant_qr(request: HttpRequest, tournament: Tournament, entrant_id: int) -> HttpResponse:
    """The confirmation slip: the entrant's name and their check-in QR code, to show on
    the desk tablet (the player photographs it) or print, when there is no entry sheet."""
    entrant = get_object_or_404(Entrant, tournament=tournament, pk=entrant_id)
    url = checkin_url(entrant, tournament.slug, _printed_base_url(request))
    return render(request, "brackets/desk/entrant_qr.html",
                  {"tournament": tournament, "entrant": entrant, "url": url,
                   # segno's own SVG markup; the address in it is ours, not typed text.
                   "qr": mark_safe(qr_svg(url))})
