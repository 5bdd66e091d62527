"""Entrant data: the fields staff edit, their folding for search, and the rules the data
obeys, enforced for every desk write: cleaning, the uniqueness of card
names and seeds, capacity, Q level, プチ修羅 and 修羅 declarations.

Enforced here (not in forms) so the desk form, the walk-in form and the import all obey
them: card names unique per tournament (compared kana-, width- and case-folded), at most
8 characters; Q level 0–999; seed numbers 1..``seed_slots`` and unique; non-seed entrants at
most ``capacity`` (seeds count separately); 修羅 lots at most the engine's cap.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from brackets import engine_adapter as ea
from brackets.engine import (
    DEFAULT_SHURA_RULES,
    MAX_LOTS,
    Mode,
    QThresholds,
    RuleRefusal,
    ShuraDeclaration,
    ShuraRules,
    bounds,
    lots_owed,
    mode_for_q,
)
from brackets.labels import MODE_LABELS, label
from brackets.models import Entrant, Tournament
from brackets.models.entrants import CARD_NAME_MAX, Q_LEVEL_MAX
from brackets.text import visible_text

#: The fields staff edit, in form order; a revision snapshot holds exactly these.
ENTRANT_FIELDS: tuple[str, ...] = (
    "name", "reading", "card_name", "home_store", "q_level", "seed", "fee_paid", "checked_in",
    "notes", "shura_titles", "shura_local_wins", "shura_invited", "shura_voluntary",
    "shura_extra_lots", "past_win_lots", "opt_up")
TEXT_FIELDS = ("name", "reading", "card_name", "home_store", "notes", "opt_up")
BOOL_FIELDS = ("fee_paid", "checked_in", "shura_invited", "shura_voluntary")
INT_FIELDS = ("q_level", "shura_titles", "shura_local_wins", "shura_extra_lots", "past_win_lots")
#: The desk's counts and their ranges (``brackets.engine.bounds``, which the model reads);
#: 追加くじ is bounded by the 修羅 cap below, with its own wording.
COUNT_BOUNDS = {"shura_titles": bounds.SHURA_COUNT, "shura_local_wins": bounds.SHURA_COUNT,
                "past_win_lots": bounds.PAST_WIN_LOTS}

# Katakana (ァ..ヶ, plus ヽヾ) to hiragana: the same sound, so the same search key.
_KATA_TO_HIRA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}
_KATA_TO_HIRA.update({0x30FD: 0x309D, 0x30FE: 0x309E})
_SPACES = {ord(c): None for c in " \t\u3000・･"}


def kana_fold(text: str) -> str:
    """Fold width, case, katakana/hiragana and spaces away, for search and duplicate checks.

    NFKC first turns half-width katakana and full-width Latin into their usual forms, so
    ｶﾅ, カナ and かな, or ＡＢＣ and abc, all fold to the same key.
    """
    folded = unicodedata.normalize("NFKC", text or "").casefold()
    return folded.translate(_KATA_TO_HIRA).translate(_SPACES)


def entrant_keys(*, name: str, reading: str, card_name: str) -> tuple[str, str]:
    """The derived ``(search_key, card_key)`` of an entrant.

    The search key starts with the reading so ordering by it gives 五十音 order; fields are
    joined by a separator no folded query contains, so a search never matches across them.
    """
    search_key = "\x1f".join(kana_fold(part) for part in (reading, name, card_name))
    return search_key[:400], kana_fold(card_name)[:40]


def snapshot(entrant: Entrant) -> dict[str, Any]:
    """The JSON-ready data of an entrant, as stored in each revision."""
    return {name: getattr(entrant, name) for name in ENTRANT_FIELDS}


def _clean_data(data: Mapping[str, Any], base: Mapping[str, Any]) -> dict[str, Any]:
    """Merge ``data`` over ``base`` and coerce types; unknown keys are ignored."""
    merged = dict(base)
    for name in ENTRANT_FIELDS:
        if name in data:
            merged[name] = data[name]
    for name in TEXT_FIELDS:
        value = merged.get(name)
        merged[name] = "" if value is None else visible_text(str(value),
                                                             multiline=name == "notes")
    merged["reading"] = unicodedata.normalize("NFKC", merged["reading"])
    for name in BOOL_FIELDS:
        merged[name] = bool(merged.get(name))
    errors: dict[str, list[str]] = {}
    for name in INT_FIELDS:
        value = merged.get(name)
        if value in (None, ""):
            merged[name] = 0
            continue
        try:
            merged[name] = int(value)
        except (TypeError, ValueError):
            errors.setdefault(name, []).append(_("数字で入力してください。"))
            continue
        if merged[name] < 0:
            errors.setdefault(name, []).append(_("0以上の数字で入力してください。"))
    seed = merged.get("seed")
    if seed in (None, ""):
        merged["seed"] = None
    else:
        try:
            merged["seed"] = int(seed)
        except (TypeError, ValueError):
            errors.setdefault("seed", []).append(_("シード番号は数字で入力してください。"))
    if errors:
        raise ValidationError(errors)
    return merged


def _has_kanji(text: str) -> bool:
    return any(unicodedata.name(ch, "").startswith("CJK UNIFIED IDEOGRAPH") for ch in text)


@dataclass
class Owner:
    """Who holds a card name or a seed already: an entrant, or an earlier row of a file."""

    entrant_id: int | None
    name: str
    card_name: str = ""
    row: int | None = None


@dataclass
class Roster:
    """The tournament's card names, seeds and general count, loaded in one query.

    Validation checks against this instead of querying per field, so an import of many rows
    can add each accepted row to it and catch duplicates within the file too.
    """

    cards: dict[str, Owner] = field(default_factory=dict)
    seeds: dict[int, Owner] = field(default_factory=dict)
    general: set[Any] = field(default_factory=set)

    @classmethod
    def load(cls, tournament: Tournament) -> Roster:
        roster = cls()
        rows = Entrant.objects.filter(tournament=tournament).values_list(
            "pk", "name", "card_name", "card_key", "seed"
        )
        for pk, name, card_name, card_key, seed in rows:
            owner = Owner(pk, name, card_name)
            roster.cards[card_key or kana_fold(card_name)] = owner
            if seed is None:
                roster.general.add(pk)
            else:
                roster.seeds[seed] = owner
        return roster

    def add(self, clean: Mapping[str, Any], owner: Owner) -> None:
        self.cards[kana_fold(clean["card_name"])] = owner
        if clean["seed"] is None:
            self.general.add(owner.entrant_id if owner.entrant_id is not None else ("row", owner.row))
        else:
            self.seeds[clean["seed"]] = owner


def _owner_text(owner: Owner) -> str:
    if owner.row is not None:
        return _("%(row)d行目の %(name)s さん") % {"row": owner.row, "name": owner.name}
    return _("%(name)s さん") % {"name": owner.name}


def _rank_thresholds(tournament: Tournament) -> QThresholds | None:
    """The Q levels at which this tournament's ranks change mode (H2); None when its preset
    gives everyone one fixed mode (K1: a プチ修羅 declaration changes nothing) or is unknown
    to the engine (its own pages say so)."""
    try:
        preset = ea.preset_for(tournament)
    except RuleRefusal:
        return None
    return None if preset.mode_source == "fixed" else preset.thresholds


def opt_up_limits(tournament: Tournament) -> dict[str, int] | None:
    """H2 プチ修羅の道: for each mode a player may declare, the Q level from which the rank
    already gives a mode at least as strict; the mode is offered only below it (a
    declaration must be stricter than the rank's mode). None: nothing to declare."""
    thresholds = _rank_thresholds(tournament)
    if thresholds is None:
        return None
    top = bounds.Q_LEVEL.high + 1
    return {mode.value: next((q for q in range(top)
                              if mode_for_q(q, thresholds).strictness >= mode.strictness), top)
            for mode in Mode if mode.strictness > 0}


def _opt_up_not_stricter(tournament: Tournament, clean: Mapping[str, Any]) -> str | None:
    """The rank's mode when the declared プチ修羅 mode is no stricter than it, else None."""
    limits = opt_up_limits(tournament)
    if not clean["opt_up"] or limits is None or clean["q_level"] < limits[clean["opt_up"]]:
        return None
    thresholds = _rank_thresholds(tournament)
    assert thresholds is not None
    return mode_for_q(clean["q_level"], thresholds).value


def entrant_validate(
    *,
    tournament: Tournament,
    data: Mapping[str, Any],
    entrant: Entrant | None = None,
    roster: Roster | None = None,
) -> dict[str, Any]:
    """Check entrant data against the tournament's rules; return the cleaned data.

    Raises ``ValidationError`` with a Japanese message per field (``__all__`` for capacity).
    ``entrant`` is the one being edited (excluded from the uniqueness checks); ``roster`` the
    names and seeds to check against (loaded from the database when not given).
    """
    if roster is None:
        roster = Roster.load(tournament)
    self_id = entrant.pk if entrant is not None else None
    base = snapshot(entrant) if entrant is not None else snapshot(Entrant())
    clean = _clean_data(data, base)
    errors: dict[str, list[str]] = {}

    def add(name: str, message: str) -> None:
        errors.setdefault(name, []).append(message)

    if not clean["name"]:
        add("name", _("名前を入力してください。"))
    elif len(clean["name"]) > bounds.NAME.max_length:
        add("name", _("名前は%(max)d文字以内で入力してください（%(len)d文字あります）。")
            % {"max": bounds.NAME.max_length, "len": len(clean["name"])})
    if _has_kanji(clean["reading"]):
        add("reading", _("よみがなはひらがなかカタカナで入力してください。"))
    elif len(clean["reading"]) > bounds.READING.max_length:
        add("reading", _("よみがなは%(max)d文字以内で入力してください（%(len)d文字あります）。")
            % {"max": bounds.READING.max_length, "len": len(clean["reading"])})
    if len(clean["home_store"]) > bounds.HOME_STORE.max_length:
        add("home_store", _("ホーム店舗は%(max)d文字以内で入力してください（%(len)d文字あります）。")
            % {"max": bounds.HOME_STORE.max_length, "len": len(clean["home_store"])})
    card = clean["card_name"]
    if not card:
        add("card_name", _("カードネームを入力してください。"))
    elif len(card) > CARD_NAME_MAX:
        add(
            "card_name",
            _("カードネームは%(max)d文字以内です（QMAの上限）。いまは%(len)d文字です。")
            % {"max": CARD_NAME_MAX, "len": len(card)},
        )
    else:
        clash = roster.cards.get(kana_fold(card))
        if clash is not None and (clash.entrant_id is None or clash.entrant_id != self_id):
            add(
                "card_name",
                _("カードネーム「%(card)s」は既に%(owner)sが使っています。")
                % {"card": clash.card_name or card, "owner": _owner_text(clash)},
            )
    if len(clean["notes"]) > bounds.NOTES.max_length:
        add("notes", _("メモは%(max)d文字以内で入力してください（%(len)d文字あります）。")
            % {"max": bounds.NOTES.max_length, "len": len(clean["notes"])})
    for name, bound in COUNT_BOUNDS.items():
        if name not in errors and not bound.contains(clean[name]):
            add(name, _("%(min)d〜%(max)dで入力してください。") % {"min": bound.low,
                                                              "max": bound.high})
    if not 0 <= clean["q_level"] <= Q_LEVEL_MAX:
        add("q_level", _("Qレベルは0〜%(max)dで入力してください。") % {"max": Q_LEVEL_MAX})
    seed = clean["seed"]
    if seed is not None:
        if not 1 <= seed <= tournament.seed_slots:
            if tournament.seed_slots == 0:
                add("seed", _("この大会にはシード枠がありません。"))
            else:
                add(
                    "seed",
                    _("シード番号は1〜%(slots)dで入力してください（シード枠%(slots)d）。")
                    % {"slots": tournament.seed_slots},
                )
        else:
            holder = roster.seeds.get(seed)
            if holder is not None and (holder.entrant_id is None or holder.entrant_id != self_id):
                add(
                    "seed",
                    _("シード%(seed)dは既に%(owner)sです。") % {"seed": seed, "owner": _owner_text(holder)},
                )
    if clean["opt_up"] not in dict(Entrant.OptUp.choices):
        add("opt_up", _("選択肢から選んでください。"))
    elif "q_level" not in errors and (rank := _opt_up_not_stricter(tournament, clean)):
        add("opt_up", _("プチ修羅の道（%(opt)s）は、Qレベル%(q)dの階級で決まる%(rank)sより厳しいモードを"
                        "選んでください（同じか緩いモードは申告できません）。")
            % {"opt": label(MODE_LABELS, clean["opt_up"]), "q": clean["q_level"],
               "rank": label(MODE_LABELS, rank)})
    rules = shura_rules_of(tournament)
    if not rules.voluntary and (clean["shura_voluntary"] or clean["shura_extra_lots"]):
        add("shura_voluntary" if clean["shura_voluntary"] else "shura_extra_lots",
            _("この大会のルールでは、自己申告による修羅の道（くじの追加）は選べません。"))
    try:
        lots_owed(shura_declaration(clean, rules))
    except RuleRefusal:
        add(
            "shura_extra_lots",
            _("修羅くじは1人%(cap)d本までです。申告を見直してください。") % {"cap": MAX_LOTS},
        )
    becomes_general = seed is None and (entrant is None or entrant.seed is not None)
    full = len(roster.general - {self_id}) >= tournament.capacity
    if becomes_general and "seed" not in errors and full:
        add(
            "__all__",
            _(
                "定員（一般%(capacity)d名）に達しているため登録できません。"
                "シード選手はシード枠（%(slots)d）で別に数えます。"
            )
            % {"capacity": tournament.capacity, "slots": tournament.seed_slots},
        )
    if errors:
        raise ValidationError(errors)
    return clean


def shura_declaration(data: Mapping[str, Any],
                      rules: ShuraRules = DEFAULT_SHURA_RULES) -> ShuraDeclaration:
    """The engine's view of an entrant's 修羅 declarations (H4), weighed by ``rules``."""
    return ShuraDeclaration(
        national_title=int(data.get("shura_titles") or 0) > 0,
        shiga_winner=int(data.get("shura_local_wins") or 0) > 0,
        seed_or_invitation=bool(data.get("shura_invited")),
        volunteer=bool(data.get("shura_voluntary")),
        extra_lots=int(data.get("shura_extra_lots") or 0),
        rules=rules,
    )


def shura_rules_of(tournament: Tournament) -> ShuraRules:
    """What the tournament's 修羅 owes (堅田's where the rules have no 修羅 or cannot be
    read: such an event draws no lots, so nothing here weighs them)."""
    try:
        preset = ea.preset_for(tournament)
    except RuleRefusal:
        return DEFAULT_SHURA_RULES
    return preset.shura_rules if preset.shura else DEFAULT_SHURA_RULES


#: How each kind of revision reads in the history.
ACTION_LABELS: dict[str, Any] = {
    "register": gettext_lazy("登録"),
    "walk_in": gettext_lazy("当日参加で登録"),
    "import": gettext_lazy("ファイルから取り込み"),
    "edit": gettext_lazy("編集"),
    "registry": gettext_lazy("登録簿から反映"),
    "checked_in:on": gettext_lazy("受付"),
    "checked_in:off": gettext_lazy("受付を取消"),
    "fee_paid:on": gettext_lazy("参加費を受領"),
    "fee_paid:off": gettext_lazy("参加費を未払いに戻す"),
}


@dataclass(frozen=True)
class Change:
    """One field that differs between two snapshots (for the stale-edit message)."""

    field: str
    label: str
    before: Any
    after: Any


def field_label(name: str) -> str:
    return str(Entrant._meta.get_field(name).verbose_name)


def display_value(name: str, value: Any) -> str:
    """A value as staff read it (はい/いいえ, blank as —)."""
    if isinstance(value, bool):
        return _("はい") if value else _("いいえ")
    if value is None or value == "":
        return "—"
    if name == "opt_up":
        return str(dict(Entrant.OptUp.choices).get(value, value))
    return str(value)


def diff_snapshots(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Change]:
    return [
        Change(name, field_label(name), before.get(name), after.get(name))
        for name in ENTRANT_FIELDS
        if before.get(name) != after.get(name)
    ]
