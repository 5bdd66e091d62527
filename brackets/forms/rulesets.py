"""Forms of the rule-set composer (#17): the top-level policies, the ladder, the rounds.

Each form edits some fields of a :class:`~brackets.engine.rulesets.RuleSet` document;
:func:`composed` writes the cleaned values over the document they were shown from, so every
field not on a form yet (K6 rules, pair rules, the dummy's set, the catalog) stays as it
was. The forms only coerce types and keep values within what the engine can compute with;
whether the rules make sense together is ``validate_ruleset``'s, shown beside the fields.
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
    MAX_LOTS,
    RULESET_PRESETS,
    TIE_BREAKS,
    Counting,
    Mode,
    RuleSet,
    bounds,
)
from brackets.services.preset_settings import VALUE_LABELS

TIE_BREAK_PLACES = 4
MAX_PLAYERS = bounds.CAPACITY.high
# Groups, advancers and berths are bounded loosely here: a value the rules cannot use
# (five seats, three advancers of three) is the validator's to explain beside the field.
SEATS = 99

MODE_SOURCES = [("fixed", _("全員同じモード")),
                ("by_q", _("Qレベル別（BOMBER／ピンポイント／フリー）"))]
MODES = [("bomber", _("BOMBER（ボンバーマン）")), ("pinpoint", _("ピンポイント")),
         ("free", _("フリー"))]
COUNTINGS = [("grouped", _("形式群でまとめて数える（高火力）")),
             ("individual", _("形式ごとに数える（低火力）"))]
DRAWS = [("random", _("抽選（シード分け）")), ("snake", _("順位順スネーク")),
         ("mod", _("順位順（剰余）")), ("fixed", _("前の回戦の順位で固定"))]
KINDS = {"groups": _("4人組（上位が勝ち抜け）"), "rule_selection": _("ルール選択（A／B）"),
         "final_group": _("決勝グループ"), "partner_match": _("パートナー戦（1試合）"),
         "partner_series": _("パートナー戦（先取）")}


def _labelled(values: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(v, str(VALUE_LABELS.get(v, v))) for v in values]


def _whole(label: Any, *, low: int = 0, high: int = MAX_PLAYERS, required: bool = True,
           help_text: Any = "") -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=low, max_value=high, required=required,
                              help_text=help_text)


class _Styled(forms.Form):
    """Bootstrap classes on every widget (touch-sized inputs on a tablet)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            widget = field.widget
            if isinstance(widget, forms.CheckboxInput):
                css = "form-check-input"
            elif isinstance(widget, forms.Select):
                css = "form-select"
            else:
                css = "form-control"
            widget.attrs.setdefault("class", css)


class RuleSetStartForm(_Styled):
    """Start a rule set from a built-in preset."""

    preset = forms.ChoiceField(label=_("組み込みプリセット"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from brackets.presets import preset_choices

        self.fields["preset"].choices = [(slug, name) for slug, name in preset_choices()
                                         if slug in RULESET_PRESETS]


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
    k7_extra_card = forms.ChoiceField(label=_("下関カード：3枚目を引く条件"),
                                      choices=_labelled(K7_EXTRA_CARD_RULES))
    k7_draw_per = forms.ChoiceField(label=_("下関カードの抽選単位"), choices=_labelled(K7_DRAW_PER))

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
            "k7_extra_card": c.extra_card, "k7_draw_per": c.draw_per}
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


class RoundForm(_Styled):
    """One round of a fixed format: its size, groups, wildcards, seeds and restrictions."""

    key = forms.CharField(widget=forms.HiddenInput, max_length=50)
    name = forms.CharField(label=_("回戦名"), max_length=50)
    group_size = _whole(_("1組の人数"), low=2, high=SEATS)
    advance_per_group = _whole(_("各組の勝ち抜け人数"), high=SEATS)
    size = _whole(_("人数（空欄＝勝ち上がった人数）"), low=1, required=False)
    target = _whole(_("惜敗率で補充して次の回戦をこの人数に（空欄＝補充なし）"), low=1,
                    required=False)
    seeds_enter = forms.BooleanField(label=_("シードはこの回戦から"), required=False)
    draw = forms.ChoiceField(label=_("組分け"), choices=DRAWS)
    draw_in_advance = forms.BooleanField(label=_("事前抽選"), required=False)
    read_window = forms.CharField(label=_("縛りに使う履歴区間（空欄＝履歴で縛らない）"),
                                  required=False, max_length=30)
    record_window = forms.CharField(label=_("出題を記録する区間（空欄＝記録しない）"),
                                    required=False, max_length=30)
    lots = forms.BooleanField(label=_("修羅くじを適用"), required=False)
    cards = forms.BooleanField(label=_("下関カード"), required=False)
    match_bans = forms.BooleanField(label=_("試合ごとのジャンル禁止（バン）"), required=False)
    wins_needed = _whole(_("先取勝利数（パートナー戦）"), low=1, high=9, required=False)

    @staticmethod
    def initial_of(rs: RuleSet) -> list[dict[str, Any]]:
        return [{"key": r.key, "name": r.name, "group_size": r.group_size,
                 "advance_per_group": r.advance_per_group, "size": r.size, "target": r.target,
                 "seeds_enter": r.seeds_enter, "draw": r.draw,
                 "draw_in_advance": r.draw_in_advance,
                 "read_window": r.restrictions.read_window or "",
                 "record_window": r.restrictions.record_window or "",
                 "lots": r.restrictions.lots, "cards": r.restrictions.cards,
                 "match_bans": r.restrictions.match_bans, "wins_needed": r.wins_needed}
                for r in rs.rounds]


RoundFormSet = forms.formset_factory(RoundForm, extra=0, can_delete=True, max_num=20,
                                     validate_max=True)


def composed(rs: RuleSet, policies: dict[str, Any], ladder: dict[str, Any] | None,
             rounds: list[dict[str, Any]] | None) -> RuleSet:
    """``rs`` with the forms' cleaned values written over it (other fields kept)."""
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
        cards=replace(rs.cards, deck=p["k7_deck"], extra_card=p["k7_extra_card"],
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
        by_key = {r.key: r for r in rs.rounds}
        kept = []
        for data in rounds:
            spec = by_key.get(data.get("key", ""))
            if spec is None or data.get("DELETE"):
                continue
            kept.append(replace(
                spec, name=data["name"], group_size=data["group_size"],
                advance_per_group=data["advance_per_group"], size=data["size"],
                target=data["target"], seeds_enter=data["seeds_enter"], draw=data["draw"],
                draw_in_advance=data["draw_in_advance"], wins_needed=data["wins_needed"],
                restrictions=replace(spec.restrictions,
                                     read_window=data["read_window"] or None,
                                     record_window=data["record_window"] or None,
                                     lots=data["lots"], cards=data["cards"],
                                     match_bans=data["match_bans"])))
        out = replace(out, rounds=tuple(kept))
    return out
