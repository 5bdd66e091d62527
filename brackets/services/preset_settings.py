"""Writes for a tournament's rule settings (the values of its preset's settings).

The organiser changes the ambiguities of ``docs/domain.md`` per tournament: the engine
declares each one as a :class:`~brackets.engine.presets.Setting` with a default, and
:attr:`Tournament.preset_settings` stores only the values that differ from it. Every save
is validated by building the preset through the engine (``EngineError`` → a Japanese
message per setting, nothing saved), is refused once round 1 has been drawn (the rounds
copy their rules when configured, and changing the rules of a running event would make
past and future rounds disagree), and leaves a :class:`PresetSettingChange` per changed
key so who changed what and when stays on record.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from brackets import engine_adapter as ea
from brackets.engine import (
    TIE_BREAKS,
    EngineError,
    RuleRefusal,
    Setting,
    preset_settings,
)
from brackets.errors import Refused
from brackets.messages import error_text
from brackets.models import PresetSettingChange, Round, SpecialFact, Tournament

#: Japanese names of the settings (the engine's notes say which rule each one reads).
SETTING_LABELS: dict[str, Any] = {
    "r2_size": _("2回戦の人数（惜敗率で補充）"),
    "r3_size": _("3回戦の人数"),
    "r2_draw": _("2回戦の組分け"),
    "wildcard_chain": _("追加勝ち抜けの順位付け（タイブレーク順）"),
    "r3_capacity_a": _("3回戦 ルールAの定員"),
    "r3_capacity_b": _("3回戦 ルールBの定員"),
    "r3_b_recorded": _("ルールBの出題を履歴に記録する"),
    "k7_cards_per_draw": _("下関カード：最初に引く枚数"),
    "k7_extra_card": _("下関カード：追加で1枚引く条件"),
    "k7_deck": _("下関カードの山札"),
    "k7_draw_per": _("下関カードの抽選単位"),
    "history_reset_at_final": _("決勝で履歴をリセット（ペアごとに基本ルール）"),
    "final_wins_needed": _("決勝の先取勝利数"),
    "illegal_selection": _("ルール違反の出題"),
    "penalty": _("ペナルティ（点）"),
    "max_seeds": _("シードの上限"),
    "catalog_version": _("カタログ（QMAバージョン）"),
    "bomber_min_q": _("ボンバーマンになるQ"),
    "pinpoint_min_q": _("ピンポイントになるQ"),
    "grouped_min_q": _("形式群をまとめて数えるQ（高火力）"),
    "advance_per_group": _("各組の勝ち抜け人数"),
    "single_advance_from": _("この人数以上の回戦は各組1位のみ勝ち抜け（0＝なし）"),
    "single_advance_rounds": _("各組1位のみ勝ち抜けの回戦（番号）"),
    "final_restricted": _("決勝も縛りを適用"),
    "draw": _("組分けの方法"),
    "tie_break": _("順位付け（タイブレーク順）"),
    "max_lots": _("修羅くじの上限（本）"),
    "format_lot_pool": _("形式くじの対象"),
    "low_firepower_subgenres": _("低火力のサブジャンルの数え方"),
    "dummy_format": _("ダミーの形式"),
}

#: Japanese names of choice values and tie-break slugs.
VALUE_LABELS: dict[str, Any] = {
    "random": _("抽選（シード分け）"), "snake": _("順位順スネーク"), "mod": _("順位順（剰余）"),
    "share_genre_or_group": _("ジャンルか形式群が重なったら"), "identical": _("同じカードのときだけ"),
    "never": _("引かない（追加なし）"),
    "lot_genres_x_format_groups": _("7ジャンル×形式群（既定の推定）"), "all": _("全ジャンル×全形式群"),
    "match": _("試合（組）ごと"), "round": _("回戦ごとに1回（全組共通）"),
    "refuse": _("受け付けない（選び直し）"), "penalty": _("減点して続行"),
    "format_groups": _("形式群"), "groups_but_random": _("形式群＋サブジャンル"),
    "formats": _("個別の形式"), "as_one": _("まとめて1形式"), "each": _("それぞれ別"),
    "ratio": _("惜敗率"), "score": _("得点"), "screen_score": _("画面の得点"), "place": _("組内順位"),
    "previous_place": _("前回戦の順位"), "seed": _("シード順"), "screen_order": _("画面の表示順"),
    "seat": _("サテ番号"), "lottery": _("抽選"),
}


class SettingsError(Refused):
    """A refused settings save: ``errors`` maps a setting key ("" = the whole form) to a
    Japanese message shown beside it."""

    def __init__(self, message: str, errors: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.errors = dict(errors or {})


# ------------------------------------------------------------------ reading


@dataclass(frozen=True)
class SettingRow:
    """One setting as the settings page shows it."""

    spec: Setting
    label: str
    kind: str  # "bool", "int", "decimal", "choice", "chain", "int_list", "text"
    default: Any
    value: Any
    changed: bool

    @property
    def key(self) -> str:
        return self.spec.key


def setting_kind(spec: Setting) -> str:
    """Which input the page shows for a setting (from its default's type and choices)."""
    if spec.choices is not None:
        return "choice"
    default = spec.default
    if isinstance(default, bool):
        return "bool"
    if isinstance(default, int):
        return "int"
    if isinstance(default, Decimal):
        return "decimal"
    if isinstance(default, tuple):
        if spec.item_type is int:
            return "int_list"
        return "chain"
    return "text"


def _plain(value: Any) -> Any:
    """A setting value as JSON stores it (tuples → lists, Decimal → text)."""
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def setting_rows(tournament: Tournament) -> list[SettingRow]:
    """Every setting of the tournament's preset with its default and current value."""
    slug, changed = ea.preset_source(tournament)
    current = ea.preset_for(tournament).settings
    rows = []
    for spec in preset_settings(slug):
        rows.append(SettingRow(spec=spec, label=str(SETTING_LABELS.get(spec.key, spec.key)),
                               kind=setting_kind(spec), default=spec.default,
                               value=current.get(spec.key, spec.default),
                               changed=spec.key in changed))
    return rows


def settings_locked(tournament: Tournament) -> bool:
    """True once any round has been drawn: from then on the rules are fixed."""
    return Round.objects.filter(tournament=tournament).exclude(
        status=Round.Status.CONFIGURED).exists()


def setting_history(tournament: Tournament, limit: int = 50) -> list[PresetSettingChange]:
    return list(PresetSettingChange.objects.filter(tournament=tournament)
                .select_related("by").order_by("-id")[:limit])


# ------------------------------------------------------------------ parsing form text


def parse_setting(spec: Setting, raw: Any) -> Any:
    """A setting value from form input (text, or a list of slugs for a chain).

    Raises :class:`ValueError` with a Japanese message when the text is not of the
    setting's type; range and choice checks are the engine's (see :func:`settings_save`).
    """
    kind = setting_kind(spec)
    if kind == "bool":
        return str(raw).lower() in ("1", "true", "on", "yes")
    if kind == "chain":
        items = [str(x).strip() for x in (raw if isinstance(raw, (list, tuple)) else
                                          str(raw).split(",")) if str(x).strip()]
        return items
    text = str(raw).strip()
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            raise ValueError(gettext("整数で入力してください。")) from None
    if kind == "decimal":
        try:
            number = Decimal(text)
        except InvalidOperation:
            raise ValueError(gettext("数値で入力してください。")) from None
        if not number.is_finite():
            raise ValueError(gettext("数値で入力してください。"))
        return str(number)
    if kind == "int_list":
        out = []
        for part in text.replace("、", ",").replace(" ", ",").split(","):
            if not part.strip():
                continue
            try:
                out.append(int(part))
            except ValueError:
                raise ValueError(gettext("回戦番号をカンマ区切りの整数で入力してください（例：1,2）。")
                                 ) from None
        return out
    return text


def _message(exc: EngineError, labels: Mapping[str, str]) -> tuple[str, str]:
    """(setting key or "", Japanese message) for an engine refusal."""
    params = exc.params
    key = str(params.get("key", ""))
    label = labels.get(key, key)
    if exc.code == "setting_unknown":
        return "", gettext("このプリセットにない設定です：{keys}").format(
            keys=", ".join(params.get("keys", [])))
    if exc.code == "tie_break_unknown":
        key = next((k for k in ("wildcard_chain", "tie_break") if k in labels), "")
        return key, gettext("知らないタイブレークが含まれています。")
    if exc.code == "unknown_format":
        return ("dummy_format" if "dummy_format" in labels else ""), gettext("カタログにない形式です。")
    if exc.code == "setting_invalid":
        if "a" in params and "b" in params:
            return "r3_capacity_a", gettext(
                "ルールA（{a}名）とルールB（{b}名）の合計を3回戦の人数（{r3_size}名）にし、"
                "それぞれ4の倍数にしてください。").format(a=params["a"], b=params["b"],
                                                         r3_size=params.get("r3_size"))
        if key == "pinpoint_min_q":
            return key, gettext("ピンポイントのQはボンバーマンのQ以下にしてください。")
        if "choices" in params:
            return key, gettext("{label}：選べない値です。").format(label=label)
        if "minimum" in params and isinstance(params.get("value"), list):
            if params["minimum"] == 1 and all(isinstance(v, int) for v in params["value"]) \
                    and params["value"]:
                return key, gettext("{label}：回戦番号は1以上です。").format(label=label)
            return key, gettext("{label}：少なくとも{minimum}つ選んでください。").format(
                label=label, minimum=params["minimum"])
        if "minimum" in params:
            return key, gettext("{label}は{minimum}以上にしてください。").format(
                label=label, minimum=params["minimum"])
        if "maximum" in params:
            return key, gettext("{label}は{maximum}以下にしてください。").format(
                label=label, maximum=params["maximum"])
        if isinstance(params.get("value"), list):
            return key, gettext("{label}：同じ項目が重なっているか、値が正しくありません。").format(
                label=label)
        return key, gettext("{label}の値が正しくありません。").format(label=label)
    return key, error_text(exc)


# ------------------------------------------------------------------ writing


@transaction.atomic
def settings_save(*, tournament: Tournament, by: Any, values: Mapping[str, Any] | None = None,
                  reset: Collection[str] = ()) -> list[PresetSettingChange]:
    """Set some of the tournament's preset settings (``values``) and/or put some back to
    the preset's default (``reset``); all or nothing.

    Refused (:class:`SettingsError`, nothing saved) once a round has been drawn, for an
    unknown key, or when the engine refuses the resulting settings. A value equal to the
    default is stored as "not changed". Rounds already configured but not drawn are
    re-planned so they carry the new rules.
    """
    t = Tournament.objects.select_for_update().get(id=tournament.id)
    if settings_locked(t):
        raise SettingsError(gettext("1回戦の抽選後はルール設定を変更できません。"
                                    "変更が必要なら、抽選を取り消してから変更してください。"))
    values = dict(values or {})
    slug, before = ea.preset_source(t)
    specs = {s.key: s for s in preset_settings(slug)}
    labels = {k: str(SETTING_LABELS.get(k, k)) for k in specs}
    unknown = sorted((set(values) | set(reset)) - set(specs))
    if unknown:
        raise SettingsError(gettext("このプリセットにない設定です：{keys}").format(
            keys=", ".join(unknown)))
    after = {k: v for k, v in before.items() if k not in reset}
    for key, value in values.items():
        after[key] = value
    resolved = _resolve(slug, after, labels)
    # Store only what differs from the default, in JSON form.
    stored = {k: _plain(resolved[k]) for k in after if resolved[k] != specs[k].default}
    changes = []
    for key in sorted(set(before) | set(stored)):
        old, new = before.get(key), stored.get(key)
        if old == new:
            continue
        changes.append(PresetSettingChange.objects.create(
            tournament=t, preset=slug, key=key, old_value=old, new_value=new,
            reset=key not in stored, by=by))
    if not changes:
        return []
    t.preset_settings = stored
    t.save(update_fields=["preset_settings"])
    tournament.preset_settings = stored
    replan(t, by)
    return changes


def _resolve(slug: str, values: Mapping[str, Any], labels: Mapping[str, str]
             ) -> Mapping[str, Any]:
    """Every setting's value once ``values`` are applied, as the engine builds the preset
    from them; an engine refusal becomes a :class:`SettingsError` naming the setting."""
    try:
        return ea.preset_for(slug, values).settings
    except EngineError as exc:
        field, msg = _message(exc, labels)
        raise SettingsError(msg, {field: msg}) from exc


def settings_check(*, tournament: Tournament | None, preset: str, stored: Any
                   ) -> dict[str, Any]:
    """Validate a whole stored-settings value typed outside the settings screen (the Django
    admin's JSON field) as :func:`settings_save` validates the screen's values, so a bad
    value cannot reach the rounds by another door.

    ``stored`` must be a JSON object of this ``preset``'s settings; every value is checked
    by building the preset through the engine (``EngineError`` → the same Japanese message
    per setting). A change is refused once a round of ``tournament`` is drawn, or while its
    configured rounds carry records that re-planning would lose. Returns the values to store
    (only those differing from the defaults, in JSON form); raises :class:`SettingsError`.
    """
    if not isinstance(stored, Mapping):
        raise SettingsError(gettext('ルール設定は {"設定名": 値, …} の形（JSONのオブジェクト）で'
                                    "入力してください。"))
    slug = ea.PRESET_ALIASES.get(preset, preset)
    if slug == ea.RULESET_PRESET:
        return _ruleset_check(tournament, stored)
    try:
        specs = {s.key: s for s in preset_settings(slug)}
    except RuleRefusal as exc:
        raise SettingsError(gettext("ルールプリセット「{preset}」はありません。").format(
            preset=preset)) from exc
    unknown = sorted(set(stored) - set(specs))
    if unknown:
        raise SettingsError(gettext("このプリセットにない設定です：{keys}").format(
            keys=", ".join(unknown)))
    labels = {k: str(SETTING_LABELS.get(k, k)) for k in specs}
    resolved = _resolve(slug, stored, labels)
    normalized = {k: _plain(resolved[k]) for k in stored if resolved[k] != specs[k].default}
    if tournament is None or tournament.pk is None:
        return normalized
    current = Tournament.objects.filter(pk=tournament.pk).values_list(
        "preset_settings", flat=True).first()
    if (current or {}) == normalized:
        return normalized
    if settings_locked(tournament):
        raise SettingsError(gettext("1回戦の抽選後はルール設定を変更できません。"
                                    "変更が必要なら、抽選を取り消してから変更してください。"))
    if SpecialFact.objects.filter(round__tournament=tournament).exists():
        raise SettingsError(gettext("回戦に記録（ルール選択用紙など）があるため、ルール設定を変更"
                                    "できません。"))
    return normalized


def _ruleset_check(tournament: Tournament | None, stored: Mapping[str, Any]) -> dict[str, Any]:
    """A rule-set tournament's settings (its document) typed in the admin: readable by the
    engine, and unchanged once a round is drawn."""
    try:
        ea.ruleset_preset(stored)
    except EngineError as exc:
        raise SettingsError(error_text(exc)) from exc
    if tournament is not None and tournament.pk is not None and settings_locked(tournament):
        current = Tournament.objects.filter(pk=tournament.pk).values_list(
            "preset_settings", flat=True).first()
        if (current or {}) != dict(stored):
            raise SettingsError(gettext("1回戦の抽選後はルール設定を変更できません。"
                                        "変更が必要なら、抽選を取り消してから変更してください。"))
    return dict(stored)


@transaction.atomic
def settings_preset_changed(*, tournament: Tournament, by: Any, old_preset: str
                            ) -> list[PresetSettingChange]:
    """The tournament's preset was switched: the values typed for the old one are dropped
    (each recorded as a reset under the old preset), the new one starts from its defaults.
    """
    t = Tournament.objects.select_for_update().get(id=tournament.id)
    if t.preset == old_preset or not t.preset_settings:
        return []
    changes = [PresetSettingChange.objects.create(
        tournament=t, preset=old_preset, key=key, old_value=value, new_value=None,
        reset=True, by=by) for key, value in sorted(t.preset_settings.items())]
    t.preset_settings = {}
    t.save(update_fields=["preset_settings"])
    tournament.preset_settings = {}
    return changes


def replan(tournament: Tournament, by: Any) -> None:
    """Rounds configured (not drawn) from the old settings are re-created from the new.

    Facts recorded against those rounds (K6 forms written before round 1, say) would be
    lost, so then the save is refused instead.
    """
    from brackets.services.rounds import RoundError, rounds_configure

    rounds = Round.objects.filter(tournament=tournament)
    if not rounds.exists():
        return
    if SpecialFact.objects.filter(round__in=rounds).exists():
        raise SettingsError(gettext("回戦に記録（ルール選択用紙など）があるため、ルール設定を変更"
                                    "できません。"))
    rounds.delete()
    try:
        rounds_configure(tournament=tournament, by=by)
    except RoundError as exc:
        raise SettingsError(exc.message, {"": exc.message}) from exc


def chain_choices(value: Sequence[str]) -> list[tuple[str, str, int | None]]:
    """(slug, label, position in the chain or None) for every registered tie-break: the
    chain's members first in order, then the unused ones (for the reorderable list)."""
    rows: list[tuple[str, str, int | None]] = [
        (slug, str(VALUE_LABELS.get(slug, slug)), i + 1) for i, slug in enumerate(value)]
    rows += [(slug, str(VALUE_LABELS.get(slug, slug)), None) for slug in TIE_BREAKS
             if slug not in value]
    return rows
