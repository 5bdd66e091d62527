"""The tournament file's layout: its format and version, which models it lists and in which
order, the checksum, and the error every reader raises (format in ``docs/tournament-file.md``).

The file does not list models by hand: every model of the app that reaches the tournament
through its foreign keys is written, so facts added by later areas (rounds, seats,
selections, results, special facts …) are in the file without touching this package.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.db import models

from brackets.errors import Refused
from brackets.models import Difficulty, Format, FormatGroup, Genre, Rank, SubGenre, Tournament

FORMAT = "kyushu-tournament"
#: 2 adds the ``registry`` section and each entrant's ``player`` (#14 item 6); 3 adds the
#: ``series`` section (series.py); 4 adds the corrections: withdrawn and corrected
#: achievements with their corrections, renames, berth withdrawals, entrant relinks. 1 to 3
#: are read. Each step is a version and not an optional key, so an older reader refuses
#: the file and says to update the app rather than misread it: a version-2 reader would
#: import a qualifier outside its series; a version-3 reader would count a withdrawn
#: achievement (version 4's ``achievement`` list carries withdrawn rows as history) and a
#: withdrawn berth (its grant is still in ``grants``) as in force.
VERSION = 4
# Tournament fields that are not part of the file: the catalog is named separately, and
# the revision is page-cache bookkeeping (brackets/perf/revision.py) that a new database starts
# afresh.
NOT_TOURNAMENT_DATA = ("version", "revision")
CONTENT_TYPE = "application/json"

CATALOG_MODELS: tuple[type[models.Model], ...] = (
    Genre, SubGenre, FormatGroup, Format, Difficulty, Rank)
#: Models that are not facts of the tournament: idempotency tokens of form posts, the
#: public copy's push bookkeeping (brackets/models/public_copy.py), and this server's
#: record of how an imported file's players met its registry (the file's ``registry``
#: section carries the players themselves: registry.py).
EXCLUDED_MODEL_NAMES = frozenset({"tournament", "membership", "submission", "qmaversion",
                                  "publiccopypush", "publiccopyreceipt", "playerlink",
                                  "playerlinkdecision"})


class TournamentFileError(Refused):
    """The file cannot be imported; ``message`` says why in Japanese, for the organiser."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.message = message
        #: The key of the file the refusal is about (``records.resultfact[3].score``), when
        #: there is one: the command prints ``FILE: where: message``.
        self.where = where



@dataclass(frozen=True)
class FileModel:
    """One list of the file: a model and the lookup from it to its tournament."""

    model: type[models.Model]
    path: str

    @property
    def key(self) -> str:
        return self.model._meta.model_name or ""


def _fk_fields(model: type[models.Model]) -> list[models.ForeignKey[Any, Any]]:
    return [f for f in model._meta.concrete_fields if isinstance(f, models.ForeignKey)]


def file_models() -> list[FileModel]:
    """Every app model that belongs to a tournament, dependencies first.

    A model belongs when a chain of foreign keys leads to :class:`Tournament`; the shortest
    chain is used to select its rows. Order: a model comes after every model it points to
    (self references are resolved by creation order inside the list).
    """
    candidates = [m for m in apps.get_app_config("brackets").get_models()
                  if m._meta.model_name not in EXCLUDED_MODEL_NAMES
                  and m not in CATALOG_MODELS and not m._meta.abstract]
    paths: dict[type[models.Model], str] = {}
    changed = True
    while changed:
        changed = False
        for model in candidates:
            best = paths.get(model)
            for field in _fk_fields(model):
                target = field.related_model
                if target is Tournament:
                    path = field.name
                elif target in paths and target is not model:
                    path = f"{field.name}__{paths[target]}"
                else:
                    continue
                # Prefer non-null chains, then shorter ones.
                rank = (field.null, path.count("__"))
                if best is None or rank < (_path_nullable(model, best), best.count("__")):
                    best = path
            if best is not None and paths.get(model) != best:
                paths[model] = best
                changed = True
    ordered: list[type[models.Model]] = []
    pending = [m for m in candidates if m in paths]
    while pending:
        progressed = False
        for model in list(pending):
            deps = {f.related_model for f in _fk_fields(model)
                    if f.related_model in paths and f.related_model is not model}
            deps |= {f.related_model for f in model._meta.many_to_many
                     if f.related_model in paths}
            if deps <= set(ordered):
                ordered.append(model)
                pending.remove(model)
                progressed = True
        if not progressed:  # a cycle between two models: keep app order for the rest
            ordered.extend(pending)
            break
    return [FileModel(m, paths[m]) for m in ordered]


def _path_nullable(model: type[models.Model], path: str) -> bool:
    name = path.split("__", 1)[0]
    return bool(model._meta.get_field(name).null)



def checksum(data: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON without ``checksum`` and ``exported_at``."""
    body = {k: v for k, v in data.items() if k not in ("checksum", "exported_at")}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


