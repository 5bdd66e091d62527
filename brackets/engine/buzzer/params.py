"""Every setting of a round as typed data: name, kind, range, default and label.

A settings form, a check of stored settings and the documentation all read these
descriptions, so a rule's numbers (5○, 2×, +4/−4 …) are described once, here, next to
the pieces that read them (:mod:`brackets.engine.buzzer.rules` takes its parameter
defaults from :data:`SCORING_PARAMS`, :data:`CONDITION_PARAMS` and :data:`REST_PARAMS`).

Labels are Japanese, as the rule pages write them; :func:`_` only marks them for the web
layer's message catalogue (it translates them with gettext), the engine stays free of Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def _(text: str) -> str:
    """Mark ``text`` for the message catalogue (makemessages reads ``_(...)``)."""
    return text


#: Upper bounds shared by many settings: beyond them a value is a typing mistake, not a rule.
MAX_PLAYERS = 200
MAX_QUESTIONS = 1000
MAX_POINTS = 1000


@dataclass(frozen=True)
class Param:
    """One setting.

    ``kind``: ``"int"`` (``low``..``high``; with ``optional`` blank means ``None``),
    ``"bool"``, ``"choice"`` (a slug of ``choices``, a registry name), ``"keys"`` (an
    ordered list of distinct slugs of ``choices``), ``"ints"`` (a list of whole numbers in
    ``low``..``high``) or ``"checkpoints"`` (written phase ends: question and judging keys).
    ``scale`` turns the stored value into the unit staff type (clock: ms stored, seconds
    typed).
    """

    name: str
    label: str
    default: Any
    kind: str = "int"
    low: int | None = None
    high: int | None = None
    optional: bool = False
    choices: str = ""
    unit: str = ""
    scale: int = 1
    help: str = ""

    def check(self, value: Any) -> bool:
        """Whether ``value`` (in stored units) is acceptable for this setting."""
        if value is None:
            return self.optional
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind == "int":
            return _whole_in(value, self.low, self.high, self.scale)
        if self.kind == "ints":
            return isinstance(value, (list, tuple)) and all(
                _whole_in(v, self.low, self.high, 1) for v in value
            )
        return True


def _whole_in(value: Any, low: int | None, high: int | None, scale: int) -> bool:
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    if low is not None and value < low * scale:
        return False
    return high is None or value <= high * scale


def _n(label: str, default: int | None, low: int = 1, high: int = MAX_POINTS) -> Param:
    return Param("n", label, default, low=low, high=high)


#: RoundConfig fields other than its rule pieces (``scoring``, ``win``, ``loss``,
#: ``lockout``, ``rests``) and ``written``, in the order a form shows them.
ROUND_PARAMS: tuple[Param, ...] = (
    Param("format", _("進行形式"), "buzzer", kind="choice", choices="formats"),
    Param("slots", _("勝ち抜け人数"), 1, low=0, high=MAX_PLAYERS, unit=_("人"),
          help=_("0: 勝ち抜けなし（全員が次へ進む段階）")),
    Param("eliminate", _("判定での失格人数"), None, low=0, high=MAX_PLAYERS, optional=True,
          unit=_("人"), help=_("空欄: 勝ち抜け以外の全員")),
    Param("question_limit", _("限定問題数"), None, low=1, high=MAX_QUESTIONS, optional=True,
          unit=_("問"), help=_("空欄: 問題数の限定なし")),
    Param("clock_ms", _("制限時間"), None, low=1, high=3 * 3600, optional=True, unit=_("秒"),
          scale=1000, help=_("空欄: 時計なし。時間切れ時に読まれていた問題は有効")),
    Param("clock_stops_on_win_out", _("勝ち抜け・失格で時計を止める"), False, kind="bool"),
    Param("judge_keys", _("限定終了時の判定順"), ("correct", "fewer_wrong"), kind="keys",
          choices="judge_keys"),
    Param("tie_rule", _("同点で枠をまたぐとき"), "split-1o1x", kind="choice",
          choices="tie_rules"),
    Param("advantages", _("アドバンテージ（上位の席から）"), (), kind="ints", low=0,
          high=MAX_POINTS, help=_("例: 3,2,2,1,1,1")),
    Param("remaining_advance", _("残りが枠以下なら全員勝ち抜け"), True, kind="bool"),
    Param("wrong_closes_question", _("誤答で問題を終える"), False, kind="bool"),
    Param("sets_to_win", _("先取セット数"), None, low=1, high=9, optional=True, unit=_("セット"),
          help=_("空欄: セット制ではない")),
    Param("protest_window", _("審議できる問題数"), 2, low=0, high=MAX_QUESTIONS, unit=_("問"),
          help=_("判定の審議を受け付ける、その問題より後に読まれる問題の数（それ以降は主催者の承認）")),
    Param("show_answer", _("判定後に答えをステージに表示"), False, kind="bool",
          help=_("問題ファイルがあるとき、判定が済んだ問題の答えをスコアボードと配信用表示に出します")),
)

#: The rule-piece slots of a RoundConfig: label, the registry each names, whether it may be
#: off, and its default (with the conditions' defaults below: a plain 5○2×).
PIECE_SLOTS: tuple[tuple[str, str, str, bool, str | None], ...] = (
    ("scoring", _("得点の付け方"), "scoring", False, "nomx"),
    ("win", _("勝ち抜け条件"), "conditions", True, "correct-at-least"),
    ("loss", _("失格条件"), "conditions", True, "wrong-at-least"),
    ("lockout", _("解答権剥奪条件"), "conditions", True, None),
    ("rests", _("誤答後の休み"), "rest_rules", True, None),
)

#: Written elimination (L3, M4): the fields of WrittenRules.
WRITTEN_PARAMS: tuple[Param, ...] = (
    Param("lives", _("着席までの誤答・無回答数"), 2, low=1, high=20),
    Param("elimination_from", _("脱落を数え始める問題"), 1, low=1, high=MAX_QUESTIONS),
    Param("checkpoints", _("一括発表する問題と判定順"), (), kind="checkpoints",
          choices="judge_keys", help=_("例: 10:correct / 15:correct+later_first_miss")),
    Param("last_question", _("最終問題"), 15, low=1, high=MAX_QUESTIONS),
    Param("pass_max", _("通過人数の上限"), 12, low=1, high=MAX_PLAYERS, unit=_("人")),
    Param("single_revives", _("1人だけ残ればその人が敗者復活"), False, kind="bool"),
    Param("final_keys", _("最終問題後の判定順"), ("fewer_wrong",), kind="keys",
          choices="judge_keys"),
    Param("restand_on_total_drop", _("全員着席の問題は無効（起立し直す）"), True, kind="bool"),
)

#: Parameters of each scoring (registry ``SCORING``); a slug missing here has none.
SCORING_PARAMS: dict[str, tuple[Param, ...]] = {
    "rentou": (
        Param("points", _("正解の得点"), 1, low=1, high=MAX_POINTS),
        Param("streak_points", _("連答権ありの正解の得点"), 2, low=1, high=MAX_POINTS),
    ),
    "rest-n": (Param("factor", _("N回目の誤答で休む問題数の倍率"), 1, low=1, high=20),),
    "freeze": (Param("factor", _("N回目の誤答で休む問題数の倍率"), 1, low=1, high=20),),
    "rest-fixed": (Param("rests", _("誤答で休む問題数"), 2, low=1, high=50),),
    "by": (Param("n", _("誤答ポイントの初期値（N by N の N）"), 10, low=1, high=100),),
    "plus-minus": (
        Param("plus", _("正解の得点"), 1, low=0, high=MAX_POINTS),
        Param("minus", _("誤答の減点"), 1, low=0, high=MAX_POINTS),
    ),
    "board": (
        Param("plus", _("早押し正解の得点"), 4, low=0, high=MAX_POINTS),
        Param("minus", _("早押し誤答の減点"), 4, low=0, high=MAX_POINTS),
        Param("board", _("ボード正解の得点"), 2, low=0, high=MAX_POINTS),
        Param("board_minus", _("ボード不正解の減点"), 0, low=0, high=MAX_POINTS),
        Param("bonus", _("少人数正解のボーナス"), 1, low=0, high=MAX_POINTS),
        Param("bonus_max", _("ボーナスが付く正解人数の上限"), 4, low=0, high=MAX_PLAYERS),
    ),
}

#: Parameters of each condition (registry ``CONDITIONS``): all count up to ``n``.
CONDITION_PARAMS: dict[str, tuple[Param, ...]] = {
    "correct-at-least": (_n(_("○数"), 5),),
    "points-at-least": (_n(_("ポイント"), 5, low=-MAX_POINTS),),
    "wrong-at-least": (_n(_("×数"), 2),),
    "misses-at-least": (_n(_("誤答数"), 3),),
    "points-at-most": (_n(_("ポイント"), 0, low=-MAX_POINTS),),
}

#: Parameters of each extra rest rule (registry ``REST_RULES``).
REST_PARAMS: dict[str, tuple[Param, ...]] = {
    "nth": (Param("factor", _("N回目の誤答で休む問題数の倍率"), 1, low=1, high=20),),
    "fixed": (_n(_("誤答で休む問題数"), 2, high=50),),
}

#: What staff call each registered slug (the rule pages' words).
LABELS: dict[str, dict[str, str]] = {
    "formats": {"buzzer": _("早押し"), "written": _("筆記（脱落式）")},
    "scoring": {
        "nomx": _("n○m×（1問正解で1○、1問誤答で1×）"),
        "rentou": _("連答つき（連答権ありの正解で2ポイント）"),
        "updown": _("up-down（誤答でポイントが0に戻る）"),
        "rest-n": _("N休（N回目の誤答でN問休み）"),
        "freeze": _("Freeze（N回目の誤答でN問休み）"),
        "rest-fixed": _("k休（誤答で決まった問題数休み）"),
        "swedish": _("Swedish（正解数に応じて×が付く）"),
        "by": _("N by N（正解ポイント×誤答ポイント）"),
        "plus-minus": _("+a/−b（正解で加点、誤答で減点）"),
        "board": _("ボードクイズ"),
    },
    "conditions": {
        "correct-at-least": _("○数が n 以上"),
        "points-at-least": _("ポイントが n 以上"),
        "wrong-at-least": _("×数が n 以上"),
        "misses-at-least": _("誤答数が n 以上"),
        "points-at-most": _("ポイントが n 以下"),
    },
    "rest_rules": {"nth": _("N回目の誤答でN問休み"), "fixed": _("誤答ごとに n 問休み")},
    "judge_keys": {
        "correct": _("○数（正解数）"),
        "points": _("ポイント"),
        "fewer_wrong": _("×数の少なさ"),
        "fewer_misses": _("誤答数の少なさ"),
        "board_correct": _("ボード正解数"),
        "sets": _("獲得セット数"),
        "later_first_miss": _("最初の誤答が遅い"),
        "earliest_last_correct": _("最後の正解が早い"),
    },
    "tie_rules": {
        "split-1o1x": _("サドンデス（人数+2問の1○1×、決着しなければ1R順位）"),
        "playoff": _("早押しプレーオフ"),
        "rank": _("1R順位で決める"),
    },
}


def param_default(params: tuple[Param, ...], name: str) -> Any:
    """The default of ``name`` among ``params`` (the rule pieces read their defaults here)."""
    for p in params:
        if p.name == name:
            return p.default
    raise KeyError(name)
