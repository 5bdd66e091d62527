"""Live buzzer-quiz rounds (seeds 003 and 004): a round is the replay of its event log.

The names in ``__all__`` are the public API: the rest of the app imports them from here
(``from brackets.engine.buzzer import replay``), never from a submodule, so the modules
behind them can move without touching a caller. Standard library only; no Django.

Rounds::

    start(config, players) -> RoundState
    apply(state, event) -> RoundState           # raises RuleRefusal, state unchanged
    replay(config, players, events) -> RoundState
    allowed_actions(state) -> Allowed           # buttons for the operator console
    ranking(state) -> list[RankEntry]
    tiebreak_round(state, side) -> (RoundConfig, [PlayerSpec])
    tiebreak_from(sub_state, side) -> TieBreak
    protest_preview(state, Rejudge | ThrowOut) -> ProtestPreview  # before → after, voided
    protest_refusal(state, Rejudge | ThrowOut) -> str | None      # the window (審議)
    event_from_dict(dict) / Event.to_dict()

Question files (``questions``)::

    check_question_table(cells) -> QuestionCheck   # questions by number + every bad row
    position_in_play(state) / position_judged(state) -> int | None  # file position read
    read_position(state.thrown, q) -> int       # thrown-out questions are skipped

Screens::

    scoreboard(state) -> dict                   # JSON with display hints (``display``)
    player_rows(state) -> list[dict]            # the scoreboard's player rows alone
    question_history(state) -> [QuestionRecord] # the decided version, question by question
    display_hints(config) -> dict               # how a scoring is shown
    tiebreak_called(config) -> str              # "playoff" | "sudden_death"

Configuration: ``RoundConfig``, ``Rule``, ``WrittenRules``, ``Checkpoint``, ``PlayerSpec``;
the registries ``SCORING``, ``CONDITIONS``, ``REST_RULES``, ``JUDGE_KEYS``, ``TIE_RULES``,
``FORMATS`` and ``PRESETS`` (each a :class:`Registry` of stable slugs); ``check(rule,
player)`` evaluates a configured condition.

Settings forms: ``setting_fields()`` lists every setting of a round as a ``SettingField``
(flat key, its ``Param``: label, kind, range, default); ``config_values(config)`` and
``config_from_values(values)`` convert (``default_config()``: every default, a plain
5○2×) a ``RoundConfig`` to and from those flat values
(refusing ``bad_setting`` out of range); ``changed_settings(old, new)`` and
``settings_change_refusal(old, new, events=n)`` say what an edit changes and whether a
started round may take it (only ``LIVE_EDITABLE`` settings may change once a tap is
recorded); ``LABELS`` and ``choices(registry)`` name every
registered slug as staff read it.

Preset tournaments (``TournamentPreset``, ``QUIZ_003``, ``ABC_004``): ``entrants``,
``round_winners``, ``is_skipped``. Seating and paper quizzes: ``snake``, ``mod_split``,
``advantages_by_seat``, ``number10_priority``, ``number10_course_entry``,
``number10_courses``, ``paper_score``, ``paper_ranking``, ``paper_ranks``;
``paper_scores_ranking`` ranks totals and tie-break data typed by hand (checked by
``check_paper_score``).

Values these return, for annotations: ``RoundState`` (its ``PlayerState`` rows, ``Clock``
and pending ``Decision`` values), ``Allowed`` (from ``allowed_actions``), ``RankEntry``
(from ``ranking``), ``Scoring`` (an entry of ``SCORING``), ``RoundPreset`` and ``Feed``
(a preset's rounds and where their players come from), ``PaperRules`` and ``PaperScore``
(a paper quiz's rules and one player's score).
"""

from __future__ import annotations

