"""The floor's pieces on pages other areas own: the dashboard card, the calls on the public
round page, 「あなたの出番」 on a player's page and the projector's call slot. Each reads
the floor selectors, so the host page's view needs no change."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from brackets.models import Entrant, Round, Tournament
from brackets.selectors import floor as floor_sel

register = template.Library()


@register.filter
def group_name(group: Any) -> str:
    """「C組」 for a group or a group view."""
    return floor_sel.group_name(getattr(group, "group", group))


@register.inclusion_tag("brackets/floor/_dashboard_card.html")
def floor_dashboard(tournament: Tournament, roles: Any) -> dict[str, Any]:
    """The dashboard's floor card: how far the current round is behind its planned start."""
    shown = bool({"organiser", "bracket"} & set(roles or ()))
    behind = None
    name = ""
    if shown:
        rows = [t for t in floor_sel.timetable(tournament, now=timezone.now())
                if t.behind_minutes is not None]
        # The next planned round not started yet tells where the day is heading; once
        # every planned round has started, the last of them.
        upcoming = [t for t in rows if t.started is None]
        shown_row = upcoming[0] if upcoming else (rows[-1] if rows else None)
        if shown_row is not None:
            behind, name = shown_row.behind_minutes, shown_row.round.name
    return {"tournament": tournament, "shown": shown, "behind": behind,
            "ahead": None if behind is None else -behind, "round_name": name}


@register.inclusion_tag("brackets/floor/_your_turn.html")
def floor_player_call(tournament: Tournament, entrant: Entrant) -> dict[str, Any]:
    """The player's call in force, or their group's estimated start while it waits."""
    call = floor_sel.player_call(tournament, entrant)
    return {"call": call, "estimate": None if call is not None
            else floor_sel.player_estimate(tournament, entrant, now=timezone.now())}


@register.inclusion_tag("brackets/floor/_projector_slot.html")
def floor_projector_slot(tournament: Tournament, round: Round) -> dict[str, Any]:
    return {"tournament": tournament, "round": round}
