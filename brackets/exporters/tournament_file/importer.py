"""Import of the tournament file into a database.

The importer checks the whole file before writing anything and writes in one transaction:
a file from a newer app version, a damaged file or a file that does not fit the database
changes nothing and says why.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext

from brackets.adapters.rounds import rules_from_stored, upgrade_record
from brackets.engine import EngineError
from brackets.exporters.tournament_file.checks import facts_check
from brackets.exporters.tournament_file.envelope import check_header, load
from brackets.exporters.tournament_file.layout import (
    CATALOG_MODELS,
    NOT_TOURNAMENT_DATA,
    VERSION,
    TournamentFileError,
    file_models,
)
from brackets.exporters.tournament_file.registry import FileRegistry, registry_read
from brackets.exporters.tournament_file.series import series_join, series_mirror, series_read
from brackets.models import Entrant, Membership, Player, QmaVersion, Role, Round, Tournament

#: Keys files of earlier versions carry that are derived now, not facts: read and ignored
#: (a selection's violations and penalty, derived by the engine since 0012).
RETIRED_KEYS: dict[str, set[str]] = {"selectionfact": {"violations", "penalty"}}


def _shown(value: Any) -> str:
    """A file value short enough to quote in a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


class _BadValue(Exception):
    """A file value of the wrong kind for its field (caught and reported with its place)."""


def _constraint_error(key: str, exc: IntegrityError) -> TournamentFileError:
    return TournamentFileError(
        gettext("ファイルの記録（{key}）がデータベースの制約に合いません：{error}").format(
            key=key, error=exc))


