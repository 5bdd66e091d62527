"""The check-in code of an entrant (issue 15 item 5): the QR on the entry sheet and on the
desk's confirmation slip.

The code is the address ``/p/<slug>/c/<token>/``: a phone that reads it opens the player's
own page, and the desk's scan field (a USB scanner types the address and Enter; the camera
button reads it with jsQR) checks the entrant in. The token is the tournament and entrant
ids signed with the server's secret key (``django.core.signing``), so a code cannot be made
up or edited into someone else's check-in, and reading it needs no network: the desk
tablet talks only to the venue's server.
"""

from __future__ import annotations

import re

from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext as _

from brackets.errors import Refused
from brackets.models import Entrant, Tournament

SALT = "brackets.checkin-code"
_PATH = re.compile(r"/c/([^/?#\s]+)")


class CheckinCodeRefused(Refused):
    """A scanned text that is no check-in code of this tournament; ``message`` says why."""


def _signer() -> signing.Signer:
    return signing.Signer(salt=SALT)


def checkin_token(entrant: Entrant) -> str:
    """The signed token of ``entrant`` (stable: the same sheet can be printed again)."""
    return _signer().sign(f"{entrant.tournament_id}.{entrant.pk}")


def checkin_path(entrant: Entrant, slug: str) -> str:
    return reverse("public_checkin_code", kwargs={"slug": slug, "token": checkin_token(entrant)})


def checkin_url(entrant: Entrant, slug: str, base_url: str) -> str:
    """The address the QR code holds: the venue server's address plus the code's path."""
    return base_url.rstrip("/") + checkin_path(entrant, slug)


def token_of(scanned: str) -> str:
    """The token in what a scanner typed: a whole address or the bare token."""
    text = scanned.strip()
    found = _PATH.search(text)
    return found.group(1) if found else text


def entrant_of_code(tournament: Tournament, scanned: str) -> Entrant:
    """The entrant a scanned code names; refused when it is forged, damaged, of another
    tournament or of an entrant who no longer exists."""
    token = token_of(scanned)
    if not token:
        raise CheckinCodeRefused(_("QRコードを読み取ってください。"))
    try:
        value = _signer().unsign(token)
    except signing.BadSignature:
        raise CheckinCodeRefused(_("このQRコードは受付票のものではないか、読み取りが不完全です。"
                                   "もう一度読み取るか、名前で検索してください。")) from None
    tournament_id, _sep, entrant_id = value.partition(".")
    if tournament_id != str(tournament.pk):
        raise CheckinCodeRefused(_("別の大会の受付票です。"))
    entrant = Entrant.objects.filter(tournament=tournament, pk=int(entrant_id)).first()
    if entrant is None:
        raise CheckinCodeRefused(_("この受付票の参加者は登録から削除されています。"))
    return entrant
