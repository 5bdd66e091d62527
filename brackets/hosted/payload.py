"""The body of a push: the public part of the tournament file, numbered, gzip-compressed.

A push carries the tournament file (docs/tournament-file.md) so the copy rebuilds the
tournament through the one importer the app has, plus what only a copy needs:

- ``sequence`` and ``source``: the copy applies a push only if it is newer than the one it
  has from the same venue database (``PublicCopyReceipt``), so a retried or reordered push
  changes nothing;
- ``ids``: the venue's database id of every record, per list in file order, so the copy's
  rows keep the venue's ids and a phone's address (``/p/<slug>/players/<id>/``, a
  scoreboard's ``/p/<slug>/buzzer/<id>/``) keeps working across pushes.

What the public never sees stays at the venue: staff memberships, entrant notes, every
entrant's revision history and the entry spreadsheets imported at the desk.
"""

from __future__ import annotations

import gzip
import json
import zlib
from typing import Any

from django.utils.translation import gettext

from brackets.exporters.tournament_file import (
    TournamentFileError,
    checksum,
    file_models,
    tournament_file_data,
)
from brackets.models import Tournament

FORMAT = "kyushu-public-copy"
VERSION = 1
#: Lists of the tournament file that never leave the venue.
PRIVATE_LISTS = ("entrantrevision", "entrantimport")
#: Fields blanked in every record of a list before it leaves the venue.
PRIVATE_FIELDS = {"entrant": {"notes": ""}}


def public_file(data: dict[str, Any]) -> dict[str, Any]:
    """The tournament file without what the public never sees, checksum recomputed."""
    records = {key: rows for key, rows in data["records"].items() if key not in PRIVATE_LISTS}
    for key, blanks in PRIVATE_FIELDS.items():
        if key in records:
            records[key] = [{**row, **blanks} for row in records[key]]
    out = {**data, "records": records, "staff": []}
    out.pop("checksum", None)
    out["checksum"] = checksum(out)
    return out


def venue_ids(tournament: Tournament, records: dict[str, Any]) -> dict[str, list[int]]:
    """Per list of the file, the database id of each record in file order (the exporter
    numbers records by ascending id, read in the same snapshot)."""
    out: dict[str, list[int]] = {}
    for spec in file_models():
        if spec.key not in records:
            continue
        out[spec.key] = list(spec.model.objects.filter(**{spec.path: tournament})
                             .order_by("pk").values_list("pk", flat=True))
        if len(out[spec.key]) != len(records[spec.key]):  # pragma: no cover - same snapshot
            raise TournamentFileError(gettext("書き出し中に記録が変わりました。"))
    return out


def tournament_snapshot(tournament: Tournament) -> tuple[dict[str, Any], dict[str, list[int]]]:
    """The public file and the venue ids; call inside one consistent read snapshot."""
    data = public_file(tournament_file_data(tournament=tournament))
    return data, venue_ids(tournament, data["records"])


def encode(*, source: str, sequence: int, data: dict[str, Any],
           ids: dict[str, list[int]]) -> bytes:
    envelope = {"format": FORMAT, "version": VERSION, "source": source, "sequence": sequence,
                "slug": data["tournament"]["slug"], "ids": ids, "file": data}
    text = json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))
    # mtime=0: the same state gives the same bytes.
    return gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)


class PayloadError(ValueError):
    """A push body the copy cannot read; the message says why (in Japanese) and ``status``
    is the HTTP status the copy answers with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def decode(body: bytes, *, max_bytes: int) -> dict[str, Any]:
    """The envelope of a gzip body, refusing bodies that inflate beyond ``max_bytes``."""
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        text = inflater.decompress(body, max_bytes + 1)
    except zlib.error:
        raise PayloadError(gettext("送信内容が gzip ではありません。")) from None
    if len(text) > max_bytes or inflater.unconsumed_tail:
        raise PayloadError(gettext("送信内容が大きすぎます。"), status=413)
    try:
        envelope = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise PayloadError(gettext("送信内容が JSON として読めません。")) from None
    if not isinstance(envelope, dict) or envelope.get("format") != FORMAT:
        raise PayloadError(gettext("公開コピーの送信ではありません。"))
    if envelope.get("version") != VERSION:
        raise PayloadError(gettext("この公開コピーが知らない版の送信です。アプリを同じ版にしてください。"))
    sequence = envelope.get("sequence")
    if not isinstance(sequence, int) or isinstance(sequence, bool) or sequence < 1:
        raise PayloadError(gettext("送信の番号が正しくありません。"))
    if not isinstance(envelope.get("source"), str) or not isinstance(envelope.get("slug"), str):
        raise PayloadError(gettext("送信元か大会の識別子がありません。"))
    ids = envelope.get("ids")
    if not isinstance(ids, dict) or not all(
            isinstance(v, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in v)
            for v in ids.values()):
        raise PayloadError(gettext("送信の id 一覧が正しくありません。"))
    if not isinstance(envelope.get("file"), dict):
        raise PayloadError(gettext("送信に大会ファイルがありません。"))
    return envelope
