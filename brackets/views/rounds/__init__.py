"""Bracket staff pages: rounds, the tablet match page, special rounds and the 修羅 desk.

One module per page: ``index`` (rounds list, round page, lifecycle steps), ``advance``
(the advancement preview), ``match`` (the match page and its writes), ``special`` (K6
rule choices, K9/K10 partners, dice, the final's setup) and ``shura`` (the 修羅 desk).

Views stay thin: they parse the form, call one service, and render selector data. Every
rule (legal choices, placements, 惜敗率, advancers) comes from the engine through the
selectors; a refused save re-renders the page with the service's message (HTTP 400, or
409 for a stale version) and nothing saved.
"""

from __future__ import annotations

from brackets.views.rounds._common import round_summary, seat_rule_label
from brackets.views.rounds.advance import round_advance_preview
from brackets.views.rounds.index import (
    round_action,
    round_detail,
    rounds_configure,
    rounds_index,
)
from brackets.views.rounds.match import (
    match_action,
    match_confirm,
    match_history,
    match_page,
    match_results,
    match_selection,
    match_special,
)
from brackets.views.rounds.shura import shura_desk
from brackets.views.rounds.special import round_special

__all__ = [
    "match_action",
    "match_confirm",
    "match_history",
    "match_page",
    "match_results",
    "match_selection",
    "match_special",
    "round_action",
    "round_advance_preview",
    "round_detail",
    "round_special",
    "round_summary",
    "rounds_configure",
    "rounds_index",
    "seat_rule_label",
    "shura_desk",
]
