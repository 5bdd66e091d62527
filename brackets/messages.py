"""Every staff-facing wording of the engine's codes, in the active language.

The engine (``brackets.engine``) knows only stable codes and parameters: a
:class:`~brackets.engine.errors.Violation` for an expected rule violation (a greyed-out
option, a result warning) and a :class:`~brackets.engine.errors.RuleRefusal` for a request
the rules refuse. This module turns both into sentences for staff (desk, bracket tablets,
buzzer console). An :class:`~brackets.engine.errors.EngineBug` has no wording here: it is
logged and shown as a generic internal error, never as a rule.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from brackets.engine import EngineBug, EngineError, ScreenTie, Violation
from brackets.messages_rulesets import GROUND_LABELS, RULESET_TEXT

logger = logging.getLogger(__name__)



VIOLATION_TEXT = {
    "genre_used": _("{genre} は{round}で使用済み"),
    "group_used": _("{group} は{round}で使用済み"),
    "format_used": _("{format} は{round}で使用済み"),
    "pair_used": _("{genre}×{format} は{round}で使用済み（ピンポイント）"),
    "genre_lot": _("{genre} は修羅くじで使用不可"),
    "format_lot": _("{format} は修羅くじで使用不可"),
    "genre_not_drawn": _("{genre} は引いたカードにない"),
    "group_not_drawn": _("{group} は引いたカードにない"),
    "genre_banned": _("{genre} は禁止ジャンル"),
    "partner_same_genre": _("パートナーと同じジャンル（{genre}）"),
    "partner_same_group": _("パートナーと同じ形式群（{group}）"),
    "nongenre_fallback": _("使えるジャンルがないためノンジャンルのみ"),
    "random_fallback": _("使える形式がないためランダムのみ"),
    "forced_fallback": _("ノンジャンル・ランダムのみ"),
    "not_allowed": _("選択不可"),
    "placement_below_lower_score": _("サテ{seat}（{place}位 {score}）がサテ{other_seat}"
                                     "（{other_place}位 {other_score}）より低い得点"),
    "placement_tie_with_different_scores": _(
        "サテ{seat}とサテ{other_seat}が同順位なのに得点が違う"),
    "missing_result": _("結果のない選手がいる"),
    "rematch_selection_changed": _("再試合で出題を変更"),
    "advancement_short": _("勝ち抜け人数が目標（{target}）に届かない"),
    "advancement_over_target": _("勝ち抜け人数が目標（{target}）を超える"),
    "unresolved_tie_at_cut": _("ボーダーで同率：抽選が必要"),
    # H0 entry checks (shura.check_eligibility): the desk refuses the entry with these.
    "holds_main_berth": _("本戦の出場権を持っている選手は出場できません"),
    "card_not_first_appearance": _("カードネーム「{card}」が初出場時（{first_qualifier}）の"
                                   "「{first_card}」と違う"),
}


def violation_text(v: Violation, names: Mapping[str, str] | None = None) -> str:
    """A message for an engine violation in the active language (player keys shown as names).

    The engine only knows codes; the wording is UI, so it is translated here, at call time.
    """
    params = {k: _show(val, names) for k, val in v.params.items()}
    template = str(VIOLATION_TEXT.get(v.code, v.code))
    try:
        return template.format(**params)
    except (KeyError, IndexError):
        return template


#: The tie-break slugs of a preset's chain (brackets.engine.advancement), as staff read them.
TIE_BREAK_NAMES: Mapping[str, Any] = {
    "ratio": _("惜敗率"), "score": _("得点"), "screen_score": _("画面の得点"),
    "place": _("組内順位"), "previous_place": _("前回戦の順位"), "seed": _("シード順"),
    "screen_order": _("画面の表示順"), "seat": _("サテ番号"),
    "lottery": _("抽選（大会の抽選シードで記録）"),
}


def tie_break_chain_text(chain: Sequence[str]) -> str:
    """A tie-break chain as staff read it: 「惜敗率 → 得点 → 抽選…」."""
    return " → ".join(str(TIE_BREAK_NAMES.get(slug, slug)) for slug in chain)


def undefined_ratio_text(groups: Sequence[str] | None, chain: Sequence[str]) -> str:
    """K3: why these groups' players (``None``: this group's) show 「—」, and what orders
    them below the cut: the round's tie-break chain after 惜敗率."""
    after = list(chain[chain.index("ratio") + 1:]) if "ratio" in chain else list(chain)
    where = (_("この組") if groups is None
             else str(_("{groups}組")).format(groups=str(_("・")).join(groups)))
    return str(_("—：{where}は1位の得点が0点以下のため惜敗率がありません。追加勝ち抜けでは"
                 "惜敗率のある選手の後に並び、その中は{chain}で決まります")).format(
        where=where, chain=tie_break_chain_text(after or ["lottery"]))