from brackets.engine.buzzer.assignment import (
    PaperRules,
    PaperScore,
    advantages_by_seat,
    check_paper_score,
    mod_split,
    number10_course_entry,
    number10_courses,
    number10_priority,
    paper_ranking,
    paper_ranks,
    paper_score,
    paper_scores_ranking,
    snake,
)
from brackets.engine.buzzer.config import Checkpoint, PlayerSpec, RoundConfig, Rule, WrittenRules
from brackets.engine.buzzer.core import Allowed
from brackets.engine.buzzer.engine import (
    allowed_actions,
    apply,
    protest_preview,
    replay,
    start,
    tiebreak_from,
    tiebreak_round,
)
from brackets.engine.buzzer.events import (
    BoardResults,
    ClockExpire,
    ClockStart,
    ClockStop,
    Correct,
    Event,
    Rejudge,
    ThrowOut,
    Thru,
    TieBreak,
    Undo,
    WrittenResults,
    Wrong,
    event_from_dict,
)
from brackets.engine.buzzer.formats import FORMATS
from brackets.engine.buzzer.history import QuestionRecord, question_history
from brackets.engine.buzzer.params import LABELS, Param
from brackets.engine.buzzer.presets import (
    ABC_004,
    PRESETS,
    QUIZ_003,
    Feed,
    RoundPreset,
    TournamentPreset,
    entrants,
    is_skipped,
    round_winners,
)
from brackets.engine.buzzer.protests import PlayerChange, ProtestPreview, Voided, protest_refusal
from brackets.engine.buzzer.questions import (
    Question,
    QuestionCheck,
    check_question_table,
    position_in_play,
    position_judged,
    read_position,
)
from brackets.engine.buzzer.ranking import ranking
from brackets.engine.buzzer.registry import Registry
from brackets.engine.buzzer.rules import (
    CONDITIONS,
    JUDGE_KEYS,
    REST_RULES,
    SCORING,
    TIE_RULES,
    Scoring,
    check,
)
from brackets.engine.buzzer.scoreboard import (
    display_hints,
    player_rows,
    scoreboard,
    tiebreak_called,
)
from brackets.engine.buzzer.settings import (
    LIVE_EDITABLE,
    SettingField,
    changed_settings,
    choices,
    config_from_values,
    config_values,
    default_config,
    setting_fields,
    settings_change_refusal,
)
from brackets.engine.buzzer.state import Clock, Decision, PlayerState, RankEntry, RoundState

__all__ = [
    "ABC_004",
    "CONDITIONS",
    "FORMATS",
    "JUDGE_KEYS",
    "LABELS",
    "LIVE_EDITABLE",
    "PRESETS",
    "QUIZ_003",
    "REST_RULES",
    "SCORING",
    "TIE_RULES",
    "Allowed",
    "BoardResults",
    "Checkpoint",
    "Clock",
    "ClockExpire",
    "ClockStart",
    "ClockStop",
    "Correct",
    "Decision",
    "Event",
    "Feed",
    "PaperRules",
    "PaperScore",
    "Param",
    "PlayerChange",
    "PlayerSpec",
    "PlayerState",
    "ProtestPreview",
    "Question",
    "QuestionCheck",
    "QuestionRecord",
    "RankEntry",
    "Registry",
    "Rejudge",
    "RoundConfig",
    "RoundPreset",
    "RoundState",
    "Rule",
    "Scoring",
    "SettingField",
    "ThrowOut",
    "Thru",
    "TieBreak",
    "TournamentPreset",
    "Undo",
    "Voided",
    "WrittenResults",
    "WrittenRules",
    "Wrong",
    "advantages_by_seat",
    "allowed_actions",
    "apply",
    "changed_settings",
    "check",
    "check_paper_score",
    "check_question_table",
    "choices",
    "config_from_values",
    "config_values",
    "default_config",
    "display_hints",
    "entrants",
    "event_from_dict",
    "is_skipped",
    "mod_split",
    "number10_course_entry",
    "number10_courses",
    "number10_priority",
    "paper_ranking",
    "paper_ranks",
    "paper_score",
    "paper_scores_ranking",
    "player_rows",
    "position_in_play",
    "position_judged",
    "protest_preview",
    "protest_refusal",
    "question_history",
    "ranking",
    "read_position",
    "replay",
    "round_winners",
    "scoreboard",
    "setting_fields",
    "settings_change_refusal",
    "snake",
    "start",
    "tiebreak_called",
    "tiebreak_from",
    "tiebreak_round",
]
