"""A rule set as the rule page players read (#17 item 4), in the organisers' usual wording.

:func:`rule_page` turns a :class:`~brackets.engine.RuleSet` into sections of sentences in
the order the seed rule pages use: the basic rule and the dummy, 惜敗率 and tie-breaks,
each round with its advancement, modes by Q level, history windows and fallbacks, 修羅,
penalties. The public page (``/p/<slug>/rules/``) and the PDF (``rule-page``) both print
this one result, so the page players read and the rules the app enforces are one text.
Worded in the active language (Japanese; English for an English reader).

:func:`tournament_ruleset` is a tournament's rules as a document: today its built-in
preset with its settings; a composed rule set plugs in here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from brackets import engine_adapter as ea
from brackets.engine import Counting, Mode, RoundRestrictions, RoundSpec, RuleSet, ruleset_of
from brackets.labels import COUNTING_LABELS, MODE_LABELS, label
from brackets.messages_rulesets import GROUND_LABELS

#: Round names of the built-in presets, translated when shown (n回戦 by pattern).
ROUND_NAMES = (gettext_noop("準決勝"), gettext_noop("決勝"), gettext_noop("3位決定戦"))
TIE_BREAK_LABELS = {
    "ratio": gettext_noop("惜敗率"), "score": gettext_noop("得点"),
    "screen_score": gettext_noop("画面の得点"), "place": gettext_noop("組内順位"),
    "previous_place": gettext_noop("前回戦の順位"), "seed": gettext_noop("シード順"),
    "screen_order": gettext_noop("画面の表示順"), "seat": gettext_noop("サテ番号"),
    "lottery": gettext_noop("抽選"),
}


@dataclass(frozen=True)
class RuleItem:
    """One rule sentence, with the sentences under it (a round's rules, a K6 rule)."""

    text: str
    children: tuple[str, ...] = ()


@dataclass(frozen=True)
class RuleSection:
    """A 【heading】 of the rule page and its rules."""

    title: str
    items: tuple[RuleItem, ...]


@dataclass(frozen=True)
class RulePage:
    title: str
    sections: tuple[RuleSection, ...]


def tournament_ruleset(tournament: Any) -> RuleSet:
    """The rules a tournament runs under, as a document: the copy it took of a composed
    rule set (#17), else its built-in preset with the settings its organiser changed."""
    slug, values = ea.preset_source(tournament)
    if slug == ea.RULESET_PRESET:
        return RuleSet.from_dict(values["document"])
    return ruleset_of(slug, values)


def round_name(name: str) -> str:
    """A round's name in the active language (a name typed by an organiser as it is)."""
    match = re.fullmatch(r"(\d+)回戦", name)
    if match:
        return _("{number}回戦").format(number=match.group(1))
    return _(name) if name in ROUND_NAMES else name


def _chain(slugs: Sequence[str]) -> str:
    return " → ".join(_(TIE_BREAK_LABELS[s]) if s in TIE_BREAK_LABELS else s for s in slugs)


# -- the basic rule -----------------------------------------------------------------------------


def _basic(rs: RuleSet, group_size: int) -> RuleSection:
    p = rs.players
    items = [RuleItem(_("店内対戦モードを使用した{n}人対戦で試合を行います。").format(n=group_size))]
    if p.mode_source == "by_q":
        items.append(RuleItem(_("使用したジャンル・出題形式による選択の制限は、階級（Qレベル）に"
                                "よって決まります（後述「階級による出題制限」）。")))
    elif p.mode is Mode.BOMBER:
        items.append(RuleItem(
            _("1度使用したジャンル及び形式群は再度使用できません（いわゆる高火力ボンバーマンルール）。")
            if p.counting is Counting.GROUPED else
            _("1度使用したジャンル及び出題形式は再度使用できません（低火力ボンバーマンルール）。")))
    elif p.mode is Mode.PINPOINT:
        items.append(RuleItem(_("1度使用したジャンルと出題形式の組合せは再度選択できません"
                                "（ピンポイント縛り）。")))
    else:
        items.append(RuleItem(_("使用したジャンル・出題形式による選択の制限はありません（フリー）。")))
    items.append(RuleItem(_("出題形式の難易度（EASY・NORMAL・HARD）は制限しません。")))
    if p.subgenres_as_one:
        items.append(RuleItem(_("サブジャンルはまとめて1形式群の扱いとします。「ランダム」は1つの"
                                "形式群とみなします。")))
    dummy = rs.selection.dummy
    items.append(RuleItem(_("【ダミープレイヤーについて】参加人数の関係上、組の人数が{n}人に満たない"
                            "場合はダミープレイヤーを用意します。ダミープレイヤーは{genre}・{fmt}・"
                            "{difficulty}を出題し、その成績は他のプレイヤーの順位に影響しません。")
                          .format(n=group_size, genre=dummy.genre, fmt=dummy.format,
                                  difficulty=dummy.difficulty)))
    return RuleSection(_("基本ルール"), tuple(items))


def _ratio(rs: RuleSet) -> RuleSection:
    return RuleSection(_("惜敗率と同率の扱い"), (
        RuleItem(_("惜敗率は、計算を行う組の1位プレイヤーの得点を基準に算出します（得点 ÷ 組1位の"
                   "得点）。惜敗率の計算は全参加者に対して行います。")),
        RuleItem(_("追加勝ち抜け（惜敗率による）と順位の比較は、次の順で決めます：{chain}")
                 .format(chain=_chain(rs.tie_break))),
        RuleItem(_("同じ組で画面上の順位が同じ場合も、同じ順で決めます。最後は記録した抽選で"
                   "決めます。")),
    ))


# -- rounds -------------------------------------------------------------------------------------


def _restrictions(r: RoundRestrictions, window: str | None, rs: RuleSet) -> list[str]:
    """What one round (or K6 rule) applies, against the window of the round before."""
    cards = rs.cards
    out: list[str] = []
    if r.read_window is None:
        out.append(_("出題制限はありません（この試合の出題は出題履歴にも加えません）。")
                   if r.record_window is None else _("出題制限はありません。"))
    elif window is not None and r.read_window != window:
        out.append(_("ここまでの出題制限をリセットし、この回戦から改めて基本ルールを適用します。"))
    else:
        out.append(_("基本ルールを適用します。"))
    if r.read_window is not None and r.record_window is None:
        out.append(_("この回戦の出題は出題履歴に加えません。"))
    if r.cards:
        if cards.extra_card == "never":
            extra = _("追加で引くことはありません")
        elif cards.extra_card == "share_genre_or_group":
            extra = _("ジャンルか形式群が重なった場合はもう1枚引く")
        elif cards.cards_per_draw == 2:
            extra = _("2枚が同じカードの場合はもう1枚引く")
        else:
            extra = _("同じカードが2枚ある場合はもう1枚引く")
        if cards.cards_per_draw == 2:
            # K7's own sentence, so the built-in rule page reads as it always has.
            line = _("【追加ルール】「下関ルール・改」カードを2枚引き、引いたカードに対応するジャンル"
                     "及び形式群のみ使用可能となります（{extra}）。")
        else:
            line = _("【追加ルール】「下関ルール・改」カードを{n}枚引き、引いたカードに対応するジャンル"
                     "及び形式群のみ使用可能となります（{extra}）。")
        out.append(line.format(n=cards.cards_per_draw, extra=extra))
        if cards.draw_per == "round":
            out.append(_("カードは回戦ごとに1回引き、全組共通です。"))
    if r.match_bans:
        out.append(_("各プレイヤーはこの試合で出題を禁止するジャンルを1つ選んで用紙に記入します。"
                     "全員の記入後に一斉に公表し、指定されたジャンルはこの試合で使用禁止となります。"))
    if r.pair_history and r.read_window is not None:
        out.append(_("出題履歴は対戦者とパートナーの2人で通算します（第2戦では第1戦までに使用した"
                     "ジャンル・形式群を使用できません）。"))
    if r.pair_sets:
        out.append(_("選択する2セット（12問分）は、1セット目と2セット目で異なるジャンル・形式群で"
                     "なければなりません。"))
    if rs.shura.enabled and r.read_window is not None and not r.lots:
        out.append(_("この回戦では修羅くじの制限は適用しません。"))
    return out


def _advance(k: int, following: str | None) -> str:
    where = round_name(following) if following else _("次の回戦")
    if k == 1:
        return _("【勝ち抜け条件】各組1位のみが{next}に進出します。").format(next=where)
    return _("【勝ち抜け条件】各組上位{k}名が{next}に進出します。").format(k=k, next=where)


def _draw(spec: RoundSpec) -> str:
    if spec.draw == "random":
        return (_("組み合わせは事前に抽選で決定します。") if spec.draw_in_advance
                else _("組み合わせは前の回戦の終了時に抽選で決定します。"))
    if spec.draw == "snake":
        return _("組み合わせは前の回戦の成績順に蛇腹（スネーク）で決定します。")
    if spec.draw == "mod":
        return _("組み合わせは前の回戦の成績順に各組へ順番に振り分けます。")
    return ""


def _fixed_round(rs: RuleSet, index: int, window: str | None) -> RuleItem:
    rounds = rs.rounds
    spec = rounds[index]
    following = next((r.name for r in rounds[index + 1:] if r.key != spec.losers_to), None)
    losers = next((r.name for r in rounds if r.key == spec.losers_to), None)
    size = spec.size if index else (rs.capacity or spec.size)
    if size is None:
        head = round_name(spec.name)
    elif index == 0:
        head = _("{name}（最大{n}名）").format(name=round_name(spec.name), n=size)
    else:
        head = _("{name}（{n}名）").format(name=round_name(spec.name), n=size)
    lines: list[str] = []
    if spec.seeds_enter:
        lines.append(_("シード権保持者は{name}からの参加となります。").format(
            name=round_name(spec.name)))
        if spec.seed_separation:
            lines.append(_("シード権保持者は互いに同じ組とならないように調整します。"))
    if spec.is_rule_selection:
        lines.append(_("{name}は「ルール選択ラウンド」です。{n}種類のルールから1つを選んで用紙に"
                       "記入し、それぞれのルールで{g}人対戦を行います。").format(
            name=round_name(spec.name), n=len(spec.variants), g=spec.group_size))
        if index:
            previous = round_name(rounds[index - 1].name)
            lines.append(_("全員の記入後、次の順に先着順で組分けを行います：{prev}で1位となった方"
                           "（得点の高い順）→ {prev}で2位となった方（惜敗率の高い順）。")
                         .format(prev=previous))
        for number, variant in enumerate(spec.variants, start=1):
            rules = " ".join(_restrictions(variant.restrictions, window, rs))
            lines.append(_("（{number}）{rule}：定員{capacity}名。{rules}{advance}").format(
                number=number, rule=_(variant.name) if variant.name in ("ルールA", "ルールB")
                else variant.name, capacity=variant.capacity, rules=rules,
                advance=_advance(variant.advance_per_group, following)))
        return RuleItem(head, tuple(lines))
    lines.extend(_restrictions(spec.restrictions, window, rs))
    if spec.is_pair:
        lines.append(_("対戦者2名が会場にいるプレイヤーから1名ずつパートナーを選び、相談の上で出題を"
                       "決めます。対戦者は1番席または4番席に着席します。パートナーの成績は勝敗に"
                       "影響しません。"))
        if spec.is_series:
            lines.append(_("対戦前にサイコロを振り、出目の大きい方が「席順（先攻・後攻）」か"
                           "「出題順序」のどちらか一方を選びます。"))
            lines.append(_("先に{wins}勝した対戦者の勝利とします。").format(wins=spec.wins_needed))
        else:
            lines.append(_("1戦勝負で、上位の対戦者を勝ちとします。"))
        return RuleItem(head, tuple(lines))
    draw = _draw(spec)
    if draw and spec.kind == "groups":
        lines.append(draw)
    if spec.is_ranked_final:
        lines.append(_("{g}人で対戦し、順位を決定します。").format(g=spec.group_size))
    elif losers is not None:
        lines.append(_("【勝ち抜け条件】上位{k}名が{next}進出となり、下位{rest}名は{losers}に"
                       "進みます。").format(k=spec.advance_per_group,
                                            next=round_name(following or ""),
                                            rest=spec.group_size - spec.advance_per_group,
                                            losers=round_name(losers)))
    else:
        lines.append(_advance(spec.advance_per_group, following))
        if spec.target is not None:
            lines.append(_("各組の勝ち抜けで{target}名に満たない場合は、惜敗率による追加勝ち抜けで"
                           "{target}名まで埋めます。").format(target=spec.target))
    return RuleItem(head, tuple(lines))


def _fixed_rounds(rs: RuleSet) -> list[RuleItem]:
    items: list[RuleItem] = []
    window: str | None = None
    for index, spec in enumerate(rs.rounds):
        items.append(_fixed_round(rs, index, window))
        restr = spec.variants[0].restrictions if spec.variants else spec.restrictions
        window = restr.read_window or window
    return items


def _ladder_rounds(rs: RuleSet) -> list[RuleItem]:
    lad = rs.ladder
    assert lad is not None
    lines = [_("1回戦から準決勝まで{g}人（人数に応じて{n}人＋ダミープレイヤー）で対戦し、"
               "各組上位{k}名が勝ち抜けます（ダミーは着順に含めません）。").format(
        g=lad.group_size, n=lad.group_size - 1, k=lad.advance_per_group)]
    if lad.single_advance_from:
        lines.append(_("参加{n}名以上の回戦は、各組1位のみが勝ち抜けます。").format(
            n=lad.single_advance_from))
    if lad.single_advance_rounds:
        lines.append(_("{rounds}は各組1位のみが勝ち抜けます。").format(
            rounds=_("、").join(round_name(f"{n}回戦") for n in lad.single_advance_rounds)))
    lines.append(_("勝ち残りが{n}名以下になった時点で決勝とします。").format(n=lad.final_size))
    if lad.seeds_from_round > 1:
        lines.append(_("シード権保持者は{name}からの参加となります。").format(
            name=round_name(f"{lad.seeds_from_round}回戦")))
    lines.append({"random": _("組み合わせは抽選で決定します（1回戦は事前に）。"),
                  "snake": _("2回戦以降の組み合わせは前の回戦の成績順に蛇腹（スネーク）で決定します。"),
                  "mod": _("2回戦以降の組み合わせは前の回戦の成績順に各組へ順番に振り分けます。")
                  }.get(lad.draw, ""))
    lines.extend(_restrictions(lad.restrictions, None, rs))
    final = [_("決勝は{g}人で対戦し、順位を決定します。").format(g=lad.group_size)]
    final.extend(_restrictions(lad.final_restrictions, lad.restrictions.read_window, rs))
    return [RuleItem(_("1回戦〜準決勝"), tuple(lines)), RuleItem(round_name("決勝"), tuple(final))]


# -- restrictions, 修羅, penalties -----------------------------------------------------------------


def _modes(rs: RuleSet) -> RuleSection | None:
    p = rs.players
    if p.mode_source != "by_q":
        return None
    b, pp, g = p.bomber_min_q, p.pinpoint_min_q, p.grouped_min_q
    return RuleSection(_("階級による出題制限"), (
        RuleItem(_("Qレベル{b}以上：1度使用した出題形式ないしジャンルを以降の試合で選択できません"
                   "（{mode}）。").format(b=b, mode=label(MODE_LABELS, "bomber"))),
        RuleItem(_("Qレベル{low}〜{high}：1度使用したジャンルと出題形式の組合せを以降の試合で選択"
                   "できません（{mode}）。").format(low=pp, high=b - 1, mode=label(MODE_LABELS, "pinpoint"))),
        RuleItem(_("Qレベル{high}以下：それまでに使用した出題形式・ジャンルによる制限はありません"
                   "（{mode}）。").format(high=pp - 1, mode=label(MODE_LABELS, "free"))),
        RuleItem(_("縛りは、プレイヤーが保有している全e-AMUSEMENTカードのうち最も高い階級に基づいて"
                   "決めます。現在の階級より高い階級の縛りを自分で選ぶこともできます（プチ修羅の道）。")),
        RuleItem(_("Qレベル{g}以上のプレイヤーは、選択画面の縦一列の個別形式を全てひとつの形式と"
                   "みなします（{counting}）。").format(g=g, counting=label(COUNTING_LABELS, "grouped"))),
        RuleItem(_("Qレベル{high}以下のプレイヤーは、各形式をそれぞれ別の形式とみなします"
                   "（{counting}）。").format(high=g - 1, counting=label(COUNTING_LABELS, "individual"))),
    ))


def _restricted(rs: RuleSet) -> bool:
    """Whether any set of the event can close a genre or format (so the fallbacks matter)."""
    sets: list[RoundRestrictions] = []
    for spec in rs.rounds:
        sets.extend([v.restrictions for v in spec.variants] or [spec.restrictions])
    if rs.ladder is not None:
        sets.extend([rs.ladder.restrictions, rs.ladder.final_restrictions])
    return rs.shura.enabled or any(r.read_window or r.cards or r.match_bans for r in sets)


def _windows(rs: RuleSet) -> RuleSection:
    items: list[RuleItem] = []
    if rs.rounds:
        windows: dict[str, list[str]] = {}
        free: list[str] = []
        for spec in rs.rounds:
            parts = [(_("{round}（{rule}）").format(round=round_name(spec.name), rule=_(v.name)),
                      v.restrictions)
                     for v in spec.variants] or [(round_name(spec.name), spec.restrictions)]
            for shown, r in parts:
                if r.read_window is None:
                    free.append(shown)
                    continue
                names = windows.setdefault(r.read_window, [])
                if round_name(spec.name) not in names:
                    names.append(round_name(spec.name))
        for number, names in enumerate(windows.values()):
            if len(names) == 1 and number:
                text = _("{round}の出題履歴は、それまでの回戦とは別に数えます。").format(
                    round=names[0])
            elif len(names) == 1:
                text = _("{round}の出題履歴で制限します。").format(round=names[0])
            else:
                text = _("{first}から{last}までの出題履歴を通算します（{last}終了時まで）："
                         "{rounds}").format(first=names[0], last=names[-1],
                                            rounds=_("、").join(names))
            items.append(RuleItem(text))
        if free:
            items.append(RuleItem(_("出題履歴による制限のない試合：{rounds}").format(
                rounds=_("、").join(free))))
    elif rs.ladder is not None:
        lad = rs.ladder
        if lad.restrictions.read_window is None and lad.final_restrictions.read_window is None:
            items.append(RuleItem(_("出題履歴による制限はありません。")))
        elif lad.final_restrictions.read_window == lad.restrictions.read_window:
            items.append(RuleItem(_("1回戦から決勝までの出題履歴を通算します。")))
        else:
            items.append(RuleItem(_("1回戦から準決勝までの出題履歴を通算し、決勝で出題制限を"
                                    "リセットします。")))
    if _restricted(rs):
        items.append(RuleItem(_("上記のルールにより出題できるジャンルがなくなった場合は、ノンジャンル"
                                "に限り再度出題できます。")))
        items.append(RuleItem(_("出題できる形式がなくなった場合は、ランダムに限り再度出題できます。")))
    return RuleSection(_("出題制限と出題履歴"), tuple(items))


def _shura(rs: RuleSet) -> RuleSection | None:
    """修羅 as the organisers composed it: which achievements owe how many lots, 修羅の道,
    the cap, past champions' format lots."""
    s = rs.shura
    if not s.enabled:
        return None
    owing = [(g, getattr(s, g)) for g in GROUND_LABELS if getattr(s, g) > 0]
    items = []
    # One sentence per achievement, as the seed pages word 3-a-i…iii (items with children
    # are headings on the page and in the PDF).
    for g, n in owing:
        items.append(RuleItem(_("{holder}は、初めにジャンルくじを{n}本引き、該当するジャンルを"
                                "大会中使用できません。").format(holder=str(GROUND_LABELS[g]),
                                                                  n=n)))
    if len(owing) > 1:
        items.append(RuleItem(_("複数の実績に当てはまる場合、くじの本数は累積します。")))
    if s.voluntary and owing:
        items.append(RuleItem(_("上記に当てはまらないプレイヤーでも、自己申告により修羅の道を"
                                "選ぶ者は、ジャンルくじを1本引き、該当するジャンルを大会中使用"
                                "できません。")))
    elif s.voluntary:
        items.append(RuleItem(_("自己申告により修羅の道を選ぶプレイヤーは、初めにジャンルくじを"
                                "1本引き、該当するジャンルを大会中使用できません。")))
    else:
        items.append(RuleItem(_("自己申告による修羅の道（くじの追加）はありません。")))
    items.append(RuleItem(_("修羅の道のプレイヤーは、階級にかかわらずボンバーマンルールを"
                            "適用します。")))
    if s.voluntary:
        items.append(RuleItem(_("くじはノンジャンルを除く{n}種類です。くじの本数は自己申告により"
                                "増やせますが、ひとり{cap}本までとします。").format(
                                    n=7, cap=s.max_lots)))
    else:
        items.append(RuleItem(_("くじはノンジャンルを除く{n}種類です。くじはひとり{cap}本までと"
                                "します。").format(n=7, cap=s.max_lots)))
    if s.champion_format_lots:
        items.append(RuleItem(
            _("過去の大会でジャンルくじを4本以上引いて優勝したことのあるプレイヤーは、階級が"
              "賢者（Qレベル{q}以上）に到達していれば、ジャンルくじ4本とともに、過去の優勝時に"
              "引いたくじの総数から3を減じた本数と、5から一人あたりの最大試合数を減じた本数の"
              "いずれか低い本数以下の出題形式くじを引き、該当する形式を大会中使用不可とする"
              "ことができます。").format(q=50)))
    return RuleSection(_("修羅の道"), tuple(items))


def _penalties(rs: RuleSet) -> RuleSection:
    sel = rs.selection
    if sel.illegal == "penalty":
        first = _("出題できるジャンル・形式があるにもかかわらずこのルールに反した場合は、ペナルティと"
                  "して総得点から{points}点を減算します。").format(points=f"{sel.penalty:g}")
        bug = _("正規の方法では選択できない出題形式や難易度をバグを利用して選択する行為は禁止します。"
                "これに反した場合も同じく{points}点を減算します。").format(points=f"{sel.penalty:g}")
    else:
        first = _("ルールに反する出題は受け付けず、選び直していただきます。")
        bug = _("正規の方法では選択できない出題形式や難易度をバグを利用して選択する行為は禁止します。")
    return RuleSection(_("ペナルティと禁止事項"), (
        RuleItem(first), RuleItem(bug),
        RuleItem(_("対戦中の不正行為（回答集の窃視・隣席の覗き見など）や筐体への破壊的行為は禁止します。"
                   "違反者は失格とし、その試合に限り下位プレイヤーの順位を繰り上げます。")),
        RuleItem(_("機械の不具合などにより再試合を行う場合は、中止された試合と同じ出題形式・ジャンルを"
                   "選択してください。")),
    ))


def rule_page(rs: RuleSet, name: str = "") -> RulePage:
    """The rule page of ``rs`` (titled ``name``, default the rule set's name)."""
    group_size = (rs.ladder.group_size if rs.ladder is not None
                  else next((r.group_size for r in rs.rounds), 4))
    rounds = _fixed_rounds(rs) if rs.rounds else _ladder_rounds(rs) if rs.ladder else []
    sections = [
        _basic(rs, group_size),
        _ratio(rs),
        RuleSection(_("各ラウンド・ルール＆勝ち抜け条件"), tuple(rounds)),
        _modes(rs),
        _windows(rs),
        _shura(rs),
        _penalties(rs),
    ]
    return RulePage(_("{name} 大会ルール").format(name=name or rs.name),
                    tuple(s for s in sections if s is not None))