def screen_tie_text(tie: ScreenTie, names: Mapping[str, str] | None = None) -> str:
    """H9: the screen showed players on one placement; say so and what ordered them."""
    players = str(_("・")).join(str(_show(p, names)) for p in tie.players)
    decided = str(_("・")).join(str(TIE_BREAK_NAMES.get(s, s)) for s in tie.decided_by)
    return str(_("画面で同じ{place}位：{players}の順に決めました（{decided}による）")).format(
        place=tie.screen_place, players=players, decided=decided or _("抽選"))


def _show(value: Any, names: Mapping[str, str] | None) -> Any:
    if isinstance(value, str) and names and value in names:
        return names[value]
    if isinstance(value, (set, frozenset)):
        value = sorted(value, key=str)
    if isinstance(value, (list, tuple)):
        return str(_("・")).join(str(_show(v, names)) for v in value)
    return value


# Wording for the engine's RuleRefusal codes, shown to staff (desk, bracket tablets, buzzer
# console) when the engine refuses what they entered. Each message says what to fix. A value
# may be a tuple of templates: the first one whose placeholders the error's params fill is
# used (one code is raised from several places with different params, e.g.
# ``too_few_players`` by the draw and by the buzzer course assignment). Player keys in the
# params are shown as names when the caller passes ``names``.
ERROR_TEXT: dict[str, Any] = {
    # A buzzer round's setting out of its range (engine/buzzer/settings.py); the round
    # settings form shows its own message beside the field.
    "bad_setting": _("設定「{key}」は{low}〜{high}の範囲で入力してください"),
    # Paper-quiz totals typed by hand (engine/buzzer/assignment.py check_paper_score).
    "bad_paper_score": _("「{player}」の合計・前半・連答数は{questions}問の解答用紙では"
                         "ありえない組み合わせです。数を確認してください。"),
    # A started round's settings edit (engine/buzzer/settings.py settings_change_refusal).
    "settings_round_started": _("このラウンドはすでに始まっています（記録 {events} 件）。記録済みの"
                                "結果が変わるため「{settings}」は変更できません。始まった後も変更"
                                "できるのは「{editable}」だけです。"),
    # An achievement entered by hand (engine/record.py check_achievement).
    "achievement_no_date": _("日付のない実績は登録できません。いつの実績か入力してください。"),
    "achievement_no_source": _("出典のない実績は登録できません。大会名や公式サイトなど、"
                               "確かめられる出典を入力してください。"),
    "achievement_kind": _("実績の種類を選んでください。"),
    "achievement_limited": _("大会の条件を選択肢から選んでください。"),
    # Corrections to a player's record (engine/corrections.py): a withdrawal or a
    # correction supersedes what was entered, a relink moves an entrant between players.
    "correction_no_reason": _("取り下げ・訂正の理由を入力してください。記録に残り、選手のページに表示されます。"),
    "correction_reason_long": _("理由は{max}文字以内で入力してください。"),
    "correction_already_withdrawn": _("この記録は既に取り下げられています。取り下げた記録は変更できません"
                                      "（必要なら新しく記録してください）。"),
    "correction_already_corrected": _("この記録は既に訂正されています。訂正後の記録を取り下げ・訂正してください。"),
    "correction_not_found": _("この記録は見つかりません（別の選手の記録か、既に変わっています）。"
                              "ページを読み込み直してください。"),
    "correction_no_title": _("内容（称号名・大会名など）を入力してください。"),
    "correction_unchanged": _("訂正の内容が元の記録と同じです。変える項目を入力してください。"),
    "rename_no_name": _("名前を入力してください。"),
    "rename_too_long": _("名前・よみがなは{max}文字以内で入力してください。"),
    "rename_unchanged": _("名前もよみがなも今と同じです。変える内容を入力してください。"),
    "link_unchanged": _("この参加者は既にこの選手と結び付いています。"),
    "link_player_entered": _("この選手はこの大会に別の参加者（{entrant}）として登録されています。"
                             "同じ大会の2人の参加者を1人の選手に結び付けることはできません。"),
    "link_entrant_elsewhere": _("この大会の参加者から選んでください。"),
    "unlink_not_linked": _("この参加者は登録簿の選手と結び付いていません。"),
    # Main-event berths granted by hand (engine/series.py check_berth_grant).
    "berth_place_taken": _("{qualifier}の{place}位の出場権は既に付与されています。同じ順位に"
                           "二度付与することはできません"),
    "berth_already_held": _("この選手は既に本戦出場権を持っています（{qualifier} {place}位）"),
    "berth_place_invalid": _("順位は1以上で入力してください"),
    "berth_qualifier_missing": _("どの予選の出場権か、予選名を入力してください"),
    "berth_date_missing": _("予選の開催日を入力してください"),
    # The series' main event admits berth holders (engine/series.py check_main_event_entry).
    "no_main_event_berth": _("{series}の本戦出場権を持っていないため、本戦には登録できません。"
                             "出場権は予選の結果と手入力の付与から決まります（シリーズのページで確認）。"
                             "例外として認める場合は、主催者が理由を入力して登録してください"),
    # --- a value outside its range (``brackets.engine.bounds``): the field named by
    # :data:`BOUND_LABELS`, then what to enter instead.
    "required": _("{field}を入力してください"),
    "out_of_bounds": (
        _("{field}は{low}〜{high}の範囲で、小数{decimals}桁までで入力してください（入力：{value}）"),
        _("{field}は{low}〜{high}の範囲で入力してください（入力：{value}）"),
        _("{field}は{max_length}文字以内で入力してください（{length}文字あります）"),
        _("{field}は{max_length}文字以内の文字で入力してください"),
    ),
    # --- results of a group (score sheet)
    "score_out_of_range": _("サテ{seat}の得点 {score} は {low}〜{high} の範囲外です"),
    "score_precision": _("サテ{seat}の得点は小数2桁までです"),
    "score_not_decimal": _("サテ{seat}の得点が数値ではありません"),
    "placements_invalid": _("順位 {placements} は画面どおり1位から付けてください"
                            "（同順位は1・2・2・4位のように、次の順位を飛ばします）"),
    "player_not_in_group": _("この組にいない選手の結果です"),
    "tie_needs_lottery": (
        _("{place}位で{players}さんが同率です：抽選を記録して順位を決めてください"),
        _("同順位があります：抽選で順位を決めてください"),
    ),
    "seat_twice": _("同じサテが2回あります"),
    "seat_unknown": _("サテ{seat}はありません。サテ番号を確認してください"),
    "two_dummies": (
        _("{group}組にダミーが2人います。ダミーは1組に1人までです"),
        _("ダミーは1組に1人までです"),
    ),
    "player_twice": (
        _("{player}さんが2つのサテに入っています。サテを確認してください"),
        _("{players}さんが2回入っています。1人1回にしてください"),
        _("同じ選手が2回入っています。1人1回にしてください"),
    ),
    "penalty_player_unknown": _("ペナルティの対象（{player}さん）にこの組の結果がありません"),
    "disqualified_player_unknown": _("失格にした{player}さんにこの組の結果がありません"),
    "player_not_in_match": _("{player}さんはこの試合に出ていません"),
    "rematch_players_differ": _("再試合は中断した試合と同じ選手で行ってください"
                                "（いない選手：{missing}／余分な選手：{extra}）"),
    # --- advancement and cross-group tables
    "player_in_two_groups": _("{player}さんが同じ回戦の2つの組に結果を持っています。"
                              "組分けを確認してください"),
    "player_without_result": _("結果が入っていない選手がいます：{players}"),
    "per_group_invalid": _("1組あたりの勝ち抜け人数は1人以上にしてください（現在 {per_group}）"),
    "tie_break_unknown": _("登録されていないタイブレーク「{slug}」が指定されています。"
                           "ルール設定を確認してください"),
    # --- draws and seeds
    "player_not_drawn": _("{player}さんがどの組にも入っていません"),
    "seed_not_entered": _("シード{seeds}さんが参加者にいません（受付・出席を確認してください）"),
    "seed_twice": _("同じシードが2回入っています：{seeds}"),
    "too_few_players": (
        _("{players}人では{groups}組を作れません（ダミーは1組に1人まで）。参加者を確認してください"),
        _("コースを埋める人数が足りません。"),
    ),
    "seeds_exceed_groups": _("シード{seeds}人を{groups}組に分けられません（シード同士は"
                             "同じ組に入れません）。シードの数を確認してください"),
    "group_count_mismatch": _("組の数が合いません（{expected}組のはずが{count}組）"),
    "group_size_mismatch": _("{group}組の人数が合いません"),
    "draw_players_mismatch": _("全員を1回ずつ組に入れてください（抜けている選手：{missing}／"
                               "参加していない選手：{extra}／2回入っている選手：{twice}）"),
    "seeds_share_group": _("{group}組にシードが2人います。シードは別々の組に入れてください"),
    # The floor's calls (brackets.engine.floor.call_check).
    "floor_set_unknown": _("その台はこの大会にありません。"),
    "floor_set_out_of_service": _("{set}は停止中です。別の台に呼ぶか、台を再開してください。"),
    "floor_group_unknown": _("その組はこの回戦にありません。"),
    "floor_group_done": _("{group}は対戦を終えています。"),
    "floor_set_busy": _("{set}では{group}が対戦中です。終わってから呼んでください。"),
    "floor_group_elsewhere": _("{group}は既に{set}で対戦中です。"),
    "floor_player_busy": _("{player}さんは{set}で{group}の対戦中です。終わってから呼んでください。"),
    "round_undrawable": _("{round_name}：{players}人を{group_size}人ずつの組に分けられません"
                          "（ダミーは1組に1人まで）。参加人数を確認してください"),
    "round_overfull": _("1回戦{entrants}人・シード{seeds}人では{round}が{players}人になり、定員{size}人を"
                        "超えます。1回戦はシード{seeds}人なら{most}人までです。受付の人数を確認して"
                        "ください"),
    "too_many_seeds": _("シードは{max_seeds}人までです（現在{seeds}人）。シード番号を見直してください"),
    "bad_entrants": _("参加人数・シード数が正しくありません（{entrants}人・シード{seeds}人）"),
    # --- round rules (K6 rule choice, K7 cards, K8 bans, K9/K10 pairs)
    "variant_required": _("{round}：ルール（AかB）を指定してください"),
    "variant_unknown": _("{round}にルール「{variant}」はありません"),
    "cards_not_in_round": _("{round}は下関カードを引かない回戦です"),
    "bans_not_in_round": _("{round}は禁止ジャンルのない回戦です"),
    "partner_not_in_round": _("{round}はパートナーのいない回戦です"),
    "player_not_in_selection": _("{player}さんのルール選択がありません"),
    "wish_missing": _("ルール選択用紙が未入力の選手がいます：{players}"),
    "wish_from_outsider": _("この回戦にいない選手のルール選択用紙があります：{players}"),
    "rule_unknown": _("{player}さんが選んだルール「{rule}」はありません。AかBを記録してください"),
    "no_rule_with_room": _("{player}さんを入れる空きがどのルールにもありません。ルールの定員を"
                           "確認してください"),
    "capacity_negative": _("ルールの定員がマイナスになっています。ルール設定を確認してください"),
    "capacity_too_small": _("ルールの定員（合計{capacity}人）が{players}人に足りません。"
                            "ルール設定を確認してください"),
    # K7 physical draws: staff need to know what to fix on the form, in Japanese.
    "card_count_mismatch": _("記録したカードの枚数（{count}枚）がルールと合いません。2枚が同じ"
                             "ジャンルか同じ形式群なら3枚目も、そうでなければ2枚だけ記録してください"),
    "card_count_short": _("記録したカードは{count}枚です。このルールでは最初に{base}枚引きます"),
    "card_count_expected": _("記録したカードの枚数（{count}枚）がルールと合いません。この引き方"
                             "では{expected}枚です"),
    "card_twice": _("同じカードが2回記録されています"),
    "card_unknown": _("山札にないカードが記録されています"),
    # K7: the cards decide what a player may choose, so selections wait for the draw.
    "cards_missing": _("下関カードがまだ引かれていません。先にこの試合のカードを引いてから出題を"
                       "登録してください（出題は保存していません）。"),
    "ban_missing": _("禁止ジャンルがまだ揃っていません（未記入：{players}）。全員の禁止ジャンルを"
                     "記録してから公開してください"),
    "ban_from_outsider": _("この試合にいない選手の禁止ジャンルがあります：{players}"),
    "genre_unknown": _("カタログにないジャンルが書かれています：{genres}"),
    "partner_invalid": _("対戦者2人とパートナー2人は別々の4人にしてください"),
    "partner_missing": _("{player}さんのパートナーが決まっていません。パートナーを記録してください"),
    "partner_is_contender": _("対戦者の{player}さんはパートナーになれません"),
    "partner_absent": _("パートナーの{player}さんは会場にいません（受付の出席を確認してください）"),
    "not_a_contender": _("{player}さんはこの試合の対戦者ではありません"),
    "contender_seat": _("対戦者の{player}さんはサテ{expected}に座ります（記録はサテ{seat}）。"
                        "サテを確認してください"),
    "both_disqualified": _("対戦者が2人とも失格になっています。結果を確認してください"),
    # --- K10 final: dice, set-up, games
    "dice_never_differ": _("ダイスが{rolls}回続けて同じ目でした。もう一度振ってください"),
    "dice_missing": _("ダイスの目を記録してください"),
    "dice_face_invalid": _("{roll}回目のダイスの目（{faces}）が1〜6ではありません"),
    "dice_undecided": _("最後のダイスが同じ目です。違う目が出るまで振り直し、"
                        "すべての回を記録してください"),
    "dice_after_decision": _("{roll}回目で勝負が決まっています。それより後の振り直しは"
                             "記録しないでください"),
    "not_a_finalist": _("{player}さんは決勝の対戦者ではありません"),
    "decision_unknown": _("ダイスの勝者が決めるもの（席順か出題順序）を選んでください"),
    "question_order_unknown": _("出題順序は「単純」か「交互」から選んでください"),
    "finalists_same": _("決勝は別々の2人で行います。対戦者を確認してください"),
    "game_invalid": _("ゲーム番号は1から数えてください（{game}）"),
    "game_after_series_won": _("{winner}さんの勝ちで決着済みです：第{game}ゲームは記録できません"),
    # --- selections against the catalog
    "unknown_genre": _("カタログにないジャンル「{genre}」です"),
    "unknown_format": _("カタログにない出題形式「{format}」です"),
    "unknown_group": _("カタログにない形式群「{group}」です"),
    "unknown_subgenre": _("カタログにないサブジャンル「{subgenre}」です"),
    "unknown_difficulty": _("カタログにない難易度「{difficulty}」です"),
    "subgenre_genre_mismatch": _("{subgenre}は{parent}のサブジャンルです（{genre}ではありません）"),
    "subgenre_missing": _("{genre}ではサブジャンルを選んでください"),
    # --- 修羅 lots and player modes (堅田)
    "lots_not_drawn": _("修羅の道の選手です。先に修羅くじを引いて記録してください"),
    "lot_count_mismatch": _("{player}さんのくじの本数が違います。ジャンルくじ{genre_lots}本・"
                            "形式くじ{format_lots}本を記録してください"),
    "not_a_genre_lot": _("「{genre}」はジャンルくじにありません（{player}さん）"),
    "not_a_format_lot": _("「{format}」は形式くじにありません（{player}さん）"),
    "repeated_lot": _("{player}さんのくじに同じものが2回あります（くじは戻さずに引きます）"),
    "too_many_lots": (
        _("修羅くじは1人{cap}本までです（申告{lots}本）。申告を見直してください"),
        _("形式くじ{lots}本は形式くじの種類（{pool}）より多くなっています"),
    ),
    "bad_lot_count": _("くじの本数はマイナスにできません。申告を見直してください"),
    "too_many_format_lots": _("形式くじは{allowed}本まで引けます（申告{lots}本）。申告を見直してください"),
    "shura_not_in_preset": _("このルールプリセットには修羅くじがありません"),
    "bad_q_level": _("Qレベルは0以上で入力してください（{q_level}）"),
    "opt_up_not_stricter": _("プチ修羅の道は、階級で決まるモードより厳しいモードを選んでください"),
    # --- preset and rule settings (organiser screens)
    "preset_unknown": _("ルールプリセット「{slug}」はありません"),
    "setting_unknown": _("このプリセットにない設定です：{keys}"),
    "setting_invalid": (
        _("2回戦（{r2_size}名）からは各組2名の{advancers}名が勝ち抜けるので、3回戦の人数"
          "（{r3_size}名）を{advancers}名以上にするか、2回戦の人数を減らしてください。"),
        _("ルールA（{a}名）とルールB（{b}名）の合計を3回戦の人数（{r3_size}名）にし、"
          "それぞれ4の倍数にしてください。"),
        _("ルール設定「{key}」の値（{value}）が正しくありません"),
        _("ルール設定の値（{value}）が正しくありません"),
    ),
    **RULESET_TEXT,
    # --- buzzer console (operator taps: answers, clock, sudden death, undo)
    "player_won": _("この人はすでに勝ち抜けています。"),
    "player_out": _("この人はすでに失格です。"),
    "player_locked": _("この人は解答権がありません（誤答上限）。"),
    "player_resting": _("この人は休み中です。"),
    "already_answered": _("この人はこの問題ですでに誤答しています。"),
    "round_over": _("このラウンドは終了しています。"),
    "decision_pending": _("サドンデス（プレーオフ）の結果を先に入力してください。"),
    "undo_past_start": _("これ以上取り消せません（最初の状態です）。"),
    "second_correct": _("この問題にはすでに正解者がいます。"),
    "question_closed": _("この問題はすでに終わっています。"),
    "question_ahead": _("まだその問題に進んでいません。"),
    "unknown_player": _("このラウンドにいない席です。"),
    "no_clock": _("このラウンドには時計がありません。"),
    "clock_expired": _("時間切れの後です。"),
    "clock_backwards": _("時計を戻すことはできません。"),
    "clock_running": _("時計はすでに動いています。"),
    "clock_not_running": _("時計は止まっています。"),
    "no_decision": _("サドンデスが必要な状況ではありません。"),
    "no_such_decision": _("その側のサドンデスはありません。"),
    "bad_tiebreak_order": _("サドンデスの順位には対象者全員をちょうど1回ずつ並べてください。"),
    "tiebreak_unfinished": _("サドンデスがまだ終わっていません。"),
    "wrong_event_kind": _("このラウンドではその操作はできません。"),
    "buzzer_on_board": _("早押しで解答した人は、ボードではなく早押しの正誤で判定してください。"),
    "duplicate_mark": _("同じ人が1問に2回採点されています。"),
    "duplicate_player": _("同じ人が2回登録されています。"),
    "duplicate_seat": _("同じ席に2人が割り当てられています。"),
    "no_players": _("参加者がいません。"),
    "bad_config": _("ルール設定が正しくありません。"),
    "bad_event": _("入力が正しくありません。"),
    "unknown_rule": _("登録されていないルールです。"),
    "player_assigned": _("すでに別のコースに決まった人が選ばれています。"),
    "missing_question": _("採点のない問題があります。"),
    "unknown_question": _("問題数より多い採点があります。"),
    "unknown_round": _("プリセットのラウンドが見つかりません。"),
    "round_not_over": _("前のラウンドがまだ終わっていません。"),
    "missing_result": _("前のラウンドがまだ作成されていません。"),
    "no_feed": _("このラウンドは早押し画面では進行しません（ペーパークイズなど）。"),
    # --- protests (審議) and thrown-out questions
    "protest_no_question": _("その問題には解答が記録されていません。"),
    "protest_no_answer": _("この人はその問題に解答していません。"),
    "protest_no_change": _("すでにその判定になっています。"),
    "protest_late": (
        _("審議の期限（{window}問先の問題が読まれるまで）を過ぎています。主催者の承認が必要です。"),
        _("審議の期限を過ぎています。主催者の承認が必要です。"),
    ),
    "protest_round_over": _("終了したラウンドの審議には主催者の承認が必要です。"),
    # --- question files (問題ファイル)
    "question_columns": _("見出しの行に必要な列がありません: {missing}。1行目に「番号・問題・答え・備考」"
                          "（または number, question, answer, notes）の見出しを付けてください。"),
    "question_number_bad": _("{row}行目: 番号「{value}」は1以上の整数で入力してください。"),
    "question_number_twice": _("{row}行目: 番号 {number} は{first}行目と重複しています。"),
    "question_blank": _("{row}行目: 問題文がありません。"),
    "answer_blank": _("{row}行目: 答えがありません。"),
    "question_too_long": _("{row}行目: {column}が長すぎます（{length}文字、{max}文字まで）。"),
    "question_file_too_many": _("問題が多すぎます（{count}問、{max}問まで）。"),
    "question_file_empty": _("見出しの下に問題の行がありません。"),
}


