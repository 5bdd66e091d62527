"""The copy's side of a push: replace the tournament with the pushed state, all or nothing."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from brackets.exporters.tournament_file import (
    TournamentFileError,
    file_models,
    tournament_file_import,
)
from brackets.models import PublicCopyReceipt
from brackets.hosted.payload import PayloadError
from brackets.models import Tournament
from brackets.perf.page_cache import revision_moved


@dataclass(frozen=True)
class Received:
    """What became of a push: ``applied``, or ``ignored`` because the copy has it or newer."""

    status: str
    slug: str
    sequence: int


def _primary_keys(envelope: dict[str, Any]) -> dict[str, dict[int, int]]:
    """File id → venue id per list, checked against the file's own lists."""
    records = envelope["file"].get("records") or {}
    ids = envelope["ids"]
    out: dict[str, dict[int, int]] = {}
    for key, rows in records.items():
        venue = ids.get(key)
        if not isinstance(rows, list) or venue is None or len(venue) != len(rows):
            raise PayloadError(gettext("送信の id 一覧が大会ファイルと合いません（{key}）。")
                               .format(key=key))
        out[key] = {row.get("id"): pk for row, pk in zip(rows, venue, strict=True)
                    if isinstance(row, dict)}
    return out


def tournament_replace_delete(tournament: Tournament) -> None:
    """Delete a tournament with every record, latest lists first: facts guard the entrants
    they name (``on_delete=PROTECT``), so the entrants go only after the facts."""
    for spec in reversed(file_models()):
        spec.model.objects.filter(**{spec.path: tournament}).delete()
    tournament.delete()


def public_copy_receive(*, envelope: dict[str, Any]) -> Received:
    """Apply a decoded push (:func:`brackets.hosted.payload.decode`).

    Pushes of one tournament are applied one at a time (the receipt row is locked), and a
    push not newer than the receipt from the same venue database changes nothing, so a
    retry or a late duplicate is harmless. The tournament is deleted and imported again
    in one transaction: a reader sees the old state or the new one, never half of each.
    Raises :class:`PayloadError` or :class:`TournamentFileError`; nothing is written then.
    """
    slug, sequence = envelope["slug"], envelope["sequence"]
    try:
        source = uuid.UUID(envelope["source"])
    except ValueError:
        raise PayloadError(gettext("送信元が正しくありません。")) from None
    if envelope["file"].get("tournament", {}).get("slug") != slug:
        raise PayloadError(gettext("送信の識別子が大会ファイルと違います。"))
    primary_keys = _primary_keys(envelope)
    with transaction.atomic():
        receipt, _created = PublicCopyReceipt.objects.select_for_update().get_or_create(
            slug=slug, defaults={"source": source, "sequence": 0,
                                 "received_at": timezone.now()})
        if receipt.source == source and sequence <= receipt.sequence:
            return Received("ignored", slug, receipt.sequence)
        old = Tournament.objects.filter(slug=slug).first()
        old_revision = old.revision if old is not None else 0
        if old is not None:
            transaction.on_commit(lambda pk=old.pk: revision_moved(pk))
            tournament_replace_delete(old)
        tournament = tournament_file_import(data=envelope["file"], primary_keys=primary_keys)
        # The page cache keys pages by tournament and revision; a revision past the old
        # one keeps a page of the replaced state from ever being taken for the new one.
        Tournament.objects.filter(pk=tournament.pk).update(
            revision=F("revision") + old_revision + 1)
        receipt.source = source
        receipt.sequence = sequence
        receipt.checksum = str(envelope["file"].get("checksum") or "")
        receipt.received_at = timezone.now()
        receipt.save()
    return Received("applied", slug, sequence)


__all__ = ["PayloadError", "Received", "TournamentFileError", "public_copy_receive"]
