"""Names of engine codes (player modes, counting, round kinds, K6 rules, 出題順序), one copy.

Why one module: the match page, the public player page and the printed documents all name
フリー / ピンポイント / ボンバーマン …, and one dict keeps them identical and every one of them
marked for translation. Every label is the Japanese text wrapped in ``gettext_noop``:
``makemessages`` collects it, the dict itself stays Japanese (what printed sheets print, see
``tests/printing/test_documents_i18n.py``), and web pages translate at display time with
:func:`label` / :func:`translated`, in the reader's language.

This module imports nothing from the app, so views, selectors and printing can all use it
without import cycles.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.html import escape
from django.utils.translation import gettext, gettext_noop

#: A player's mode (``brackets.engine.restrictions.Mode`` values).
MODE_LABELS: dict[str, str] = {
    "free": gettext_noop("フリー"),
    "pinpoint": gettext_noop("ピンポイント"),
    "bomber": gettext_noop("ボンバーマン"),
}
#: How a mode counts the history (``Counting`` values): by format group or per format.
COUNTING_LABELS: dict[str, str] = {
    "grouped": gettext_noop("高火力"),
    "individual": gettext_noop("低火力"),
}
#: Round kinds (the engine's ``RoundKind``); plain group rounds need no label, nor a final
#: group that only splits top and bottom (K8). A final group ranking all its players
#: (``ranks_all``, H1-b) reads :data:`RANKED_FINAL_LABEL`.
KIND_LABELS: dict[str, str] = {
    "groups": "",
    "rule_selection": gettext_noop("ルール選択"),
    "final_group": "",
    "partner_match": gettext_noop("パートナー戦"),
    "partner_series": gettext_noop("3本勝負"),
}
RANKED_FINAL_LABEL = gettext_noop("順位決定")
#: A player's part in a pair game (K9/K10, ``selectors.rounds.pair_roles``).
PAIR_ROLE_LABELS: dict[str, str] = {
    "contender": gettext_noop("対戦者"),
    "partner": gettext_noop("パートナー"),
    "winner": gettext_noop("勝ち"),
    "loser": gettext_noop("負け"),
}
#: The two rules of a K6 rule-selection round.
RULE_LABELS: dict[str, str] = {"A": gettext_noop("ルールA"), "B": gettext_noop("ルールB")}
#: The final's question-set order (K10 dice).
QUESTION_ORDER_LABELS: dict[str, str] = {
    "simple": gettext_noop("単純"),
    "alternating": gettext_noop("交互"),
}


#: Group labels are letters, A … Z, then AA … ZZ, then AAA …: a column name in a spreadsheet.
GROUP_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def group_label(index: int) -> str:
    """The label of the ``index``-th group of a round (0 → A, 25 → Z, 26 → AA, 702 → AAA).

    Bijective base 26, so labels go on for any number of groups: a series server's field
    of 2,800 entrants draws more than the 702 one- and two-letter labels.
    """
    if index < 0:
        raise ValueError(f"no group label for index {index}")
    letters = ""
    number = index + 1
    while number:
        number, digit = divmod(number - 1, len(GROUP_LETTERS))
        letters = GROUP_LETTERS[digit] + letters
    return letters


def label(table: Mapping[str, str], code: str, default: str | None = None) -> str:
    """``table[code]`` in the active language; ``default`` (else the code itself) when the
    code has no label.

    An empty label stays empty: ``gettext("")`` would return the catalogue's header.
    """
    text = table.get(code)
    if text is None:
        return code if default is None else default
    return gettext(text) if text else ""


def translated(table: Mapping[str, str]) -> dict[str, str]:
    """The whole table in the active language (for templates that look codes up)."""
    return {code: label(table, code) for code in table}


def listed(items: Iterable[str]) -> str:
    """Items joined as a list in running text: 「、」 in Japanese, ", " in English."""
    return gettext("、").join(items)


#: What a 惜敗率 cell says when a player has no number (``Ratio.why``): disqualified in
#: that match (H8), or the group's 1st scored ≤ 0 (K3, flagged beside the table).
RATIO_LABELS: dict[str, str] = {
    "disqualified": gettext_noop("失格"),
    "reference_not_positive": "—",
}


def penalised_score_html(placed: Any) -> str:
    """A player's score in a match as every page shows it (escaped HTML): the score that
    ranks, and after a penalty (H7) how it came about, 「−220.00 （画面 180.00 − 400.00）」;
    the one wording, so no page shows the screen score and another the penalty alone."""
    if not placed.penalty:
        return escape(str(placed.score))
    how = gettext("（画面 {screen} − {penalty}）").format(screen=placed.screen_score,
                                                     penalty=placed.penalty)
    return (f'{escape(str(placed.score))} <small class="text-danger penalised-score">'
            f'{escape(how)}</small>')


def ratio_text(ratio: Any, *, translate: bool = True) -> str:
    """A 惜敗率 as every page and document shows it: two decimals, 「失格」 (H8) or 「—」
    (K3); ``""`` for no ratio object. ``translate=False`` keeps the printed sheets'
    Japanese."""
    if ratio is None or not hasattr(ratio, "display"):
        return ""
    shown = ratio.display()
    if shown is not None:
        return f"{shown}"
    text = RATIO_LABELS.get(getattr(ratio, "why", ""), "—")
    return gettext(text) if translate and text != "—" else text


#: Round names of the whole-tournament presets (brackets/engine/buzzer/presets) as the rule
#: pages write them. The engine keeps them in Japanese (it is pure, no gettext); pages and
#: the stage's JSON translate them here at display time, so the English UI reads English
#: round names and the Japanese UI the rule page's. A round staff renamed is not listed and
#: is shown as typed. tests/buzzer_web/test_round_names_i18n.py keeps this in step with the
#: presets.
PRESET_ROUND_NAMES: frozenset[str] = frozenset({
    # Seed 003
    gettext_noop("1st Round"),
    gettext_noop("Special Round"),
    gettext_noop("2nd Round 5○2×クイズ"),
    gettext_noop("3rd Round 7○3×クイズ"),
    gettext_noop("Extra Round 1st Step 15問脱落式筆記クイズ"),
    gettext_noop("Extra Round 2nd Step アドバンテージ付き4○1×クイズ"),
    gettext_noop("Quarter Final Phase 1 読み切りボードクイズ"),
    gettext_noop("Quarter Final Phase 2 早押しボードクイズ"),
    gettext_noop("Semi Final 1st Set +1/N休クイズ"),
    gettext_noop("Semi Final 2nd Set +1/2休クイズ"),
    gettext_noop("Semi Final 3rd Set +2/−1クイズ"),
    gettext_noop("Final 12○5×クイズ"),
    # Seed 004
    gettext_noop("1st Round 100問ペーパークイズ"),
    gettext_noop("2nd Round 連答つき5○2×"),
    gettext_noop("3rd Round Number10 10 up-down"),
    gettext_noop("3rd Round Number10 Freeze10"),
    gettext_noop("3rd Round Number10 Swedish10"),
    gettext_noop("3rd Round Number10 10by10"),
    gettext_noop("Extra Round First Step"),
    gettext_noop("Extra Round Second Step"),
    gettext_noop("準決勝 Nine Hundred 第1セット"),
    gettext_noop("準決勝 Nine Hundred 第2セット"),
    gettext_noop("準決勝 Nine Hundred 第3セット"),
    gettext_noop("決勝 トリプルセブン"),
})


#: A sudden death or playoff round is named after the round it decides and the side it
#: decides. The name is stored in these Japanese source texts whatever the language of
#: whoever opened it (:func:`tiebreak_round_name`), and :func:`round_name` translates it at
#: display, parent name included, as it translates a preset's round names.
TIEBREAK_NAMES: dict[str, str] = {
    "sudden_death": gettext_noop("%(name)s サドンデス（%(side)s）"),
    "playoff": gettext_noop("%(name)s プレーオフ（%(side)s）"),
}
TIEBREAK_SIDE_LABELS: dict[str, str] = {
    "win": gettext_noop("勝ち抜け側"),
    "loss": gettext_noop("失格側"),
    "both": gettext_noop("両側"),
}
_TIEBREAK_NAME = re.compile(
    r"^(?P<name>.+) (?P<kind>サドンデス|プレーオフ)（(?P<side>"
    + "|".join(TIEBREAK_SIDE_LABELS.values()) + r")）$", re.DOTALL)


def tiebreak_round_name(name: str, *, playoff: bool, side: str) -> str:
    """The stored name of a sudden death (or playoff) deciding ``side`` of round ``name``:
    the Japanese source text, never the opener's language (:func:`round_name` shows it)."""
    template = TIEBREAK_NAMES["playoff" if playoff else "sudden_death"]
    return template % {"name": name, "side": TIEBREAK_SIDE_LABELS.get(side, side)}


#: A preset round's groups are stored as the rule page names them (「A組」, GROUP_LETTERS):
#: :func:`group_name` shows them in the reader's language; a group staff named otherwise
#: is shown as typed.
_GROUP_NAME = re.compile(r"^(?P<label>[A-Z]{1,3})組$")


def group_name(name: str) -> str:
    """A live round's group name in the active language (「A組」 → "Group A")."""
    match = _GROUP_NAME.match(name)
    return gettext("{label}組").format(label=match["label"]) if match else name


def round_name(name: str) -> str:
    """A live round's name in the active language: a preset's rule-page name translated, a
    sudden death's or playoff's name translated with the name of the round it decides, any
    other name (typed by staff, or a tie-break opened in English before names were stored
    in the source text) as it is."""
    if name in PRESET_ROUND_NAMES:
        return gettext(name)
    match = _TIEBREAK_NAME.match(name)
    if match is None:
        return name
    kind = "playoff" if match["kind"] == "プレーオフ" else "sudden_death"
    return gettext(TIEBREAK_NAMES[kind]) % {
        "name": round_name(match["name"]), "side": gettext(match["side"])}
