"""Export of the tournament file: every fact of a tournament as versioned JSON.

Primary keys are renumbered per list (1, 2, 3 … in creation order) so that exporting an
imported tournament gives the same file, whatever ids the new database hands out.
"""

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from brackets.exporters.tournament_file.layout import (
    CATALOG_MODELS,
    CONTENT_TYPE,
    FORMAT,
    NOT_TOURNAMENT_DATA,
    VERSION,
    TournamentFileError,
    checksum,
    file_models,
)
from brackets.exporters.tournament_file.registry import registry_section
from brackets.exporters.tournament_file.series import series_section
from brackets.models import Membership, QmaVersion, Role, Tournament
from brackets.printing.registry import Document, register


def _datetime_text(value: datetime.datetime | None) -> str | None:
    if value is None:
        return None
    if timezone.is_naive(value):
        value = timezone.make_aware(value, datetime.UTC)
    return value.astimezone(datetime.UTC).isoformat()


def _plain(field: models.Field[Any, Any], value: Any) -> Any:
    """A field value as the file writes it (see the table in the format document)."""
    if value is None:
        return None
    if isinstance(field, models.DecimalField):
        return f"{Decimal(value):.{field.decimal_places}f}"
    if isinstance(field, models.DateTimeField):
        return _datetime_text(value)
    if isinstance(field, models.DateField):
        return value.isoformat()
    if isinstance(field, models.UUIDField):
        return str(value)
    return value


def _catalog_key(obj: models.Model) -> str:
    return obj.slug if isinstance(obj, QmaVersion) else obj.name  # type: ignore[attr-defined]


class _Exporter:
    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.users: dict[int, str] = {}
        self._all_users: dict[int, str] = {}
        self.file_ids: dict[tuple[type[models.Model], Any], int] = {}
        self.catalog: dict[type[models.Model], dict[Any, str]] = {}

    def username(self, user_id: int | None) -> str | None:
        if user_id is None:
            return None
        if not self._all_users:
            # One query for every account (a venue has a handful), not one per fact.
            user_model = get_user_model()
            self._all_users = dict(user_model.objects.values_list(
                "pk", user_model.USERNAME_FIELD))
        self.users[user_id] = self._all_users[user_id]
        return self.users[user_id]

    def catalog_name(self, model: type[models.Model], pk: Any) -> str | None:
        if pk is None:
            return None
        if model not in self.catalog:
            self.catalog[model] = {obj.pk: _catalog_key(obj) for obj in model.objects.all()}
        return self.catalog[model][pk]

    def value(self, field: models.Field[Any, Any], obj: models.Model) -> Any:
        if isinstance(field, models.ForeignKey):
            target = field.related_model
            raw = getattr(obj, field.attname)
            if raw is None:
                return None
            if target is get_user_model():
                return self.username(raw)
            if target in CATALOG_MODELS or target is QmaVersion:
                return self.catalog_name(target, raw)
            key = (target, raw)
            if key not in self.file_ids:
                raise TournamentFileError(
                    gettext("{model} が別の大会のデータを参照しています（{field}）。").format(
                        model=obj._meta.verbose_name, field=field.name))
            return self.file_ids[key]
        return _plain(field, getattr(obj, field.attname))

    def records(self) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        for spec in file_models():
            model = spec.model
            rows = list(model.objects.filter(**{spec.path: self.tournament}).order_by("pk"))
            for number, obj in enumerate(rows, start=1):
                self.file_ids[(model, obj.pk)] = number
            fields = [f for f in model._meta.concrete_fields
                      if not f.primary_key and not (isinstance(f, models.ForeignKey)
                                                    and f.related_model is Tournament)]
            records = []
            for number, obj in enumerate(rows, start=1):
                record: dict[str, Any] = {"id": number}
                for field in fields:
                    record[field.name] = self.value(field, obj)
                for m2m in model._meta.many_to_many:
                    targets = getattr(obj, m2m.name).values_list("pk", flat=True)
                    record[m2m.name] = sorted(self.file_ids[(m2m.related_model, pk)]
                                              for pk in targets)
                records.append(record)
            if records:
                out[spec.key] = records
        return out


def tournament_file_data(*, tournament: Tournament) -> dict[str, Any]:
    """The file's content as plain data, checksum included (see the format document)."""
    exporter = _Exporter(tournament)
    # First: it numbers the players the entrant records name.
    registry = registry_section(tournament, exporter)
    settings = {}
    for field in Tournament._meta.concrete_fields:
        if field.primary_key or field.name in NOT_TOURNAMENT_DATA:
            continue
        settings[field.name] = _plain(field, getattr(tournament, field.attname))
    records = exporter.records()
    staff = [{"user": exporter.username(user_id), "role": role}
             for user_id, role in Membership.objects.filter(tournament=tournament)
             .order_by("user__username", "role").values_list("user_id", "role")]
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _datetime_text(timezone.now()),
        "catalog": tournament.version.slug,
        "tournament": settings,
        "users": sorted(set(exporter.users.values())),
        "staff": staff,
        "records": records,
    }
    if registry:
        data["registry"] = registry
    series = series_section(tournament, exporter)
    if series:
        data["series"] = series
    data["checksum"] = checksum(data)
    return data


def tournament_file_export(*, tournament: Tournament) -> bytes:
    """The tournament file as UTF-8 JSON bytes (readable, one key per line)."""
    data = tournament_file_data(tournament=tournament)
    return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")


@register
class TournamentFile(Document):
    """大会ファイル: everything to rebuild the tournament elsewhere (backup, replay)."""

    slug = "tournament-file"
    title = gettext_noop("大会ファイル（JSON）")
    role = Role.ORGANISER
    category = gettext_noop("大会")
    content_type = CONTENT_TYPE
    extension = "json"
    description = gettext_noop("設定・参加者と変更履歴・抽選シード・入力されたすべての記録（誰がいつ）")

    def render(self, tournament: Tournament, **options: Any) -> tuple[str, str, bytes]:
        stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
        return (f"{tournament.slug}-tournament-{stamp}.json", CONTENT_TYPE,
                tournament_file_export(tournament=tournament))

