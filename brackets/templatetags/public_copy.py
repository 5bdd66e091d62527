"""The public copy's status line on the tournament's staff page."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings

from brackets.models import PublicCopyPush
from brackets.models import Tournament

register = template.Library()


@register.inclusion_tag("brackets/hosted/_status_line.html")
def public_copy_status(tournament: Tournament) -> dict[str, Any]:
    """Where the copy is and how the last push went; nothing when no copy is set."""
    if not settings.PUBLIC_COPY_URL or settings.PUBLIC_COPY_MODE:
        return {"configured": False}
    state = PublicCopyPush.objects.filter(tournament=tournament).first()
    return {"configured": True, "url": settings.PUBLIC_COPY_URL, "state": state,
            "behind": state is None or state.acknowledged < state.sequence}
