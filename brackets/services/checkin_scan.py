"""Check-in by one scan of the entry sheet's QR code (issue 15 item 5)."""

from __future__ import annotations

from typing import Any

from brackets.models import Entrant, Tournament
from brackets.selectors.checkin_codes import entrant_of_code
from brackets.services.entrants import entrant_check_in


def entrant_check_in_by_code(*, tournament: Tournament, code: str,
                             by: Any) -> tuple[Entrant, bool]:
    """Check in the entrant the scanned ``code`` names, through the desk's own check-in
    (same record, same history). Returns ``(entrant, changed)``: a second scan changes
    nothing and says so. A forged or foreign code is refused
    (:class:`brackets.selectors.checkin_codes.CheckinCodeRefused`) before any write."""
    entrant = entrant_of_code(tournament, code)
    return entrant_check_in(tournament=tournament, entrant_id=entrant.pk, by=by)
