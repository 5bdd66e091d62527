"""``manage.py tournament_export <slug> [-o FILE]``: write the tournament file (JSON).

The same file the organiser downloads from 書類 → 大会ファイル; see docs/tournament-file.md.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from brackets.exporters.tournament_file import tournament_file_export
from brackets.models import Tournament


class Command(BaseCommand):
    help = "Write a whole tournament to a versioned JSON file (kyushu-tournament v1)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"大会 {options['slug']!r} はありません。")
        content = tournament_file_export(tournament=tournament)
        if options["output"]:
            with open(options["output"], "wb") as handle:
                handle.write(content)
        else:
            sys.stdout.buffer.write(content)
