"""The tournament file's ``series`` section (version 3): the series the tournament belongs
to, its part in it (qualifier or main event), the series' berths granted by hand and
(version 4) their withdrawals: a grant names the withdrawal it ``follows`` when it grants
a withdrawn place again.

Written when the tournament belongs to a series. A qualifier's berth count is its preset
setting ``berths``, which travels in ``tournament.preset_settings`` already; berths won at
the app's qualifiers are derived from their results and are never written. A grant names
its holder by the ``registry`` section's player id (the registry carries every grant's
holder, :func:`.registry.registry_player_ids`).

Read on a server (:func:`series_join`): the tournament joins the series of the same slug,
created if absent; a file whose series contradicts this server's (a second main event, the
series under another game version, the name taken by another series) is refused with its
place. A grant whose qualifier and place this server already has (the same grant in the
place's chain of grants and withdrawals) is not recorded again; a withdrawal of a grant
this server holds in force withdraws it here, with the file's who, when and why, never
twice.

Read on the public copy (:func:`series_mirror`): the public variant
(:func:`public_series`) carries no registry, only each berth holder's and linked entrant's
player as a public name with the venue's id, so the copy's series page derives the same
berths and eligible players as the venue's without the cards or achievements.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from brackets.models import BerthWithdrawal, Entrant, Player, Series, SeriesBerthGrant, Tournament
from brackets.selectors.series import MAIN_EVENT, QUALIFIER, series_of

SECTION = "series"
KEYS = frozenset({"slug", "name", "game_version", "role", "grants", "withdrawals"})
#: The public variant's own keys (brackets/hosted/payload.py writes it).
PUBLIC_KEYS = frozenset({"players", "entrants"})
GRANT_FIELDS = ("qualifier", "held_on", "place", "source", "by", "at")
WITHDRAWAL_FIELDS = ("reason", "by", "at")


def series_section(tournament: Tournament, exporter: Any) -> dict[str, Any]:
    """The section for ``tournament`` ({} when it belongs to no series); the registry
    section must be written first (it numbers the grants' players)."""
    member = series_of(tournament=tournament)
    if member is None:
        return {}
    series = member.series
    fields = {f.name: f for f in SeriesBerthGrant._meta.concrete_fields}
    rows = list(SeriesBerthGrant.objects.filter(series=series).order_by("pk"))
    numbers = {row.pk: number for number, row in enumerate(rows, start=1)}
    withdrawals = list(BerthWithdrawal.objects.filter(grant__series=series).order_by("pk"))
    withdrawal_numbers = {w.pk: number for number, w in enumerate(withdrawals, start=1)}
    w_fields = {f.name: f for f in BerthWithdrawal._meta.concrete_fields}
    grants = [{"id": numbers[row.pk], "player": exporter.value(fields["player"], row),
               **{name: exporter.value(fields[name], row) for name in GRANT_FIELDS},
               "follows": withdrawal_numbers.get(row.follows_id) if row.follows_id else None}
              for row in rows]
    out = {"slug": series.slug, "name": series.name, "game_version": series.game_version,
           "role": member.role, "grants": grants}
    if withdrawals:  # left out when none (version 4)
        out["withdrawals"] = [{"id": withdrawal_numbers[w.pk], "grant": numbers[w.grant_id],
                               **{name: exporter.value(w_fields[name], w)
                                  for name in WITHDRAWAL_FIELDS}} for w in withdrawals]
    return out


def public_series(data: Mapping[str, Any], player_pks: Sequence[int]) -> dict[str, Any]:
    """The section as the public copy gets it: no registry behind it, so each player an
    entrant is linked to or a berth is granted to is named by the venue's id of the player
    it is read as (merges applied), with the public name and reading only; grants lose
    their source and who entered them (staff data). ``player_pks``: the venue id of each
    registry player, in file order."""
    section = data[SECTION]
    registry = data.get("registry") or {}
    kept_of = {m["merged"]: m["kept"] for m in registry.get("playermerge", [])}
    rows = {p["id"]: p for p in registry.get("player", [])}

    def venue_id(file_id: int) -> int:
        seen = {file_id}
        while file_id in kept_of and kept_of[file_id] not in seen:
            file_id = kept_of[file_id]
            seen.add(file_id)
        used.add(file_id)
        return player_pks[file_id - 1]

    used: set[int] = set()
    entrants = [[row["id"], venue_id(row["player"])]
                for row in data["records"].get("entrant", []) if row.get("player")]
    grants = [{**g, "player": venue_id(g["player"]), "source": "", "by": None}
              for g in section.get("grants", [])]
    # A withdrawal's reason and who recorded it are staff data: the copy needs only to know
    # which grants are withdrawn.
    players = [{"id": player_pks[i - 1], "name": rows[i]["name"],
                "reading": rows[i].get("reading", "")} for i in sorted(used)]
    out = {**section, "grants": grants, "players": players, "entrants": entrants}
    if "withdrawals" in section:
        out["withdrawals"] = [{**w, "reason": "", "by": None} for w in section["withdrawals"]]
    return out


@dataclass
class FileSeries:
    """The checked section."""

    slug: str
    name: str
    game_version: str
    role: str
    grants: list[dict[str, Any]] = field(default_factory=list)
    withdrawals: list[dict[str, Any]] = field(default_factory=list)
    players: list[dict[str, Any]] = field(default_factory=list)
    entrants: list[tuple[int, int]] = field(default_factory=list)


def series_read(data: Mapping[str, Any], importer: Any, *, public: bool) -> FileSeries | None:
    """The section checked whole before anything is written, or the importer's refusal
    naming the first bad place; None for a file without one (versions 1 and 2). ``public``:
    the copy reads the public variant (players by the venue's id, no registry)."""
    section = data.get(SECTION)
    if section is None:
        return None
    if not isinstance(section, dict):
        raise importer.fail(SECTION, gettext("形式が違います"))
    unknown = set(section) - KEYS - (PUBLIC_KEYS if public else set())
    if unknown:
        raise importer.fail(SECTION, gettext(
            "知らない項目 {names} があります（新しい版のファイル？）").format(names=sorted(unknown)))
    values = {}
    for name in ("slug", "name", "game_version"):
        f = Series._meta.get_field(name)
        value = section.get(name, "" if name == "game_version" else None)
        values[name] = "" if value == "" and f.blank else importer.convert(
            f, value, f"{SECTION}.{name}")
        if not str(values[name]).strip() and name != "game_version":
            raise importer.fail(f"{SECTION}.{name}", gettext("{name} がありません").format(name=name))
    role = section.get("role")
    if role not in (QUALIFIER, MAIN_EVENT):
        raise importer.fail(f"{SECTION}.role", gettext("予選（qualifier）か本戦（main）ではありません"))
    out = FileSeries(values["slug"], values["name"].strip(), values["game_version"], role)
    if public:
        out.players = _public_players(section, importer)
        out.entrants = _pairs(section.get("entrants") or [], importer, f"{SECTION}.entrants")
    known = {p["id"] for p in out.players} if public else set(importer.registry.players)
    rows = section.get("grants") or []
    if not isinstance(rows, list):
        raise importer.fail(f"{SECTION}.grants", gettext("形式が違います"))
    seen: set[int] = set()
    for index, row in enumerate(rows):
        out.grants.append(_grant(row, importer, f"{SECTION}.grants[{index}]", known, seen,
                                 public=public))
    out.withdrawals = _withdrawals(section, importer, seen, public=public)
    ids = {w["id"] for w in out.withdrawals}
    for index, g in enumerate(out.grants):
        if g["follows"] is not None and g["follows"] not in ids:
            raise importer.fail(f"{SECTION}.grants[{index}].follows", gettext(
                "withdrawals の id {id} がありません").format(id=repr(g["follows"])))
    return out


def _withdrawals(section: Mapping[str, Any], importer: Any, grants: set[int], *,
                 public: bool) -> list[dict[str, Any]]:
    """Version 4's withdrawals, checked as ``berth_withdraw`` checks what an organiser
    types: a grant of the file, withdrawn once, with a reason (the public variant has
    none: staff data)."""
    if "withdrawals" in section and importer.file_version < 4:
        raise importer.fail(f"{SECTION}.withdrawals", gettext(
            "version 4 より前のファイルにはない項目です"))
    rows = section.get("withdrawals") or []
    if not isinstance(rows, list):
        raise importer.fail(f"{SECTION}.withdrawals", gettext("形式が違います"))
    fields = {f.name: f for f in BerthWithdrawal._meta.concrete_fields}
    out: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        where = f"{SECTION}.withdrawals[{index}]"
        if not isinstance(row, dict):
            raise importer.fail(where, gettext("形式が違います"))
        unknown = set(row) - {"id", "grant", *WITHDRAWAL_FIELDS}
        if unknown:
            raise importer.fail(where, gettext(
                "知らない項目 {names} があります（新しい版のファイル？）").format(names=sorted(unknown)))
        file_id = row.get("id")
        if (not isinstance(file_id, int) or isinstance(file_id, bool)
                or file_id in {w["id"] for w in out}):
            raise importer.fail(where, gettext("id が正しくないか重複しています"))
        grant = row.get("grant")
        if grant not in grants or isinstance(grant, bool):
            raise importer.fail(f"{where}.grant", gettext("grants の id {id} がありません")
                                .format(id=repr(grant)))
        if grant in {w["grant"] for w in out}:
            raise importer.fail(f"{where}.grant", gettext("同じ出場権が二度取り下げられています"))
        reason = "" if public else importer.convert(fields["reason"], row.get("reason"),
                                                    f"{where}.reason").strip()
        if not reason and not public:
            raise importer.fail(f"{where}.reason", gettext("理由がありません"))
        out.append({"id": file_id, "grant": grant, "reason": reason,
                    "by": None if public else importer.user(row.get("by"), f"{where}.by"),
                    "at": (importer.convert(fields["at"], row["at"], f"{where}.at")
                           if row.get("at") is not None else None)})
    return out


def _grant(row: Any, importer: Any, where: str, known: set[int], seen: set[int], *,
           public: bool) -> dict[str, Any]:
    """One grant, checked as ``berth_grant`` checks what an organiser types: a qualifier, a
    date, a place within bounds, a source (the public variant has none: staff data)."""
    if not isinstance(row, dict):
        raise importer.fail(where, gettext("形式が違います"))
    file_id = row.get("id")
    if not isinstance(file_id, int) or isinstance(file_id, bool) or file_id in seen:
        raise importer.fail(where, gettext("id が正しくないか重複しています"))
    seen.add(file_id)
    unknown = set(row) - {"id", "player", "follows", *GRANT_FIELDS}
    if unknown:
        raise importer.fail(where, gettext(
            "知らない項目 {names} があります（新しい版のファイル？）").format(names=sorted(unknown)))
    if row.get("player") not in known or isinstance(row.get("player"), bool):
        raise importer.fail(f"{where}.player", gettext("registry の player の id {id} がありません")
                            .format(id=repr(row.get("player"))))
    follows = row.get("follows")
    if follows is not None and (not isinstance(follows, int) or isinstance(follows, bool)
                                or importer.file_version < 4):
        raise importer.fail(f"{where}.follows", gettext("形式が違います"))
    out: dict[str, Any] = {"id": file_id, "player": row["player"], "follows": follows}
    fields = {f.name: f for f in SeriesBerthGrant._meta.concrete_fields}
    for name in ("qualifier", "held_on", "place", "source"):
        if name == "source" and public:
            out[name] = ""
            continue
        out[name] = importer.convert(fields[name], row.get(name), f"{where}.{name}")
        if isinstance(out[name], str):
            out[name] = out[name].strip()
            if not out[name]:
                raise importer.fail(f"{where}.{name}", gettext("{name} がありません").format(name=name))
    out["by"] = None if public else importer.user(row.get("by"), f"{where}.by")
    out["at"] = (importer.convert(fields["at"], row["at"], f"{where}.at")
                 if row.get("at") is not None else None)
    return out


def _public_players(section: Mapping[str, Any], importer: Any) -> list[dict[str, Any]]:
    rows = section.get("players") or []
    if not isinstance(rows, list):
        raise importer.fail(f"{SECTION}.players", gettext("形式が違います"))
    fields = {f.name: f for f in Player._meta.concrete_fields}
    out = []
    for index, row in enumerate(rows):
        where = f"{SECTION}.players[{index}]"
        if not isinstance(row, dict) or not isinstance(row.get("id"), int):
            raise importer.fail(where, gettext("形式が違います"))
        name = importer.convert(fields["name"], row.get("name"), f"{where}.name").strip()
        if not name:
            raise importer.fail(f"{where}.name", gettext("名前がありません"))
        reading = importer.convert(fields["reading"], row.get("reading") or "", f"{where}.reading")
        out.append({"id": row["id"], "name": name, "reading": reading.strip()})
    return out


def _pairs(rows: Any, importer: Any, where: str) -> list[tuple[int, int]]:
    if not isinstance(rows, list) or not all(
            isinstance(r, list) and len(r) == 2 and all(isinstance(i, int) for i in r)
            for r in rows):
        raise importer.fail(where, gettext("形式が違います"))
    return [(r[0], r[1]) for r in rows]


def series_join(*, tournament: Tournament, found: FileSeries, players: Mapping[int, Player],
                importer: Any, by: Any) -> Series:
    """Join the imported tournament to this server's series of the file's slug (created
    if absent) and record the file's grants this server does not have; refused with its
    place when the file contradicts this server's series. ``players``: the file's player
    id → the registry player the import linked it to."""
    from brackets.services.series import series_create, tournament_series_set

    series = Series.objects.select_for_update().filter(slug=found.slug).first()
    if series is None:
        other = Series.objects.filter(name=found.name).first()
        if other is not None:
            raise importer.fail(f"{SECTION}.name", gettext(
                "このサーバーでは「{name}」は別のシリーズ（識別子 {slug}）の名前です").format(
                    name=found.name, slug=other.slug))
        series = series_create(name=found.name, slug=found.slug,
                               game_version=found.game_version, by=by)
    elif found.game_version and series.game_version and found.game_version != series.game_version:
        raise importer.fail(f"{SECTION}.game_version", gettext(
            "このサーバーのシリーズ「{name}」は {here} のシリーズです（ファイルは {there}）").format(
                name=series.name, here=series.get_game_version_display(),
                there=found.game_version))
    try:
        tournament_series_set(tournament=tournament, series=series, role=found.role)
    except ValidationError as exc:
        raise importer.fail(f"{SECTION}.role", " ".join(exc.messages)) from None
    _grants_record(series, found, lambda g: players[g["player"]])
    return series


def series_mirror(*, tournament: Tournament, found: FileSeries,
                  entrant_ids: Mapping[int, int]) -> Series:
    """The copy's side: the venue decided the series, so the copy takes it as pushed (the
    series' name and version, the tournament's part, the public players under the venue's
    ids, the entrants' links, the grants it does not have yet)."""
    from brackets.services.players import _search_key

    series, _created = Series.objects.update_or_create(
        slug=found.slug, defaults={"name": found.name, "game_version": found.game_version})
    (series.qualifiers if found.role == QUALIFIER else series.main_events).add(tournament)
    for row in found.players:
        Player.objects.update_or_create(pk=row["id"], defaults={
            "name": row["name"], "reading": row["reading"],
            "search_key": _search_key(row["name"], row["reading"])})
    for file_id, player_id in found.entrants:
        if file_id in entrant_ids:
            Entrant.objects.filter(pk=entrant_ids[file_id]).update(player_id=player_id)
    _grants_record(series, found, lambda g: Player(pk=g["player"]))
    return series


def _grants_record(series: Series, found: FileSeries,
                   player: Callable[[dict[str, Any]], Player]) -> None:
    """The file's grants and withdrawals this series lacks, with who and when as the file
    says. Each place's grants form a chain (a grant, its withdrawal, the grant that
    follows it …), matched link by link: a grant whose link this series has is that berth
    (this server's record stands, whoever the file names); a withdrawal of a grant in
    force here withdraws it, one already withdrawn is not withdrawn twice."""
    withdrawn = {w["grant"]: w for w in found.withdrawals}
    local_withdrawal: dict[int, BerthWithdrawal] = {}  # file withdrawal id → this one
    for g in sorted(found.grants, key=lambda g: g["id"]):
        follows = None
        if g["follows"] is not None:
            follows = local_withdrawal.get(g["follows"])
            if follows is None:
                continue  # follows a withdrawal this series never saw: nothing to join
        here = SeriesBerthGrant.objects.filter(series=series, qualifier=g["qualifier"],
                                               place=g["place"], follows=follows).first()
        if here is None:
            here = SeriesBerthGrant.objects.create(
                series=series, player=player(g), qualifier=g["qualifier"],
                held_on=g["held_on"], place=g["place"], source=g["source"], follows=follows,
                by=g["by"])
            if g["at"] is not None:
                SeriesBerthGrant.objects.filter(pk=here.pk).update(at=g["at"])
        w = withdrawn.get(g["id"])
        if w is None:
            continue
        existing = BerthWithdrawal.objects.filter(grant=here).first()
        if existing is None:
            existing = BerthWithdrawal.objects.create(grant=here, reason=w["reason"], by=w["by"])
            if w["at"] is not None:
                BerthWithdrawal.objects.filter(pk=existing.pk).update(at=w["at"])
        local_withdrawal[w["id"]] = existing


__all__ = ["FileSeries", "public_series", "series_join", "series_mirror",
           "series_read", "series_section"]
