"""Linking the players of an imported tournament file to this registry (#14 item 5), and
an organiser's answer where the link is uncertain.

The engine decides what counts as certain (``registry_match``); this module finds the
registry players to ask it about and writes the outcome, appending only:

* **certain**: the entrant is linked to the registry's player; the file's cards and
  achievements join that player where they say something new (a card row newer than the
  registry's supersedes it, as ``player_card_record`` does; a fact already recorded is
  not recorded twice). The registry's own rows are never changed. The file's withdrawals
  and corrections of achievements (version 4) apply to the rows here holding the same
  fact, with the file's who, when and why, unless a row is corrected already (never
  twice); a rename this registry lacks renames the player when it is newer than its own.
* **new** and **uncertain**: the file's players are recorded as they were at the venue
  (cards with their history, achievements, merges, who and when); an uncertain one waits
  on the review page for :func:`player_link_decide`.

Every link keeps the file's rows for its player (``PlayerLink.facts``), so nothing the
venue entered is lost, even what this registry already knew better.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from brackets.adapters import players as ad
from brackets.adapters.entrants import kana_fold
from brackets.engine import CERTAIN, UNCERTAIN, PlayerKeys, registry_match
from brackets.exporters.tournament_file.registry import FileRegistry
from brackets.models import (
    Achievement,
    AchievementCorrection,
    Entrant,
    Player,
    PlayerCard,
    PlayerLink,
    PlayerLinkDecision,
    PlayerMerge,
    PlayerRename,
    Tournament,
)
from brackets.services.players import _search_key, _who, player_merge

UserOf = Callable[[Any, str], Any]
ACHIEVEMENT_FACTS = ("kind", "title", "game_version", "held_on", "source", "limited")


def _card_key(card_name: str) -> str:
    return kana_fold(card_name)[:40]


def _stamp(model: type[Any], pk: int, at: datetime.datetime | None) -> None:
    """Keep the file's time stamp: when the venue entered the fact, not when it arrived."""
    if at is not None:
        model.objects.filter(pk=pk).update(at=at)


def _incoming(registry: FileRegistry, family: list[int]) -> PlayerKeys:
    root = registry.players[family[0]]
    cards = frozenset(_card_key(row["card_name"]) for _i, row in
                      registry.of("playercard", family))
    return PlayerKeys(f"file:{family[0]}", kana_fold(root.get("name", "")),
                      kana_fold(root.get("reading", "")), cards)


def _registry_players(incoming: PlayerKeys, *, exclude: set[int],
                      taken: set[int]) -> list[PlayerKeys]:
    """The registry players sharing a current card, or whose name or reading contains the
    incoming one's (the engine decides which of them count)."""
    query = Q(pk__in=PlayerCard.objects.filter(card_key__in=incoming.cards,
                                               superseded_by__isnull=True).values("player_id"))
    for key in (incoming.name, incoming.reading):
        if key:
            query |= Q(search_key__contains=key)
    out: dict[int, PlayerKeys] = {}
    for player in Player.objects.filter(query).exclude(pk__in=exclude).order_by("id")[:50]:
        kept = ad.canonical(player)
        if kept.pk in out or kept.pk in exclude:
            continue
        cards = frozenset(c.card_key for c in ad.current_cards(ad.family_ids(kept)))
        out[kept.pk] = PlayerKeys(str(kept.pk), kana_fold(kept.name), kana_fold(kept.reading),
                                  cards, taken=kept.pk in taken)
    return list(out.values())


def _facts(registry: FileRegistry, family: list[int]) -> dict[str, Any]:
    ids = set(family)
    raw = registry.raw
    achievements = {i for i, _row in registry.of("achievement", family)}
    return {
        "player": [r for r in raw.get("player") or [] if r.get("id") in ids],
        "playercard": [r for r in raw.get("playercard") or [] if r.get("player") in ids],
        "achievement": [r for r in raw.get("achievement") or [] if r.get("player") in ids],
        "playermerge": [r for r in raw.get("playermerge") or [] if r.get("merged") in ids],
        "playerrename": [r for r in raw.get("playerrename") or [] if r.get("player") in ids],
        "achievementcorrection": [r for r in raw.get("achievementcorrection") or []
                                  if r.get("achievement") in achievements],
    }


