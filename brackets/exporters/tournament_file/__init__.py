"""The whole-tournament file: export to versioned JSON (:mod:`.export`), import into a
database (:mod:`.importer`), both over one layout (:mod:`.layout`; format in
``docs/tournament-file.md``). Importing the package registers the 大会ファイル
document."""

from __future__ import annotations

from brackets.exporters.tournament_file.export import tournament_file_data, tournament_file_export
from brackets.exporters.tournament_file.importer import tournament_file_import
from brackets.exporters.tournament_file.layout import TournamentFileError, checksum, file_models

__all__ = ["TournamentFileError", "checksum", "file_models", "tournament_file_data",
           "tournament_file_export", "tournament_file_import"]
