"""Forms of the rule-set composer (#17): how a rule set starts, the top-level policies,
the ladder (the rounds of a fixed format are in :mod:`.ruleset_rounds`).

Each form edits some fields of a :class:`~brackets.engine.rulesets.RuleSet` document;
:func:`composed` writes the cleaned values over the document they were shown from, so every
field not on a form (the dummy's set, the catalog) stays as it was. The forms only coerce
types and keep values within what the engine can compute with; whether the rules make
sense together is ``validate_ruleset``'s, shown beside the fields.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from brackets.engine import (
    FORMAT_LOT_POOLS,
    K7_DECKS,
    K7_DRAW_PER,
    K7_EXTRA_CARD_RULES,
    MAX_CARDS_PER_DRAW,
    MAX_LOTS,
    RULESET_PRESETS,
    TIE_BREAKS,
    Counting,
    Mode,
    RoundSpec,
    RuleSet,
    bounds,
)

from .ruleset_fields import DRAWS, SEATS
from .ruleset_fields import Styled as _Styled
from .ruleset_fields import labelled as _labelled
from .ruleset_fields import whole as _whole

TIE_BREAK_PLACES = 4

MODE_SOURCES = [("fixed", _("全員同じモード")),
                ("by_q", _("Qレベル別（BOMBER／ピンポイント／フリー）"))]
MODES = [("bomber", _("BOMBER（ボンバーマン）")), ("pinpoint", _("ピンポイント")),
         ("free", _("フリー"))]
COUNTINGS = [("grouped", _("形式群でまとめて数える（高火力）")),
             ("individual", _("形式ごとに数える（低火力）"))]

class RuleSetStartForm(_Styled):
    """Start a rule set from a built-in preset."""

    preset = forms.ChoiceField(label=_("組み込みプリセット"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from brackets.presets import preset_choices

        self.fields["preset"].choices = [(slug, name) for slug, name in preset_choices()
                                         if slug in RULESET_PRESETS]


SHAPES = [("rounds", _("回戦を並べる（九州杯IX型）")), ("ladder", _("勝ち上がり式（堅田型）"))]


class RuleSetEmptyForm(_Styled):
    """Start a rule set from empty: its name, and whether its rounds are listed one by one
    or planned as a ladder from the field."""

    name = forms.CharField(label=_("ルール名"), max_length=bounds.TOURNAMENT_NAME.max_length)
    shape = forms.ChoiceField(
        label=_("回戦の決め方"), choices=SHAPES,
        help_text=_("回戦を並べる：回戦ごとに人数・勝ち抜け・ルールを決めます。"
                    "勝ち上がり式：決勝の1組になるまで同じ形の回戦を人数に合わせて続けます。"))


class RuleSetImportForm(_Styled):
    """Start a rule set from a rule file exported by this or another server."""

    file = forms.FileField(label=_("ルールファイル（JSON）"))


class PoliciesForm(_Styled):
    """The event-wide rules: name, sizes, modes and thresholds, 修羅, penalty, tie-breaks,
    the 下関 cards."""

    name = forms.CharField(label=_("ルール名"), max_length=bounds.TOURNAMENT_NAME.max_length)
    description = forms.CharField(label=_("説明"), required=False, max_length=2000,
                                  widget=forms.Textarea(attrs={"rows": 2}))
    capacity = _whole(_("定員（1回戦の最大人数）"), required=False,
                      help_text=_("空欄＝確認しない。各回戦の人数はこの人数で確認します。"))
    max_seeds = _whole(_("シードの上限"), high=bounds.SEED_SLOTS.high, required=False)
    berths = _whole(_("本戦出場枠"), high=SEATS)
    mode_source = forms.ChoiceField(label=_("モードの決め方"), choices=MODE_SOURCES)
    mode = forms.ChoiceField(label=_("全員のモード"), choices=MODES)
    counting = forms.ChoiceField(label=_("形式の数え方"), choices=COUNTINGS)
    bomber_min_q = _whole(_("BOMBERになるQ（以上）"), high=bounds.Q_LEVEL.high)
    pinpoint_min_q = _whole(_("ピンポイントになるQ（以上・それ未満はフリー）"),
                            high=bounds.Q_LEVEL.high)
    grouped_min_q = _whole(_("形式群でまとめて数えるQ（高火力・以上）"), high=bounds.Q_LEVEL.high)
    subgenres_as_one = forms.BooleanField(label=_("低火力ではサブジャンルをまとめて1形式"),
                                          required=False)
    shura = forms.BooleanField(label=_("修羅の道（くじ）"), required=False)
    # 3-a: what each ground owes, in the rule page's words (0: the ground owes no lot).
    national_title_lots = _whole(_("全国大会称号経験者のジャンルくじ（本）"), high=MAX_LOTS,
                                 help_text=_("0＝くじなし"))
    shiga_winner_lots = _whole(_("地元大会優勝経験者のジャンルくじ（本）"), high=MAX_LOTS,
                               help_text=_("0＝くじなし"))
    seed_or_invitation_lots = _whole(_("シード権・特別招待枠保持者のジャンルくじ（本）"),
                                     high=MAX_LOTS, help_text=_("0＝くじなし"))
    voluntary = forms.BooleanField(
        label=_("自己申告で修羅の道を選べる（くじの追加も可）"), required=False)
    max_lots = _whole(_("修羅くじの上限（本）"), high=99)
    champion_format_lots = forms.BooleanField(
        label=_("過去の優勝者は出題形式くじを引ける"), required=False)
    format_lot_pool = forms.ChoiceField(label=_("形式くじの対象"),
                                        choices=_labelled(FORMAT_LOT_POOLS))
    illegal = forms.ChoiceField(label=_("ルール違反の出題"),
                                choices=_labelled(("refuse", "penalty")))
    penalty = forms.DecimalField(label=_("ペナルティ（点）"), min_value=Decimal(0),
                                 max_value=Decimal(99999), decimal_places=2)
    k7_deck = forms.ChoiceField(label=_("下関カードの山札"), choices=_labelled(K7_DECKS))
    k7_cards_per_draw = _whole(_("最初に引く枚数"), low=1, high=MAX_CARDS_PER_DRAW,
                               help_text=_("九州杯IXは2枚"))
    k7_extra_card = forms.ChoiceField(label=_("追加で1枚引く条件"),
                                      choices=_labelled(K7_EXTRA_CARD_RULES))
    k7_draw_per = forms.ChoiceField(label=_("下関カードの抽選単位"), choices=_labelled(K7_DRAW_PER))

    #: The 下関 card fields, shown together on the composer under their own heading.
    CARD_FIELDS = ("k7_deck", "k7_cards_per_draw", "k7_extra_card", "k7_draw_per")
    #: The 修羅 fields, shown together on the composer under their own heading.
    SHURA_FIELDS = ("shura", "national_title_lots", "shiga_winner_lots",
                    "seed_or_invitation_lots", "voluntary", "max_lots", "champion_format_lots",
                    "format_lot_pool")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("（なし）")), *_labelled(tuple(TIE_BREAKS))]
        for place in range(1, TIE_BREAK_PLACES + 1):
            self.fields[f"tie_break_{place}"] = forms.ChoiceField(
                label=_("順位付け（タイブレーク）%(n)d番目") % {"n": place}, choices=choices,
                required=False)
            self.fields[f"tie_break_{place}"].widget.attrs["class"] = "form-select"

    @staticmethod
    def initial_of(rs: RuleSet) -> dict[str, Any]:
        p, s, sel, c = rs.players, rs.shura, rs.selection, rs.cards
        initial: dict[str, Any] = {
            "name": rs.name, "description": rs.description, "capacity": rs.capacity,
            "max_seeds": rs.max_seeds, "berths": rs.berths, "mode_source": p.mode_source,
            "mode": p.mode.value, "counting": p.counting.value, "bomber_min_q": p.bomber_min_q,
            "pinpoint_min_q": p.pinpoint_min_q, "grouped_min_q": p.grouped_min_q,
            "subgenres_as_one": p.subgenres_as_one, "shura": s.enabled,
            "max_lots": s.max_lots, "format_lot_pool": s.format_lot_pool,
            "national_title_lots": s.national_title, "shiga_winner_lots": s.shiga_winner,
            "seed_or_invitation_lots": s.seed_or_invitation, "voluntary": s.voluntary,
            "champion_format_lots": s.champion_format_lots,
            "illegal": sel.illegal, "penalty": sel.penalty, "k7_deck": c.deck,
            "k7_cards_per_draw": c.cards_per_draw, "k7_extra_card": c.extra_card, "k7_draw_per": c.draw_per}
        for place in range(1, TIE_BREAK_PLACES + 1):
            chain = rs.tie_break
            initial[f"tie_break_{place}"] = chain[place - 1] if place <= len(chain) else ""
        return initial


class LadderForm(_Styled):
    """A ladder event (堅田, the shop event): group rounds until one final group is left."""

    group_size = _whole(_("1組の人数"), low=2, high=SEATS)
    advance_per_group = _whole(_("各組の勝ち抜け人数"), high=SEATS)
    single_advance_from = _whole(_("この人数以上の回戦は各組1位のみ勝ち抜け（0＝なし）"))
    single_advance_rounds = forms.CharField(
        label=_("各組1位のみ勝ち抜けの回戦（番号、カンマ区切り）"), required=False, max_length=200)
    final_size = _whole(_("決勝の人数（この人数以下で決勝）"), high=SEATS)
    seeds_from_round = _whole(_("シードは何回戦から"), low=1, high=99)
    draw = forms.ChoiceField(label=_("組分けの方法"), choices=DRAWS[:3])

    def clean_single_advance_rounds(self) -> list[int]:
        text = str(self.cleaned_data.get("single_advance_rounds") or "")
        out = []
        for part in text.replace("、", ",").replace(" ", ",").split(","):
            if not part.strip():
                continue
            try:
                number = int(part)
            except ValueError:
                raise forms.ValidationError(
                    _("回戦番号をカンマ区切りの整数で入力してください（例：1,2）。")) from None
            if not 1 <= number <= 99:
                raise forms.ValidationError(_("回戦番号は1〜99で入力してください。"))
            out.append(number)
        return out

    @staticmethod
    def initial_of(rs: RuleSet) -> dict[str, Any]:
        lad = rs.ladder
        assert lad is not None
        return {"group_size": lad.group_size, "advance_per_group": lad.advance_per_group,
                "single_advance_from": lad.single_advance_from,
                "single_advance_rounds": ",".join(str(n) for n in lad.single_advance_rounds),
                "final_size": lad.final_size, "seeds_from_round": lad.seeds_from_round,
                "draw": lad.draw}


def composed(rs: RuleSet, policies: dict[str, Any], ladder: dict[str, Any] | None,
             rounds: tuple[RoundSpec, ...] | None) -> RuleSet:
    """``rs`` with the forms' cleaned values written over it (other fields kept) and, for a
    fixed format, ``rounds`` as its rounds."""
    p = policies
    chain = tuple(p[f"tie_break_{n}"] for n in range(1, TIE_BREAK_PLACES + 1)
                  if p.get(f"tie_break_{n}"))
    out = replace(
        rs, name=p["name"], description=p["description"], capacity=p["capacity"],
        max_seeds=p["max_seeds"], berths=p["berths"], tie_break=chain,
        players=replace(rs.players, mode_source=p["mode_source"], mode=Mode(p["mode"]),
                        counting=Counting(p["counting"]), bomber_min_q=p["bomber_min_q"],
                        pinpoint_min_q=p["pinpoint_min_q"], grouped_min_q=p["grouped_min_q"],
                        subgenres_as_one=p["subgenres_as_one"]),
        shura=replace(rs.shura, enabled=p["shura"], max_lots=p["max_lots"],
                      format_lot_pool=p["format_lot_pool"],
                      national_title=p["national_title_lots"],
                      shiga_winner=p["shiga_winner_lots"],
                      seed_or_invitation=p["seed_or_invitation_lots"],
                      voluntary=p["voluntary"],
                      champion_format_lots=p["champion_format_lots"]),
        selection=replace(rs.selection, illegal=p["illegal"], penalty=p["penalty"]),
        cards=replace(rs.cards, deck=p["k7_deck"], cards_per_draw=p["k7_cards_per_draw"],
                      extra_card=p["k7_extra_card"],
                      draw_per=p["k7_draw_per"]))
    if ladder is not None and rs.ladder is not None:
        out = replace(out, ladder=replace(
            rs.ladder, group_size=ladder["group_size"],
            advance_per_group=ladder["advance_per_group"],
            single_advance_from=ladder["single_advance_from"],
            single_advance_rounds=tuple(ladder["single_advance_rounds"]),
            final_size=ladder["final_size"], seeds_from_round=ladder["seeds_from_round"],
            draw=ladder["draw"]))
    if rounds is not None:
        out = replace(out, rounds=rounds)
    return out
