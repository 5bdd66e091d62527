"""The rules of QMA tournaments, as a pure package (the buzzer rounds: :mod:`.buzzer`).

Standard library only: no Django, no ORM. Plain typed data in, plain data out. The web
app (``brackets.adapters`` / ``brackets.services`` / ``brackets.selectors``) is the only
adapter to the database.

The names in ``__all__`` are the public API: the rest of the app imports them from here
(``from brackets.engine import legal_choices``), never from a submodule, so the modules
behind them can move without touching a caller. ``docs/engine.md`` says what each name is
for and which rule it implements; ``tests/engine/test_public_api.py`` enforces the
boundary. Engine modules import each other directly, never through this package.

By module:

* errors: ``RuleRefusal`` (shown to staff), ``EngineBug`` (logged), their base
  ``EngineError``, and ``Violation`` (an expected violation as a value);
* lottery: ``Lottery``, every random outcome from a stored seed and a purpose;
* catalog: ``Catalog`` and its values, ``Selection`` (one set), the builtin catalogs;
* results (K2, H7, H8, H9): ``match_result`` and ``MatchResult``, ``check_rematch``;
* ratio (K3): ``group_ratios``, ``Ratio``;
* restrictions (K1, H2, H3, H6): ``legal_choices`` and ``Choices``, ``usage``;
* advancement (K4, K6): ``advance``, ``standings``, ``processing_order``, tie-breaks;
* draws (K2, K5): ``draw_groups``, ``record_draw``;
* shura (H0, H4, H5): ``lots_owed``, ``draw_lots``, ``check_eligibility``;
* record (2-d, 3-a, H0-a): ``shura_grounds`` and ``highest_card`` read a player's record,
  ``duties_in_force`` combines it with the desk's typing and overrides;
* series (0-a): ``series_berths``, the main-event berths a series' qualifiers grant,
  ``check_main_event_entry`` at the main event's desk;
* special (K6 to K10): rule selection, 下関 cards, bans, partner matches, the final;
* presets: ``get_preset`` and ``Preset``, ``RoundSpec`` (what a round stores);
* rulesets (#17): ``RuleSet``, an event's rules as a document; ``compile_ruleset``,
  ``validate_ruleset``, ``ruleset_of`` (a built-in preset as a document); ``rehearse``
  (the event played headless several times, per-round figures and shortfalls);
* match: the gates (K5, K7, K8, K9/K10 contenders, K10 series);
* bounds: the module ``bounds``, the range of every number and text field, stated once.
"""

from __future__ import annotations

