"""Translated UI text for the buzzer pages: buzzer.js strings and whole-tournament preset titles.

The console's and scoreboard's UI strings, translated for the page's language.

Why: buzzer.js builds its screens in the browser, where Django's gettext does not reach, and
a JavaScript catalogue would be a second translation pipeline to keep in step. Instead the
template renders this tag once: a JSON object mapping each Japanese text (the key buzzer.js
uses, with ``{name}`` placeholders it fills itself) to its translation in the active
language. Keep this list in step with the ``T("...")`` calls in brackets/static/brackets/buzzer.js
(tests/buzzer_web checks that every one is listed).
"""

from __future__ import annotations

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from brackets.labels import group_name, round_name

register = template.Library()

#: Every text buzzer.js passes to ``T()``; gettext_noop marks them for makemessages.
JS_STRINGS: tuple[str, ...] = (
    gettext_noop("終了（{n}問）"),
    gettext_noop("{n}問 終了"),
    gettext_noop("第{n}問"),
    gettext_noop("第{n}問の答え"),
    gettext_noop("問題 No.{n}"),
    gettext_noop("没問 {n}問（差し替え済み）"),
    gettext_noop("{file}（{count}問）"),
    gettext_noop("答え"),
    gettext_noop("問題ファイルの問題を使い切りました"),
    gettext_noop("ラウンドは終了しました"),
    gettext_noop("前の問題 No.{n} の答え: {answer}"),
    gettext_noop("スルー"),
    gettext_noop("取り消し"),
    gettext_noop("ボード"),
    gettext_noop("筆記"),
    gettext_noop("時計開始"),
    gettext_noop("時計停止"),
    gettext_noop("時間切れ"),
    gettext_noop("サドンデス結果"),
    gettext_noop("勝ち抜け側"),
    gettext_noop("失格側"),
    gettext_noop("勝ち抜け・失格の両側"),
    gettext_noop("送信中です…"),
    gettext_noop("同じ操作はすでに記録済みです"),
    gettext_noop("記録: {what}"),
    gettext_noop("記録できませんでした"),
    gettext_noop("通信できません。接続を確認してください（記録されていない可能性があります）"),
    gettext_noop("{seat}番 {name}"),
    gettext_noop("その席はありません"),
    gettext_noop("今はできません"),
    gettext_noop("これ以上取り消せません（最初の状態です）"),
    gettext_noop("今はスルーできません"),
    gettext_noop("{seat}番 {name} を選択（o=○ / x=×）"),
    gettext_noop("先に席番号のキーを押してください"),
    gettext_noop("時間切れの瞬間に読み上げ中だった問題は有効ですか？"),
    gettext_noop("読み上げ中の問題あり（その問題まで）"),
    gettext_noop("読み上げ中の問題なし（ここで終了）"),
    gettext_noop("時間切れです。読み上げ中の問題の扱いを選んでください"),
    gettext_noop("時計 停止"),
    gettext_noop("時計 開始"),
    gettext_noop("連答"),
    gettext_noop("{seat}番"),
    gettext_noop("ボード正解"),
    gettext_noop("ボード結果を記録"),
    gettext_noop("サドンデスが終わりました。順位: {ranking}"),
    gettext_noop("サドンデスの結果を元のラウンドに反映"),
    gettext_noop("このラウンドは終了しました。勝ち抜け: {names}"),
    gettext_noop("、"),
    gettext_noop("次のラウンドを作成（プリセット）"),
    gettext_noop("サドンデス（{side}）が必要です"),
    gettext_noop("対象: {names} ／ 上位 {places} 人"),
    gettext_noop("・失格 {n} 人"),
    gettext_noop("サドンデスを開始（別画面）"),
    gettext_noop("または決着順（プレーオフ結果）を上から順にタップ:"),
    gettext_noop("{n}位"),
    gettext_noop("この順で確定"),
    gettext_noop("サドンデス"),
    gettext_noop("{n}休"),
    gettext_noop("{n}セット"),
    gettext_noop("プレーオフ"),
    gettext_noop("プレーオフ（{side}）が必要です"),
    gettext_noop("プレーオフを開始（別画面）"),
    gettext_noop("残り {standing}人 ／ 着席 {seated}人"),
    gettext_noop("通過 {n}人"),
    gettext_noop("勝ち抜け: {names}"),
    gettext_noop("・"),
    gettext_noop("勝ち抜け {n} / {slots}"),
    gettext_noop("{n}問 終了 ・ プレーオフ待ち"),
    gettext_noop("{n}問 終了 ・ サドンデス待ち"),
    gettext_noop("プレーオフが終わりました。順位: {ranking}"),
    gettext_noop("プレーオフの結果を元のラウンドに反映"),
    gettext_noop("→ 審議で変更（#{seq}）"),
)


@register.simple_tag
def buzzer_js_strings() -> SafeString:
    """``<script type="application/json" id="bz-i18n">`` with {japanese: translated}."""
    return json_script({text: gettext(text) for text in JS_STRINGS}, "bz-i18n")


#: What organisers call each whole-tournament preset, by engine slug. The engine's own names
#: ("Seed 003: …") are developer labels keyed to the seed files; staff know an event by its
#: rules, so the page shows this instead (the rule pages carry no event name of their own).
PRESET_TITLES = {
    "quiz-003": gettext_lazy(
        "早押しクイズ大会（5○2×・7○3×・2ステップ敗者復活・ボード準々決勝・3セット準決勝・12○5×決勝）"),
    "abc-the25th-004": gettext_lazy(
        "abc the25th ルールの大会（ペーパー・連答5○2×・Number10・敗者復活・Nine Hundred・"
        "Triple Seven）"),
}


@register.filter
def preset_title(preset: object) -> str:
    """The display title of a whole-tournament preset; the engine's name if it has none."""
    title = PRESET_TITLES.get(str(getattr(preset, "slug", "")))
    return str(title) if title is not None else str(getattr(preset, "name", preset))


@register.filter
def round_title(name: object) -> str:
    """A round's name (a BuzzerRound's or a preset round's ``name``) in the page's language:
    the rule page's Japanese in Japanese, English in English (:func:`brackets.labels.round_name`)."""
    return round_name(str(name))


@register.filter
def group_title(name: object) -> str:
    """A round's group name in the page's language (「A組」 → "Group A" in English)."""
    return group_name(str(name or ""))


@register.filter
def course_rounds(preset: object) -> list[object]:
    """The preset's Number10 course rounds, in preset order.

    Why: the course-choice form numbers the courses 1, 2, 3, … as the default draw order; looping
    over every round of the preset numbered them by their place in the whole tournament (3–6).
    """
    return [
        r
        for r in getattr(preset, "rounds", ())
        if getattr(r, "feed", None) is not None and r.feed.grouping == "courses"
    ]
