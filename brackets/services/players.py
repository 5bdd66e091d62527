"""Registry writes: players and their cards, achievements, merges, an entrant's link to a
player, and the 修羅 duties the registry gives that entrant (with any override).

Each function is one transaction; a refusal raises ``ValidationError`` with a Japanese
message per field and changes nothing. Facts are appended: a card's new Q level supersedes
its row, a merge is a record of its own, an override is a new row whose newest is in force.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from brackets import engine_adapter as ea
from brackets.adapters import players as ad
from brackets.adapters.entrants import kana_fold, snapshot
from brackets.engine import RuleRefusal, bounds, check_achievement
from brackets.messages import error_text
from brackets.models import (
    Achievement,
    DutyOverride,
    Entrant,
    EntrantRevision,
    Player,
    PlayerCard,
    PlayerMerge,
    Round,
    SpecialFact,
    Tournament,
)
from brackets.selectors.registry import eligibility_for, entrant_duties
from brackets.services.entrants import entrant_register


def _who(by: Any) -> Any:
    return by if getattr(by, "is_authenticated", False) else None


def _search_key(name: str, reading: str) -> str:
    return "\x1f".join(kana_fold(part) for part in (reading, name))[:250]


@transaction.atomic
def player_create(*, name: str, reading: str, card_name: str, q_level: int, by: Any,
                  game_version: str = "") -> Player:
    """A new registry player with their first card."""
    name, reading = name.strip(), reading.strip()
    if not name:
        raise ValidationError({"name": [_("名前を入力してください。")]})
    player = Player.objects.create(name=name, reading=reading,
                                   search_key=_search_key(name, reading), by=_who(by))
    if card_name.strip():
        player_card_record(player=player, card_name=card_name, q_level=q_level, by=by,
                           game_version=game_version)
    return player


@transaction.atomic
def player_card_record(*, player: Player, card_name: str, q_level: int, by: Any,
                       rank: str = "", game_version: str = "") -> PlayerCard | None:
    """Record a card, or a card's new Q level (a new row superseding the old one).

    A Q level that did not change records nothing; a lower one is recorded too (the desk
    corrects a typo the same way), so the newest row is always what was last said.
    """
    card_name = card_name.strip()
    if not card_name or len(card_name) > bounds.CARD_NAME.max_length:
        raise ValidationError({"card_name": [
            _("カードネームは1〜%(max)d文字で入力してください。") % {"max": bounds.CARD_NAME.max_length}]})
    if not bounds.Q_LEVEL.contains(q_level):
        raise ValidationError({"q_level": [
            _("Qレベルは0〜%(max)dで入力してください。") % {"max": bounds.Q_LEVEL.high}]})
    key = kana_fold(card_name)[:40]
    ids = ad.family_ids(ad.canonical(player))
    # Locks the card rows only: "not superseded" is an outer join, which PostgreSQL
    # cannot lock.
    old = (PlayerCard.objects.select_for_update(of=("self",))
           .filter(player_id__in=ids, card_key=key, superseded_by__isnull=True)
           .order_by("-at", "-id").first())
    if old is not None and old.q_level == q_level and (not rank or old.rank == rank) and (
            not game_version or old.game_version == game_version):
        return None
    return PlayerCard.objects.create(
        player=old.player if old is not None else player, card_name=card_name, card_key=key,
        q_level=q_level, rank=rank or (old.rank if old else ""),
        game_version=game_version or (old.game_version if old else ""), supersedes=old,
        by=_who(by))


#: The form field each refusal of an achievement is about (its wording: brackets/messages.py).
ACHIEVEMENT_FIELDS = {"achievement_no_date": "held_on", "achievement_no_source": "source",
                      "achievement_kind": "kind", "achievement_limited": "limited"}


@transaction.atomic
def achievement_add(*, player: Player, data: Mapping[str, Any], by: Any) -> Achievement:
    """An achievement entered by hand; the engine refuses one without date or source."""
    row = Achievement(player=ad.canonical(player), kind=data.get("kind") or "",
                      title=str(data.get("title") or "").strip(),
                      game_version=data.get("game_version") or "",
                      held_on=data.get("held_on"), source=str(data.get("source") or "").strip(),
                      limited=data.get("limited") or "", by=_who(by))
    try:
        check_achievement(ad.achievement_of(row))
    except RuleRefusal as exc:
        raise ValidationError({ACHIEVEMENT_FIELDS[exc.code]: [error_text(exc)]}) from exc
    if not row.title:
        raise ValidationError({"title": [_("内容（称号名・大会名など）を入力してください。")]})
    row.full_clean()
    row.save()
    return row


@transaction.atomic
def player_merge(*, kept: Player, merged: Player, reason: str, by: Any) -> PlayerMerge:
    """Record that ``merged`` is the same person as ``kept``; both keep their facts.

    Refused when both played one tournament (two entries there mean two people).
    """
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": [_("統合の理由を入力してください。")]})
    if len(reason) > bounds.REASON.max_length:
        raise ValidationError({"reason": [
            _("理由は%(max)d文字以内で入力してください。") % {"max": bounds.REASON.max_length}]})
    list(Player.objects.select_for_update().filter(pk__in=[kept.pk, merged.pk]))
    kept, merged = ad.canonical(kept), ad.canonical(merged)
    if kept.pk == merged.pk:
        raise ValidationError({"merged": [_("同じ選手どうしは統合できません。")]})
    theirs = set(Entrant.objects.filter(player_id__in=ad.family_ids(merged))
                 .values_list("tournament_id", flat=True))
    both = (Entrant.objects.filter(player_id__in=ad.family_ids(kept), tournament_id__in=theirs)
            .select_related("tournament").first())
    if both is not None:
        raise ValidationError({"merged": [
            _("%(a)s さんと %(b)s さんは同じ大会（%(t)s）に別々に出場しているため、同一人物として"
              "統合できません。") % {"a": kept.name, "b": merged.name, "t": both.tournament.name}]})
    return PlayerMerge.objects.create(kept=kept, merged=merged, reason=reason, by=_who(by))


def _lots_drawn(entrant: Entrant) -> bool:
    return SpecialFact.objects.filter(entrant=entrant, kind=SpecialFact.Kind.SHURA_LOTS).exists()


def _shura_event(tournament: Tournament) -> bool:
    try:
        return bool(ea.preset_for(tournament).shura)
    except RuleRefusal:
        return False


def _apply_duties(entrant: Entrant, by: Any, *, keep_entered: bool = False,
                  was: Mapping[str, Any] | None = None) -> bool:
    """Put what the registry gives (2-d's Q level, 3-a's grounds, 6-c-iii's L_past) into
    the entrant's fields, the ones lots, restrictions and documents read; kept as a
    revision ("登録簿から反映") so the desk's history says where the values came from.

    ``keep_entered``: at registration the registry only adds to what the desk typed (a
    title the registry does not know yet is still declared), it never lowers it.
    ``was``: what the registry gave before a correction; only a field still holding that
    value follows the record (a value the desk typed over it stays)."""
    duties = entrant_duties(entrant=entrant)
    if duties is None:
        return False
    fields = duties.declaration_fields()
    if was is not None:
        fields = {k: v for k, v in fields.items() if k in was and getattr(entrant, k) == was[k]}
    if keep_entered:
        fields = {k: (getattr(entrant, k) or v) if isinstance(v, bool)
                  else max(getattr(entrant, k) or 0, v or 0) for k, v in fields.items()}
    if all(getattr(entrant, k) == v for k, v in fields.items()):
        return False
    for k, v in fields.items():
        setattr(entrant, k, v)
    entrant.revision += 1
    entrant.save(update_fields=[*fields, "revision", "updated_at"])
    EntrantRevision.objects.create(entrant=entrant, number=entrant.revision,
                                   data=snapshot(entrant), action="registry", by=_who(by))
    return True


@transaction.atomic
def entrant_register_linked(*, tournament: Tournament, by: Any, data: Mapping[str, Any],
                            player_id: int | None = None, action: str = "register") -> Entrant:
    """Register an entrant and link the registry player the desk chose, or a new one.

    For a returning player H0 is checked first (a berth holder, or a card other than the
    first appearance's, is refused with the reason); at a 修羅 event the registry's duties
    then fill the entrant's 修羅 fields.
    """
    player: Player | None = None
    if player_id:
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise ValidationError({"__all__": [_("登録簿の選手が見つかりません。もう一度検索してください。")]})
        player = ad.canonical(player)
        refusals = eligibility_for(tournament=tournament, player=player,
                                   card_name=str(data.get("card_name") or "").strip())
        if refusals:
            raise ValidationError({"card_name": [
                _("この大会に出場できません（H0）: %(why)s") % {"why": "、".join(refusals)}]})
        if Entrant.objects.filter(tournament=tournament,
                                  player_id__in=ad.family_ids(player)).exists():
            raise ValidationError({"__all__": [
                _("%(name)s さんはこの大会に既に登録されています。") % {"name": player.name}]})
    entrant = entrant_register(tournament=tournament, by=by, data=data, action=action)
    if player is None:
        player = player_create(name=entrant.name, reading=entrant.reading,
                               card_name=entrant.card_name, q_level=entrant.q_level, by=by)
    else:
        player_card_record(player=player, card_name=entrant.card_name,
                           q_level=_card_q(player, entrant), by=by)
    entrant.player = player
    entrant.save(update_fields=["player", "updated_at"])
    if _shura_event(tournament):
        _apply_duties(entrant, by, keep_entered=True)
    return entrant


def _card_q(player: Player, entrant: Entrant) -> int:
    """The Q level to record for the card the entrant brings: the desk's 最高Qレベル when it
    is this card's (new card, or above what the registry knew), else the card's own."""
    key = kana_fold(entrant.card_name)[:40]
    known = next((c for c in ad.current_cards(ad.family_ids(player)) if c.card_key == key), None)
    return entrant.q_level if known is None else max(known.q_level, entrant.q_level)


def _refuse_after_lots(entrant: Entrant) -> None:
    if _lots_drawn(entrant):
        raise ValidationError({"__all__": [_("%(name)s さんは修羅くじを引いた後のため変更できません。")
                                           % {"name": entrant.name}]})
    if Round.objects.filter(tournament=entrant.tournament, number=1).exclude(
            status=Round.Status.CONFIGURED).exists():
        raise ValidationError({"__all__": [_("1回戦の抽選後は修羅の判定を変更できません。")]})


@transaction.atomic
def entrant_duties_apply(*, tournament: Tournament, entrant_id: int, by: Any) -> bool:
    """Derive the entrant's duties from the registry again (after an achievement was added
    or players merged); True when a field changed. Refused once their lots are drawn."""
    entrant = Entrant.objects.select_for_update().get(tournament=tournament, pk=entrant_id)
    if entrant.player_id is None:
        raise ValidationError({"__all__": [_("登録簿の選手と結び付いていない参加者です。")]})
    _refuse_after_lots(entrant)
    return _apply_duties(entrant, by)


@transaction.atomic
def duty_override_record(*, tournament: Tournament, entrant_id: int, ground: str, value: int,
                         reason: str, by: Any) -> DutyOverride:
    """An organiser's decision against the record, with its reason; then applied."""
    entrant = Entrant.objects.select_for_update().get(tournament=tournament, pk=entrant_id)
    if entrant.player_id is None:
        raise ValidationError({"__all__": [_("登録簿の選手と結び付いていない参加者です。")]})
    if ground not in DutyOverride.Ground.values:
        raise ValidationError({"ground": [_("項目を選択肢から選んでください。")]})
    top = bounds.PAST_WIN_LOTS.high if ground == DutyOverride.Ground.PAST_WIN_LOTS else 1
    if not 0 <= value <= top:
        raise ValidationError({"value": [_("値は0〜%(max)dで入力してください。") % {"max": top}]})
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": [_("変更の理由を入力してください。")]})
    if len(reason) > bounds.REASON.max_length:
        raise ValidationError({"reason": [
            _("理由は%(max)d文字以内で入力してください。") % {"max": bounds.REASON.max_length}]})
    _refuse_after_lots(entrant)
    row = DutyOverride.objects.create(entrant=entrant, ground=ground, value=value,
                                      reason=reason, by=_who(by))
    _apply_duties(entrant, by)
    return row