from brackets.engine import bounds
from brackets.engine.advancement import (
    TIE_BREAKS,
    AdvancementOutcome,
    AdvancementRule,
    Advancer,
    Standing,
    TieContext,
    WildcardRow,
    advance,
    cross_group_table,
    processing_order,
    register_tie_break,
    standings,
)
from brackets.engine.catalog import (
    CATALOG_2016,
    CATALOG_LATER,
    Catalog,
    Format,
    FormatGroup,
    Genre,
    Selection,
    SubGenre,
)
from brackets.engine.draws import (
    Draw,
    Group,
    Method,
    draw_groups,
    dummy_count,
    group_count,
    record_draw,
)
from brackets.engine.errors import EngineBug, EngineError, RuleRefusal, Violation
from brackets.engine.floor import (
    DEFAULT_MATCH_MINUTES,
    Estimate,
    FloorCall,
    FloorGroup,
    FloorPlan,
    FloorSet,
    FloorState,
    call_check,
    estimate_starts,
    floor_plan,
    match_minutes,
)
from brackets.engine.linking import (
    CERTAIN,
    NEW,
    UNCERTAIN,
    Candidate,
    LinkVerdict,
    PlayerKeys,
    registry_match,
)
from brackets.engine.lottery import Lottery
from brackets.engine.match import (
    ContendersSource,
    bans_in_force,
    bans_pending,
    cards_pending,
    contenders,
    contenders_complete,
    contenders_source,
    game_needed,
    games_scheduled,
    require_cards,
    seeds_join,
    seeds_play_round_1,
    seeds_round,
    series_decided,
    series_games,
)
from brackets.engine.presets import (
    NO_RESTRICTION,
    SPEC_VERSION,
    Preset,
    PresetDefinition,
    RoundKind,
    RoundRestrictions,
    RoundSpec,
    RuleVariant,
    Setting,
    extra_card_rule,
    get_preset,
    list_presets,
    order_from_round,
    preset_settings,
    register_preset,
    shimonoseki_deck,
)
from brackets.engine.ratio import DISQUALIFIED, UNDEFINED, Ratio, group_ratios
from brackets.engine.corrections import (
    check_achievement_correction,
    check_entrant_link,
    check_entrant_unlink,
    check_found,
    check_reason,
    check_rename,
    check_still_in_force,
    distinct_facts,
    fact_key,
)
from brackets.engine.record import (
    ACHIEVEMENT_KINDS,
    SHIGA_EXCLUSIONS,
    Achievement,
    CardRecord,
    DeskDuties,
    RecordGives,
    ShuraGrounds,
    check_achievement,
    duties_in_force,
    highest_card,
    holds_berth,
    shura_grounds,
)
from brackets.engine.restrictions import (
    BASIC_RULE,
    Choices,
    ChoicesSummary,
    Counting,
    HistoryEntry,
    MatchRules,
    Mode,
    PlayerRules,
    QThresholds,
    Usage,
    card_allowance,
    check_pair,
    check_selection,
    counting_for_q,
    legal_choices,
    legal_choices_for_all,
    match_bans,
    mode_for_q,
    player_rules_for,
    unit_of,
    usage,
)
from brackets.engine.results import (
    DEFAULT_SCREEN_TIE_BREAK,
    MatchResult,
    Penalty,
    RematchCheck,
    ScoreRange,
    ScreenTie,
    SeatEntry,
    check_rematch,
    match_result,
)
from brackets.engine.rulesets import (
    K7_DECKS,
    K7_DRAW_PER,
    K7_EXTRA_CARD_RULES,
    RULESET_PRESETS,
    REHEARSAL_MAX_ENTRANTS,
    REHEARSAL_MAX_PLAYER_RUNS,
    REHEARSAL_MAX_RUNS,
    RULESET_VERSION,
    CardRules,
    LadderRules,
    PlayerPolicy,
    Rehearsal,
    RoundRehearsal,
    RuleSet,
    SelectionPolicy,
    Shortfall,
    ShuraPolicy,
    Span,
    Spread,
    check_rehearsal,
    compile_ruleset,
    rehearse,
    ruleset_of,
    validate_ruleset,
)
from brackets.engine.series import (
    DEFAULT_BERTHS,
    Berth,
    BerthGrant,
    QualifierResult,
    berth_holders,
    check_berth_grant,
    check_main_event_entry,
    series_berths,
)
from brackets.engine.shura import (
    DEFAULT_SHURA_RULES,
    FORMAT_LOT_POOLS,
    MAX_LOTS,
    DrawnLots,
    LotsOwed,
    PastWin,
    QualifierAppearance,
    ShuraDeclaration,
    ShuraRules,
    check_eligibility,
    draw_lots,
    format_lots_allowed,
    format_lots_declared,
    lots_owed,
    past_win_total,
    shura_player_rules,
    validate_drawn,
)
from brackets.engine.cards import (
    MAX_CARDS_PER_DRAW,
    Card,
    CardDraw,
    draw_cards,
    record_cards,
)
from brackets.engine.special import (
    DiceDuel,
    FinalSetup,
    PartnerMatch,
    PartnerOutcome,
    RuleAssignment,
    RuleChoice,
    SeriesState,
    assign_rules,
    final_setup,
    partner_match,
    partner_match_winner,
    record_dice,
    reveal_bans,
    roll_dice,
    series_state,
    set_order,
)

