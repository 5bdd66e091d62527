"""Writes for composed rule sets (#17): start one, save a version, import and export it,
create or re-rule a tournament with it.

A rule set is a :class:`RuleSetDoc` with versions; every save is a new
:class:`RuleSetVersion` superseding the newest, with who and when. A version may have
problems (``validate_ruleset``): it is kept as a draft (要修正) and refused for a
tournament. A tournament takes a copy of the document (preset ``ruleset``, settings
``{"document": …}``), so later versions never change its rules.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from brackets import engine_adapter as ea
from brackets.engine import (
    RULESET_VERSION,
    LadderRules,
    RoundSpec,
    RuleRefusal,
    RuleSet,
    ruleset_of,
    validate_ruleset,
)
from brackets.errors import Refused
from brackets.messages import error_text
from brackets.models import PresetSettingChange, RuleSetDoc, RuleSetVersion, Tournament

#: The most bytes a rule file may have: the largest built-in document is about 6 kB.
MAX_FILE_BYTES = 200_000


class RuleSetError(Refused):
    """A refused rule-set write; ``message`` says why in Japanese, nothing was stored."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# ------------------------------------------------------------------ reading


def current_version(ruleset: RuleSetDoc) -> RuleSetVersion:
    """The newest version: the rule set's rules now."""
    return ruleset.versions.order_by("-number").first()  # type: ignore[no-any-return]


def ruleset_problems(document: Mapping[str, Any]) -> list[RuleRefusal]:
    """Every problem of a stored document (what the reader refuses, else the validator's)."""
    try:
        return validate_ruleset(RuleSet.from_dict(document))
    except RuleRefusal as refusal:
        return [refusal]


def ruleset_file(version: RuleSetVersion) -> tuple[str, str, bytes]:
    """(filename, content type, bytes) of a version as a rule file another server imports."""
    body = json.dumps(version.document, ensure_ascii=False, indent=2, sort_keys=True)
    slug = str(version.document.get("slug") or "ruleset")
    name = f"{slug}-{version.ruleset_id}-v{version.number}.json"
    return name, "application/json", body.encode("utf-8")


def tournament_document(tournament: Tournament) -> dict[str, Any]:
    """The rules a tournament runs as a rule-set document: its copy when it was created from
    a rule set, else its built-in preset with the settings its organiser changed."""
    from brackets.selectors.rule_page import tournament_ruleset

    return tournament_ruleset(tournament).to_dict()


# ------------------------------------------------------------------ writing


def _create(*, by: Any, document: dict[str, Any], note: str) -> RuleSetDoc:
    ruleset = RuleSetDoc.objects.create(by=by)
    RuleSetVersion.objects.create(ruleset=ruleset, number=1, document=document, note=note,
                                  by=by)
    return ruleset


@transaction.atomic
def ruleset_start(*, by: Any, preset: str) -> RuleSetDoc:
    """A new rule set holding the built-in preset ``preset`` with its default settings."""
    try:
        document = ruleset_of(preset).to_dict()
    except RuleRefusal as refusal:
        raise RuleSetError(error_text(refusal)) from refusal
    return _create(by=by, document=document,
                   note=gettext("組み込みプリセット「{name}」から").format(name=document["name"]))


@transaction.atomic
def ruleset_start_empty(*, by: Any, name: str, ladder: bool) -> RuleSetDoc:
    """A new rule set with only a name and one group round (4 a group, top 2 through) for
    the organiser to build on, or a ladder with the default group rounds.

    Its slug is new: the slug names the event (earlier editions are read by it), and an
    event composed from empty is no other event.
    """
    slug = f"composed-{secrets.token_hex(4)}"
    if ladder:
        document = RuleSet(slug, name, ladder=LadderRules())
    else:
        document = RuleSet(slug, name, rounds=(RoundSpec("r1", gettext("1回戦")),))
    return _create(by=by, document=document.to_dict(), note=gettext("空から作成"))


