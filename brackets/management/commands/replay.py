"""``manage.py replay FILE``: run a whole tournament from a file, print the result as JSON.

No server: the file's entrants, settings, lottery seed, selections and results go through
the same services as the tablets, inside a transaction that is rolled back at the end, so
the database is left as it was. A malformed file prints a message naming the line or key
and exits with status 2. See docs/replay.md.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from brackets.services.replay import (
    ReplayError,
    check_depth,
    tournament_replay,
    tournament_summary,
)


class _Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Run a tournament file through the services and print each round as JSON."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="tournament file (JSON), or - for stdin")
        parser.add_argument("--keep", action="store_true",
                            help="keep the replayed tournament in the database")
        parser.add_argument("--slug", default=None, help="slug for the replayed tournament")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc}", returncode=2) from exc
        except UnicodeDecodeError as exc:
            raise CommandError(f"{path}: byte {exc.start}: not UTF-8 text", returncode=2
                               ) from exc
        try:
            check_depth(text)
            data = json.loads(text)
        except ReplayError as exc:
            raise CommandError(f"{path}: {exc.where}: {exc.message}", returncode=2) from exc
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path}: line {exc.lineno}, column {exc.colno}: {exc.msg}",
                               returncode=2) from exc
        summary: dict[str, Any] = {}
        try:
            with transaction.atomic():
                tournament = tournament_replay(data=data, slug=options["slug"]
                                               or "replay-" + hashlib.sha256(text.encode()).hexdigest()[:10])
                summary = tournament_summary(tournament)
                if not options["keep"]:
                    raise _Rollback()
        except _Rollback:
            pass
        except ReplayError as exc:
            raise CommandError(f"{path}: {exc.where}: {exc.message}", returncode=2) from exc
        self.stdout.write(json.dumps(summary, ensure_ascii=False, indent=2))