__all__ = [
    # A player's record across events (record.py): 2-d, 3-a, H0-a.
    "ACHIEVEMENT_KINDS", "SHIGA_EXCLUSIONS", "Achievement", "CardRecord", "ShuraGrounds",
    "check_achievement", "highest_card", "holds_berth", "past_win_total", "shura_grounds",
    "DeskDuties", "RecordGives", "duties_in_force",
    # Corrections to a record (corrections.py): withdrawals, corrections, relinks, one fact.
    "check_achievement_correction", "check_entrant_link", "check_entrant_unlink",
    "check_found", "check_reason", "check_rename", "check_still_in_force", "distinct_facts", "fact_key",
    # Main-event berths of a qualifier series (series.py): 0-a.
    "DEFAULT_BERTHS", "Berth", "BerthGrant", "QualifierResult", "berth_holders",
    "check_berth_grant", "check_main_event_entry", "series_berths",
    # Players of another machine's tournament file against the registry (linking.py).
    "CERTAIN", "NEW", "UNCERTAIN", "Candidate", "LinkVerdict", "PlayerKeys", "registry_match",
    # The floor: cabinet sets and the call queue (floor.py).
    "DEFAULT_MATCH_MINUTES", "Estimate", "FloorCall", "FloorGroup", "FloorPlan", "FloorSet",
    "FloorState", "call_check", "estimate_starts", "floor_plan", "match_minutes",
    # An event's rules as a document: composed, checked, compiled, exchanged (rulesets/): #17.
    "K7_DECKS", "K7_DRAW_PER", "K7_EXTRA_CARD_RULES", "RULESET_PRESETS",
    "RULESET_VERSION", "CardRules", "LadderRules", "PlayerPolicy", "RuleSet",
    "SelectionPolicy", "ShuraPolicy", "compile_ruleset", "ruleset_of", "validate_ruleset",
    # The event played headless before the day (rulesets/rehearsal.py): #17 item 3.
    "REHEARSAL_MAX_ENTRANTS", "REHEARSAL_MAX_PLAYER_RUNS", "REHEARSAL_MAX_RUNS", "Rehearsal",
    "RoundRehearsal", "Shortfall", "Span", "Spread", "check_rehearsal", "rehearse",
    "BASIC_RULE", "CATALOG_2016", "CATALOG_LATER", "DEFAULT_SCREEN_TIE_BREAK", "DISQUALIFIED",
    "DEFAULT_SHURA_RULES", "FORMAT_LOT_POOLS", "MAX_LOTS", "NO_RESTRICTION", "SPEC_VERSION", "TIE_BREAKS",
    "UNDEFINED", "MAX_CARDS_PER_DRAW", "AdvancementOutcome", "AdvancementRule", "Advancer", "Card", "CardDraw",
    "Catalog", "Choices", "ChoicesSummary", "ContendersSource", "Counting", "DiceDuel", "Draw",
    "DrawnLots", "EngineBug", "EngineError", "FinalSetup", "Format", "FormatGroup", "Genre",
    "Group", "HistoryEntry", "LotsOwed", "Lottery", "MatchResult", "MatchRules", "Method",
    "Mode", "PartnerMatch", "PartnerOutcome", "PastWin", "Penalty", "PlayerRules", "Preset",
    "PresetDefinition", "QThresholds", "QualifierAppearance", "Ratio", "RematchCheck",
    "RoundKind", "RoundRestrictions", "RoundSpec", "RuleAssignment", "RuleChoice",
    "RuleRefusal", "RuleVariant", "ScoreRange", "ScreenTie", "SeatEntry", "Selection",
    "SeriesState", "Setting", "ShuraDeclaration", "ShuraRules", "Standing", "SubGenre", "TieContext",
    "Usage", "Violation", "WildcardRow", "advance", "assign_rules", "bans_in_force",
    "bans_pending", "bounds", "card_allowance", "cards_pending", "check_eligibility",
    "check_pair", "check_rematch", "check_selection", "contenders", "contenders_complete",
    "contenders_source", "counting_for_q", "cross_group_table", "draw_cards", "draw_groups",
    "draw_lots", "dummy_count", "extra_card_rule", "final_setup", "format_lots_allowed",
    "format_lots_declared", "game_needed", "games_scheduled", "get_preset", "group_count",
    "group_ratios", "legal_choices", "legal_choices_for_all", "list_presets", "lots_owed",
    "match_bans", "match_result", "mode_for_q", "order_from_round", "partner_match",
    "partner_match_winner", "player_rules_for", "preset_settings", "processing_order",
    "record_cards", "record_dice", "record_draw", "register_preset", "register_tie_break",
    "require_cards", "reveal_bans", "roll_dice", "seeds_join", "seeds_play_round_1",
    "seeds_round", "series_decided", "series_games", "series_state", "set_order",
    "shimonoseki_deck", "shura_player_rules", "standings", "unit_of", "usage",
    "validate_drawn",
]
