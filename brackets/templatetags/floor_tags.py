"""The organiser's announcements on public pages (issue 15 item 6), as one inclusion tag:
public home, projector and player pages show the same box without their views changing."""

from __future__ import annotations

from typing import Any

from django import template

from brackets.selectors.timetable import active_announcements

register = template.Library()


@register.inclusion_tag("brackets/public/_announcements.html")
def announcements_box(tournament: Any, big: bool = False) -> dict[str, Any]:
    return {"announcements": active_announcements(tournament), "big": big}
