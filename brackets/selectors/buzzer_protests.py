"""Reads for protests (審議): the engine's preview worded for the page, and the history line.

The engine decides everything (:func:`brackets.engine.buzzer.protest_preview`): who
changes, which recorded answers no longer stand, and whether the organiser must allow it.
This module adds names, the scoreboard's own display of a player's numbers (the payload's
display hints) and Japanese sentences.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from brackets.engine.buzzer import (
    Event,
    Rejudge,
    RoundState,
    ThrowOut,
    protest_preview,
    scoreboard,
)
from brackets.messages import engine_message
from brackets.models import BuzzerRound
from brackets.selectors.buzzer import (
    _disqualified,
    _status_label,
    protest_text,
    round_log,
    round_players,
    round_state,
)


def _numbers(row: Mapping[str, Any], unit: str) -> str:
    text = f"{row['main']}{unit}"
    return text + (f" ×{row['wrong']}" if row["wrong"] else "")


def _rows(state: RoundState) -> tuple[dict[str, dict[str, Any]], str]:
    data = scoreboard(state)
    rows = {}
    for row in data["players"]:
        row = dict(row)
        row["label"] = _status_label(row, disqualified=_disqualified(state, row["id"]))
        rows[row["id"]] = row
    return rows, str(data["display"]["unit"])


def _voided_text(event: Event, question: int | None, code: str, names: Mapping[str, str]) -> str:
    player = getattr(event, "player", None)
    what = (names.get(player, player) + " " + ("○" if event.kind == "correct" else "×")
            if player and event.kind in ("correct", "wrong") else event.kind)
    if event.kind == "thru":
        what = _("スルー")
    reason = {
        "protest_superseded": _("審議で判定を変更"),
        "protest_thrown": _("没問"),
    }.get(code) or engine_message(code)
    prefix = _("第%(q)s問") % {"q": question} if question else ""
    return f"{prefix} {what}: {reason}".strip()


def protest_preview_data(
    round_: BuzzerRound, event: Rejudge | ThrowOut, *, organiser: bool
) -> dict[str, Any]:
    """What the protest will change, for the confirmation page (raises ``EngineError``
    when it cannot apply at all: no such question or answer, nothing to change)."""
    players = round_players(round_)
    records = round_log(round_)
    state = round_state(round_, records, players)
    names = {p.key: p.name for p in players}
    preview = protest_preview(state, event)
    before, unit = _rows(state)
    after, _unit = _rows(preview.state)
    changes = [
        {
            "seat": before[c.player]["seat"],
            "name": names.get(c.player, c.player),
            "before": _numbers(before[c.player], unit),
            "after": _numbers(after[c.player], unit),
            "status_before": before[c.player]["label"],
            "status_after": after[c.player]["label"],
        }
        for c in preview.changes
    ]
    refusal = preview.refusal
    return {
        "text": protest_text(event.to_dict(), names),
        "changes": changes,
        "voided": [_voided_text(v.event, v.question, v.code, names) for v in preview.voided],
        "refusal": refusal,
        "refusal_text": engine_message(refusal, {"window": state.config.protest_window})
        if refusal else "",
        "can_apply": refusal is None or organiser,
        "reopens": preview.reopens,
        "ends": preview.ends,
        "question_before": state.question,
        "question_after": preview.state.question,
        "seq": len(records),
    }
