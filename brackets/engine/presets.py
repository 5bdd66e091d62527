"""Rule presets: a tournament's rules as configuration under a stable slug.

A tournament stores a preset slug plus the values of the preset's settings; everything the
engine needs to run an event — its rounds, which restriction pieces apply in each, how
players' modes are decided, the penalty, tie-break chains, draw methods — comes from the
:class:`Preset` that :func:`get_preset` builds. A new event's rules are a new registered
definition (or different setting values), never a fork of the engine.

Every point where a seed page is ambiguous is a :class:`Setting` whose default is the
default reading of ``docs/domain.md``; :attr:`Setting.doc` says which rule it belongs to.

The pieces come from the sibling modules: :mod:`.restrictions` (what a player may choose,
through :meth:`RoundRestrictions.match_rules` and :meth:`RoundRestrictions.history_entry`),
:mod:`.shura` (lots), :mod:`.draws` (methods ``random`` / ``snake`` / ``mod``),
:mod:`.advancement` (:class:`~.advancement.AdvancementRule` from
:meth:`RoundSpec.advancement_rule`), :mod:`.special` (K6–K10 facts).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, ClassVar, Literal

from .advancement import TIE_BREAKS, AdvancementRule
from .catalog import BUILTIN_CATALOGS, Catalog, Selection
from .draws import dummy_count, group_count
from .errors import EngineError
from .restrictions import (
    BASIC_RULE,
    HistoryEntry,
    MatchRules,
    Mode,
    PlayerRules,
    QThresholds,
    player_rules_for,
)
from .shura import (
    FORMAT_LOT_POOLS,
    MAX_LOTS,
    DrawnLots,
    LotsOwed,
    format_lot_pool,
    shura_player_rules,
)
from .special import Card, CardDraw, share_genre_and_group, share_genre_or_group

RoundKind = Literal[
    "groups",          # 4-player groups, top k per group advance (K4, K5, H1)
    "rule_selection",  # K6: players pick rule A or B, each rule its own groups
    "final_group",     # one group ranked 1-4 (H1-b), or top 2 / bottom 2 split (K8)
    "partner_match",   # K9: two contenders with partners, one game
    "partner_series",  # K10: two contenders with partners, first to n game wins
]
DrawMethod = Literal["random", "snake", "mod", "fixed"]
ModeSource = Literal["fixed", "by_q"]
IllegalSelection = Literal["penalty", "refuse"]


# -- settings ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setting:
    """One tournament setting: a key, its default (domain.md's default reading), the
    allowed values (None = any value of the default's type) and the rule it reads."""

    key: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    # Bounds of a number (int or Decimal) setting; for a list setting, ``minimum`` is the
    # fewest items. A list's items must be of ``item_type`` and distinct (a tie-break
    # chain naming 惜敗率 twice, or round 2 listed twice, is a typing mistake).
    minimum: int | None = None
    maximum: int | None = None
    item_type: type | None = None

    def validate(self, value: Any) -> Any:
        """The value if acceptable for this setting, else :class:`EngineError`.

        Organisers type these values on a form, so every value that would only fail later
        (a negative round size, a NaN penalty, an empty tie-break chain) is refused here,
        when the setting is saved, rather than when a round is drawn.
        """
        value = self._validate_type(value)
        if isinstance(value, tuple):
            if self.item_type is not None and any(
                    not isinstance(v, self.item_type) or isinstance(v, bool) for v in value):
                raise EngineError("setting_invalid", f"{self.key}: items must be "
                                  f"{self.item_type.__name__}", key=self.key, value=list(value))
            if any(v in value[:i] for i, v in enumerate(value)):
                raise EngineError("setting_invalid", f"{self.key}: an item is repeated",
                                  key=self.key, value=list(value))
            if self.minimum is not None and len(value) < self.minimum:
                raise EngineError("setting_invalid", f"{self.key}: at least {self.minimum} "
                                  "items", key=self.key, value=list(value),
                                  minimum=self.minimum)
            if self.item_type is int and any(v < 1 for v in value):
                # The only int lists are round numbers, which start at 1.
                raise EngineError("setting_invalid", f"{self.key}: items start at 1",
                                  key=self.key, value=list(value), minimum=1)
            return value
        if isinstance(value, (int, Decimal)) and not isinstance(value, bool):
            if self.minimum is not None and value < self.minimum:
                raise EngineError("setting_invalid", f"{self.key}: at least {self.minimum}",
                                  key=self.key, value=value, minimum=self.minimum)
            if self.maximum is not None and value > self.maximum:
                raise EngineError("setting_invalid", f"{self.key}: at most {self.maximum}",
                                  key=self.key, value=value, maximum=self.maximum)
        return value

    def _validate_type(self, value: Any) -> Any:
        """The value converted to the default's type, or :class:`EngineError`."""
        if self.choices is not None:
            if value not in self.choices:
                raise EngineError("setting_invalid", f"{self.key}: {value!r} not allowed",
                                  key=self.key, value=value, choices=list(self.choices))
            return value
        if self.default is None or value is None:
            return value
        expected: type[Any] = type(self.default)
        if expected is bool and not isinstance(value, bool):
            raise EngineError("setting_invalid", f"{self.key} must be true/false",
                              key=self.key, value=value)
        if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise EngineError("setting_invalid", f"{self.key} must be an integer",
                              key=self.key, value=value)
        if expected is Decimal:
            try:
                number = Decimal(str(value))
            except ArithmeticError as exc:
                raise EngineError("setting_invalid", f"{self.key} must be a number",
                                  key=self.key, value=value) from exc
            if not number.is_finite():
                raise EngineError("setting_invalid", f"{self.key} must be a number",
                                  key=self.key, value=value)
            return number
        if expected is tuple:
            if isinstance(value, str) or not isinstance(value, Sequence):
                raise EngineError("setting_invalid", f"{self.key} must be a list",
                                  key=self.key, value=value)
            return tuple(value)
        if expected is str and not isinstance(value, str):
            raise EngineError("setting_invalid", f"{self.key} must be text",
                              key=self.key, value=value)
        return value


# -- per-round pieces ----------------------------------------------------------------------


@dataclass(frozen=True)
class RoundRestrictions:
    """Which restriction pieces apply to the sets played in a round.

    ``read_window``: the history window that restricts choices (None: no history
    restriction, like K6 rule B and K9). ``record_window``: where the sets played are
    written (None: not recorded, K6 rule B). ``pair_history``: the window's history is the
    pair's (both sets, K10). ``cards``: K7 下関 cards. ``match_bans``: K8. ``pair_sets``:
    K9's two-set constraint. ``lots``: whole-event 修羅 lots apply.
    """

    read_window: str | None = "main"
    record_window: str | None = "main"
    lots: bool = True
    cards: bool = False
    match_bans: bool = False
    pair_sets: bool = False
    pair_history: bool = False

    def match_rules(
        self,
        round_name: str,
        *,
        cards: CardDraw | None = None,
        bans: Mapping[str, Sequence[str]] | Collection[str] = (),
        partner: Selection | None = None,
    ) -> MatchRules:
        """The :class:`MatchRules` of one match of this round, from the match's facts.

        ``bans`` is genre → who named it (or just the revealed genres, as
        :func:`.special.reveal_bans` returns them). Facts for pieces that do not apply here
        are refused, because passing them means the caller mixed up rounds.
        """
        if cards is not None and not self.cards:
            raise EngineError("cards_not_in_round", "this round draws no 下関 cards",
                              round=round_name)
        if self.cards and cards is None:
            raise EngineError("cards_missing", "draw the 下関 cards first", round=round_name)
        if bans and not self.match_bans:
            raise EngineError("bans_not_in_round", "this round has no genre bans",
                              round=round_name)
        if partner is not None and not self.pair_sets:
            raise EngineError("partner_not_in_round", "this round has no pairs",
                              round=round_name)
        ban_map: dict[str, tuple[str, ...]]
        if isinstance(bans, Mapping):
            ban_map = {g: tuple(p) for g, p in bans.items()}
        else:
            ban_map = {g: () for g in bans}
        return MatchRules(
            round=round_name,
            window=self.read_window,
            apply_lots=self.lots,
            card_genres=cards.allowed_genres if cards is not None else None,
            card_groups=cards.allowed_groups if cards is not None else None,
            match_bans=ban_map,
            partner=partner,
        )

    def history_entry(self, selection: Selection, round_name: str) -> HistoryEntry:
        """The history record of a set played in this round (unrecorded when no window)."""
        return HistoryEntry(selection, round_name, self.record_window or "",
                            recorded=self.record_window is not None)


NO_RESTRICTION = RoundRestrictions(read_window=None, record_window=None, lots=False)


@dataclass(frozen=True)
class RuleVariant:
    """One rule of a K6 rule-selection round: its capacity, groups and restrictions."""

    key: str
    name: str
    capacity: int
    advance_per_group: int
    restrictions: RoundRestrictions


@dataclass(frozen=True)
class RoundSpec:
    """One round of an event.

    ``size``: players expected in the round (None: whatever advances); ``target``: size of
    the next round that wildcards fill to (None: no wildcards); ``seeds_enter``: seeds join
    here; ``draw``: how groups are formed; ``draw_in_advance``: drawn before the event (K4);
    ``losers_to``: key of the round the non-advancers go to (K8 → K9); ``wins_needed``: a
    partner series' length (K10); ``ranks_all``: the round ranks every player (H1-b).
    """

    key: str
    name: str
    kind: RoundKind = "groups"
    group_size: int = 4
    advance_per_group: int = 2
    size: int | None = None
    target: int | None = None
    seeds_enter: bool = False
    draw: DrawMethod = "random"
    draw_in_advance: bool = False
    seed_separation: bool = True
    restrictions: RoundRestrictions = RoundRestrictions()
    variants: tuple[RuleVariant, ...] = ()
    losers_to: str | None = None
    wins_needed: int | None = None
    ranks_all: bool = False

    def variant(self, key: str) -> RuleVariant:
        """A K6 rule of this round by key."""
        for variant in self.variants:
            if variant.key == key:
                return variant
        raise EngineError("variant_unknown", f"{self.name} has no rule {key!r}",
                          round=self.key, variant=key)

    def restrictions_for(self, variant: str | None = None) -> RoundRestrictions:
        """The restriction pieces of this round (of one of its K6 rules if it has them)."""
        if self.variants:
            if variant is None:
                raise EngineError("variant_required", f"{self.name}: say which rule",
                                  round=self.key)
            return self.variant(variant).restrictions
        return self.restrictions

    def advancement_rule(self, *, already_in: int = 0, chain: Sequence[str] | None = None,
                         variant: str | None = None) -> AdvancementRule:
        """The :class:`AdvancementRule` for this round's groups."""
        per_group = (self.variant(variant).advance_per_group if variant is not None
                     else self.advance_per_group)
        rule = AdvancementRule(per_group=per_group,
                               target=None if variant is not None else self.target,
                               already_in=already_in)
        return replace(rule, wildcard_chain=tuple(chain)) if chain is not None else rule


# -- the preset ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Preset:
    """A resolved rule preset: the rounds and policies of one kind of event."""

    slug: str
    name: str
    description: str
    catalog_version: str
    rounds: tuple[RoundSpec, ...]
    mode_source: ModeSource
    fixed_rules: PlayerRules
    thresholds: QThresholds
    shura: bool
    illegal_selection: IllegalSelection
    penalty: Decimal
    tie_break: tuple[str, ...]
    dummy_selection: Selection
    settings: Mapping[str, Any]
    setting_specs: tuple[Setting, ...]
    plan: Callable[[int, int], tuple[RoundSpec, ...]] = field(repr=False, compare=False,
                                                            default=lambda n, s: ())
    max_lots: int = MAX_LOTS
    format_lot_pool_kind: str = "format_groups"
    subgenres_as_one: bool = True

    def __post_init__(self) -> None:
        """Refuse settings that name things that do not exist, when the preset is built.

        An unknown tie-break slug would otherwise only fail when round 1 ends, and a dummy
        set of an unknown format would never fail at all. The dummy set is checked against
        the builtin catalog of ``catalog_version`` when there is one (a version held only in
        the database is checked by whoever loads it).
        """
        unknown = [slug for slug in self.tie_break
                   if not isinstance(slug, str) or slug not in TIE_BREAKS]
        if unknown:
            raise EngineError("tie_break_unknown", f"{self.slug}: no tie-break {unknown}",
                              slug=self.slug, tie_breaks=unknown)
        builtin = BUILTIN_CATALOGS.get(self.catalog_version)
        if builtin is not None:
            builtin.validate(self.dummy_selection)

    def format_lot_pool(self, catalog: Catalog | None = None) -> tuple[str, ...]:
        """The format-lot types of this event (H5) for ``catalog`` (default: builtin)."""
        return format_lot_pool(catalog or self.catalog, self.format_lot_pool_kind)

    @property
    def catalog(self) -> Catalog:
        """The builtin catalog this preset was written for (the DB may supply another)."""
        try:
            return BUILTIN_CATALOGS[self.catalog_version]
        except KeyError:
            raise EngineError("catalog_unknown", f"no builtin catalog {self.catalog_version!r}",
                              version=self.catalog_version) from None

    def round(self, key: str) -> RoundSpec:
        """A round of the template by key."""
        for spec in self.rounds:
            if spec.key == key:
                return spec
        raise EngineError("round_unknown", f"{self.slug} has no round {key!r}",
                          slug=self.slug, round=key)

    def rounds_for(self, entrants: int, seeds: int = 0) -> tuple[RoundSpec, ...]:
        """The rounds an event with ``entrants`` round-1 players and ``seeds`` seeds plays.

        Fixed-format events (九州杯IX) return their template; ladder events (堅田, shop)
        add group rounds until the final group is reached.
        """
        if entrants < 0 or seeds < 0:
            raise EngineError("bad_entrants", "entrant counts cannot be negative",
                              entrants=entrants, seeds=seeds)
        planned = self.plan(entrants, seeds)
        return planned if planned else self.rounds

    def max_matches(self, entrants: int, seeds: int = 0) -> int:
        """M of H5: the most matches any one player can play in this event."""
        rounds = self.rounds_for(entrants, seeds)
        # A losers' round (K9 third place) is an alternative to the round after the one
        # feeding it, never played in addition to it.
        alternatives = {spec.losers_to for spec in rounds if spec.losers_to}
        total = 0
        for spec in rounds:
            if spec.key in alternatives:
                continue
            total += spec.wins_needed * 2 - 1 if spec.wins_needed else 1
        return total

    def player_rules(
        self,
        *,
        q_level: int = 0,
        opt_up: Mode | None = None,
        owed: LotsOwed | None = None,
        drawn: DrawnLots | None = None,
    ) -> PlayerRules:
        """An entrant's :class:`PlayerRules` for this event (K1 fixed, or H2/H3/H4)."""
        if self.mode_source == "fixed":
            if owed is not None and owed.shura:
                raise EngineError("shura_not_in_preset", f"{self.slug} has no 修羅 lots")
            return self.fixed_rules
        if owed is not None:
            if not self.shura and owed.shura:
                raise EngineError("shura_not_in_preset", f"{self.slug} has no 修羅 lots")
            if owed.genre_lots > self.max_lots:
                raise EngineError("too_many_lots", f"at most {self.max_lots} lots",
                                  lots=owed.genre_lots, cap=self.max_lots)
            rules = shura_player_rules(q_level, owed, drawn, opt_up=opt_up,
                                       thresholds=self.thresholds)
        else:
            rules = player_rules_for(q_level, opt_up=opt_up, thresholds=self.thresholds)
        if rules.subgenres_as_one != self.subgenres_as_one:
            rules = replace(rules, subgenres_as_one=self.subgenres_as_one)
        return rules

    def selection_penalty(self) -> Decimal:
        """Points off for an illegal selection (0 when such selections are refused)."""
        return self.penalty if self.illegal_selection == "penalty" else Decimal(0)


# -- registry ------------------------------------------------------------------------------


class PresetDefinition:
    """Base of registered presets: a slug, a name, settings, and a :meth:`build`."""

    slug: ClassVar[str]
    name: ClassVar[str]
    description: ClassVar[str] = ""
    settings: ClassVar[tuple[Setting, ...]] = ()

    def resolve(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with ``overrides``; unknown keys or bad values raise."""
        specs = {s.key: s for s in self.settings}
        unknown = sorted(set(overrides) - set(specs))
        if unknown:
            raise EngineError("setting_unknown", f"{self.slug} has no setting {unknown}",
                              slug=self.slug, keys=unknown)
        values = {k: s.default for k, s in specs.items()}
        for key, value in overrides.items():
            values[key] = specs[key].validate(value)
        return values

    def build(self, values: Mapping[str, Any]) -> Preset:
        """The :class:`Preset` for resolved setting values."""
        raise NotImplementedError


_REGISTRY: dict[str, type[PresetDefinition]] = {}


def register_preset(cls: type[PresetDefinition]) -> type[PresetDefinition]:
    """Class decorator: register a preset definition under its ``slug``."""
    if cls.slug in _REGISTRY:
        raise EngineError("preset_duplicate", f"preset {cls.slug!r} exists", slug=cls.slug)
    keys = [s.key for s in cls.settings]
    if len(keys) != len(set(keys)):
        raise EngineError("setting_duplicate", "duplicate setting keys", slug=cls.slug)
    _REGISTRY[cls.slug] = cls
    return cls


def get_preset(slug: str, settings: Mapping[str, Any] | None = None) -> Preset:
    """The preset registered under ``slug`` with ``settings`` over its defaults."""
    try:
        definition = _REGISTRY[slug]()
    except KeyError:
        raise EngineError("preset_unknown", f"no preset {slug!r}", slug=slug) from None
    return definition.build(definition.resolve(settings or {}))


def list_presets() -> list[Preset]:
    """Every registered preset with default settings, in registration order."""
    return [get_preset(slug) for slug in _REGISTRY]


def preset_settings(slug: str) -> tuple[Setting, ...]:
    """The settings a preset accepts (for the tournament settings form)."""
    try:
        return _REGISTRY[slug].settings
    except KeyError:
        raise EngineError("preset_unknown", f"no preset {slug!r}", slug=slug) from None


# -- shared helpers ---------------------------------------------------------------------------

_EXTRA_CARD_RULES = {"share_genre_or_group": share_genre_or_group,
                     "identical": share_genre_and_group}


def extra_card_rule(name: str) -> Callable[[Card, Card], bool]:
    """The K7 redraw rule registered under a setting value."""
    try:
        return _EXTRA_CARD_RULES[name]
    except KeyError:
        raise EngineError("setting_invalid", f"no K7 redraw rule {name!r}",
                          value=name) from None


def shimonoseki_deck(catalog: Catalog, kind: str = "lot_genres_x_format_groups"
                     ) -> tuple[Card, ...]:
    """K7 deck (**inference**; the page does not list the cards).

    ``lot_genres_x_format_groups`` (default): each of the 7 genres with each column that
    has questions of its own (the four format groups and サブジャンル) — ノンジャンル and
    ランダム are the fallbacks, not cards. ``all``: every genre with every group.
    """
    if kind == "lot_genres_x_format_groups":
        genres = catalog.lot_genres
        groups = tuple(g.name for g in catalog.groups if g.kind != "random")
    elif kind == "all":
        genres, groups = catalog.genre_names, catalog.group_names
    else:
        raise EngineError("setting_invalid", f"no K7 deck {kind!r}", value=kind)
    return tuple(Card(g, grp) for g in genres for grp in groups)


def _require_drawable(spec: RoundSpec, players: int) -> None:
    """Refuse a planned round whose players cannot be drawn (K2: at most one dummy a group).

    5 players would need 3 dummies in 2 groups, 2 finalists 2 dummies in one: the draw
    would refuse them later, so the plan says so now, naming the round.
    """
    if dummy_count(players, spec.group_size) > group_count(players, spec.group_size):
        raise EngineError(
            "round_undrawable",
            f"{spec.name}: {players} players cannot be drawn into groups of "
            f"{spec.group_size} with at most one dummy each",
            round=spec.key, players=players, group_size=spec.group_size)


def _ladder(
    entrants: int,
    *,
    advance: Callable[[int, int], int],
    final: RoundSpec,
    restrictions: RoundRestrictions,
    draw: DrawMethod,
    group_size: int = 4,
) -> tuple[RoundSpec, ...]:
    """Group rounds (top k per group) until one group of at most ``group_size`` remains.

    ``advance(round_number, players)`` gives k for that round. The last group round before
    the final is named 準決勝, the others n回戦.
    """
    specs: list[RoundSpec] = []
    players = entrants
    number = 1
    while players > group_size:
        k = advance(number, players)
        if not 1 <= k < group_size:
            raise EngineError("setting_invalid", "advance per group must be 1..3", value=k)
        groups = math.ceil(players / group_size)
        specs.append(RoundSpec(
            key=f"r{number}", name=f"{number}回戦", kind="groups", group_size=group_size,
            advance_per_group=k, size=players, draw=draw, draw_in_advance=number == 1,
            restrictions=restrictions))
        players = groups * k
        number += 1
    if specs:
        last = specs[-1]
        specs[-1] = replace(last, key="sf", name="準決勝")
    specs.append(replace(final, size=players))
    for spec in specs:
        _require_drawable(spec, spec.size or 0)
    return tuple(specs)


# -- 九州杯IX (seed 000) ----------------------------------------------------------------------


@register_preset
class KyushuCupIX(PresetDefinition):
    """九州杯IX (2019): 64 + 8 seeds, 高火力ボンバーマン throughout, K1–K10."""

    slug = "kyushu-cup-ix"
    name = "九州杯IX（高火力ボンバーマン・64名＋シード8名）"
    description = ("4-player groups; R1 top 2 + 惜敗率 wildcards to 40; seeds join R2; "
                   "R3 rule selection A/B; R4 下関ルール・改; semi-final with bans; "
                   "third-place match and best-of-3 final with partners.")
    settings = (
        Setting("r2_size", 40, "K4: round 2 is filled to this size by 惜敗率 wildcards.",
                minimum=4),
        Setting("r3_size", 20, "K5: round 3 size (the page's '2回戦に進出（20名）' is a typo "
                               "for round 3).", minimum=4),
        Setting("r2_draw", "random", "K5: round-2 groups: recorded lottery with seed "
                                     "separation (default) or ranked snake / mod.",
                ("random", "snake", "mod")),
        Setting("wildcard_chain", ("ratio", "score", "lottery"),
                "K3/K4: wildcard ranking: 惜敗率, then raw score, then a recorded lottery.",
                minimum=1),
        Setting("r3_capacity_a", 12, "K6: rule A capacity (3 groups, top 2).", minimum=0),
        Setting("r3_capacity_b", 8, "K6: rule B capacity (2 groups, winner only).", minimum=0),
        Setting("r3_b_recorded", False, "K6: rule B sets are not recorded in the history."),
        Setting("k7_extra_card", "share_genre_or_group",
                "K7: draw a third card when the two share a genre or a group (default) or "
                "only when identical (literal reading).",
                ("share_genre_or_group", "identical")),
        Setting("k7_deck", "lot_genres_x_format_groups",
                "K7: the card deck (inference): 7 genres × columns with questions.",
                ("lot_genres_x_format_groups", "all")),
        Setting("k7_draw_per", "match", "K7: one card draw per match (default) or per round.",
                ("match", "round")),
        Setting("history_reset_at_final", True,
                "K10: the final resets the history and applies the basic rule within the "
                "final, per pair; the third-place match has no history restriction."),
        Setting("final_wins_needed", 2, "K10: first to 2 game wins (best of 3).", minimum=1),
        Setting("illegal_selection", "refuse",
                "Seed 000 states no penalty: selections are validated before the match and "
                "an illegal one is refused (or penalised with `penalty`).",
                ("refuse", "penalty")),
        Setting("penalty", Decimal(400), "Points off when illegal_selection is 'penalty'.",
                minimum=0),
        Setting("max_seeds", 8, "Seeds join round 2 (定員64名＋シード権保持者、最大8名).",
                minimum=0),
        Setting("catalog_version", "qma-2016", "Catalog the event was played on."),
    )

    def build(self, values: Mapping[str, Any]) -> Preset:
        """Rounds R1–R4, semi-final, third-place match and final (K1–K10)."""
        basic = RoundRestrictions(read_window="main", record_window="main", lots=False)
        rule_b = RoundRestrictions(
            read_window=None, lots=False,
            record_window="main" if values["r3_b_recorded"] else None)
        if values["history_reset_at_final"]:
            third = replace(NO_RESTRICTION, pair_sets=True)
            final = RoundRestrictions(read_window="final", record_window="final", lots=False,
                                      pair_sets=True, pair_history=True)
        else:
            third = RoundRestrictions(read_window="main", record_window=None, lots=False,
                                      pair_sets=True)
            final = RoundRestrictions(read_window="main", record_window="main", lots=False,
                                      pair_sets=True, pair_history=True)
        cap_a, cap_b = values["r3_capacity_a"], values["r3_capacity_b"]
        r3_size = values["r3_size"]
        if cap_a + cap_b != r3_size or cap_a % 4 or cap_b % 4 or min(cap_a, cap_b) < 0:
            raise EngineError("setting_invalid", "K6 capacities must fill round 3 in groups of "
                              "4", r3_size=r3_size, a=cap_a, b=cap_b)
        rounds = (
            RoundSpec("r1", "1回戦", "groups", advance_per_group=2, target=values["r2_size"],
                      draw="random", draw_in_advance=True, restrictions=basic),
            RoundSpec("r2", "2回戦", "groups", advance_per_group=2, size=values["r2_size"],
                      target=r3_size, seeds_enter=True, draw=values["r2_draw"],
                      seed_separation=True, restrictions=basic),
            RoundSpec("r3", "3回戦", "rule_selection", size=r3_size, draw="random",
                      variants=(
                          RuleVariant("A", "ルールA", cap_a, 2, basic),
                          RuleVariant("B", "ルールB", cap_b, 1, rule_b),
                      )),
            RoundSpec("r4", "4回戦", "groups", advance_per_group=2,
                      size=(cap_a // 4) * 2 + cap_b // 4, draw="random",
                      restrictions=replace(basic, cards=True)),
            RoundSpec("sf", "準決勝", "final_group", advance_per_group=2, size=4,
                      draw="fixed", restrictions=replace(basic, match_bans=True),
                      losers_to="third"),
            RoundSpec("third", "3位決定戦", "partner_match", size=2, draw="fixed",
                      restrictions=third),
            RoundSpec("final", "決勝", "partner_series", size=2, draw="fixed",
                      restrictions=final, wins_needed=values["final_wins_needed"]),
        )
        max_seeds = values["max_seeds"]

        def plan(entrants: int, seeds: int) -> tuple[RoundSpec, ...]:
            if seeds > max_seeds:
                raise EngineError("too_many_seeds", f"at most {max_seeds} seeds",
                                  seeds=seeds, max_seeds=max_seeds)
            first = replace(rounds[0], size=entrants)
            _require_drawable(first, entrants)
            # K4 wildcards only fill round 2 up to its size; nothing cuts it down. More
            # round-1 players than that size allows would make round 2 (and round 3, whose
            # K6 capacities add up to its size) too big to play, so refuse now, before the
            # first draw, naming the most round 1 can take (64 with the rule page's 40).
            r2 = rounds[1]
            r2_players = first.advance_per_group * group_count(entrants, first.group_size) + seeds
            if r2.size is not None and r2_players > r2.size:
                most = first.group_size * ((r2.size - seeds) // first.advance_per_group)
                raise EngineError(
                    "round_overfull",
                    f"{entrants} round-1 players and {seeds} seeds make {r2_players} in "
                    f"{r2.name}, more than its {r2.size}",
                    round=r2.name, players=r2_players, size=r2.size, entrants=entrants,
                    seeds=seeds, most=most)
            return (first,) + rounds[1:]

        return Preset(
            slug=self.slug, name=self.name, description=self.description, plan=plan,
            catalog_version=values["catalog_version"], rounds=rounds, mode_source="fixed",
            fixed_rules=BASIC_RULE, thresholds=QThresholds(), shura=False,
            illegal_selection=values["illegal_selection"], penalty=values["penalty"],
            tie_break=tuple(values["wildcard_chain"]),
            dummy_selection=Selection("ノンジャンル", "ランダム", "HARD"),
            settings=dict(values), setting_specs=self.settings,
        )


# -- 堅田大会 (seed 002) -------------------------------------------------------------------------


@register_preset
class KatataKansai5Qualifier(PresetDefinition):
    """堅田大会 (関西杯5 qualifier): rank-based modes, 修羅 lots, −400 penalties (H0–H9)."""

    slug = "katata-kansai5-qualifier"
    name = "堅田大会（関西杯5予選・階級別縛り・修羅の道）"
    description = ("4-player groups (3 + dummy) until the final of 4; 2 advance per group; "
                   "BOMBER ≥ Q80, PINPOINT Q50–79, FREE ≤ Q49; 修羅 genre lots; "
                   "−400 for an illegal selection.")
    settings = (
        Setting("bomber_min_q", 80, "H2: Q level from which BOMBER applies.", minimum=0),
        Setting("pinpoint_min_q", 50, "H2: Q level from which PINPOINT applies.", minimum=0),
        Setting("grouped_min_q", 35, "H3: Q level from which a group counts as one format.",
                minimum=0),
        Setting("advance_per_group", 2, "H1: advancers per group in rounds before the final.",
                minimum=1, maximum=3),
        Setting("single_advance_from", 0,
                "H1: '1 when entries are many': rounds with at least this many players "
                "advance only the group winner (0 = never).", minimum=0),
        Setting("single_advance_rounds", (), "H1: round numbers (1-based) that advance only "
                                             "the group winner, whatever the count.",
                item_type=int),
        Setting("penalty", Decimal(400), "H7: points off an illegal selection made while a "
                                         "legal one existed.", minimum=0),
        Setting("final_restricted", True, "H2: restrictions continue into the final "
                                          "('以降の試合')."),
        Setting("draw", "random", "Group draws (not stated on the page): recorded lottery.",
                ("random", "snake", "mod")),
        Setting("tie_break", ("ratio", "score", "lottery"),
                "H9: within a match on-screen order, else a recorded lottery; across groups "
                "(if wildcards are ever needed) 惜敗率, score, lottery.",
                minimum=1),
        Setting("max_lots", 4, "H4/6-c-ii: at most 4 genre lots per person.", minimum=0,
                maximum=MAX_LOTS),
        Setting("format_lot_pool", "format_groups",
                "H5 (inference): format lots are the ordinary format columns (the player is "
                "Q≥50, i.e. 高火力); or columns plus サブジャンル; or single formats.",
                FORMAT_LOT_POOLS),
        Setting("low_firepower_subgenres", "as_one",
                "H3: under 低火力 all sub-genre sets count as one format (the sub-genre "
                "column) or each sub-genre on its own.", ("as_one", "each")),
        Setting("dummy_format", "ランダム", "H1 names the dummy's set only as ノンジャンル "
                                            "HARD: its format."),
        Setting("catalog_version", "qma-2016", "Catalog of the event (栗東 / ゑ era)."),
    )

    def build(self, values: Mapping[str, Any]) -> Preset:
        """A ladder of group rounds to a final of 4, planned from the entrant count."""
        restrictions = RoundRestrictions(read_window="main", record_window="main", lots=True)
        final_restrictions = restrictions if values["final_restricted"] else NO_RESTRICTION
        final = RoundSpec("final", "決勝", "final_group", advance_per_group=0, draw="fixed",
                          restrictions=final_restrictions, ranks_all=True)
        if values["pinpoint_min_q"] > values["bomber_min_q"]:
            raise EngineError("setting_invalid", "H2: PINPOINT must start at or below BOMBER",
                              key="pinpoint_min_q", value=values["pinpoint_min_q"],
                              maximum=values["bomber_min_q"])
        base_k = values["advance_per_group"]
        single_from = values["single_advance_from"]
        single_rounds = set(values["single_advance_rounds"])
        draw = values["draw"]

        def advance(number: int, players: int) -> int:
            if number in single_rounds or (single_from and players >= single_from):
                return 1
            return int(base_k)

        def plan(entrants: int, seeds: int) -> tuple[RoundSpec, ...]:
            return _ladder(entrants + seeds, advance=advance, final=final,
                           restrictions=restrictions, draw=draw)

        template = (RoundSpec("r1", "1回戦", "groups", advance_per_group=base_k,
                              draw=draw, draw_in_advance=True, restrictions=restrictions),
                    final)
        return Preset(
            slug=self.slug, name=self.name, description=self.description,
            catalog_version=values["catalog_version"], rounds=template, mode_source="by_q",
            fixed_rules=PlayerRules(),
            thresholds=QThresholds(values["bomber_min_q"], values["pinpoint_min_q"],
                                   values["grouped_min_q"]),
            shura=True, illegal_selection="penalty", penalty=values["penalty"],
            tie_break=tuple(values["tie_break"]),
            dummy_selection=Selection("ノンジャンル", values["dummy_format"], "HARD"),
            settings=dict(values), setting_specs=self.settings, plan=plan,
            max_lots=values["max_lots"], format_lot_pool_kind=values["format_lot_pool"],
            subgenres_as_one=values["low_firepower_subgenres"] == "as_one",
        )


# -- 店舗大会 --------------------------------------------------------------------------------------


@register_preset
class ShopTop2(PresetDefinition):
    """A plain shop tournament: groups of 4, top 2 advance, no selection restrictions."""

    slug = "shop-top2"
    name = "店舗大会（4人組・上位2名）"
    description = "Groups of 4 (dummies as needed), top 2 advance, final of 4, free choice."
    settings = (
        Setting("draw", "random", "How groups are formed each round.",
                ("random", "snake", "mod")),
        Setting("tie_break", ("ratio", "score", "lottery"), "Cross-group ranking chain.",
                minimum=1),
        Setting("catalog_version", "qma-2016", "Catalog of the event."),
    )

    def build(self, values: Mapping[str, Any]) -> Preset:
        """A ladder of unrestricted group rounds to a final of 4."""
        final = RoundSpec("final", "決勝", "final_group", advance_per_group=0, draw="fixed",
                          restrictions=NO_RESTRICTION, ranks_all=True)
        draw = values["draw"]

        def plan(entrants: int, seeds: int) -> tuple[RoundSpec, ...]:
            return _ladder(entrants + seeds, advance=lambda n, p: 2, final=final,
                           restrictions=NO_RESTRICTION, draw=draw)

        template = (RoundSpec("r1", "1回戦", "groups", draw=draw, draw_in_advance=True,
                              restrictions=NO_RESTRICTION), final)
        return Preset(
            slug=self.slug, name=self.name, description=self.description,
            catalog_version=values["catalog_version"], rounds=template, mode_source="fixed",
            fixed_rules=PlayerRules(mode=Mode.FREE), thresholds=QThresholds(), shura=False,
            illegal_selection="refuse", penalty=Decimal(0),
            tie_break=tuple(values["tie_break"]),
            dummy_selection=Selection("ノンジャンル", "ランダム", "HARD"),
            settings=dict(values), setting_specs=self.settings, plan=plan,
        )
