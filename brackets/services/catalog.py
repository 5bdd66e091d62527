"""Load the QMA catalog shipped in ``fixtures/catalog/`` into the database."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction

from brackets.models import (
    Difficulty,
    Format,
    FormatGroup,
    Genre,
    QmaVersion,
    Rank,
    SubGenre,
)

CATALOG_DIR = Path(settings.BASE_DIR) / "fixtures" / "catalog"
CATALOG_FORMAT = "kyushu-catalog/1"


def catalog_files() -> list[Path]:
    return sorted(CATALOG_DIR.glob("*.json"))


@transaction.atomic
def catalog_version_load(*, data: dict[str, Any]) -> QmaVersion | None:
    """Create one QMA version from catalog data, unless that version exists already.

    An existing version is left alone: organisers may have edited it in the admin, and a
    second ``manage.py up`` must not undo their edits.
    """
    if data.get("format") != CATALOG_FORMAT:
        raise ValueError(f"unknown catalog format {data.get('format')!r}")
    if QmaVersion.objects.filter(slug=data["slug"]).exists():
        return None
    version = QmaVersion.objects.create(slug=data["slug"], name=data["name"], order=data["order"])
    sub_order = 0
    for order, genre_data in enumerate(data["genres"]):
        genre = Genre.objects.create(
            version=version,
            name=genre_data["name"],
            order=order,
            is_non_genre=bool(genre_data.get("non_genre", False)),
        )
        for sub_name in genre_data["subgenres"]:
            SubGenre.objects.create(version=version, genre=genre, name=sub_name, order=sub_order)
            sub_order += 1
    format_order = 0
    for order, group_data in enumerate(data["format_groups"]):
        group = FormatGroup.objects.create(version=version, name=group_data["name"], order=order)
        for format_name in group_data["formats"]:
            Format.objects.create(version=version, group=group, name=format_name, order=format_order)
            format_order += 1
    for order, name in enumerate(data["difficulties"]):
        Difficulty.objects.create(version=version, name=name, order=order)
    for order, rank in enumerate(data["ranks"]):
        Rank.objects.create(
            version=version, name=rank["name"], q_min=rank["q_min"], q_max=rank["q_max"], order=order
        )
    return version


def catalog_load_builtin() -> list[QmaVersion]:
    """Load every shipped catalog version that the database does not have yet."""
    loaded = []
    for path in catalog_files():
        version = catalog_version_load(data=json.loads(path.read_text(encoding="utf-8")))
        if version is not None:
            loaded.append(version)
    return loaded