def read_rule_file(content: bytes) -> dict[str, Any]:
    """The document of a rule file, read whole; anything wrong is a :class:`RuleSetError`
    naming the key (a newer version, an unknown or missing key, a value of the wrong type)."""
    if len(content) > MAX_FILE_BYTES:
        raise RuleSetError(gettext("ルールファイルが大きすぎます（{limit}バイトまで）。").format(
            limit=MAX_FILE_BYTES))
    try:
        data = json.loads(content.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise RuleSetError(gettext("ルールファイルを読めません（UTF-8のJSONではありません）。")
                           ) from None
    try:
        ruleset = RuleSet.from_dict(data)
    except RuleRefusal as refusal:
        raise RuleSetError(error_text(refusal)) from refusal
    # Stored as this server writes it: a file of an older version is read up.
    return ruleset.to_dict()


@transaction.atomic
def ruleset_import(*, by: Any, content: bytes, filename: str = "") -> RuleSetDoc:
    """A new rule set from a rule file (:func:`read_rule_file`); nothing stored if refused."""
    document = read_rule_file(content)
    return _create(by=by, document=document,
                   note=gettext("ファイル「{name}」から").format(name=filename[:100]))


@transaction.atomic
def ruleset_clone_tournament(*, by: Any, tournament: Tournament) -> RuleSetDoc:
    """A new rule set holding the rules ``tournament`` runs (to edit them for a next event:
    a started tournament's own rules are not edited)."""
    try:
        document = tournament_document(tournament)
    except RuleRefusal as refusal:
        raise RuleSetError(error_text(refusal)) from refusal
    return _create(by=by, document=document,
                   note=gettext("大会「{name}」のルールを複製").format(name=tournament.name))


@transaction.atomic
def ruleset_save(*, ruleset: RuleSetDoc, document: dict[str, Any], by: Any,
                 note: str = "") -> RuleSetVersion | None:
    """Save ``document`` as the rule set's next version (None when nothing changed).

    The document must read back (the composer's forms write only readable values); it may
    still have problems: it is then a draft, refused for a tournament until fixed.
    """
    RuleSetDoc.objects.select_for_update().get(pk=ruleset.pk)
    newest = current_version(ruleset)
    try:
        document = RuleSet.from_dict(document).to_dict()
    except RuleRefusal as refusal:
        raise RuleSetError(error_text(refusal)) from refusal
    if newest is not None and newest.document == document:
        return None
    return RuleSetVersion.objects.create(
        ruleset=ruleset, number=(newest.number if newest else 0) + 1, document=document,
        note=note[:200], supersedes=newest, by=by)


def usable_document(version: RuleSetVersion) -> dict[str, Any]:
    """The document of a version a tournament may run; refused while it has problems."""
    problems = ruleset_problems(version.document)
    if problems:
        raise RuleSetError(gettext(
            "ルールセット「{name}」（第{number}版）は要修正です（問題{count}件）。"
            "ルールセットの編集画面で直してから使ってください。").format(
                name=version.document.get("name", ""), number=version.number,
                count=len(problems)))
    return dict(version.document)


def tournament_rule_fields(version: RuleSetVersion) -> dict[str, Any]:
    """The tournament fields that make a new tournament run ``version``'s rules."""
    return {"preset": ea.RULESET_PRESET,
            "preset_settings": {"document": usable_document(version)}}


@transaction.atomic
def tournament_ruleset_apply(*, tournament: Tournament, version: RuleSetVersion,
                             by: Any) -> Tournament:
    """Make a tournament that has not started run ``version``'s rules.

    Refused once a round has been drawn (its rounds copied the rules then; clone the
    tournament's rules as a new rule set instead) and for a version with problems. The
    change is recorded as a rule-setting change (who, when, the documents before and
    after) and rounds configured but not drawn are re-planned.
    """
    from brackets.services.preset_settings import SettingsError, replan, settings_locked

    t = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if settings_locked(t) or t.status in (Tournament.Status.RUNNING,
                                          Tournament.Status.FINISHED):
        raise RuleSetError(gettext(
            "この大会は開始済みのため、ルールを変更できません。"
            "「この大会のルールを複製」で新しいルールセットにして、次の大会に使ってください。"))
    fields = tournament_rule_fields(version)
    old_preset, old_settings = t.preset, dict(t.preset_settings or {})
    t.preset, t.preset_settings = fields["preset"], fields["preset_settings"]
    t.save(update_fields=["preset", "preset_settings"])
    PresetSettingChange.objects.create(
        tournament=t, preset=ea.RULESET_PRESET, key="document",
        old_value={"preset": old_preset, "settings": old_settings},
        new_value={"ruleset": version.ruleset_id, "number": version.number}, by=by)
    try:
        replan(t, by)
    except SettingsError as exc:
        raise RuleSetError(exc.message) from exc
    tournament.preset, tournament.preset_settings = t.preset, t.preset_settings
    return t


__all__ = [
    "MAX_FILE_BYTES", "RULESET_VERSION", "RuleSetError", "current_version", "read_rule_file",
    "ruleset_clone_tournament", "ruleset_file", "ruleset_import", "ruleset_problems",
    "ruleset_save", "ruleset_start", "ruleset_start_empty", "tournament_document",
    "tournament_rule_fields", "tournament_ruleset_apply", "usable_document",
]