class _Importer:
    def __init__(self, data: Mapping[str, Any], *, slug: str | None,
                 primary_keys: Mapping[str, Mapping[int, Any]] | None = None) -> None:
        self.data = data
        self.slug = slug
        self.primary_keys = primary_keys
        self.users: dict[str, Any] = {}
        self.ids: dict[tuple[str, int], Any] = {}
        self.version: QmaVersion | None = None
        self.catalog: dict[type[models.Model], dict[str, Any]] = {}
        self.registry = FileRegistry()
        self.file_version = VERSION
        #: (entrant, the file id of its registry player), linked after every record is in.
        self.player_refs: list[tuple[models.Model, int]] = []
        #: (record, field, the file id of a registry player) of the other records that
        #: name a player (a relink's ``player`` and ``was_player``), set once linked.
        self.other_player_refs: list[tuple[models.Model, str, int]] = []

    def fail(self, where: str, why: str) -> TournamentFileError:
        return TournamentFileError(
            gettext("ファイルが壊れています（{where}：{why}）。").format(where=where, why=why),
            where=where)

    def section(self, name: str, kind: type) -> Any:
        value = self.data.get(name)
        if not isinstance(value, kind):
            raise self.fail(name, gettext("ありません") if value is None else gettext("形式が違います"))
        return value

    def user(self, name: Any, where: str) -> Any:
        if name is None:
            return None
        if not isinstance(name, str) or not name:
            raise self.fail(where, gettext("ユーザー名が正しくありません"))
        if name not in self.users:
            user_model = get_user_model()
            user = user_model.objects.filter(**{user_model.USERNAME_FIELD: name}).first()
            if user is None:
                user = user_model(**{user_model.USERNAME_FIELD: name})
                user.set_unusable_password()
                user.save()
            self.users[name] = user
        return self.users[name]

    def catalog_item(self, model: type[models.Model], name: Any, where: str) -> Any:
        if name is None:
            return None
        assert self.version is not None
        if model is QmaVersion:
            if name != self.version.slug:
                raise self.fail(where, gettext("カタログ {name} は大会のカタログと違います").format(name=repr(name)))
            return self.version
        if model not in self.catalog:
            self.catalog[model] = {obj.name: obj for obj in  # type: ignore[attr-defined]
                                   model.objects.filter(version=self.version)}
        try:
            return self.catalog[model][name]
        except (KeyError, TypeError):
            raise self.fail(where, gettext("カタログに {name} がありません").format(name=repr(name))) from None

    def convert(self, field: models.Field[Any, Any], value: Any, where: str) -> Any:
        """A file value back to what the model field holds; a bad value fails loudly, and a
        value outside the field's bounds fails with what the bound is."""
        if value is None:
            if not field.null:
                raise self.fail(where, gettext("空にできない項目が空です"))
            return None
        try:
            converted = self._converted(field, value)
        except (_BadValue, ValueError, InvalidOperation, TypeError, OverflowError):
            raise self.fail(where, gettext("値 {value} が正しくありません").format(
                value=_shown(value))) from None
        if isinstance(converted, str) and "\x00" in converted:
            # PostgreSQL cannot store NUL in text; no desk field can type one.
            raise self.fail(where, gettext("値に使えない文字（NUL）が含まれています"))
        if isinstance(field, models.JSONField) and "\\u0000" in json.dumps(converted):
            raise self.fail(where, gettext("値に使えない文字（NUL）が含まれています"))
        if isinstance(field, (models.DecimalField, models.IntegerField, models.CharField,
                              models.TextField)):
            return self.bounded(field, converted, where)
        return converted

    @staticmethod
    def _converted(field: models.Field[Any, Any], value: Any) -> Any:
        if isinstance(field, models.DecimalField):
            if not isinstance(value, (str, int)) or isinstance(value, bool):
                raise _BadValue
            return Decimal(str(value))
        if isinstance(field, models.DateTimeField):
            parsed = parse_datetime(value) if isinstance(value, str) else None
            if parsed is None:
                raise _BadValue
            return parsed if timezone.is_aware(parsed) else timezone.make_aware(
                parsed, datetime.UTC)
        if isinstance(field, models.DateField):
            day = parse_date(value) if isinstance(value, str) else None
            if day is None:
                raise _BadValue
            return day
        if isinstance(field, models.BooleanField):
            if not isinstance(value, bool):
                raise _BadValue
            return value
        if isinstance(field, (models.IntegerField, models.AutoField)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise _BadValue
            return value
        if isinstance(field, (models.CharField, models.TextField)):
            if not isinstance(value, str):
                raise _BadValue
            return value
        return value

    def bounded(self, field: models.Field[Any, Any], value: Any, where: str) -> Any:
        """``value`` once it passes the field's validators: the ranges and lengths of
        ``brackets.engine.bounds`` the models read, the same the desk and tablets obey."""
        try:
            field.run_validators(value)
            if field.choices and value not in {key for key, _label in field.flatchoices}:
                raise ValidationError(gettext("{value} は選べる値ではありません").format(
                    value=_shown(value)))
        except ValidationError as exc:
            raise self.fail(where, " ".join(exc.messages)) from None
        return value

    def tournament(self) -> Tournament:
        slug = self.data.get("catalog")
        if not isinstance(slug, str):
            raise self.fail("catalog", gettext("ありません"))
        version = QmaVersion.objects.filter(slug=slug).first()
        if version is None:
            from brackets.services.catalog import catalog_load_builtin

            catalog_load_builtin()
            version = QmaVersion.objects.filter(slug=slug).first()
        if version is None:
            raise TournamentFileError(
                gettext("このファイルのQMAカタログ {slug} がこのアプリにありません。"
                        "管理画面でカタログを追加してから読み込んでください。").format(
                    slug=repr(slug)))
        self.version = version
        settings = self.section("tournament", dict)
        known = {f.name: f for f in Tournament._meta.concrete_fields
                 if not f.primary_key and f.name not in NOT_TOURNAMENT_DATA}
        unknown = set(settings) - set(known)
        if unknown:
            raise self.fail("tournament", gettext(
                "知らない項目 {names} があります（新しい版のファイル？）").format(
                    names=sorted(unknown)))
        values = {name: self.convert(known[name], value, f"tournament.{name}")
                  for name, value in settings.items()}
        if self.slug:
            values["slug"] = self.slug
        if not values.get("slug") or not values.get("name"):
            raise self.fail("tournament", gettext("識別子か大会名がありません"))
        if Tournament.objects.filter(slug=values["slug"]).exists():
            raise TournamentFileError(
                gettext("識別子 {slug} の大会が既にあります。別の識別子を指定して読み込んでください。")
                .format(slug=repr(values["slug"])))
        created_at = values.pop("created_at", None)
        tournament = Tournament(version=version, **values)
        try:
            tournament.full_clean()
        except ValidationError as exc:
            raise self.fail("tournament", "; ".join(
                f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())) from None
        tournament.save()
        if created_at is not None:
            Tournament.objects.filter(pk=tournament.pk).update(created_at=created_at)
            tournament.created_at = created_at
        return tournament

    def staff(self, tournament: Tournament) -> None:
        for index, row in enumerate(self.data.get("staff") or []):
            where = f"staff[{index}]"
            if not isinstance(row, dict) or row.get("role") not in Role.values:
                raise self.fail(where, gettext("役割が正しくありません"))
            user = self.user(row.get("user"), f"{where}.user")
            if user is None:
                raise self.fail(f"{where}.user", gettext("ユーザー名がありません"))
            Membership.objects.get_or_create(tournament=tournament, user=user,
                                             role=row["role"])

    def records(self, tournament: Tournament) -> None:
        records = self.data.get("records") or {}
        if not isinstance(records, dict):
            raise self.fail("records", gettext("形式が違います"))
        specs = file_models()
        known = {spec.key for spec in specs}
        unknown = set(records) - known
        if unknown:
            raise TournamentFileError(
                gettext("このアプリが知らない記録 {names} があります。"
                        "新しい版のアプリで書き出されたファイルです。アプリを更新してください。")
                .format(names=sorted(unknown)))
        for spec in specs:
            rows = records.get(spec.key) or []
            if not isinstance(rows, list):
                raise self.fail(f"records.{spec.key}", gettext("形式が違います"))
            if spec.model is Round:
                rows = self.rounds(rows, spec.key)
            self.create(spec.model, spec.key, rows, tournament)

    def rounds(self, rows: list[Any], key: str) -> list[Any]:
        """Round rows with their rules in today's stored form: a file exported before the
        typed spec was stored carries the old flat one (converted by the round adapter),
        and a spec this app cannot read back is refused with its place."""
        out = []
        for index, row in enumerate(rows):
            if not isinstance(row, dict):
                out.append(row)
                continue
            where = f"records.{key}[{index}].spec"
            try:
                row = upgrade_record(row)
                rules = rules_from_stored(row.get("spec"), int(row.get("number") or 0))
            except (EngineError, TypeError, ValueError, AttributeError, KeyError) as exc:
                raise self.fail(where, gettext("形式が違います")) from exc
            # A round's kind is its spec's kind (rounds_configure sets both from one preset).
            kind = row.get("kind", "groups")
            if kind != rules.spec.kind:
                raise self.fail(f"records.{key}[{index}].kind", gettext(
                    "回戦の種類 {kind} は回戦の設定（{expected}）と合いません").format(
                        kind=_shown(kind), expected=rules.spec.kind))
            out.append(row)
        return out

    def create(self, model: type[models.Model], key: str, rows: list[Any],
               tournament: Tournament) -> None:
        fields = {f.name: f for f in model._meta.concrete_fields if not f.primary_key}
        m2m = {f.name: f for f in model._meta.many_to_many}
        timestamps = [f.name for f in fields.values()
                      if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]
        deferred: list[tuple[models.Model, str, int]] = []
        pending_m2m: list[tuple[models.Model, str, list[Any]]] = []
        objs: list[models.Model] = []
        seen: set[int] = set()
        for index, row in enumerate(rows):
            where = f"records.{key}[{index}]"
            if not isinstance(row, dict):
                raise self.fail(where, gettext("形式が違います"))
            file_id = row.get("id")
            if not isinstance(file_id, int) or isinstance(file_id, bool) or file_id in seen:
                raise self.fail(where, gettext("id が正しくないか重複しています"))
            seen.add(file_id)
            unknown = set(row) - set(fields) - set(m2m) - {"id"} - RETIRED_KEYS.get(key, set())
            if unknown:
                raise TournamentFileError(
                    gettext("{where} にこのアプリが知らない項目 {names} があります"
                            "（新しい版のアプリのファイル？）。").format(
                        where=where, names=sorted(unknown)))
            obj = model()
            if self.primary_keys is not None:
                obj.pk = self.primary_keys.get(key, {}).get(file_id)
                if obj.pk is None:
                    raise self.fail(where, gettext("id {id} の行番号がありません").format(id=file_id))
            for name, field in fields.items():
                if isinstance(field, models.ForeignKey) and field.related_model is Tournament:
                    setattr(obj, field.name, tournament)
                    continue
                if name not in row:
                    if isinstance(field, (models.CharField, models.TextField)) and field.blank \
                            and not field.has_default():
                        setattr(obj, field.attname, "")
                    elif not field.has_default() and not field.null and name not in timestamps:
                        raise self.fail(where, gettext("{name} がありません").format(name=name))
                    continue
                value = row[name]
                if isinstance(field, models.ForeignKey):
                    target = field.related_model
                    if value is None:
                        if not field.null:
                            raise self.fail(f"{where}.{name}", gettext("空にできない参照が空です"))
                        setattr(obj, field.name, None)
                    elif target is get_user_model():
                        setattr(obj, field.name, self.user(value, f"{where}.{name}"))
                    elif target in CATALOG_MODELS or target is QmaVersion:
                        setattr(obj, field.name,
                                self.catalog_item(target, value, f"{where}.{name}"))
                    elif target is Player:
                        if not isinstance(value, int) or value not in self.registry.players:
                            raise self.fail(f"{where}.{name}", gettext(
                                "registry の player の id {id} がありません").format(id=repr(value)))
                        if model is Entrant:
                            self.player_refs.append((obj, value))
                        else:
                            self.other_player_refs.append((obj, field.attname, value))
                        setattr(obj, field.attname, None)
                    elif target is model:
                        if not field.null:
                            raise self.fail(f"{where}.{name}", gettext("自己参照は空にできる項目だけです"))
                        deferred.append((obj, field.attname, value))
                    else:
                        target_key = target._meta.model_name or ""
                        pk = self.ids.get((target_key, value)) if isinstance(value, int) else None
                        if pk is None:
                            raise self.fail(f"{where}.{name}",
                                            gettext("{model} の id {id} がありません").format(
                                                model=target_key, id=repr(value)))
                        setattr(obj, field.attname, pk)
                else:
                    setattr(obj, field.attname, self.convert(field, value, f"{where}.{name}"))
            for name in m2m:
                if name in row:
                    pending_m2m.append((obj, name, row[name]))
            objs.append(obj)
        try:
            with transaction.atomic():
                model.objects.bulk_create(objs, batch_size=500)
        except IntegrityError as exc:
            raise _constraint_error(key, exc) from None
        for obj, row in zip(objs, rows, strict=True):
            self.ids[(key, row["id"])] = obj.pk
        updates: set[str] = set(timestamps)
        for obj, attname, value in deferred:
            pk = self.ids.get((key, value)) if isinstance(value, int) else None
            if pk is None:
                raise self.fail(f"records.{key}.{attname}", gettext("id {id} がありません").format(id=repr(value)))
            setattr(obj, attname, pk)
            updates.add(attname.removesuffix("_id"))
        for obj, row in zip(objs, rows, strict=True):
            for name in timestamps:
                if name in row:
                    setattr(obj, name, self.convert(fields[name], row[name],
                                                    f"records.{key}.{name}"))
        updates = {u for u in updates if any(u == f.name for f in fields.values())}
        if objs and updates:
            try:
                model.objects.bulk_update(objs, sorted(updates), batch_size=500)
            except IntegrityError as exc:
                raise _constraint_error(key, exc) from None
        for obj, name, values in pending_m2m:
            target = m2m[name].related_model
            target_key = target._meta.model_name or ""
            if not isinstance(values, list):
                raise self.fail(f"records.{key}.{name}", gettext("形式が違います"))
            pks = [self.ids.get((target_key, v)) for v in values]
            if None in pks:
                raise self.fail(f"records.{key}.{name}", gettext("参照先がありません"))
            getattr(obj, name).set(pks)


def tournament_file_import(*, data: bytes | str | Mapping[str, Any], slug: str | None = None,
                           primary_keys: Mapping[str, Mapping[int, Any]] | None = None,
                           by: Any = None) -> Tournament:
    """Create the tournament a file describes; all or nothing (one transaction).

    ``slug`` imports under another identifier (the file's must be free otherwise).
    ``primary_keys`` (list key → file id → database id) gives every record the id it had
    where the file was written, so links such as a player page's address stay the same
    (the hosted public copy: brackets/hosted/receive.py); every record must be named. Raises
    :class:`TournamentFileError` with a message for the organiser; nothing is written then.

    The entrants' registry players (version 2's ``registry``) are linked to this server's
    registry (:func:`~brackets.services.player_links.tournament_players_link`): certain
    matches at once, uncertain ones left for an organiser's review; ``by`` is who imports.
    Version 3's ``series`` joins the tournament to this server's series of that slug
    (:mod:`.series`); with ``primary_keys`` (the copy) the series is mirrored as pushed.
    """
    from brackets.services.player_links import file_players_link, tournament_players_link

    parsed = load(data)
    version = check_header(parsed)
    importer = _Importer(parsed, slug=slug, primary_keys=primary_keys)
    importer.file_version = version
    importer.registry = registry_read(parsed, importer)
    found = series_read(parsed, importer, public=primary_keys is not None)
    with transaction.atomic():
        tournament = importer.tournament()
        importer.staff(tournament)
        importer.records(tournament)
        facts_check(tournament)  # the rules across records (checks.py)
        links = tournament_players_link(
            tournament=tournament, registry=importer.registry, by=by,
            entrants=[(obj.pk, file_id) for obj, file_id in importer.player_refs],
            user=importer.user)
        if primary_keys is not None:
            if found is not None:
                series_mirror(tournament=tournament, found=found, entrant_ids={
                    file_id: pk for (key, file_id), pk in importer.ids.items()
                    if key == "entrant"})
            return tournament
        # The players named outside the entrants (berth holders, relinks), linked as an
        # entrant's player would be.
        others = [g["player"] for g in found.grants] if found is not None else []
        others += [file_id for _obj, _name, file_id in importer.other_player_refs]
        players = file_players_link(
            registry=importer.registry, file_ids=others,
            links=[(file_id, link) for (_obj, file_id), link
                   in zip(importer.player_refs, links, strict=True)],
            user=importer.user) if others else {}
        for obj, attname, file_id in importer.other_player_refs:
            type(obj).objects.filter(pk=obj.pk).update(**{attname: players[file_id].pk})
        if found is not None:
            series_join(tournament=tournament, found=found, players=players,
                        importer=importer, by=by)
    return tournament
