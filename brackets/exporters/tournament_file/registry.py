"""The tournament file's ``registry`` section (version 2): the registry facts of the
tournament's entrants, so a file from a venue laptop brings its players to a series server.

Written: every player an entrant is linked to, was linked to (a relink, version 4) or a
berth of the tournament's series is granted to (version 3, :mod:`.series`), with every
record merged with them (the whole family, ``brackets.adapters.players.family_ids``), their
cards with the rows they superseded, their achievements (version 4: withdrawn and
corrected ones too, with the corrections, so the server reading the file withdraws them
as well), their renames and the merges between them. A 修羅 override (``DutyOverride``),
an admission without a berth (``BerthOverride``) and a relink (``EntrantPlayerChange``)
hang on an entrant and travel in ``records``.

Read: checked whole before anything is written, each field against the model's bounds and
choices and each achievement against the engine's rule (a date and a source), so a
malformed section refuses the import with its place. Linking the read players to this
registry is :mod:`brackets.services.player_links`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.utils.translation import gettext

from brackets.adapters import players as ad
from brackets.engine import Achievement as EngineAchievement
from brackets.engine import RuleRefusal, check_achievement
from brackets.models import (
    Achievement,
    AchievementCorrection,
    Entrant,
    EntrantPlayerChange,
    Player,
    PlayerCard,
    PlayerMerge,
    PlayerRename,
    Tournament,
)

SECTION = "registry"
#: The section's lists, in import order (a list comes after every list it points to).
LISTS: tuple[tuple[str, type[models.Model]], ...] = (
    ("player", Player), ("playercard", PlayerCard), ("achievement", Achievement),
    ("playermerge", PlayerMerge), ("achievementcorrection", AchievementCorrection),
    ("playerrename", PlayerRename))
#: The lists a version-3 file cannot have (it carried achievements in force only).
SINCE_4 = frozenset({"achievementcorrection", "playerrename"})
#: The list a reference to each model names.
TARGETS: dict[type[models.Model], str] = {
    Player: "player", PlayerCard: "playercard", Achievement: "achievement"}
#: Derived search keys, re-made by whoever writes the row (the desk's folding).
DERIVED = frozenset({"search_key", "card_key"})


def _fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields if not f.primary_key and f.name not in DERIVED]


def registry_player_ids(tournament: Tournament) -> set[int]:
    """The players the section carries: those the tournament's entrants are linked to and
    those holding a hand-granted berth of its series (version 3: the ``series`` section
    names them), each with every record merged with them."""
    from brackets.models import SeriesBerthGrant
    from brackets.selectors.series import series_of

    linked = set(Entrant.objects.filter(tournament=tournament, player__isnull=False)
                 .values_list("player_id", flat=True).distinct())
    for pair in (EntrantPlayerChange.objects.filter(entrant__tournament=tournament)
                 .values_list("player_id", "was_player_id")):
        linked.update(pk for pk in pair if pk is not None)
    member = series_of(tournament=tournament)
    if member is not None:
        linked.update(SeriesBerthGrant.objects.filter(series=member.series)
                      .values_list("player_id", flat=True))
    ids: set[int] = set()
    for player in Player.objects.filter(pk__in=linked).order_by("pk"):
        ids.update(ad.family_ids(ad.canonical(player)))
    return ids


def registry_section(tournament: Tournament, exporter: Any) -> dict[str, list[dict[str, Any]]]:
    """The section for ``tournament``; numbers its players and cards in ``exporter`` so the
    entrant records and the series' berth grants name their player by file id."""
    ids = registry_player_ids(tournament)
    rows: dict[str, list[models.Model]] = {
        "player": list(Player.objects.filter(pk__in=ids).order_by("pk")),
        "playercard": list(PlayerCard.objects.filter(player_id__in=ids).order_by("pk")),
        # Withdrawn and corrected ones too: the corrections name them, so a server that
        # holds one withdraws it as well.
        "achievement": list(Achievement.objects.filter(player_id__in=ids).order_by("pk")),
        "playermerge": list(PlayerMerge.objects.filter(merged_id__in=ids).order_by("pk")),
        "achievementcorrection": list(AchievementCorrection.objects.filter(
            achievement__player_id__in=ids).order_by("pk")),
        "playerrename": list(PlayerRename.objects.filter(player_id__in=ids).order_by("pk")),
    }
    section: dict[str, list[dict[str, Any]]] = {}
    for key, model in LISTS:
        for number, obj in enumerate(rows[key], start=1):
            exporter.file_ids[(model, obj.pk)] = number
        section[key] = [{"id": number, **{f.name: exporter.value(f, obj) for f in _fields(model)}}
                        for number, obj in enumerate(rows[key], start=1)]
        if key in SINCE_4 and not section[key]:
            del section[key]  # left out when empty, as the file of a server without any
    return section if section["player"] else {}