def _facts_join(local: Player, registry: FileRegistry, family: list[int], user: UserOf) -> None:
    """The file's cards and achievements onto a registry player found with certainty."""
    ids = ad.family_ids(local)
    for file_id, row in registry.of("playercard", family):
        key = _card_key(row["card_name"])
        values = (row.get("q_level", 0), row.get("rank", ""), row.get("game_version", ""))
        current = (PlayerCard.objects.select_for_update(of=("self",))
                   .filter(player_id__in=ids, card_key=key, superseded_by__isnull=True)
                   .order_by("-at", "-id").first())
        at = row.get("at")
        if current is not None and (
                (current.q_level, current.rank, current.game_version) == values
                or (at is not None and current.at >= at)):
            continue  # nothing new, or older than what this registry knows (kept in facts)
        card = PlayerCard.objects.create(
            player=current.player if current else local, card_name=row["card_name"],
            card_key=key, q_level=values[0], rank=values[1], game_version=values[2],
            supersedes=current, by=user(row.get("by"), f"registry.playercard[{file_id}].by"))
        _stamp(PlayerCard, card.pk, at)
    rows_of: dict[int, list[Achievement]] = {}
    for file_id, row in registry.of("achievement", family):
        facts = {name: row.get(name, "") for name in ACHIEVEMENT_FACTS}
        same = list(Achievement.objects.filter(player_id__in=ids, **facts).order_by("id"))
        if not same:
            same = [Achievement.objects.create(
                player=local, **facts,
                by=user(row.get("by"), f"registry.achievement[{file_id}].by"))]
            _stamp(Achievement, same[0].pk, row.get("at"))
        rows_of[file_id] = same
    _corrections_record(registry, rows_of, user)
    _renames_join(local, registry, family, user)


def _corrections_record(registry: FileRegistry, rows_of: dict[int, list[Achievement]],
                        user: UserOf) -> None:
    """The file's withdrawals and corrections of the family's achievements (``rows_of``:
    file id → the rows here holding that fact), in the file's order: each row still in
    force gets the correction with the file's who, when and why; a row withdrawn or
    corrected here already keeps its own, so a file read twice corrects nothing twice."""
    for file_id, row in sorted(registry.rows.get("achievementcorrection", {}).items()):
        if row["achievement"] not in rows_of:
            continue  # another player's
        replacement = next(iter(rows_of.get(row.get("replacement") or 0, [])), None)
        for achievement in rows_of[row["achievement"]]:
            if AchievementCorrection.objects.filter(achievement=achievement).exists():
                continue
            correction = AchievementCorrection.objects.create(
                achievement=achievement, replacement=replacement, reason=row["reason"],
                by=user(row.get("by"), f"registry.achievementcorrection[{file_id}].by"))
            _stamp(AchievementCorrection, correction.pk, row.get("at"))


def _renames_join(local: Player, registry: FileRegistry, family: list[int],
                  user: UserOf) -> None:
    """The file's renames onto a registry player found with certainty: one this registry
    has (same name, reading and time) or that would change nothing is skipped; one newer
    than every rename here renames the player, recorded with the values it replaces here
    and the file's who, when and why; an older one is kept in ``PlayerLink.facts`` only."""
    ids = ad.family_ids(local)
    for file_id, row in sorted(registry.of("playerrename", family)):
        name, reading, at = row["name"].strip(), (row.get("reading") or "").strip(), row.get("at")
        player = Player.objects.select_for_update().get(pk=local.pk)
        here = PlayerRename.objects.filter(player_id__in=ids)
        newest = here.order_by("-at", "-id").first()
        if (here.filter(name=name, reading=reading, at=at).exists()
                or (player.name, player.reading) == (name, reading)
                or (newest is not None and at is not None and newest.at >= at)):
            continue
        rename = PlayerRename.objects.create(
            player=player, name=name, reading=reading, was_name=player.name,
            was_reading=player.reading, reason=row.get("reason") or "",
            by=user(row.get("by"), f"registry.playerrename[{file_id}].by"))
        _stamp(PlayerRename, rename.pk, at)
        player.name, player.reading = name, reading
        player.search_key = _search_key(name, reading)
        player.save(update_fields=["name", "reading", "search_key"])


