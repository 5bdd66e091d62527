"""The rounds of a fixed-round rule set in the composer (#17): one form per round, and per
rule-selection round (K6) one small form per rule.

The page holds the rounds as :class:`Draft` values (what each field shows): read from the
document, or from what the organiser posted. Adding a round, adding a K6 rule and moving a
round are done on the drafts and the page is shown again with everything typed kept, so
the composer works without JavaScript; only 保存 validates and writes. A round's ``key``
is given when it is added (``r1``, ``r2`` … the first one free) and never changes, so
``losers_to`` and the stored rounds keep pointing at the same round when rounds move.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from brackets.engine import RoundRestrictions, RoundSpec, RuleVariant

from .ruleset_fields import DRAWS, MAX_PLAYERS, SEATS, Styled, whole

MAX_ROUNDS = 20
MAX_VARIANTS = 6
PREFIX = "r"

KINDS = {"groups": _("通常の組（各組上位が勝ち抜け）"),
         "rule_selection": _("ルール選択（K6：ルールごとの組）"),
         "partner_match": _("パートナー戦1試合（3位決定戦など）"),
         "partner_series": _("パートナー戦（先取）"),
         "final_group": _("決勝・準決勝（1組で順位を決める）")}

RESTRICTION_FIELDS = ("read_window", "record_window", "lots", "cards", "match_bans",
                      "pair_sets", "pair_history")
#: Fields of a round form by the part of the round they set (the page's sub-headings).
SECTIONS = (
    (_("回戦の形"), ("name", "kind", "group_size", "advance_per_group", "size", "target",
                     "wins_needed", "losers_to", "ranks_all")),
    (_("組分け・シード"), ("draw", "draw_in_advance", "seeds_enter", "seed_separation")),
    (_("出題制限"), RESTRICTION_FIELDS),
)


class _Restricted(Styled):
    """The restriction pieces of a round or of one K6 rule (:class:`RoundRestrictions`)."""

    read_window = forms.CharField(label=_("縛りに使う履歴区間（空欄＝履歴で縛らない）"),
                                  required=False, max_length=30)
    record_window = forms.CharField(label=_("出題を記録する区間（空欄＝記録しない）"),
                                    required=False, max_length=30)
    lots = forms.BooleanField(label=_("修羅くじを適用"), required=False)
    cards = forms.BooleanField(label=_("下関カード"), required=False)
    match_bans = forms.BooleanField(label=_("試合ごとのジャンル禁止（バン）"), required=False)
    pair_sets = forms.BooleanField(
        label=_("ペアの2セットはジャンルも形式群も別（パートナー戦）"), required=False)
    pair_history = forms.BooleanField(
        label=_("使用履歴はペアの2人で共有（パートナー戦）"), required=False)


def _restriction_values(r: RoundRestrictions) -> dict[str, Any]:
    return {"read_window": r.read_window or "", "record_window": r.record_window or "",
            "lots": r.lots, "cards": r.cards, "match_bans": r.match_bans,
            "pair_sets": r.pair_sets, "pair_history": r.pair_history}


def _restrictions(data: Mapping[str, Any]) -> RoundRestrictions:
    return RoundRestrictions(
        read_window=data["read_window"] or None, record_window=data["record_window"] or None,
        lots=data["lots"], cards=data["cards"], match_bans=data["match_bans"],
        pair_sets=data["pair_sets"], pair_history=data["pair_history"])


class RoundForm(_Restricted):
    """Every rule of one round (:class:`RoundSpec`) but its K6 rules."""

    key = forms.CharField(widget=forms.HiddenInput, max_length=50, required=False)
    name = forms.CharField(label=_("回戦名"), max_length=50)
    kind = forms.ChoiceField(label=_("回戦の種類"), choices=list(KINDS.items()))
    group_size = whole(_("1組の人数"), low=2, high=SEATS)
    advance_per_group = whole(_("各組の勝ち抜け人数"), high=SEATS)
    size = whole(_("人数（空欄＝勝ち上がった人数）"), low=1, required=False)
    target = whole(_("惜敗率で補充して次の回戦をこの人数に（空欄＝補充なし）"), low=1,
                   required=False)
    wins_needed = whole(_("先取勝利数（パートナー戦（先取））"), low=1, high=9, required=False)
    losers_to = forms.ChoiceField(label=_("敗者の行き先の回戦"), required=False)
    ranks_all = forms.BooleanField(label=_("全員の順位を決める（ここで大会終了）"),
                                   required=False)
    draw = forms.ChoiceField(label=_("組分け"), choices=DRAWS)
    draw_in_advance = forms.BooleanField(label=_("事前抽選"), required=False)
    seeds_enter = forms.BooleanField(label=_("シードはこの回戦から"), required=False)
    seed_separation = forms.BooleanField(label=_("シードを別の組に"), required=False)

    def __init__(self, *args: Any, rounds: list[tuple[str, str]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["losers_to"].choices = [("", _("（なし：敗退）")), *(rounds or [])]


class VariantForm(_Restricted):
    """One rule a player may choose in a K6 round (:class:`RuleVariant`)."""

    key = forms.CharField(widget=forms.HiddenInput, max_length=20, required=False)
    name = forms.CharField(label=_("ルール名"), max_length=50)
    capacity = whole(_("定員（名）"), high=MAX_PLAYERS)
    advance_per_group = whole(_("各組の勝ち抜け人数"), high=SEATS)

    field_order = ("key", "name", "capacity", "advance_per_group", *RESTRICTION_FIELDS)


# ``absolute_max``: a post claiming more forms builds no more than these.
RoundFormSet = forms.formset_factory(RoundForm, extra=0, can_delete=True, max_num=MAX_ROUNDS,
                                     validate_max=True, absolute_max=MAX_ROUNDS)
VariantFormSet = forms.formset_factory(VariantForm, extra=0, can_delete=True,
                                       max_num=MAX_VARIANTS, validate_max=True,
                                       absolute_max=MAX_VARIANTS)


# -- the rounds as the page holds them ----------------------------------------------------------


@dataclass
class Draft:
    """One round as its form shows it: field → value, and its K6 rules' values."""

    values: dict[str, Any]
    variants: list[dict[str, Any]] = field(default_factory=list)

    @property
    def key(self) -> str:
        return str(self.values.get("key") or "")