#: The fields of ``brackets.engine.bounds.BOUNDS`` as staff know them.
BOUND_LABELS: dict[str, Any] = {
    "score": _("得点"), "penalty": _("減点"), "placement": _("順位"), "seat": _("サテ"),
    "extra_lots": _("追加くじ"), "shura_count": _("修羅くじの申告数"),
    "past_win_lots": _("過去優勝時のくじ数"), "q_level": _("Qレベル"), "seed": _("シード番号"),
    "capacity": _("定員"), "seed_slots": _("シード枠"), "fee": _("参加費"),
    "card_name": _("カードネーム"), "name": _("名前"), "reading": _("よみがな"),
    "home_store": _("ホーム店舗"), "notes": _("メモ"), "reason": _("理由"),
    "submit_key": _("送信キー"), "tournament_name": _("大会名"), "venue": _("会場"),
    "json_depth": _("JSONの入れ子の深さ"), "csv_cell": _("セルの文字数"),
}


def _format(template: Any, params: Mapping[str, Any]) -> str | None:
    """The first of ``template`` (one or a tuple of alternatives) whose placeholders
    ``params`` fill, or None."""
    for option in template if isinstance(template, tuple) else (template,):
        try:
            return str(option).format(**params)
        except (KeyError, IndexError, AttributeError, ValueError):
            continue
    return None


