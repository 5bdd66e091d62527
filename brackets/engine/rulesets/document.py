"""A rule set as a document: every rule of an event as plain typed data (#17).

A :class:`RuleSet` holds what a :class:`~..presets.spec.Preset` holds, but as data: either
the event's fixed rounds (:class:`~..presets.spec.RoundSpec`, as 九州杯IX) or the
parameters of a ladder of group rounds (:class:`LadderRules`, as 堅田 and the shop event),
the player policy (mode by Q level or fixed, thresholds), 修羅, the illegal-selection
policy and penalty, the tie-break chain, the dummy's set, the K7 card rules, the catalog
version and the berths. :func:`~.compile.compile_ruleset` turns it into a ``Preset``.

:meth:`RuleSet.to_dict` writes plain JSON with a ``version``; :meth:`RuleSet.from_dict`
reads it back exactly. The document comes from an organiser's file, so what is wrong with
it is a :class:`RuleRefusal` naming the key: a newer version (``ruleset_version_newer``),
an unknown key (``ruleset_key_unknown``), a missing one (``ruleset_key_missing``; the keys
of what 修羅 owes, added later, may be missing and then read as 堅田's) or a
value of the wrong type (``ruleset_value_invalid``). Whether the rules make sense together
is :func:`~.validate.validate_ruleset`'s question, not the reader's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, TypeVar

from ..catalog import Selection
from ..errors import EngineBug, RuleRefusal
from ..presets.plans import LadderRules
from ..presets.spec import (
    SPEC_VERSION,
    IllegalSelection,
    ModeSource,
    RoundRestrictions,
    RoundSpec,
    restrictions_from_dict,
    restrictions_to_dict,
    spec_from_dict,
    spec_to_dict,
)
from ..restrictions import Counting, Mode
from ..shura import MAX_LOTS, ShuraRules

#: Version of :meth:`RuleSet.to_dict`. A round inside the document is
#: ``RoundSpec.to_dict()`` without its own version: a change of ``SPEC_VERSION`` is a new
#: document version too. Version 2 adds the 修羅 rules (:data:`SHURA_LATER_KEYS`) and the
#: 下関 cards per draw (:data:`CARDS_LATER_KEYS`), so a
#: server that cannot apply them refuses the file as newer rather than misreading it.
RULESET_VERSION = 2

T = TypeVar("T")

# Defaults of the parts below, held once: a dataclass default is built at import time.
_DUMMY = Selection("ノンジャンル", "ランダム", "HARD")

K7_DECKS = ("lot_genres_x_format_groups", "all")
K7_EXTRA_CARD_RULES = ("share_genre_or_group", "identical", "never")
K7_DRAW_PER = ("match", "round")


@dataclass(frozen=True)
class PlayerPolicy:
    """How a player's mode is decided (K1 fixed, H2/H3 by the highest card's Q level).

    ``mode`` and ``counting`` are everyone's when ``mode_source`` is ``fixed``; the
    thresholds apply when it is ``by_q``. ``subgenres_as_one``: under 低火力 counting all
    sub-genre sets count as one format (H3).
    """

    mode_source: ModeSource = "fixed"
    mode: Mode = Mode.FREE
    counting: Counting = Counting.GROUPED
    bomber_min_q: int = 80
    pinpoint_min_q: int = 50
    grouped_min_q: int = 35
    subgenres_as_one: bool = True


@dataclass(frozen=True)
class ShuraPolicy:
    """修羅 (H4, H5): whether lots are owed, the cap per person, the format-lot pool, and
    what is owed: the genre lots each 3-a ground owes (``national_title`` 全国大会称号,
    ``shiga_winner`` 地元大会優勝, ``seed_or_invitation`` シード権・招待枠; 0 owes none),
    whether 修羅の道 and extra lots may be chosen (``voluntary``, 3-b and 6-c-ii) and whether
    past champions draw format lots (``champion_format_lots``, 6-c-iii). The defaults of
    what is owed are 堅田's, which a document written before they existed reads as."""

    enabled: bool = False
    max_lots: int = MAX_LOTS
    format_lot_pool: str = "format_groups"
    national_title: int = 1
    shiga_winner: int = 1
    seed_or_invitation: int = 1
    voluntary: bool = True
    champion_format_lots: bool = True

    def rules(self) -> ShuraRules:
        """What the policy owes, as the engine's duties read it."""
        return ShuraRules(national_title=self.national_title, shiga_winner=self.shiga_winner,
                          seed_or_invitation=self.seed_or_invitation,
                          voluntary=self.voluntary,
                          champion_format_lots=self.champion_format_lots)

    @classmethod
    def of(cls, *, enabled: bool, max_lots: int, format_lot_pool: str,
           rules: ShuraRules) -> ShuraPolicy:
        """The policy of a preset's 修羅 switch, cap, pool and rules."""
        return cls(enabled=enabled, max_lots=max_lots, format_lot_pool=format_lot_pool,
                   national_title=rules.national_title, shiga_winner=rules.shiga_winner,
                   seed_or_invitation=rules.seed_or_invitation, voluntary=rules.voluntary,
                   champion_format_lots=rules.champion_format_lots)


