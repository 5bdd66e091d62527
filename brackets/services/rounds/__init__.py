"""Writes for rounds and matches: configure, draw, seats, start, close, advance, undo, and
every fact bracket staff enter at a cabinet.

Each public function is keyword-only, one transaction, and either saves everything or
nothing (bad input raises :class:`RoundError` with a Japanese message before any write).
Every write on a match goes through :mod:`._write` (lock, idempotency key, version check,
stale merge, revision). Rules are never decided here: draws, results, legality,
advancement, lots, rule choice, cards, bans, partners and dice all come from
:mod:`brackets.engine` via the adapter.

- :mod:`.lifecycle`: configure, draw, start, close, advance, undo;
- :mod:`.match_facts`: selections, results, penalties, disqualifications, re-matches,
  confirmations, seats;
- :mod:`.specials`: 修羅 lots, rule choice, cards, bans, partners, dice, the final's setup,
  withdrawals.
"""

from __future__ import annotations

from brackets.services.rounds._write import (
    Duplicate,
    RepeatedKey,
    RoundError,
    StaleVersion,
    match_write,
)
from brackets.services.rounds.lifecycle import (
    GROUP_LABELS,
    label_for,
    round_advance,
    round_close,
    round_draw,
    round_players,
    round_start,
    round_undo,
    rounds_configure,
    rule_assignment_preview,
)
from brackets.services.rounds.match_facts import (
    disqualification_add,
    parse_score,
    penalty_add,
    penalty_revoke,
    recorded_facts_check,
    rematch_record,
    result_confirm,
    results_record,
    results_save,
    seats_assign,
    selection_save,
)
from brackets.services.rounds.specials import (
    _deck as _deck,  # the match page shows the K7 deck the draw uses
)
from brackets.services.rounds.specials import (
    ban_record,
    ban_reveal,
    card_draw,
    dice_record,
    final_setup_record,
    partner_record,
    rule_choice_record,
    shura_format_lot_pool,
    shura_format_lots_allowed,
    shura_lots_draw,
    withdrawal_record,
)

__all__ = [
    "GROUP_LABELS", "Duplicate", "RepeatedKey", "RoundError", "StaleVersion", "ban_record",
    "ban_reveal", "card_draw", "dice_record", "disqualification_add", "final_setup_record",
    "label_for", "match_write", "parse_score", "partner_record", "penalty_add",
    "penalty_revoke", "recorded_facts_check", "rematch_record", "result_confirm",
    "results_record", "results_save", "round_advance", "round_close", "round_draw",
    "round_players", "round_start", "round_undo", "rounds_configure",
    "rule_assignment_preview", "rule_choice_record", "seats_assign", "selection_save",
    "shura_format_lot_pool", "shura_format_lots_allowed", "shura_lots_draw",
    "withdrawal_record",
]
