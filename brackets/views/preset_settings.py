"""The organiser's rule-settings page: every setting of the tournament's preset.

Each ambiguity of ``docs/domain.md`` is a setting with the engine's default; the page shows
its note (which rule it reads), its default and current value, one input per type (the
tie-break chains as a reorderable list), a reset button per setting and the change
history. Saves go through :func:`brackets.services.preset_settings.settings_save`, which
validates through the engine and refuses once round 1 has been drawn.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from brackets.engine import RuleRefusal
from brackets.engine_adapter import RULESET_PRESET
from brackets.models import Role, Tournament
from brackets.permissions import role_required
from brackets.presets import preset_choices
from brackets.services import preset_settings as svc


def _display(row: svc.SettingRow, value: Any) -> str:
    """A value as organisers read it (Japanese names for choices and tie-breaks)."""
    if row.kind == "bool":
        return _("はい") if value else _("いいえ")
    if isinstance(value, (list, tuple)):
        if not value:
            return _("なし")
        return " → ".join(str(svc.VALUE_LABELS.get(str(v), str(v))) for v in value)
    return str(svc.VALUE_LABELS.get(str(value), str(value)))


def _rows(tournament: Tournament, posted: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    out = []
    for row in svc.setting_rows(tournament):
        value = row.value if posted is None or row.key not in posted else posted[row.key]
        if row.kind == "bool" and isinstance(value, str):
            value = value.lower() in ("1", "true", "on", "yes")
        item: dict[str, Any] = {
            "row": row, "key": row.key, "label": row.label, "kind": row.kind,
            "doc": row.spec.doc, "changed": row.changed,
            "default_text": _display(row, row.default), "value_text": _display(row, row.value),
            "value": value,
        }
        if row.kind == "choice":
            item["choices"] = [(c, str(svc.VALUE_LABELS.get(str(c), str(c))))
                               for c in row.spec.choices or ()]
        if row.kind == "chain":
            chain = [str(v) for v in (value or ())]
            item["chain"] = svc.chain_choices(chain)
        if row.kind == "int_list":
            item["value"] = ",".join(str(v) for v in (value or ()))
        out.append(item)
    return out


def _history(tournament: Tournament, rows: dict[str, svc.SettingRow]
             ) -> list[dict[str, Any]]:
    """The change history with values shown as on the form."""
    out = []
    for change in svc.setting_history(tournament):
        row = rows.get(change.key)
        old = change.old_value if change.old_value is not None else (
            row.default if row else None)
        new = change.new_value if change.new_value is not None else (
            row.default if row else None)
        out.append({"change": change,
                    "label": str(svc.SETTING_LABELS.get(change.key, change.key)),
                    "old": _display(row, old) if row else str(old),
                    "new": _display(row, new) if row else str(new)})
    return out


@role_required(Role.ORGANISER)
def preset_settings_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """GET: the settings; POST ``reset=<key>``: that setting back to its default;
    POST ``action=save``: every setting as typed (all or nothing)."""
    errors: dict[str, str] = {}
    posted: dict[str, Any] | None = None
    error = ""
    if tournament.preset == RULESET_PRESET:
        # A rule set's copy has no preset settings: its rules are edited as a rule set.
        return render(request, "brackets/preset_settings.html", {
            "tournament": tournament, "items": [], "ruleset": True,
            "locked": svc.settings_locked(tournament), "error": "", "history": []})
    try:
        rows = svc.setting_rows(tournament)
    except RuleRefusal:
        rows = []
        error = _("このプリセットの設定を読み込めません。")
    locked = svc.settings_locked(tournament)
    if request.method == "POST" and rows:
        post = request.POST
        try:
            if post.get("reset"):
                svc.settings_save(tournament=tournament, by=request.user,
                                  reset=[post["reset"]])
                messages.success(request, _("既定値に戻しました。"))
                return redirect("preset_settings", slug=tournament.slug)
            values: dict[str, Any] = {}
            posted = {}
            for row in rows:
                raw: Any = (post.getlist(row.key) if row.kind == "chain"
                            else post.get(row.key, ""))
                # A chain with every box unticked sends nothing: its hidden marker says
                # the list was on the form (and is then refused as empty by the engine).
                present = f"{row.key}__present" if row.kind == "chain" else row.key
                if present not in post:
                    continue
                try:
                    values[row.key] = svc.parse_setting(row.spec, raw)
                except ValueError as exc:
                    errors[row.key] = str(exc)
                posted[row.key] = raw if row.kind != "chain" else list(raw)
            if errors:
                raise svc.SettingsError(_("入力を確認してください。"), errors)
            changes = svc.settings_save(tournament=tournament, by=request.user, values=values)
            if changes:
                messages.success(request, _("ルール設定を保存しました（%(n)d件）。")
                                 % {"n": len(changes)})
            else:
                messages.info(request, _("変更はありません。"))
            return redirect("preset_settings", slug=tournament.slug)
        except svc.SettingsError as exc:
            error = exc.message
            errors.update({k: v for k, v in exc.errors.items() if k})
    items = _rows(tournament, posted) if rows else []
    for item in items:
        item["error"] = errors.get(item["key"], "")
    return render(request, "brackets/preset_settings.html", {
        "tournament": tournament, "items": items, "locked": locked, "error": error,
        "preset_label": dict(preset_choices()).get(tournament.preset, ""),
        "history": _history(tournament, {item["key"]: item["row"] for item in items}),
    }, status=400 if error else 200)