#: The keys of ``shura`` a version-1 document lacks: it reads as 堅田's.
SHURA_LATER_KEYS = ("national_title", "shiga_winner", "seed_or_invitation", "voluntary",
                    "champion_format_lots")

#: The keys of ``cards`` a version-1 document lacks: it draws two cards, as K7 does.
CARDS_LATER_KEYS = ("cards_per_draw",)


@dataclass(frozen=True)
class SelectionPolicy:
    """An illegal selection is refused or penalised (H7); the dummy's set (K2, H1)."""

    illegal: IllegalSelection = "refuse"
    penalty: Decimal = Decimal(0)
    dummy: Selection = _DUMMY


@dataclass(frozen=True)
class CardRules:
    """K7 下関ルール・改: the deck, the cards drawn (``cards_per_draw``), when one more is
    drawn (``never``: no redraw), one draw per match or round."""

    deck: str = "lot_genres_x_format_groups"
    cards_per_draw: int = 2
    extra_card: str = "share_genre_or_group"
    draw_per: str = "match"


@dataclass(frozen=True)
class RuleSet:
    """Every rule of one event, as data.

    Exactly one of ``rounds`` (a fixed format) and ``ladder`` (rounds planned from the
    field) describes the rounds. ``capacity`` (定員) is the most round-1 players the
    organiser takes and ``max_seeds`` the most seeds (None: no limit): validation checks the
    rounds against them, and the plan refuses more seeds than ``max_seeds``.
    """

    slug: str
    name: str
    description: str = ""
    catalog_version: str = "qma-2016"
    rounds: tuple[RoundSpec, ...] = ()
    ladder: LadderRules | None = None
    capacity: int | None = None
    max_seeds: int | None = None
    players: PlayerPolicy = PlayerPolicy()
    shura: ShuraPolicy = ShuraPolicy()
    selection: SelectionPolicy = SelectionPolicy()
    tie_break: tuple[str, ...] = ("ratio", "score", "lottery")
    cards: CardRules = CardRules()
    berths: int = 1

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data with ``version``; :meth:`from_dict` reads back an equal rule set."""
        return ruleset_to_dict(self)

    @classmethod
    def from_dict(cls, data: Any) -> RuleSet:
        """The rule set :meth:`to_dict` wrote (see the module docstring for refusals)."""
        return ruleset_from_dict(data)


# -- writing --------------------------------------------------------------------------------


def _round_to_dict(spec: RoundSpec) -> dict[str, Any]:
    data = spec_to_dict(spec)
    del data["version"]
    return data


def _ladder_to_dict(ladder: LadderRules) -> dict[str, Any]:
    return {"group_size": ladder.group_size, "advance_per_group": ladder.advance_per_group,
            "single_advance_from": ladder.single_advance_from,
            "single_advance_rounds": list(ladder.single_advance_rounds),
            "final_size": ladder.final_size, "seeds_from_round": ladder.seeds_from_round,
            "draw": ladder.draw, "restrictions": restrictions_to_dict(ladder.restrictions),
            "final_restrictions": restrictions_to_dict(ladder.final_restrictions)}


def ruleset_to_dict(ruleset: RuleSet) -> dict[str, Any]:
    """See :meth:`RuleSet.to_dict`."""
    p, s, sel, c = ruleset.players, ruleset.shura, ruleset.selection, ruleset.cards
    return {
        "version": RULESET_VERSION,
        "slug": ruleset.slug, "name": ruleset.name, "description": ruleset.description,
        "catalog_version": ruleset.catalog_version,
        "rounds": [_round_to_dict(r) for r in ruleset.rounds],
        "ladder": None if ruleset.ladder is None else _ladder_to_dict(ruleset.ladder),
        "capacity": ruleset.capacity, "max_seeds": ruleset.max_seeds,
        "players": {"mode_source": p.mode_source, "mode": p.mode.value,
                    "counting": p.counting.value, "bomber_min_q": p.bomber_min_q,
                    "pinpoint_min_q": p.pinpoint_min_q, "grouped_min_q": p.grouped_min_q,
                    "subgenres_as_one": p.subgenres_as_one},
        "shura": {"enabled": s.enabled, "max_lots": s.max_lots,
                  "format_lot_pool": s.format_lot_pool, "national_title": s.national_title,
                  "shiga_winner": s.shiga_winner, "seed_or_invitation": s.seed_or_invitation,
                  "voluntary": s.voluntary, "champion_format_lots": s.champion_format_lots},
        # The penalty is text so that 400.50 survives JSON exactly.
        "selection": {"illegal": sel.illegal, "penalty": str(sel.penalty),
                      "dummy": {"genre": sel.dummy.genre, "format": sel.dummy.format,
                                "difficulty": sel.dummy.difficulty}},
        "tie_break": list(ruleset.tie_break),
        "cards": {"deck": c.deck, "cards_per_draw": c.cards_per_draw,
                  "extra_card": c.extra_card, "draw_per": c.draw_per},
        "berths": ruleset.berths,
    }


# -- reading --------------------------------------------------------------------------------


def _invalid(key: str, value: Any, expected: str) -> RuleRefusal:
    return RuleRefusal("ruleset_value_invalid", f"{key}: expected {expected}, got {value!r}",
                       key=key, value=repr(value)[:80], expected=expected)


def _object(data: Any, where: str, keys: Collection[str],
            optional: Collection[str] = ()) -> Mapping[str, Any]:
    """``data`` as a mapping with exactly ``keys``: the first unknown key, then the first
    missing one, is refused by its full path, so a file never loses a rule silently. Keys
    in ``optional`` (added after files were written) may be missing; the caller gives
    their old meaning."""
    if not isinstance(data, Mapping):
        raise _invalid(where or "(document)", data, "object")
    for key in data:
        if key not in keys:
            raise RuleRefusal("ruleset_key_unknown", f"unknown key {where}.{key}",
                              key=f"{where}.{key}" if where else str(key))
    for key in keys:
        if key not in data and key not in optional:
            raise RuleRefusal("ruleset_key_missing", f"missing key {where}.{key}",
                              key=f"{where}.{key}" if where else key)
    return data


def _get(data: Mapping[str, Any], key: str, where: str, kind: type, *,
         optional: bool = False, choices: Collection[Any] = ()) -> Any:
    """One value of ``kind`` exactly (a bool is not an int here), None if ``optional``."""
    value = data[key]
    path = f"{where}.{key}" if where else key
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _invalid(path, value, kind.__name__)
    if choices and value not in choices:
        raise _invalid(path, value, " / ".join(str(c) for c in choices))
    return value


def _list(data: Mapping[str, Any], key: str, where: str, item: type) -> tuple[Any, ...]:
    value = data[key]
    path = f"{where}.{key}" if where else key
    if not isinstance(value, list) or any(
            not isinstance(v, item) or isinstance(v, bool) for v in value):
        raise _invalid(path, value, f"list of {item.__name__}")
    return tuple(value)


_RESTRICTION_KEYS = tuple(restrictions_to_dict(RoundRestrictions()))
_VARIANT_KEYS = ("key", "name", "capacity", "advance_per_group", "restrictions")
_ROUND_KEYS = tuple(_round_to_dict(RoundSpec("r1", "1回戦")))


def _restrictions(data: Any, where: str) -> RoundRestrictions:
    _object(data, where, _RESTRICTION_KEYS)
    return _from_spec_reader(lambda: restrictions_from_dict(data, where))


def _round(data: Any, where: str) -> RoundSpec:
    fields = _object(data, where, _ROUND_KEYS)
    _object(fields["restrictions"], f"{where}.restrictions", _RESTRICTION_KEYS)
    variants = fields["variants"]
    if not isinstance(variants, list):
        raise _invalid(f"{where}.variants", variants, "list")
    for i, variant in enumerate(variants):
        v = _object(variant, f"{where}.variants[{i}]", _VARIANT_KEYS)
        _object(v["restrictions"], f"{where}.variants[{i}].restrictions", _RESTRICTION_KEYS)
    return _from_spec_reader(lambda: spec_from_dict({**fields, "version": SPEC_VERSION},
                                                    where))


def _from_spec_reader(read: Callable[[], T]) -> T:
    """Run a stored-spec reader on data whose keys are already checked. What it still finds
    (a value of the wrong type) comes from the organiser's file here, not from a stored
    round, so it is a refusal naming the key rather than a bug."""
    try:
        return read()
    except EngineBug as exc:
        if exc.code != "round_spec_invalid":
            raise
        raise RuleRefusal("ruleset_value_invalid", str(exc), key=exc.params["where"],
                          value="", expected=exc.params["detail"]) from exc


def _ladder(data: Any, where: str) -> LadderRules:
    f = _object(data, where, tuple(_ladder_to_dict(LadderRules())))
    return LadderRules(
        group_size=_get(f, "group_size", where, int),
        advance_per_group=_get(f, "advance_per_group", where, int),
        single_advance_from=_get(f, "single_advance_from", where, int),
        single_advance_rounds=_list(f, "single_advance_rounds", where, int),
        final_size=_get(f, "final_size", where, int),
        seeds_from_round=_get(f, "seeds_from_round", where, int),
        draw=_get(f, "draw", where, str, choices=("random", "snake", "mod", "fixed")),
        restrictions=_restrictions(f["restrictions"], f"{where}.restrictions"),
        final_restrictions=_restrictions(f["final_restrictions"],
                                         f"{where}.final_restrictions"))


def _penalty(value: Any, key: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise _invalid(key, value, "number")
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        raise _invalid(key, value, "number") from None
    if not number.is_finite():
        raise _invalid(key, value, "number")
    return number


def _version(data: Any) -> None:
    """Refuse a document this code cannot read before looking at anything else in it: a
    newer file may have changed any key."""
    if not isinstance(data, Mapping):
        raise _invalid("(document)", data, "object")
    if "version" not in data:
        raise RuleRefusal("ruleset_key_missing", "missing key version", key="version")
    version = data["version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _invalid("version", version, "integer ≥ 1")
    if version > RULESET_VERSION:
        raise RuleRefusal("ruleset_version_newer",
                          f"version {version}; this server reads up to {RULESET_VERSION}",
                          version=version, supported=RULESET_VERSION)


def ruleset_from_dict(data: Any) -> RuleSet:
    """See :meth:`RuleSet.from_dict`."""
    _version(data)
    shura_later = SHURA_LATER_KEYS if data["version"] == 1 else ()
    top = _object(data, "", tuple(ruleset_to_dict(RuleSet("x", "x"))))
    rounds = top["rounds"]
    if not isinstance(rounds, list):
        raise _invalid("rounds", rounds, "list")
    p = _object(top["players"], "players", ("mode_source", "mode", "counting",
                                            "bomber_min_q", "pinpoint_min_q",
                                            "grouped_min_q", "subgenres_as_one"))
    s = _object(top["shura"], "shura", ("enabled", "max_lots", "format_lot_pool",
                                        *SHURA_LATER_KEYS), optional=shura_later)
    # A file from before what 修羅 owes was composable owes what 堅田 owes, as it did then.
    s = {**{k: getattr(ShuraPolicy(), k) for k in SHURA_LATER_KEYS}, **s}
    sel = _object(top["selection"], "selection", ("illegal", "penalty", "dummy"))
    dummy = _object(sel["dummy"], "selection.dummy", ("genre", "format", "difficulty"))
    c = _object(top["cards"], "cards", ("deck", *CARDS_LATER_KEYS, "extra_card", "draw_per"),
                optional=CARDS_LATER_KEYS if data["version"] == 1 else ())
    c = {**{k: getattr(CardRules(), k) for k in CARDS_LATER_KEYS}, **c}
    return RuleSet(
        slug=_get(top, "slug", "", str), name=_get(top, "name", "", str),
        description=_get(top, "description", "", str),
        catalog_version=_get(top, "catalog_version", "", str),
        rounds=tuple(_round(r, f"rounds[{i}]") for i, r in enumerate(rounds)),
        ladder=None if top["ladder"] is None else _ladder(top["ladder"], "ladder"),
        capacity=_get(top, "capacity", "", int, optional=True),
        max_seeds=_get(top, "max_seeds", "", int, optional=True),
        players=PlayerPolicy(
            mode_source=_get(p, "mode_source", "players", str, choices=("fixed", "by_q")),
            mode=Mode(_get(p, "mode", "players", str, choices=[m.value for m in Mode])),
            counting=Counting(_get(p, "counting", "players", str,
                                   choices=[c.value for c in Counting])),
            bomber_min_q=_get(p, "bomber_min_q", "players", int),
            pinpoint_min_q=_get(p, "pinpoint_min_q", "players", int),
            grouped_min_q=_get(p, "grouped_min_q", "players", int),
            subgenres_as_one=_get(p, "subgenres_as_one", "players", bool)),
        shura=ShuraPolicy(enabled=_get(s, "enabled", "shura", bool),
                          max_lots=_get(s, "max_lots", "shura", int),
                          format_lot_pool=_get(s, "format_lot_pool", "shura", str),
                          national_title=_get(s, "national_title", "shura", int),
                          shiga_winner=_get(s, "shiga_winner", "shura", int),
                          seed_or_invitation=_get(s, "seed_or_invitation", "shura", int),
                          voluntary=_get(s, "voluntary", "shura", bool),
                          champion_format_lots=_get(s, "champion_format_lots", "shura", bool)),
        selection=SelectionPolicy(
            illegal=_get(sel, "illegal", "selection", str, choices=("refuse", "penalty")),
            penalty=_penalty(sel["penalty"], "selection.penalty"),
            dummy=Selection(_get(dummy, "genre", "selection.dummy", str),
                            _get(dummy, "format", "selection.dummy", str),
                            _get(dummy, "difficulty", "selection.dummy", str))),
        tie_break=_list(top, "tie_break", "", str),
        cards=CardRules(deck=_get(c, "deck", "cards", str, choices=K7_DECKS),
                        cards_per_draw=_get(c, "cards_per_draw", "cards", int),
                        extra_card=_get(c, "extra_card", "cards", str,
                                        choices=K7_EXTRA_CARD_RULES),
                        draw_per=_get(c, "draw_per", "cards", str, choices=K7_DRAW_PER)),
        berths=_get(top, "berths", "", int),
    )
