"""Reads for the round pages, the match page, the public pages and the replay printer.

Everything derived (placements, 惜敗率, advancers, legal choices, gates) is computed from
the current facts through the engine; nothing derived is stored. Each function issues a
fixed number of queries whatever the number of entrants, so pages stay flat as a
tournament grows. The modules, by concern:

* :mod:`.groups`: a group's rows and facts per group version, its verdict and status;
* :mod:`.choices`: each seat's legal choices, and the H7 penalty of sets accepted as illegal;
* :mod:`.matches`: one match as every page, document and write sees it (the snapshot);
* :mod:`.advancement`: round views, the cross-group table, advancers, the podium;
* :mod:`.finals`: K9/K10 pair games and series;
* :mod:`.history`: what each player played before, and a match's fact history.

Callers import this package (``from brackets.selectors import rounds as sel``); the names
below are its public API.
"""

from __future__ import annotations

from brackets.selectors.rounds.advancement import (
    advancement_preview,
    advancers_of,
    last_step,
    overall_order_note,
    podium,
    results_by_label,
    round_group_views,
    round_table,
    round_view,
    seeds_entering,
    tournament_rounds,
    undefined_ratio_note,
    withdrawn_ids,
)
from brackets.selectors.rounds.choices import (
    BEFORE_MATCH,
    SeatChoices,
    frozen,
    match_context,
    match_contexts,
    seat_choices,
    selection_penalties,
)
from brackets.selectors.rounds.finals import (
    PODIUM_LABELS,
    PodiumRow,
    final_order,
    mark_series,
    pair_roles,
    partner_match_of,
    place_labels,
    podium_from,
    podium_kind,
    series_progress,
    series_winners,
    special_facts,
)
from brackets.selectors.rounds.group_view import (
    CONFIRMING,
    DONE,
    PLAYING,
    SELECTING,
    STATUS_LABELS,
    UNUSED,
    WAITING,
    GroupView,
)
from brackets.selectors.rounds.groups import (  # noqa: F401  (the kept-rows and verdict caches: tests and the bench clear them)
    _VERDICTS,
    _WRITE_ROWS,
    _WRITE_ROWS_LOCK,
    GroupRows,
    RoundView,
    _write_rows_key,
    assemble,
    current_seats,
    entrant_map,
    entrant_names,
    group_rows,
    group_view,
    group_views,
    ratio_display,
    remember_write_rows,
    seated_names,
    tournament_version,
    write_check_rows,
)
from brackets.selectors.rounds.history import (
    WINDOW_LABELS,
    HistoryRow,
    group_history,
    lots_of,
    round_restrictions,
    selection_history,
    used_by_window,
    used_summary,
    window_of,
)
from brackets.selectors.rounds.matches import (
    MatchGates,
    MatchSnapshot,
    match_snapshot,
    match_snapshots,
)

__all__ = [
    "BEFORE_MATCH", "CONFIRMING", "DONE", "PLAYING", "PODIUM_LABELS", "SELECTING",
    "STATUS_LABELS", "UNUSED", "WAITING", "WINDOW_LABELS", "GroupRows", "GroupView",
    "HistoryRow", "MatchGates", "MatchSnapshot", "PodiumRow", "RoundView", "SeatChoices",
    "advancement_preview", "advancers_of", "assemble", "current_seats", "entrant_map",
    "entrant_names", "final_order", "frozen", "group_history", "group_rows", "group_view",
    "group_views", "last_step", "lots_of", "mark_series", "match_context", "match_contexts",
    "match_snapshot", "match_snapshots", "overall_order_note", "pair_roles",
    "partner_match_of", "place_labels", "podium", "podium_from", "podium_kind",
    "ratio_display", "remember_write_rows", "results_by_label", "round_group_views",
    "round_restrictions", "round_table", "round_view", "seat_choices", "seated_names",
    "seeds_entering",
    "selection_history", "selection_penalties", "series_progress", "series_winners",
    "special_facts", "tournament_rounds", "tournament_version", "undefined_ratio_note",
    "used_by_window", "used_summary", "window_of", "withdrawn_ids", "write_check_rows",
]
