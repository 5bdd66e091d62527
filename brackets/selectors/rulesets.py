"""Reads for the rule-set pages: the list, and each validation problem beside its field.

``validate_ruleset`` returns :class:`RuleRefusal` values whose params name the key
(``players.bomber_min_q``, ``rounds[2].size``) or the round (its name); :func:`problem_places`
turns them into the composer's places: a field of the policies form, of the ladder form, of
one round's form, or the page's head when no field says more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from brackets.engine import RuleRefusal, RuleSet
from brackets.messages import error_text
from brackets.models import RuleSetDoc, RuleSetVersion
from brackets.services.rulesets import current_version, ruleset_problems

#: Problems whose code says the field (the params name no key).
CODE_FIELDS = {
    "ruleset_thresholds_order": ("p", "pinpoint_min_q"),
    "ruleset_shura_fixed_mode": ("p", "shura"),
    "ruleset_shura_off_lots_owed": ("p", "shura"),
    "ruleset_shura_owes_nothing": ("p", "shura"),
    "ruleset_lot_pool_unknown": ("p", "format_lot_pool"),
    "ruleset_penalty_range": ("p", "penalty"),
    "ruleset_tie_break_empty": ("p", "tie_break_1"),
    "ruleset_tie_break_unknown": ("p", "tie_break_1"),
    "ruleset_tie_break_repeated": ("p", "tie_break_1"),
    "ruleset_final_size": ("l", "final_size"),
    "too_many_seeds": ("p", "max_seeds"),
    "seeds_round_not_played": ("l", "seeds_from_round"),
}
#: Document keys of the policies form's fields (``players.x`` → ``x``, a few renamed).
POLICY_KEYS = {"shura.max_lots": "max_lots", "shura.enabled": "shura",
               "shura.format_lot_pool": "format_lot_pool", "selection.penalty": "penalty",
               "shura.national_title": "national_title_lots",
               "shura.shiga_winner": "shiga_winner_lots",
               "shura.seed_or_invitation": "seed_or_invitation_lots",
               "cards.cards_per_draw": "k7_cards_per_draw",
               "cards.extra_card": "k7_extra_card"}
#: The field of a round a problem about that round is shown beside ("" = the round).
ROUND_CODE_FIELDS = {
    "ruleset_advance_invalid": "advance_per_group", "ruleset_target_mismatch": "target",
    "ruleset_round_overfull": "size", "ruleset_round_short": "size",
    "ruleset_pair_size": "size", "ruleset_wins_needed": "wins_needed",
    "round_overfull": "size", "ruleset_capacity_mismatch": "size",
}
#: The field of a K6 rule a problem about that rule is shown beside ("" = the rule).
VARIANT_CODE_FIELDS = {"ruleset_advance_invalid": "advance_per_group",
                       "ruleset_capacity_groups": "capacity"}
_ROUND_KEY = re.compile(r"^rounds\[(\d+)\]\.(\w+)")


@dataclass
class Places:
    """Problem texts by place: ``policies``/``ladder`` by field, ``rounds`` by round index
    then field ("" = the round as a whole; ``v1.capacity`` = a field of its second K6
    rule, ``v1.`` = that rule), ``head`` for the rest."""

    policies: dict[str, list[str]] = field(default_factory=dict)
    ladder: dict[str, list[str]] = field(default_factory=dict)
    rounds: dict[int, dict[str, list[str]]] = field(default_factory=dict)
    head: list[str] = field(default_factory=list)
    count: int = 0


def _place(problem: RuleRefusal, rs: RuleSet | None) -> tuple[str, int, str]:
    """("p" | "l" | "r" | "head", round index, field) of one problem."""
    params = problem.params
    if problem.code in CODE_FIELDS:
        form, name = CODE_FIELDS[problem.code]
        return form, -1, name
    key = str(params.get("key", ""))
    match = _ROUND_KEY.match(key)
    if match:
        return "r", int(match.group(1)), match.group(2)
    if key.startswith("ladder."):
        return "l", -1, key.removeprefix("ladder.")
    if key.startswith("players."):
        return "p", -1, key.removeprefix("players.")
    if key in POLICY_KEYS:
        return "p", -1, POLICY_KEYS[key]
    if key in ("capacity", "max_seeds", "berths"):
        return "p", -1, key
    name = params.get("round")
    if rs is not None and name:
        if rs.ladder is not None:
            return "l", -1, "advance_per_group"
        field_name = ROUND_CODE_FIELDS.get(problem.code, "")
        for i, spec in enumerate(rs.rounds):
            # A K6 rule's problem names the rule ("3回戦 ルールB", or ``variant``).
            rule = (str(params.get("variant", "")) if spec.name == name
                    else str(name).removeprefix(f"{spec.name} "))
            for j, variant in enumerate(spec.variants):
                if rule == variant.name:
                    return "r", i, f"v{j}.{VARIANT_CODE_FIELDS.get(problem.code, '')}"
            if spec.name == name or str(name).startswith(f"{spec.name} ") or spec.key == name:
                return "r", i, field_name
    return "head", -1, ""


def problem_places(problems: list[RuleRefusal], rs: RuleSet | None) -> Places:
    """Each problem's Japanese text at its place on the composer."""
    places = Places(count=len(problems))
    for problem in problems:
        text = error_text(problem)
        form, index, name = _place(problem, rs)
        if form == "p":
            places.policies.setdefault(name, []).append(text)
        elif form == "l":
            places.ladder.setdefault(name, []).append(text)
        elif form == "r":
            places.rounds.setdefault(index, {}).setdefault(name, []).append(text)
        else:
            places.head.append(text)
    return places


@dataclass(frozen=True)
class RuleSetRow:
    """One rule set on the list: its newest version and whether it can run."""

    ruleset: RuleSetDoc
    version: RuleSetVersion
    problems: int

    @property
    def name(self) -> str:
        return str(self.version.document.get("name", ""))

    @property
    def ladder(self) -> bool:
        return self.version.document.get("ladder") is not None

    @property
    def rounds(self) -> int:
        return len(self.version.document.get("rounds") or ())


def ruleset_rows() -> list[RuleSetRow]:
    """Every rule set, newest first, with its problem count."""
    rows = []
    for ruleset in RuleSetDoc.objects.order_by("-id"):
        version = current_version(ruleset)
        if version is None:
            continue
        rows.append(RuleSetRow(ruleset, version, len(ruleset_problems(version.document))))
    return rows


def ruleset_history(ruleset: RuleSetDoc) -> list[RuleSetVersion]:
    return list(ruleset.versions.select_related("by").order_by("-number"))


def parsed(version: RuleSetVersion) -> tuple[RuleSet | None, Any]:
    """(the version's rule set, None) or (None, the reader's refusal)."""
    try:
        return RuleSet.from_dict(version.document), None
    except RuleRefusal as refusal:
        return None, refusal
