"""Role-matrix entries for the floor URLs of the draw release, check-in by
QR, announcements, timetable). Merged into ``tests/test_role_matrix.MATRIX``."""

from __future__ import annotations

from typing import Any

from tests.rounds.matrix import BRACKET, DESK, ORGANISER, PUBLIC, _entry, _round, rounds_world


def _announcement(w: dict[str, Any]) -> dict[str, Any]:
    from brackets.services.announcements import announcement_post

    if "announcement" not in w:
        w["announcement"] = announcement_post(tournament=w["tournament"], by=None,
                                              text="休憩 15:00まで")
    return {"slug": w["tournament"].slug, "announcement_id": w["announcement"].id}


def _checkin_token(w: dict[str, Any]) -> dict[str, Any]:
    from brackets.selectors.checkin_codes import checkin_token

    entrant = rounds_world(w)["rounds_entrant"]
    return {"slug": w["tournament"].slug, "token": checkin_token(entrant)}


def notices_matrix() -> dict[str, Any]:
    from tests.test_role_matrix import Entry

    return {
        "round_release": _entry(ORGANISER, "POST", kwargs=_round),
        "desk_scan": Entry(DESK, method="POST",
                           data=lambda w: {"code": _checkin_token(w)["token"]}),
        "public_checkin_code": Entry(PUBLIC, kwargs=_checkin_token),
        "desk_entrant_qr": Entry(DESK, kwargs=lambda w: {
            "slug": w["tournament"].slug,
            "entrant_id": rounds_world(w)["rounds_entrant"].id}),
        "announcements": Entry(ORGANISER),
        "announcement_withdraw": Entry(ORGANISER, method="POST", kwargs=_announcement),
        "timetable": Entry(ORGANISER),
        "public_timetable": Entry(PUBLIC),
    }


__all__ = ["BRACKET", "floor_matrix"]