def _players_record(registry: FileRegistry, family: list[int], user: UserOf) -> dict[int, Player]:
    """The file's players recorded as the venue had them: every card row (history
    included), achievement and merge, with who and when."""
    made: dict[int, Player] = {}
    for file_id in (i for i in registry.players if i in family):
        row = registry.players[file_id]
        name, reading = row["name"].strip(), (row.get("reading") or "").strip()
        player = Player.objects.create(name=name, reading=reading,
                                       search_key=_search_key(name, reading),
                                       by=user(row.get("by"), f"registry.player[{file_id}].by"))
        _stamp(Player, player.pk, row.get("at"))
        made[file_id] = player
    cards: dict[int, PlayerCard] = {}
    for file_id, row in registry.of("playercard", family):
        old = cards.get(row["supersedes"]) if row.get("supersedes") else None
        if row.get("supersedes") and (old is None or hasattr(old, "_superseded")):
            from brackets.exporters.tournament_file.layout import TournamentFileError

            raise TournamentFileError(_("ファイルが壊れています（registry.playercard の id {id}："
                                        "前の記録が先にないか、二度置き換えられています）。")
                                      .format(id=file_id), where="registry.playercard")
        if old is not None:
            old._superseded = True  # type: ignore[attr-defined]
        card = PlayerCard.objects.create(
            player=made[row["player"]], card_name=row["card_name"],
            card_key=_card_key(row["card_name"]), q_level=row.get("q_level", 0),
            rank=row.get("rank", ""), game_version=row.get("game_version", ""), supersedes=old,
            by=user(row.get("by"), f"registry.playercard[{file_id}].by"))
        _stamp(PlayerCard, card.pk, row.get("at"))
        cards[file_id] = card
    rows_of: dict[int, list[Achievement]] = {}
    for file_id, row in registry.of("achievement", family):
        achievement = Achievement.objects.create(
            player=made[row["player"]], **{n: row.get(n, "") for n in ACHIEVEMENT_FACTS},
            by=user(row.get("by"), f"registry.achievement[{file_id}].by"))
        _stamp(Achievement, achievement.pk, row.get("at"))
        rows_of[file_id] = [achievement]
    _corrections_record(registry, rows_of, user)
    for file_id, row in registry.of("playerrename", family):
        rename = PlayerRename.objects.create(
            player=made[row["player"]], name=row["name"], reading=row.get("reading") or "",
            was_name=row.get("was_name") or "", was_reading=row.get("was_reading") or "",
            reason=row.get("reason") or "",
            by=user(row.get("by"), f"registry.playerrename[{file_id}].by"))
        _stamp(PlayerRename, rename.pk, row.get("at"))
    for file_id, row in registry.rows.get("playermerge", {}).items():
        if row["merged"] in made and row["kept"] in made:
            merge = PlayerMerge.objects.create(
                kept=made[row["kept"]], merged=made[row["merged"]], reason=row["reason"],
                by=user(row.get("by"), f"registry.playermerge[{file_id}].by"))
            _stamp(PlayerMerge, merge.pk, row.get("at"))
    return made