def engine_message(code: str, params: Mapping[str, Any] | None = None,
                   names: Mapping[str, str] | None = None, detail: str = "") -> str:
    """The staff message for an engine refusal ``code`` with its ``params``, in the active
    language. A code without wording still gives a Japanese sentence naming the code, with
    the engine's ``detail`` for support."""
    shown = {k: (_("なし") if isinstance(v, (list, tuple, set, frozenset)) and not v
                 else _show(v, names)) for k, v in (params or {}).items()}
    if code in ("out_of_bounds", "required") and shown.get("field") in BOUND_LABELS:
        shown["field"] = str(BOUND_LABELS[shown["field"]])
    if shown.get("ground") in GROUND_LABELS:
        shown["ground"] = str(GROUND_LABELS[shown["ground"]])
    template = ERROR_TEXT.get(code)
    text = None if template is None else _format(template, shown)
    if text is not None:
        return text
    if detail:
        return str(_("入力を処理できませんでした（{code}）：{detail}")).format(
            code=code, detail=detail)
    return internal_error_text(code)


def error_text(exc: EngineError, names: Mapping[str, str] | None = None) -> str:
    """A message for what the engine raised, in the active language (player keys shown as
    ``names``).

    A :class:`~brackets.engine.errors.RuleRefusal` reads as its wording in
    :data:`ERROR_TEXT` (every refusal code has one; an unworded code falls back to a
    Japanese sentence carrying the code and the engine's developer message). An
    :class:`~brackets.engine.errors.EngineBug` is no rule: it is logged with its traceback
    and staff see only the generic sentence naming the code, for support.
    """
    if isinstance(exc, EngineBug):
        logger.error("engine bug %s: %s", exc.code, exc, exc_info=exc)
        return internal_error_text(exc.code)
    return engine_message(exc.code, exc.params, names, detail=str(exc))


def internal_error_text(code: str) -> str:
    """The generic sentence staff see for an engine bug: it names the code for support and
    says nothing about the rules."""
    return str(_("入力を処理できませんでした（{code}）。")).format(code=code)


def player_ids(params: Mapping[str, Any]) -> set[int]:
    """Entrant ids among an error's params (player keys are ``str(entrant_id)``), so a
    caller can load just those names for :func:`error_text`."""
    found: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str) and value.isdigit():
            found.add(int(value))
        elif isinstance(value, (list, tuple, set, frozenset)):
            for v in value:
                walk(v)

    for key, value in params.items():
        if key in ("player", "players", "missing", "extra", "twice", "seeds", "winner"):
            # Only these params carry player keys; counts and seat numbers never do.
            walk(value)
    return found
