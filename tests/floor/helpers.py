"""Test helpers for the floor (issue 15)."""

from __future__ import annotations

from typing import Any

from brackets.models import Round
from brackets.services import rounds as svc
from brackets.services.draw_release import round_draw_release


def draw_released(rnd: Round, user: Any) -> Round:
    """Draw a round and release it, as the organiser does before the players look: the
    named states show their draws on the public pages. Tests of a private draw draw with
    ``svc.round_draw`` alone."""
    drawn = svc.round_draw(round=rnd, by=user)
    round_draw_release(round=drawn, by=user)
    drawn.refresh_from_db()
    return drawn
