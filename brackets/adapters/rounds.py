"""A round's stored rules as the engine's typed values: the only reader of ``Round.spec``.

``Round.spec`` holds, versioned (:data:`STORED_VERSION`)::

    {"version": 1,
     "round": RoundSpec.to_dict(),                       # this round's rules
     "preset": {"slug": "kyushu-cup-ix", "settings": {}},  # the settings changed then
     "planned_for": [58, 7]}                              # round-1 players, seeds

Everything else a round needs from the plan it belongs to (penalty, tie-break chain, dummy
set, K7 settings, H5's most matches, where seeds enter, where K9/K10 contenders come from,
K6's processing order) is derived from the engine preset rebuilt from slug and settings,
and from the planned round list, never stored twice. ``Round.kind`` is the engine's kind
(:data:`~brackets.engine.presets.RoundKind`), kept as a column for queries.

Rounds in the older flat form (a dict with renamed kinds and fields, still found in
tournament files) are converted by :func:`stored_from_legacy`: the data migration and the
tournament-file importer use it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cached_property
from typing import Any

from brackets.engine import (
    EngineBug,
    EngineError,
    Preset,
    RoundRestrictions,
    RoundSpec,
    RuleVariant,
    contenders_source,
    get_preset,
    order_from_round,
    seeds_play_round_1,
    seeds_round,
)

STORED_VERSION = 1

#: The round kinds of the replay summary (``docs/replay.md``) and of the flat form in
#: tournament files; a ranked final is ``final_group`` with ``ranks_all``.
PUBLISHED_KINDS = {"rule_selection": "rule_select", "partner_match": "partner",
                   "partner_series": "series", "final_group": "groups"}


@dataclass(frozen=True)
class RoundRules:
    """One round's rules (:attr:`spec`) with the plan context it was configured in."""

    number: int
    spec: RoundSpec
    preset_slug: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    planned_for: tuple[int, int] = (0, 0)

    # -- the plan ------------------------------------------------------------------

    @cached_property
    def preset(self) -> Preset:
        """The engine preset the round was configured from (its slug, the settings then)."""
        from brackets.engine_adapter import preset_for

        return preset_for(self.preset_slug, dict(self.settings))  # type: ignore[no-any-return]

    @cached_property
    def planned(self) -> tuple[RoundSpec, ...]:
        """Every round of the plan this round belongs to."""
        return self.preset.rounds_for(*self.planned_for)

    @property
    def kind(self) -> str:
        return self.spec.kind

    @property
    def published_kind(self) -> str:
        """The kind as the replay summary names it (``docs/replay.md``)."""
        if self.spec.is_ranked_final:
            return "ranked_final"
        return PUBLISHED_KINDS.get(self.spec.kind, self.spec.kind)

    @property
    def penalty(self) -> Decimal:
        """Points off an illegal selection (0 when the event refuses such selections)."""
        return self.preset.selection_penalty()

    @property
    def penalty_text(self) -> str:
        return str(self.penalty)

    @property
    def refuses_illegal(self) -> bool:
        """An illegal selection is refused, not penalised (``illegal_selection``)."""
        return self.preset.illegal_selection == "refuse"

    @property
    def tie_break(self) -> tuple[str, ...]:
        return tuple(self.preset.tie_break) or ("ratio", "score", "lottery")

    @property
    def dummy_set(self) -> tuple[str, str, str]:
        d = self.preset.dummy_selection
        return (d.genre, d.format, d.difficulty)

    @property
    def k7_deck(self) -> str:
        return str(self.preset.settings.get("k7_deck", "lot_genres_x_format_groups"))

    @property
    def k7_extra_card(self) -> str:
        return str(self.preset.settings.get("k7_extra_card", "share_genre_or_group"))

    @property
    def k7_cards_per_draw(self) -> int:
        """K7: cards drawn before the redraw rule (setting ``k7_cards_per_draw``)."""
        return int(self.preset.settings.get("k7_cards_per_draw", 2))

    @property
    def k7_card_slots(self) -> int:
        """The most cards one draw can have: the cards drawn, and one more unless the
        variant never redraws."""
        return self.k7_cards_per_draw + (0 if self.k7_extra_card == "never" else 1)

    @property
    def k7_draw_per_round(self) -> bool:
        """K7: one card draw serves every group of the round (setting ``k7_draw_per``)."""
        return bool(self.preset.settings.get("k7_draw_per", "match") == "round")

    @cached_property
    def max_matches(self) -> int:
        """H5's M: the most matches any one player can play in this event."""
        return self.preset.max_matches(*self.planned_for)

    @property
    def seeds_from_round(self) -> int | None:
        """K5: the round seeds join (None: no seeds join later)."""
        return seeds_round(self.planned)

    @property
    def seeds_later(self) -> bool:
        """Seeds skip round 1 and join a later round (K5)."""
        return not seeds_play_round_1(self.seeds_from_round)

    @property
    def contenders_from(self) -> tuple[int, tuple[int, ...]] | None:
        """K9/K10: (source round number, its places) of this pair round's contenders."""
        source = contenders_source(self.planned, self.number - 1)
        return None if source is None else (source.round_number, source.places)

    @property
    def first_place(self) -> int:
        """The best place this last round decides (K9: 3, from places 3 and 4)."""
        source = self.contenders_from
        return min(source[1]) if source and source[1] else 1

    @property
    def order_from_round(self) -> int:
        """K6: the round whose results order the rule choices."""
        found = order_from_round(self.planned, self.number) if self.spec.variants else None
        return self.number - 1 if found is None else found

    # -- this round ------------------------------------------------------------------

    @property
    def draw_method(self) -> str:
        """How groups are drawn; a round formed from the one before (``fixed``) draws its
        single group by lottery like any other."""
        return self.spec.draw if self.spec.draw in ("random", "snake", "mod") else "random"

    @property
    def variants(self) -> tuple[RuleVariant, ...]:
        return self.spec.variants

    @property
    def wins_needed(self) -> int:
        return self.spec.wins_needed or 2

    @property
    def cards(self) -> bool:
        """K7 下関 cards decide what may be chosen in this round."""
        return self.spec.restrictions.cards

    @property
    def bans(self) -> bool:
        """K8: genres named by the players are banned in each match."""
        return self.spec.restrictions.match_bans

    def restrictions(self, rule: str = "") -> RoundRestrictions:
        """The restriction pieces of a group of this round (of its K6 rule, if it has one)."""
        if self.spec.variants and rule:
            for variant in self.spec.variants:
                if variant.key == rule:
                    return variant.restrictions
            return RoundRestrictions(read_window="main", record_window="main", lots=True)
        return self.spec.restrictions

    def per_group(self, rule: str = "") -> int:
        """Advancers per group (of one K6 rule)."""
        if rule:
            for variant in self.spec.variants:
                if variant.key == rule:
                    return variant.advance_per_group
        return self.spec.advance_per_group or self.spec.group_size