def _spec_values(spec: RoundSpec) -> dict[str, Any]:
    return {"key": spec.key, "name": spec.name, "kind": spec.kind,
            "group_size": spec.group_size, "advance_per_group": spec.advance_per_group,
            "size": spec.size, "target": spec.target, "wins_needed": spec.wins_needed,
            "losers_to": spec.losers_to or "", "ranks_all": spec.ranks_all,
            "draw": spec.draw, "draw_in_advance": spec.draw_in_advance,
            "seeds_enter": spec.seeds_enter, "seed_separation": spec.seed_separation,
            **_restriction_values(spec.restrictions)}


def _variant_values(v: RuleVariant) -> dict[str, Any]:
    return {"key": v.key, "name": v.name, "capacity": v.capacity,
            "advance_per_group": v.advance_per_group, **_restriction_values(v.restrictions)}


def drafts_of(rounds: tuple[RoundSpec, ...]) -> list[Draft]:
    """The document's rounds as the page first shows them."""
    return [Draft(_spec_values(s), [_variant_values(v) for v in s.variants]) for s in rounds]


def _count(data: Mapping[str, Any], prefix: str, most: int) -> int:
    try:
        return max(0, min(int(data.get(f"{prefix}-TOTAL_FORMS", 0)), most))
    except (TypeError, ValueError):
        return 0


def _posted(form: forms.Form, data: Mapping[str, Any]) -> dict[str, Any]:
    """What each field of ``form`` (unbound, with its prefix) shows for ``data``."""
    return {name: f.widget.value_from_datadict(data, {}, form.add_prefix(name))
            for name, f in form.fields.items()}


def drafts_posted(data: Mapping[str, Any]) -> list[Draft]:
    """The rounds as the organiser posted them, typed values as typed (nothing checked)."""
    drafts = []
    for i in range(_count(data, PREFIX, MAX_ROUNDS)):
        values = _posted(RoundForm(prefix=f"{PREFIX}-{i}"), data)
        values["DELETE"] = forms.CheckboxInput().value_from_datadict(
            data, {}, f"{PREFIX}-{i}-DELETE")
        variants = []
        for j in range(_count(data, f"{PREFIX}-{i}-v", MAX_VARIANTS)):
            prefix = f"{PREFIX}-{i}-v-{j}"
            v = _posted(VariantForm(prefix=prefix), data)
            v["DELETE"] = forms.CheckboxInput().value_from_datadict(data, {}, f"{prefix}-DELETE")
            variants.append(v)
        drafts.append(Draft(values, variants))
    return drafts


def free_key(taken: set[str], stem: str = "r") -> str:
    """The first of ``r1``, ``r2`` … not in ``taken``."""
    n = 1
    while f"{stem}{n}" in taken:
        n += 1
    return f"{stem}{n}"


def blank_round(drafts: list[Draft]) -> Draft:
    """A new group round at the end: 4 players a group, top 2 through, nothing else set."""
    spec = RoundSpec(free_key({d.key for d in drafts}), _("%(n)d回戦") % {"n": len(drafts) + 1})
    return Draft(_spec_values(spec))


