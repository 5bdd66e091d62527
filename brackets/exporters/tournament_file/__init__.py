"""The whole-tournament file: export to versioned JSON (:mod:`.export`), import into a
database (:mod:`.importer`), both over one layout (:mod:`.layout`; format in
``docs/tournament-file.md``)."""

from __future__ import annotations

from brackets.exporters.tournament_file.export import (
    TournamentFile,
    tournament_file_data,
    tournament_file_export,
)
from brackets.exporters.tournament_file.importer import check_header, tournament_file_import
from brackets.exporters.tournament_file.layout import (
    FORMAT,
    VERSION,
    FileModel,
    TournamentFileError,
    checksum,
    file_models,
)

__all__ = [
    "FORMAT", "VERSION", "FileModel", "TournamentFile", "TournamentFileError", "check_header",
    "checksum", "file_models", "tournament_file_data", "tournament_file_export",
    "tournament_file_import",
]
