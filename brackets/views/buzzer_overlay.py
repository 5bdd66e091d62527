"""Stream overlays of a buzzer round for streaming software (an OBS browser source).

1920×1080 pages with a transparent background and a fixed layout, in two variants: a lower
third and a side bar. Public and read-only like the stage scoreboard
(:mod:`brackets.views.buzzer_public`), and fed exactly as it is: the same payload
(:func:`brackets.selectors.buzzer.safe_payload`, with the engine's display hints) and the
same server-sent event stream, so the overlay and the stage cannot disagree.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from brackets.models import Tournament
from brackets.permissions import public_tournament
from brackets.selectors.buzzer import safe_payload
from brackets.views.buzzer import round_or_404

VARIANTS = ("lower", "side")


def _overlay(request: HttpRequest, tournament: Tournament, round_id: int, variant: str) -> HttpResponse:
    round_ = round_or_404(tournament, round_id)
    response = render(
        request,
        "brackets/buzzer/overlay.html",
        {
            "tournament": tournament,
            "round": round_,
            "payload": safe_payload(round_),
            "variant": variant,
        },
    )
    # A browser source is loaded once and kept; it must not show a cached old round.
    response["Cache-Control"] = "no-cache"
    return response


@public_tournament
def public_buzzer_overlay_lower(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """The lower-third overlay: one row of players along the bottom of a 1920×1080 frame."""
    return _overlay(request, tournament, round_id, "lower")


@public_tournament
def public_buzzer_overlay_side(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """The side-bar overlay: players stacked down the right edge of a 1920×1080 frame."""
    return _overlay(request, tournament, round_id, "side")