# -- reading and writing the stored form -----------------------------------------------------


def stored_form(spec: RoundSpec, *, preset_slug: str, settings: Mapping[str, Any],
                planned_for: tuple[int, int]) -> dict[str, Any]:
    """What ``Round.spec`` stores for ``spec`` (see the module docstring)."""
    return {"version": STORED_VERSION, "round": spec.to_dict(),
            "preset": {"slug": preset_slug,
                       "settings": json.loads(json.dumps(dict(settings), default=str))},
            "planned_for": [int(planned_for[0]), int(planned_for[1])]}


def rules_from_stored(data: Any, number: int) -> RoundRules:
    """The :class:`RoundRules` of a stored spec; anything this code did not write raises
    :class:`EngineBug` (``round_spec_invalid``)."""
    if not isinstance(data, Mapping) or data.get("version") != STORED_VERSION:
        raise EngineBug("round_spec_invalid", f"round {number}: not a stored round spec "
                        f"of version {STORED_VERSION}", where="spec", detail="version")
    keys = {"version", "round", "preset", "planned_for"}
    preset = data.get("preset")
    planned = data.get("planned_for")
    if (set(data) != keys or not isinstance(preset, Mapping)
            or set(preset) != {"slug", "settings"} or not isinstance(preset["slug"], str)
            or not isinstance(preset["settings"], Mapping)
            or not isinstance(planned, list) or len(planned) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in planned)):
        raise EngineBug("round_spec_invalid", f"round {number}: malformed stored spec",
                        where="spec", detail=json.dumps(sorted(data), default=str))
    return RoundRules(number=number, spec=RoundSpec.from_dict(data["round"]),
                      preset_slug=preset["slug"], settings=dict(preset["settings"]),
                      planned_for=(planned[0], planned[1]))


