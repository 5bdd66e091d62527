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
entrant's revision history, the entry spreadsheets imported at the desk, the player
registry (cards, achievements, merges, renames, corrections, relinks), an admission to a
main event without a berth, and the sources of hand-granted berths and the reasons of their
withdrawals.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext

from brackets.exporters.tournament_file import (
    TournamentFileError,
    checksum,
    file_models,
    tournament_file_data,
)
from brackets.exporters.tournament_file.registry import registry_player_ids
from brackets.exporters.tournament_file.series import public_series
from brackets.models import Tournament

FORMAT = "kyushu-public-copy"
VERSION = 1
#: Lists of the tournament file that never leave the venue.
PRIVATE_LISTS = ("entrantrevision", "entrantimport", "entrantplayerchange", "berthoverride")
#: Fields blanked in every record of a list before it leaves the venue (the registry link
#: too: the player registry, cards and achievements, stays with the staff).
PRIVATE_FIELDS: dict[str, dict[str, Any]] = {"entrant": {"notes": "", "player": None}}


def public_file(data: dict[str, Any], player_pks: Sequence[int] = ()) -> dict[str, Any]:
    """The tournament file without what the public never sees, checksum recomputed.

    The ``series`` section becomes its public variant (``public_series``): the copy's
    series page needs who holds a berth and who is still eligible, so each linked player
    goes as a public name under the venue's id (``player_pks``: the venue id of each
    registry player in file order), without the registry behind it."""
    records = {key: rows for key, rows in data["records"].items() if key not in PRIVATE_LISTS}
    for key, blanks in PRIVATE_FIELDS.items():
        if key in records:
            records[key] = [{**row, **blanks} for row in records[key]]
    out = {**data, "records": records, "staff": []}
    if "series" in data:
        out["series"] = public_series(data, player_pks)
    out.pop("registry", None)
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
    data = public_file(tournament_file_data(tournament=tournament),
                       sorted(registry_player_ids(tournament)))
    ids = venue_ids(tournament, data["records"])
    return withhold_private_draws(data, ids)


def withhold_private_draws(data: dict[str, Any],
                           ids: dict[str, list[int]]) -> tuple[dict[str, Any], dict[str, list[int]]]:
    """The file without the groups of a draw not released yet (brackets/services/
    draw_release.py), nor any record that hangs on them (seats, facts), nor the seat
    layout in the draw's step: the copy is public, so it receives a private draw as
    「抽選済・公開前」 only. The round itself goes, so the copy says it is drawn."""
    records = data["records"]
    private_rounds = {row["id"] for row in records.get("round", [])
                      if row.get("status") != "configured" and row.get("draw_released_at") is None}
    if not private_rounds:
        return data, ids
    dropped: set[tuple[str, int]] = set()
    out_records: dict[str, list[dict[str, Any]]] = {}
    out_ids: dict[str, list[int]] = {}
    for spec in file_models():
        key = spec.key
        if key not in records:
            continue
        links = [(f.name, f.related_model._meta.model_name)
                 for f in spec.model._meta.concrete_fields if f.is_relation and f.related_model]
        kept_rows, kept_ids = [], []
        for row, venue_id in zip(records[key], ids[key], strict=True):
            gone = ((key == "group" and row.get("round") in private_rounds)
                    or any((target, row.get(name)) in dropped for name, target in links))
            if gone:
                dropped.add((key, row["id"]))
                continue
            if key == "roundstep" and row.get("round") in private_rounds and "groups" in (
                    row.get("data") or {}):
                row = {**row, "data": {k: v for k, v in row["data"].items() if k != "groups"}}
            kept_rows.append(row)
            kept_ids.append(venue_id)
        if kept_rows:
            out_records[key] = kept_rows
            out_ids[key] = kept_ids
    out = {**data, "records": out_records}
    out.pop("checksum", None)
    out["checksum"] = checksum(out)
    return out, out_ids


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