@transaction.atomic
def tournament_players_link(*, tournament: Tournament, registry: FileRegistry,
                            entrants: list[tuple[int, int]], by: Any,
                            user: UserOf) -> list[PlayerLink]:
    """Link each imported entrant (entrant id, file player id) to this registry, as the
    engine's ``registry_match`` says; one :class:`PlayerLink` per entrant records how."""
    links: list[PlayerLink] = []
    created: set[int] = set()
    taken: set[int] = set()
    for entrant_id, file_id in entrants:
        family = registry.family(file_id)
        incoming = _incoming(registry, family)
        verdict = registry_match(
            incoming, _registry_players(incoming, exclude=created, taken=taken))
        if verdict.kind == CERTAIN:
            player = Player.objects.select_for_update().get(pk=int(verdict.key))
            _facts_join(player, registry, family, user)
            taken.add(player.pk)
        else:
            made = _players_record(registry, family, user)
            created.update(p.pk for p in made.values())
            player = made[file_id]
        Entrant.objects.filter(pk=entrant_id).update(player=player)
        links.append(PlayerLink.objects.create(
            tournament=tournament, entrant_id=entrant_id, player=player, match=verdict.kind,
            candidates=[{"player": int(c.key), "reason": c.reason, "cards": list(c.shared_cards)}
                        for c in verdict.candidates if verdict.kind == UNCERTAIN],
            facts=_facts(registry, family), by=_who(by)))
    return links


def file_players_link(*, registry: FileRegistry, file_ids: list[int],
                      links: list[tuple[int, PlayerLink]], user: UserOf) -> dict[int, Player]:
    """This registry's player for each of ``file_ids`` (the holders of the file's berth
    grants): the player an entrant of the same family was linked to (``links``: file player
    id, its entrant's link), else matched as an entrant's player would be (certain: the
    registry's player, the file's facts joining it; otherwise recorded as the venue had
    it: with no entrant there is no review link, a duplicate is merged on the registry
    page like any other)."""
    by_root = {registry.family(file_id)[0]: link.player for file_id, link in links}
    created = {link.player_id for _file_id, link in links if link.match != PlayerLink.Match.CERTAIN}
    taken = {link.player_id for _file_id, link in links}
    out: dict[int, Player] = {}
    for file_id in file_ids:
        family = registry.family(file_id)
        if family[0] not in by_root:
            incoming = _incoming(registry, family)
            verdict = registry_match(
                incoming, _registry_players(incoming, exclude=created, taken=taken))
            if verdict.kind == CERTAIN:
                player = Player.objects.select_for_update().get(pk=int(verdict.key))
                _facts_join(player, registry, family, user)
            else:
                made = _players_record(registry, family, user)
                created.update(p.pk for p in made.values())
                player = made[family[0]]
            by_root[family[0]] = player
        out[file_id] = by_root[family[0]]
    return out


@transaction.atomic
def player_link_decide(*, tournament: Tournament, link_id: int, same_as: int | None,
                       by: Any) -> PlayerLinkDecision:
    """An organiser's answer to an uncertain link: ``same_as`` a candidate (recorded as a
    merge of the imported player into that one, with who and when) or ``None``: a
    different person, who stays the new player the import recorded. Answered once."""
    link = (PlayerLink.objects.select_for_update().select_related("player", "entrant")
            .filter(tournament=tournament, pk=link_id).first())
    if link is None or link.match != PlayerLink.Match.UNCERTAIN:
        raise ValidationError({"__all__": [_("確認する照合が見つかりません。")]})
    if PlayerLinkDecision.objects.filter(link=link).exists():
        raise ValidationError({"__all__": [
            _("%(name)s さんの照合は既に確認済みです。") % {"name": link.entrant.name}]})
    merge = None
    player = None
    if same_as is not None:
        if same_as not in {c["player"] for c in link.candidates}:
            raise ValidationError({"same_as": [_("候補にない選手とは結び付けられません。")]})
        player = Player.objects.filter(pk=same_as).first()
        if player is None:
            raise ValidationError({"same_as": [_("候補の選手が見つかりません。")]})
        merge = player_merge(kept=player, merged=link.player, by=by, reason=_(
            "大会ファイルの読み込み（%(t)s）で同一人物と確認") % {"t": tournament.name})
    return PlayerLinkDecision.objects.create(link=link, same_as=player, merge=merge, by=_who(by))
