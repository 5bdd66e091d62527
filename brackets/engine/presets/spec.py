"""A round's rules as typed values, and the resolved :class:`Preset` they belong to.

:class:`RoundSpec` is what a round stores (``Round.spec``), through :meth:`RoundSpec.to_dict`
and :meth:`RoundSpec.from_dict`: plain JSON data, versioned, and read back exactly, so a
past round keeps the rules it was played under.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Literal

from ..advancement import TIE_BREAKS, AdvancementRule
from ..cards import CardDraw
from ..catalog import BUILTIN_CATALOGS, Catalog, Selection
from ..errors import EngineBug, RuleRefusal
from ..restrictions import (
    HistoryEntry,
    MatchRules,
    Mode,
    PlayerRules,
    QThresholds,
    player_rules_for,
)
from ..shura import (
    DEFAULT_SHURA_RULES,
    MAX_LOTS,
    DrawnLots,
    LotsOwed,
    ShuraRules,
    format_lot_pool,
    shura_player_rules,
)
from .settings import Setting

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
            raise RuleRefusal("cards_not_in_round", "this round draws no 下関 cards",
                              round=round_name)
        if self.cards and cards is None:
            raise RuleRefusal("cards_missing", "draw the 下関 cards first", round=round_name)
        if bans and not self.match_bans:
            raise RuleRefusal("bans_not_in_round", "this round has no genre bans",
                              round=round_name)
        if partner is not None and not self.pair_sets:
            raise RuleRefusal("partner_not_in_round", "this round has no pairs",
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
        raise RuleRefusal("variant_unknown", f"{self.name} has no rule {key!r}",
                          round=self.key, variant=key)

    def restrictions_for(self, variant: str | None = None) -> RoundRestrictions:
        """The restriction pieces of this round (of one of its K6 rules if it has them)."""
        if self.variants:
            if variant is None:
                raise RuleRefusal("variant_required", f"{self.name}: say which rule",
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

    def to_dict(self) -> dict[str, Any]:
        """This round as plain JSON data, versioned (:data:`SPEC_VERSION`); what
        ``Round.spec`` stores. :meth:`from_dict` gives back an equal spec."""
        return spec_to_dict(self)

    @classmethod
    def from_dict(cls, data: Any) -> RoundSpec:
        """The spec :meth:`to_dict` wrote. Another version, a missing or unknown key or a
        value of the wrong type raises :class:`EngineBug` (``round_spec_invalid``)."""
        return spec_from_dict(data)

    @property
    def is_rule_selection(self) -> bool:
        """K6: players choose rule A or B, each rule its own groups."""
        return self.kind == "rule_selection"

    @property
    def is_partner_match(self) -> bool:
        """K9: two contenders with partners, one game."""
        return self.kind == "partner_match"

    @property
    def is_series(self) -> bool:
        """K10: two contenders with partners, first to ``wins_needed`` game wins."""
        return self.kind == "partner_series"

    @property
    def is_pair(self) -> bool:
        """A round of contenders with partners (K9, K10)."""
        return self.kind in ("partner_match", "partner_series")

    @property
    def is_ranked_final(self) -> bool:
        """One final group ranking all its players (H1-b)."""
        return self.kind == "final_group" and self.ranks_all

    @property
    def is_last(self) -> bool:
        """A round that gives places rather than advancers (a podium)."""
        return self.is_pair or self.is_ranked_final

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
    # What 修羅 owes (3-a grounds' lots, 修羅の道, past champions' format lots): 堅田's
    # unless a composed rule set says otherwise.
    shura_rules: ShuraRules = DEFAULT_SHURA_RULES
    # 0-a: berths of the series' main event this event grants when it is a qualifier.
    berths: int = 1

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
            raise RuleRefusal("tie_break_unknown", f"{self.slug}: no tie-break {unknown}",
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
            raise EngineBug("catalog_unknown", f"no builtin catalog {self.catalog_version!r}",
                              version=self.catalog_version) from None

    def round(self, key: str) -> RoundSpec:
        """A round of the template by key."""
        for spec in self.rounds:
            if spec.key == key:
                return spec
        raise EngineBug("round_unknown", f"{self.slug} has no round {key!r}",
                          slug=self.slug, round=key)

    def rounds_for(self, entrants: int, seeds: int = 0) -> tuple[RoundSpec, ...]:
        """The rounds an event with ``entrants`` round-1 players and ``seeds`` seeds plays.

        Fixed-format events (九州杯IX) return their template; ladder events (堅田, shop)
        add group rounds until the final group is reached.
        """
        if entrants < 0 or seeds < 0:
            raise RuleRefusal("bad_entrants", "entrant counts cannot be negative",
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
                raise RuleRefusal("shura_not_in_preset", f"{self.slug} has no 修羅 lots")
            return self.fixed_rules
        if owed is not None:
            if not self.shura and owed.shura:
                raise RuleRefusal("shura_not_in_preset", f"{self.slug} has no 修羅 lots")
            if owed.genre_lots > self.max_lots:
                raise RuleRefusal("too_many_lots", f"at most {self.max_lots} lots",
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


# -- what a round needs from the rounds around it ------------------------------------------------


def order_from_round(rounds: Sequence[RoundSpec], number: int) -> int | None:
    """K6: the round whose results order the rule choices of round ``number`` (the one
    before it), None for a round without rules to choose."""
    return number - 1 if rounds[number - 1].variants else None


# -- the stored form ---------------------------------------------------------------------------

#: Version of :meth:`RoundSpec.to_dict`; :meth:`RoundSpec.from_dict` refuses any other.
SPEC_VERSION = 1

_ROUND_KINDS: tuple[str, ...] = ("groups", "rule_selection", "final_group", "partner_match",
                                 "partner_series")
_DRAW_METHODS: tuple[str, ...] = ("random", "snake", "mod", "fixed")
_RESTRICTION_FIELDS: tuple[tuple[str, type, bool], ...] = (
    ("read_window", str, True), ("record_window", str, True), ("lots", bool, False),
    ("cards", bool, False), ("match_bans", bool, False), ("pair_sets", bool, False),
    ("pair_history", bool, False))


def _malformed(where: str, detail: str) -> EngineBug:
    """A stored round spec that this code did not write (or a later one edited by hand)."""
    return EngineBug("round_spec_invalid", f"{where}: {detail}", where=where, detail=detail)


def _fields(data: Any, where: str, keys: Collection[str]) -> Mapping[str, Any]:
    """``data`` as a mapping with exactly ``keys``: an unknown or missing key is refused, so
    a round trip cannot silently drop a field."""
    if not isinstance(data, Mapping):
        raise _malformed(where, "not an object")
    missing = sorted(set(keys) - set(data))
    extra = sorted(set(data) - set(keys))
    if missing or extra:
        raise _malformed(where, f"missing {missing}, unknown {extra}")
    return data


def _value(data: Mapping[str, Any], key: str, where: str, kind: type, *,
           optional: bool = False, choices: Collection[str] = ()) -> Any:
    """One field, of ``kind`` exactly (a bool is not an int here), or None if optional."""
    value = data[key]
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _malformed(f"{where}.{key}", f"expected {kind.__name__}, got {value!r}")
    if choices and value not in choices:
        raise _malformed(f"{where}.{key}", f"{value!r} is not one of {sorted(choices)}")
    return value


def restrictions_to_dict(r: RoundRestrictions) -> dict[str, Any]:
    """The plain-data form of a round's (or a K6 rule's) restriction pieces."""
    return {name: getattr(r, name) for name, _kind, _opt in _RESTRICTION_FIELDS}


def restrictions_from_dict(data: Any, where: str = "restrictions") -> RoundRestrictions:
    """The inverse of :func:`restrictions_to_dict`; malformed data raises :class:`EngineBug`."""
    fields = _fields(data, where, [name for name, _kind, _opt in _RESTRICTION_FIELDS])
    return RoundRestrictions(**{name: _value(fields, name, where, kind, optional=opt)
                                for name, kind, opt in _RESTRICTION_FIELDS})


def _variant_to_dict(v: RuleVariant) -> dict[str, Any]:
    return {"key": v.key, "name": v.name, "capacity": v.capacity,
            "advance_per_group": v.advance_per_group,
            "restrictions": restrictions_to_dict(v.restrictions)}


def _variant_from_dict(data: Any, where: str) -> RuleVariant:
    fields = _fields(data, where, ("key", "name", "capacity", "advance_per_group",
                                   "restrictions"))
    return RuleVariant(
        key=_value(fields, "key", where, str), name=_value(fields, "name", where, str),
        capacity=_value(fields, "capacity", where, int),
        advance_per_group=_value(fields, "advance_per_group", where, int),
        restrictions=restrictions_from_dict(fields["restrictions"], f"{where}.restrictions"))


_SPEC_SCALARS: tuple[tuple[str, type, bool, tuple[str, ...]], ...] = (
    ("key", str, False, ()), ("name", str, False, ()), ("kind", str, False, _ROUND_KINDS),
    ("group_size", int, False, ()), ("advance_per_group", int, False, ()),
    ("size", int, True, ()), ("target", int, True, ()), ("seeds_enter", bool, False, ()),
    ("draw", str, False, _DRAW_METHODS), ("draw_in_advance", bool, False, ()),
    ("seed_separation", bool, False, ()), ("losers_to", str, True, ()),
    ("wins_needed", int, True, ()), ("ranks_all", bool, False, ()))


def spec_to_dict(spec: RoundSpec) -> dict[str, Any]:
    """See :meth:`RoundSpec.to_dict`."""
    out: dict[str, Any] = {"version": SPEC_VERSION}
    out.update({name: getattr(spec, name) for name, _k, _o, _c in _SPEC_SCALARS})
    out["restrictions"] = restrictions_to_dict(spec.restrictions)
    out["variants"] = [_variant_to_dict(v) for v in spec.variants]
    return out


def spec_from_dict(data: Any, where: str = "round_spec") -> RoundSpec:
    """See :meth:`RoundSpec.from_dict`."""
    if isinstance(data, Mapping) and data.get("version") != SPEC_VERSION:
        raise _malformed(f"{where}.version",
                         f"version {data.get('version')!r}, this code reads {SPEC_VERSION}")
    keys = ["version", "restrictions", "variants"] + [n for n, _k, _o, _c in _SPEC_SCALARS]
    fields = _fields(data, where, keys)
    variants = fields["variants"]
    if not isinstance(variants, list):
        raise _malformed(f"{where}.variants", "not a list")
    values = {name: _value(fields, name, where, kind, optional=opt, choices=choices)
              for name, kind, opt, choices in _SPEC_SCALARS}
    return RoundSpec(
        **values,
        restrictions=restrictions_from_dict(fields["restrictions"], f"{where}.restrictions"),
        variants=tuple(_variant_from_dict(v, f"{where}.variants[{i}]")
                       for i, v in enumerate(variants)))