def round_rules(rnd: Any) -> RoundRules:
    """A round row's :class:`RoundRules` (kept on the row while its spec is unchanged)."""
    cached = rnd.__dict__.get("_round_rules")
    if cached is not None and cached[0] is rnd.spec:
        return cached[1]  # type: ignore[no-any-return]
    rules = rules_from_stored(rnd.spec, rnd.number)
    rnd.__dict__["_round_rules"] = (rnd.spec, rules)
    return rules


# -- the flat form (older rows and tournament files) ----------------------------------------

_LEGACY_KINDS = {"groups": "groups", "rule_select": "rule_selection",
                 "partner": "partner_match", "series": "partner_series",
                 "ranked_final": "final_group"}


def _legacy_restrictions(conf: Mapping[str, Any]) -> RoundRestrictions:
    window = conf.get("window", "main")
    record = conf.get("record_window", window)
    if not conf.get("recorded", True):
        record = None
    return RoundRestrictions(read_window=window, record_window=record,
                             lots=bool(conf.get("lots", True)), cards=bool(conf.get("cards")),
                             match_bans=bool(conf.get("bans")),
                             pair_sets=bool(conf.get("pair_sets")),
                             pair_history=bool(conf.get("pair_history")))


def _legacy_planned(slug: str, settings: Mapping[str, Any], planned_for: tuple[int, int],
                    number: int, key: str) -> RoundSpec | None:
    """The round the preset plans at ``number`` today, if it is the same round (same key)."""
    try:
        rounds = get_preset(slug, settings).rounds_for(*planned_for)
    except EngineError:
        return None
    if 1 <= number <= len(rounds) and rounds[number - 1].key == key:
        return rounds[number - 1]
    return None