def blank_variants(draft: Draft) -> list[dict[str, Any]]:
    """The rules a K6 round gains on 「ルールを追加」: ルールA and ルールB when it has none
    (a choice needs two), else the next letter."""
    taken = {str(v.get("key")) for v in draft.variants}
    free = [c for c in string.ascii_uppercase if c not in taken]
    wanted = 2 if not draft.variants else 1
    out = []
    for letter in free[:wanted]:
        out.append(_variant_values(RuleVariant(letter, _("ルール%(k)s") % {"k": letter}, 0, 1,
                                               RoundRestrictions())))
    return out


def edit_drafts(drafts: list[Draft], data: Mapping[str, Any]) -> str | None:
    """Apply the page's button (add a round, move one, add a K6 rule) to ``drafts``; the
    button's name, or None when the post is a save."""
    if "add_round" in data:
        if len(drafts) < MAX_ROUNDS:
            drafts.append(blank_round(drafts))
        return "add_round"
    if "move" in data:
        index, _sep, where = str(data["move"]).partition(":")
        try:
            i = int(index)
        except ValueError:
            return "move"
        j = i - 1 if where == "up" else i + 1
        if 0 <= i < len(drafts) and 0 <= j < len(drafts):
            drafts[i], drafts[j] = drafts[j], drafts[i]
        return "move"
    if "add_variant" in data:
        try:
            i = int(str(data["add_variant"]))
        except ValueError:
            return "add_variant"
        if 0 <= i < len(drafts) and len(drafts[i].variants) < MAX_VARIANTS:
            drafts[i].values["kind"] = "rule_selection"
            drafts[i].variants.extend(blank_variants(drafts[i]))
        return "add_variant"
    return None


# -- the forms of the page ------------------------------------------------------------------


@dataclass
class RoundsEditor:
    """The rounds' forms: bound to a post when saving, else showing ``drafts``."""

    drafts: list[Draft]
    formset: Any
    variants: list[Any]

    @classmethod
    def build(cls, drafts: list[Draft], data: Mapping[str, Any] | None = None
              ) -> RoundsEditor:
        rounds = [(d.key, str(d.values.get("name") or d.key)) for d in drafts if d.key]
        kwargs = {"form_kwargs": {"rounds": rounds}}
        if data is not None:
            formset = RoundFormSet(data, prefix=PREFIX, **kwargs)
            variants = [VariantFormSet(data, prefix=f"{PREFIX}-{i}-v")
                        for i in range(len(formset.forms))]
        else:
            formset = RoundFormSet(prefix=PREFIX, initial=[d.values for d in drafts], **kwargs)
            variants = [VariantFormSet(prefix=f"{PREFIX}-{i}-v", initial=d.variants)
                        for i, d in enumerate(drafts)]
        return cls(drafts, formset, variants)

    def _deleted(self, i: int) -> bool:
        return bool(self.drafts[i].values.get("DELETE")) if i < len(self.drafts) else False

    def is_valid(self) -> bool:
        valid = bool(self.formset.is_valid())
        for i, variants in enumerate(self.variants):
            if not self._deleted(i) and not variants.is_valid():
                valid = False
        return valid

    def specs(self) -> tuple[RoundSpec, ...]:
        """The rounds the valid forms describe, in the page's order (deleted ones left out);
        a round posted without a key gets the first free one."""
        taken = {str(f.cleaned_data.get("key") or "") for f in self.formset.forms}
        out = []
        for i, form in enumerate(self.formset.forms):
            data = form.cleaned_data
            if data.get("DELETE"):
                continue
            key = data["key"] or free_key(taken)
            taken.add(key)
            rules = [f.cleaned_data for f in self.variants[i].forms
                     if f.cleaned_data and not f.cleaned_data.get("DELETE")]
            letters = iter(c for c in string.ascii_uppercase
                           if c not in {v["key"] for v in rules})
            variants = tuple(
                RuleVariant(v["key"] or next(letters), v["name"], v["capacity"],
                            v["advance_per_group"], _restrictions(v)) for v in rules)
            out.append(RoundSpec(
                key=key, name=data["name"], kind=data["kind"], group_size=data["group_size"],
                advance_per_group=data["advance_per_group"], size=data["size"],
                target=data["target"], seeds_enter=data["seeds_enter"], draw=data["draw"],
                draw_in_advance=data["draw_in_advance"],
                seed_separation=data["seed_separation"], restrictions=_restrictions(data),
                variants=variants, losers_to=data["losers_to"] or None,
                wins_needed=data["wins_needed"], ranks_all=data["ranks_all"]))
        return tuple(out)
