"""Entrant import writes: keep an uploaded file's rows, remap its columns, confirm or
cancel it (the file is read by :mod:`brackets.adapters.entrant_files`, its rows judged by
:mod:`brackets.adapters.entrant_rows`)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from brackets.adapters.entrant_files import (
    IGNORE,
    IMPORT_FIELDS,
    NOTES_APPEND,
    ImportRefused,
    parse_file,
)
from brackets.adapters.entrant_rows import PreviewRow, preview_rows
from brackets.adapters.entrants import Roster
from brackets.adapters.players import family_ids
from brackets.engine import bounds
from brackets.models import BerthOverride, Entrant, EntrantImport, Player, Role, Tournament
from brackets.permissions import has_role
from brackets.services.entrants import entrant_register


def _pending_batch(tournament: Tournament, token: str) -> EntrantImport:
    """The import still waiting for confirmation, locked; refused when done or unknown."""
    batch = EntrantImport.objects.select_for_update().filter(tournament=tournament, token=token).first()
    if batch is None or batch.status != EntrantImport.Status.PENDING:
        raise ImportRefused(_("この取り込みは完了済みか、見つかりません。もう一度ファイルを選んでください。"))
    return batch


@dataclass
class ImportOutcome:
    """What a confirmed import did, for the desk's message and the import record."""

    created: list[int] = field(default_factory=list)
    already: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)


@transaction.atomic
def entrant_import_confirm(
    *, tournament: Tournament, token: str, by: Any, skip_errors: bool = False,
    shown_skipped: list[int] | None = None, berth_overrides: Mapping[int, str] | None = None,
) -> ImportOutcome:
    """Write a previewed import in one transaction.

    The rows are validated again against the database as it is now (another desk may have
    registered someone since the preview). Rows already registered (same card name and
    name) are left alone, so the same file imported twice adds nothing. If any row has an
    error, nothing is written unless ``skip_errors`` says to leave those rows out; then
    ``shown_skipped``, the rows the preview listed as left out, must still be exactly the
    rows with errors, so no row is dropped that staff were not shown.

    At a series' main event a row whose player holds no berth is refused like any error
    unless an organiser gives a reason for it in ``berth_overrides`` (row number →
    reason), recorded as the desk records it (``BerthOverride``). A row that is a registry
    player with certainty is linked to them.
    """
    batch = _pending_batch(tournament, token)
    overrides = _overrides_checked(tournament, berth_overrides or {}, by)
    preview = preview_rows(tournament=tournament, batch=batch, overrides=overrides)
    if preview.mapping_errors:
        raise ImportRefused(" ".join(preview.mapping_errors))
    outcome = ImportOutcome()
    if preview.error_count and not skip_errors:
        raise ImportRefused(
            _("エラーのある行が%(n)d行あります。直してから取り込むか、エラーの行を除いて取り込んでください。")
            % {"n": preview.error_count}
        )
    skipped = [row.number for row in preview.error_rows]
    # A row the organiser admitted here was listed as refused on the page they confirmed.
    admitted = {row.number for row in preview.rows if row.override}
    if skip_errors and shown_skipped is not None and sorted(
            set(shown_skipped) - admitted) != skipped:
        raise ImportRefused(
            _("確認画面を開いた後に、取り込めない行が変わりました（他の端末での登録など）。"
              "取り込まない行の一覧を確かめて、もう一度押してください。")
        )
    roster = Roster.load(tournament)
    for row in preview.rows:
        if row.already:
            outcome.already.append(row.number)
        elif row.errors:
            outcome.skipped.append(row.number)
        else:
            entrant = entrant_register(
                tournament=tournament, by=by, data=row.data, action="import", roster=roster
            )
            _registry_record(entrant, row, by)
            outcome.created.append(row.number)
    batch.status = EntrantImport.Status.DONE
    batch.result = {
        "created": outcome.created,
        "already": outcome.already,
        "skipped": outcome.skipped,
    }
    batch.save(update_fields=["status", "result"])
    return outcome


def _overrides_checked(tournament: Tournament, overrides: Mapping[int, str],
                       by: Any) -> dict[int, str]:
    """The organiser's reasons for admitting rows without a berth, blank ones dropped."""
    given = {n: str(reason).strip() for n, reason in overrides.items() if str(reason).strip()}
    if given and not has_role(by, tournament, Role.ORGANISER):
        raise ImportRefused(_("出場権のない選手を本戦に登録する判断は主催者だけが記録できます。"))
    if any(len(reason) > bounds.REASON.max_length for reason in given.values()):
        raise ImportRefused(_("理由は%(max)d文字以内で入力してください。")
                            % {"max": bounds.REASON.max_length})
    return given


def _registry_record(entrant: Entrant, row: PreviewRow, by: Any) -> None:
    """The row's registry player linked (unless another entrant here already is), and an
    organiser's admission without a berth recorded with its reason."""
    who = by if getattr(by, "is_authenticated", False) else None
    if row.override:
        BerthOverride.objects.create(entrant=entrant, reason=row.override, by=who)
    if row.player_id is not None:
        player = Player.objects.get(pk=row.player_id)
        if not Entrant.objects.filter(tournament=entrant.tournament,
                                      player_id__in=family_ids(player)).exists():
            entrant.player = player
            entrant.save(update_fields=["player", "updated_at"])


@transaction.atomic
def entrant_import_create(
    *, tournament: Tournament, by: Any, filename: str, content: bytes
) -> EntrantImport:
    """Parse an uploaded file and keep its rows for the preview; writes no entrant.

    Raises ``ImportRefused`` for a file that is not a spreadsheet, is empty, or has no
    column that can be a name.
    """
    parsed = parse_file(filename, content)
    return EntrantImport.objects.create(
        tournament=tournament,
        token=secrets.token_urlsafe(16),
        filename=filename[:255],
        headers=parsed.headers,
        rows=parsed.rows,
        mapping=parsed.mapping,
        by=by if getattr(by, "is_authenticated", False) else None,
    )


@transaction.atomic
def entrant_import_remap(*, tournament: Tournament, token: str, mapping: list[str]) -> EntrantImport:
    """Store the desk's choice of field (or ignore) for each column of a pending import."""
    batch = _pending_batch(tournament, token)
    allowed = {IGNORE, NOTES_APPEND, *IMPORT_FIELDS}
    if len(mapping) != len(batch.headers) or any(m not in allowed for m in mapping):
        raise ImportRefused(_("列の割り当てが正しくありません。"))
    batch.mapping = list(mapping)
    batch.save(update_fields=["mapping"])
    return batch


@transaction.atomic
def entrant_import_cancel(*, tournament: Tournament, token: str) -> None:
    """Drop a pending import (its rows are kept in the record, marked cancelled)."""
    EntrantImport.objects.filter(
        tournament=tournament, token=token, status=EntrantImport.Status.PENDING
    ).update(status=EntrantImport.Status.CANCELLED)