@dataclass
class FileRegistry:
    """The checked section: per list, file id → the row's values (users by name), plus the
    section as written, kept with each link (``PlayerLink.facts``)."""

    rows: dict[str, dict[int, dict[str, Any]]] = field(default_factory=dict)
    raw: Mapping[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> dict[int, dict[str, Any]]:
        return self.rows.get("player", {})

    def family(self, player_id: int) -> list[int]:
        """The file's player and every player the file merges with them, root first."""
        kept_of = {m["merged"]: m["kept"] for m in self.rows.get("playermerge", {}).values()}
        root, seen = player_id, {player_id}
        while root in kept_of and kept_of[root] not in seen:
            root = kept_of[root]
            seen.add(root)
        family, frontier = [root], [root]
        while frontier:
            frontier = [m for m, k in kept_of.items() if k in frontier and m not in family]
            family.extend(frontier)
        return family

    def of(self, key: str, players: list[int]) -> list[tuple[int, dict[str, Any]]]:
        return [(i, row) for i, row in self.rows.get(key, {}).items() if row["player"] in players]


def registry_read(data: Mapping[str, Any], importer: Any) -> FileRegistry:
    """The ``registry`` section checked whole, or :class:`TournamentFileError` naming the
    first bad place. A file without the section (version 1) reads as an empty registry."""
    section = data.get(SECTION)
    if section is None:
        return FileRegistry()
    if not isinstance(section, dict):
        raise importer.fail(SECTION, gettext("形式が違います"))
    unknown = set(section) - {key for key, _model in LISTS}
    if importer.file_version < 4:
        unknown |= set(section) & SINCE_4
    if unknown:
        raise importer.fail(SECTION, gettext(
            "知らない項目 {names} があります（新しい版のファイル？）").format(names=sorted(unknown)))
    out = FileRegistry(raw=section)
    for key, model in LISTS:
        rows = section.get(key) or []
        if not isinstance(rows, list):
            raise importer.fail(f"{SECTION}.{key}", gettext("形式が違います"))
        out.rows[key] = {}
        for index, row in enumerate(rows):
            where = f"{SECTION}.{key}[{index}]"
            file_id, values = _row(importer, out, model, key, row, where)
            out.rows[key][file_id] = values
    corrected: set[int] = set()
    for index, values in enumerate(out.rows["achievementcorrection"].values()):
        if values["achievement"] in corrected:  # one correction per achievement, as here
            raise importer.fail(f"{SECTION}.achievementcorrection[{index}].achievement",
                                gettext("同じ実績が二度取り下げ・訂正されています"))
        corrected.add(values["achievement"])
    return out


def _row(importer: Any, out: FileRegistry, model: type[models.Model], key: str, row: Any,
         where: str) -> tuple[int, dict[str, Any]]:
    if not isinstance(row, dict):
        raise importer.fail(where, gettext("形式が違います"))
    file_id = row.get("id")
    if not isinstance(file_id, int) or isinstance(file_id, bool) or file_id in out.rows[key]:
        raise importer.fail(where, gettext("id が正しくないか重複しています"))
    fields = {f.name: f for f in _fields(model)}
    unknown = set(row) - set(fields) - {"id"}
    if unknown:
        raise importer.fail(where, gettext(
            "知らない項目 {names} があります（新しい版のファイル？）").format(names=sorted(unknown)))
    values: dict[str, Any] = {}
    for name, f in fields.items():
        place = f"{where}.{name}"
        value = row.get(name)
        if isinstance(f, models.ForeignKey):
            values[name] = _reference(importer, out, f, value, place)
        elif name not in row:
            if not (f.has_default() or f.blank or f.null or getattr(f, "auto_now_add", False)):
                raise importer.fail(place, gettext("{name} がありません").format(name=name))
        elif value == "" and f.blank:  # a blank choice ("" is no choice of its own)
            values[name] = ""
        else:
            values[name] = importer.convert(f, value, place)
    _rule(importer, key, values, where)
    return file_id, values


def _reference(importer: Any, out: FileRegistry, f: models.ForeignKey[Any, Any], value: Any,
               place: str) -> Any:
    if value is None:
        if not f.null:
            raise importer.fail(place, gettext("空にできない参照が空です"))
        return None
    if f.related_model is get_user_model():
        if not isinstance(value, str) or not value:
            raise importer.fail(place, gettext("ユーザー名が正しくありません"))
        return value
    target = TARGETS[f.related_model]
    if not isinstance(value, int) or value not in out.rows.get(target, {}):
        raise importer.fail(place, gettext("{model} の id {id} がありません").format(
            model=target, id=repr(value)))
    return value


def _rule(importer: Any, key: str, values: dict[str, Any], where: str) -> None:
    """What the registry's own services refuse: a player without a name, a card without a
    card name, an achievement without a date or a source, a merge of a player with itself."""
    if key == "player" and not str(values.get("name") or "").strip():
        raise importer.fail(f"{where}.name", gettext("名前がありません"))
    if key == "playercard" and not str(values.get("card_name") or "").strip():
        raise importer.fail(f"{where}.card_name", gettext("カードネームがありません"))
    if key == "achievement":
        held_on = values.get("held_on")
        try:
            check_achievement(EngineAchievement(
                key=where, kind=str(values.get("kind") or ""),
                version=str(values.get("game_version") or ""),
                held_on=held_on.isoformat() if held_on else "",
                source=str(values.get("source") or "").strip(),
                limited=str(values.get("limited") or "")))
        except RuleRefusal as exc:
            from brackets.messages import error_text
            from brackets.services.players import ACHIEVEMENT_FIELDS

            name = ACHIEVEMENT_FIELDS.get(exc.code, "")
            raise importer.fail(f"{where}.{name}" if name else where, error_text(exc)) from None
    if key == "playermerge" and values.get("kept") == values.get("merged"):
        raise importer.fail(f"{where}.merged", gettext("同じ選手どうしは統合できません"))
    if key == "achievementcorrection":
        if not str(values.get("reason") or "").strip():
            raise importer.fail(f"{where}.reason", gettext("理由がありません"))
        if values.get("replacement") == values.get("achievement"):
            raise importer.fail(f"{where}.replacement", gettext("訂正前と同じ実績です"))
    if key == "playerrename" and not str(values.get("name") or "").strip():
        raise importer.fail(f"{where}.name", gettext("名前がありません"))
