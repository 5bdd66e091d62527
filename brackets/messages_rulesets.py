"""Staff wording of the composed rule sets' refusals (``brackets/engine/rulesets``), part of
:data:`brackets.messages.ERROR_TEXT`: a rule file read in, then checked before a tournament
is created with it, and the rehearsal's bounds. Keys are the file's paths
(``rounds[2].size``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

#: The 3-a grounds a 修羅 problem names (``ground``), as the rule page names their holders.
GROUND_LABELS: dict[str, Any] = {
    "national_title": _("全国大会称号経験者"), "shiga_winner": _("地元大会での優勝経験者"),
    "seed_or_invitation": _("シード権・特別招待枠保持者")}

RULESET_TEXT: dict[str, Any] = {
    "ruleset_version_newer": _("このルールファイルは新しい版（第{version}版）で作られています。"
                               "このサーバーが読めるのは第{supported}版までです。サーバーを更新してから"
                               "読み込んでください"),
    "ruleset_key_unknown": _("ルールファイルに知らない項目「{key}」があります。項目名を確認するか、"
                             "新しい版のファイルでないか確かめてください"),
    "ruleset_key_missing": _("ルールファイルに項目「{key}」がありません"),
    "ruleset_value_invalid": _("ルールファイルの項目「{key}」の値が正しくありません（{expected}）"),
    "ruleset_value_range": _("「{key}」は{low}〜{high}で指定してください（現在 {value}）"),
    "ruleset_rounds_missing": _("回戦が1つもありません。回戦を追加するか、勝ち上がり式を選んでください"),
    "ruleset_rounds_and_ladder": _("回戦の一覧と勝ち上がり式の両方が指定されています。どちらか一方に"
                                   "してください"),
    "ruleset_round_key_twice": _("回戦の識別名「{key}」が2回使われています（{round}）。"
                                 "別の名前にしてください"),
    "ruleset_round_unreachable": _("{round}には誰も進みません。前の回戦の勝ち抜けや敗者の行き先を"
                                   "確認してください"),
    "ruleset_no_final": _("{round}の後に順位を決める回戦がありません。決勝（順位決定）を最後に"
                          "置いてください"),
    "ruleset_losers_to_unknown": _("{round}の敗者の行き先「{target}」が、後ろの回戦にありません"),
    "ruleset_variants_kind": _("{round}：ルール選択は「ルール選択」の回戦にだけ、2つ以上の"
                               "ルールで設定してください"),
    "ruleset_capacity_mismatch": _("{round}：ルールの定員の合計（{capacity}名）を回戦の人数"
                                   "（{size}名）に合わせてください"),
    "ruleset_capacity_groups": _("{round}：{variant}の定員（{capacity}名）を{group_size}の倍数に"
                                 "してください"),
    "ruleset_advance_invalid": _("{round}：1組の勝ち抜け人数（{advance}名）は1名以上、1組の人数"
                                 "（{group_size}名）未満にしてください"),
    "ruleset_pair_size": _("{round}はパートナー戦なので対戦者は2名です（現在 {size}名）"),
    "ruleset_wins_needed": _("{round}：何勝で優勝か（先取数）を1以上で指定してください"),
    "ruleset_pair_rule_kind": _("{round}はパートナー戦ではないので、ペアの制限は使えません"),
    "ruleset_target_mismatch": _("{round}は追加勝ち抜けで{target}名まで埋めますが、{next}の人数は"
                                 "{size}名です。どちらかを合わせてください"),
    "ruleset_round_overfull": _("{round}は{size}名ですが、{previous}から{players}名が進みます。"
                                "{round}の人数を増やすか、勝ち抜け人数を減らしてください"),
    "ruleset_round_short": _("{round}は{size}名ですが、{previous}からは最大{players}名しか"
                             "進めません。{round}の人数を減らすか、勝ち抜けや追加勝ち抜けを"
                             "増やしてください"),
    "ruleset_window_never_written": _("{round}は履歴区間「{window}」の使用履歴で制限しますが、"
                                      "それより前にこの区間へ記録する回戦がありません。区間名を"
                                      "確認してください"),
    "ruleset_window_exhausted": _("{round}では履歴区間「{window}」に最大{sets}セットの使用履歴が"
                                  "あり、形式群（{available}種）が残りません。{round}の前で履歴を"
                                  "リセット（新しい区間に）してください"),
    "ruleset_final_size": _("決勝は1組です：決勝の人数（{final_size}名）は2名以上、1組の人数"
                            "（{group_size}名）以下にしてください"),
    "ruleset_tie_break_empty": _("タイブレークを1つ以上指定してください"),
    "ruleset_tie_break_unknown": _("登録されていないタイブレークがあります：{tie_breaks}"),
    "ruleset_tie_break_repeated": _("タイブレークに同じものが2回あります：{tie_breaks}"),
    "ruleset_thresholds_order": _("ピンポイントの開始Qレベル（{pinpoint}）をボンバーマンの開始"
                                  "Qレベル（{bomber}）以下にしてください"),
    "ruleset_shura_fixed_mode": _("修羅くじはQレベル別のモードと一緒に使います。モードの決め方を"
                                  "「Qレベル別」にするか、修羅をなしにしてください"),
    "ruleset_shura_off_lots_owed": _("修羅の道が「なし」なのに、くじの対象（実績ごとの本数・自己申告・"
                                     "過去の優勝者の形式くじ）が変更されています。修羅の道を「あり」に"
                                     "するか、くじの対象を元に戻してください"),
    "ruleset_shura_ground_over_cap": _("{ground}のくじ（{lots}本）が修羅くじの上限（{cap}本）を"
                                       "超えています。本数を減らすか、上限を増やしてください"),
    "ruleset_shura_owes_nothing": _("修羅の道が「あり」ですが、くじを引く人がいません。実績による"
                                    "くじか自己申告の修羅の道を認めるか、修羅の道を「なし」に"
                                    "してください"),
    "ruleset_lot_pool_unknown": _("形式くじの種類「{pool}」はありません"),
    "ruleset_penalty_range": _("減点（{penalty}）は{low}〜{high}で指定してください"),
    "ruleset_cards_redraw_one": _("下関カードを1枚だけ引くときは、重なりで追加を引く条件が使えません"
                                  "（比べるカードがありません）。引く枚数を2枚以上にするか、追加を"
                                  "「引かない」にしてください"),
    "ruleset_cards_deck_small": _("下関カードの山札は{deck}枚ですが、追加分も含めて{needed}枚"
                                  "必要です。引く枚数を減らすか、山札を変えてください"),
    "rehearsal_entrants_range": _("参加人数は{low}〜{high}人で指定してください（現在 {value}人）"),
    "rehearsal_seeds_range": _("シードの人数は{low}〜{high}人で指定してください（現在 {value}人）"),
    "rehearsal_runs_range": _("試行回数は{low}〜{high}回で指定してください（現在 {value}回）"),
    "rehearsal_minutes_range": _("1試合の時間は{low}〜{high}分で指定してください（現在 {value}分）"),
    "rehearsal_cabinets_range": _("筐体セット数は{low}〜{high}で指定してください（現在 {value}）"),
    "rehearsal_too_large": _("{players}人で{runs}回は多すぎます（人数×回数は{most}まで）。"
                             "この人数なら{runs_allowed}回までにしてください"),
    "seeds_round_not_played": _("参加{entrants}人では{rounds}回戦の後に決勝となり、シード"
                                "{seeds}人が入る{seeds_round}回戦がありません。シードの入る回戦を"
                                "見直してください"),
}
