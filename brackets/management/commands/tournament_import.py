"""``manage.py tournament_import FILE [--slug NEW]``: create a tournament from its file.

All or nothing: a newer format version or a damaged file is refused with the reason and
the database is left unchanged: the command prints ``FILE: key: message`` and exits with
status 2. See docs/tournament-file.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from brackets.exporters.tournament_file import TournamentFileError, tournament_file_import


class Command(BaseCommand):
    help = "Create a tournament from a tournament file (kyushu-tournament JSON)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--slug", help="import under this identifier instead")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"ファイル {path} がありません。", returncode=2)
        try:
            tournament = tournament_file_import(data=path.read_bytes(), slug=options["slug"])
        except TournamentFileError as exc:
            # As replay prints it: FILE: key: message (exit status 2).
            where = f"{exc.where}: " if exc.where else ""
            raise CommandError(f"{path}: {where}{exc.message}", returncode=2) from None
        self.stdout.write(f"{tournament.name}（{tournament.slug}）を読み込みました。")
        pending = tournament.player_links.filter(match="uncertain").count()
        if pending:
            self.stdout.write(f"登録簿の選手と同一人物か確認が必要な参加者が{pending}人います"
                              f"（/t/{tournament.slug}/players/links/ で確認してください）。")
