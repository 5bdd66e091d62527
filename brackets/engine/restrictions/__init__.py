"""What a player may choose in a match, and why everything else is greyed out.

Every QMA tournament rule about selections is built from a few pieces, combined per round by
a preset:

* a **mode** per player — FREE, PINPOINT (the exact genre × format pair is banned once used)
  or BOMBER (genre and format each banned once used). Fixed per tournament (K1) or derived
  from the Q level of the player's highest card (H2), with プチ修羅 opt-up and 修羅 forcing
  BOMBER (:func:`player_rules_for`);
* a **counting** per player — GROUPED (高火力: a whole format group is one format) or
  INDIVIDUAL (低火力: each format on its own), fixed or by Q level (H3). Sub-genre sets always
  consume their genre; they count in the サブジャンル group; ランダム is one group;
* a **history window**: only sets played earlier in the same window and recorded count
  (K6 rule B is played unrecorded; the K10 final opens a fresh window; a match may ignore
  history altogether, like the K9 third-place match);
* whole-event 修羅 lots on genres and formats (H4, H5);
* match-level limits: the 下関 cards (K7: only drawn genres and groups), the simultaneous
  bans (K8), and the partner's set of the same pair (K9/K10: the two sets of a pair differ in
  genre AND group);
* the **fallbacks** (H6, K7, K8): when no genre is legal ノンジャンル may be (re)used, when no
  format is legal ランダム may be; if the pair-level rules still leave nothing (a corner case
  the rule pages do not cover) the set (ノンジャンル, ランダム) is the forced choice.

:func:`legal_choices` computes a :class:`Choices` for one player and one match: cheap to
build (set operations over a handful of names, no enumeration of the 100-odd sets), with
per-set :meth:`Choices.reasons` for the page that greys options, and :meth:`Choices.check`
for a selection actually played (violations and the preset penalty).

The inputs live in :mod:`.rules`, the counting of a history in :mod:`.usage`, the choices
in :mod:`.choices`; every name is importable from here.
"""

from __future__ import annotations

from brackets.engine.restrictions.choices import (
    Choices,
    ChoicesSummary,
    Option,
    SelectionCheck,
    card_allowance,
    check_pair,
    check_selection,
    legal_choices,
    legal_choices_for_all,
    match_bans,
)
from brackets.engine.restrictions.rules import (
    BASIC_RULE,
    DEFAULT_THRESHOLDS,
    Counting,
    HistoryEntry,
    MatchRules,
    Mode,
    PlayerRules,
    QThresholds,
    counting_for_q,
    mode_for_q,
    player_rules_for,
)
from brackets.engine.restrictions.usage import Usage, unit_of, units_of, usage, window_entries

__all__ = [
    "BASIC_RULE", "DEFAULT_THRESHOLDS", "Choices", "ChoicesSummary", "Counting",
    "HistoryEntry", "MatchRules", "Mode", "Option", "PlayerRules", "QThresholds",
    "SelectionCheck", "Usage", "card_allowance", "check_pair", "check_selection",
    "counting_for_q", "legal_choices", "legal_choices_for_all", "match_bans", "mode_for_q",
    "player_rules_for", "unit_of", "units_of", "usage", "window_entries",
]