def stored_from_legacy(legacy: Mapping[str, Any], kind: str, number: int
                       ) -> tuple[dict[str, Any], str]:
    """(``Round.spec``, ``Round.kind``) in the stored form, of a round in the flat form.

    The flat form holds what a page reads (per_group, target, seeds_enter, draw, renamed
    restriction fields, K6 rules, wins_needed) but not group size, size, draw-in-advance,
    seed separation, losers' round or a non-ranking final group: those come from the preset
    the round was planned with, when it still plans that round; the stored values win
    wherever both say something. Pure: no database.
    """
    slug = str(legacy.get("preset") or legacy.get("slug") or "")
    settings = dict(legacy.get("preset_settings") or {})
    planned_raw = legacy.get("planned_for") or [0, 0]
    planned_for = (int(planned_raw[0]), int(planned_raw[1]))
    key = str(legacy.get("key") or f"r{number}")
    base = _legacy_planned(slug, settings, planned_for, number, key) if slug else None
    engine_kind = _LEGACY_KINDS.get(kind, "groups")
    if base is None:
        base = RoundSpec(key=key, name=str(legacy.get("name") or key),
                         kind=engine_kind,  # type: ignore[arg-type]
                         ranks_all=kind == "ranked_final",
                         draw="fixed" if engine_kind != "groups" else "random")
    elif engine_kind != "groups" or base.kind not in ("groups", "final_group"):
        base = replace(base, kind=engine_kind,  # type: ignore[arg-type]
                       ranks_all=kind == "ranked_final")
    per_group = int(legacy.get("per_group", base.advance_per_group or base.group_size))
    advance = base.advance_per_group if per_group == (base.advance_per_group
                                                      or base.group_size) else per_group
    draw = legacy.get("draw")
    rules = legacy.get("rules") or {}
    variants = tuple(RuleVariant(str(k), str(v.get("name", k)), int(v.get("capacity", 0)),
                                 int(v.get("per_group", 2)), _legacy_restrictions(v))
                     for k, v in rules.items()) if rules else base.variants
    spec = replace(
        base, name=str(legacy.get("name") or base.name), advance_per_group=advance,
        target=legacy.get("target", base.target),
        seeds_enter=bool(legacy.get("seeds_enter", base.seeds_enter)),
        draw=base.draw if draw in (None, "random") and base.draw == "fixed" else draw or base.draw,
        restrictions=_legacy_restrictions(legacy), variants=variants,
        wins_needed=legacy.get("wins_needed", base.wins_needed))
    stored = stored_form(spec, preset_slug=slug, settings=settings, planned_for=planned_for)
    RoundSpec.from_dict(stored["round"])  # refuse now what could not be read back
    return stored, spec.kind


def stored_to_legacy(stored: Mapping[str, Any], number: int) -> tuple[dict[str, Any], str]:
    """The old flat form of a stored spec (to undo the data migration)."""
    rules = rules_from_stored(stored, number)
    sp = rules.spec

    def flat(r: RoundRestrictions) -> dict[str, Any]:
        return {"window": r.read_window, "record_window": r.record_window,
                "recorded": r.record_window is not None, "lots": r.lots, "cards": r.cards,
                "bans": r.match_bans, "pair_sets": r.pair_sets, "pair_history": r.pair_history}

    out: dict[str, Any] = {
        "key": sp.key, "name": sp.name, "kind": rules.published_kind,
        "per_group": rules.per_group(), "target": sp.target, "seeds_enter": sp.seeds_enter,
        "draw": rules.draw_method, "restriction": "preset", "preset": rules.preset_slug,
        **flat(sp.restrictions)}
    if sp.variants:
        out["rules"] = {v.key: {"name": v.name, "capacity": v.capacity,
                                "per_group": v.advance_per_group, **flat(v.restrictions)}
                        for v in sp.variants}
        out["order_from_round"] = rules.order_from_round
    source = rules.contenders_from
    if source is not None:
        out["contenders_from"] = {"round": source[0], "places": list(source[1])}
    if sp.wins_needed:
        out["wins_needed"] = sp.wins_needed
    out.update({
        "penalty": rules.penalty_text, "dummy_set": list(rules.dummy_set),
        "seeds_from_round": rules.seeds_from_round,
        "illegal_selection": rules.preset.illegal_selection,
        "tie_break": list(rules.preset.tie_break), "k7_deck": rules.k7_deck,
        "k7_extra_card": rules.k7_extra_card, "max_matches": rules.max_matches,
        "k7_draw_per": "round" if rules.k7_draw_per_round else "match",
        "preset_settings": dict(rules.settings), "planned_for": list(rules.planned_for)})
    return out, rules.published_kind


def upgrade_record(row: Mapping[str, Any]) -> dict[str, Any]:
    """A ``records.round`` row of a tournament file, its spec and kind in the stored form
    (a row without ``version`` in its spec is in the flat form)."""
    out = dict(row)
    spec = row.get("spec")
    if isinstance(spec, Mapping) and "version" not in spec:
        out["spec"], out["kind"] = stored_from_legacy(spec, str(row.get("kind") or "groups"),
                                                      int(row.get("number") or 1))
    return out
