"""Corrections to the player registry (#14): an achievement withdrawn or corrected, a
player renamed, an entrant linked to a registry player or unlinked.

Each function is one transaction and records a fact of its own with who, when and why
(``brackets.models.corrections``); nothing entered is deleted or overwritten. The engine
says whether the correction may be made (``brackets.engine.corrections``); a refusal
raises ``ValidationError`` with its wording from ``brackets.messages`` and changes nothing.

A withdrawn or corrected achievement stops or changes counting at once: every read goes
through the achievements in force (``brackets.adapters.players.live_achievements``, and
``brackets.selectors.duties`` for an entrant's 修羅 duties, which are derived when read and
never copied into the entrant).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from brackets.adapters import players as ad
from brackets.adapters import series as sa
from brackets.adapters.entrants import kana_fold
from brackets.engine import (
    RuleRefusal,
    check_achievement_correction,
    check_entrant_link,
    check_entrant_unlink,
    check_found,
    check_main_event_entry,
    check_reason,
    check_rename,
    check_still_in_force,
    fact_key,
)
from brackets.messages import error_text
from brackets.models import (
    Achievement,
    AchievementCorrection,
    BerthOverride,
    Entrant,
    EntrantPlayerChange,
    Player,
    PlayerRename,
    Role,
    Tournament,
)
from brackets.permissions import has_role
from brackets.selectors.registry import eligibility_for
from brackets.selectors.series import main_event_holders, main_event_series
from brackets.services.players import ACHIEVEMENT_FIELDS

T = TypeVar("T")

#: The form field each refusal is about (its wording: brackets/messages.py).
FIELDS = {**ACHIEVEMENT_FIELDS, "correction_no_reason": "reason",
          "correction_reason_long": "reason", "correction_unchanged": "__all__",
          "correction_already_withdrawn": "__all__", "correction_already_corrected": "__all__",
          "rename_no_name": "name", "rename_too_long": "name", "rename_unchanged": "__all__",
          "link_unchanged": "entrant", "link_player_entered": "entrant",
          "unlink_not_linked": "entrant", "link_entrant_elsewhere": "entrant",
          "correction_not_found": "__all__", "correction_no_title": "title"}


def _who(by: Any) -> Any:
    return by if getattr(by, "is_authenticated", False) else None


def _checked(check: Callable[[], None]) -> None:
    try:
        check()
    except RuleRefusal as exc:
        raise ValidationError({FIELDS.get(exc.code, "__all__"): [error_text(exc)]}) from exc


def _live_row(player: Player, achievement_id: int) -> Achievement:
    ids = ad.family_ids(ad.canonical(player))
    row = (Achievement.objects.select_for_update(of=("self",))
           .filter(player_id__in=ids, pk=achievement_id).first())
    _checked(lambda: check_found(found=row is not None))
    assert row is not None
    return row


def _copies(row: Achievement) -> list[Achievement]:
    """The row and every other record in force of the same fact in the player's family
    (after a merge both records may hold it): withdrawn or corrected together, or the
    fact would go on counting through its copy."""
    ids = ad.family_ids(ad.canonical(row.player))
    key = fact_key(ad.achievement_of(row))
    others = [r for r in Achievement.objects.select_for_update(of=("self",))
              .filter(player_id__in=ids, correction__isnull=True).exclude(pk=row.pk)
              .order_by("id") if fact_key(ad.achievement_of(r)) == key]
    return [row, *others]


def _state(row: Achievement) -> dict[str, bool]:
    correction = AchievementCorrection.objects.filter(achievement=row).first()
    return {"withdrawn": bool(correction and correction.withdrawn),
            "corrected": bool(correction and not correction.withdrawn)}


@transaction.atomic
def achievement_withdraw(*, player: Player, achievement_id: int, reason: str,
                         by: Any) -> list[AchievementCorrection]:
    """Withdraw an achievement entered by hand (and its copies from a merged record):
    it stays on the player's page as history and counts nowhere from now on."""
    row = _live_row(player, achievement_id)
    state = _state(row)
    _checked(lambda: (check_reason(reason), check_still_in_force(**state)))

    def change() -> list[AchievementCorrection]:
        return [AchievementCorrection.objects.create(achievement=r, reason=reason.strip(),
                                                     by=_who(by)) for r in _copies(row)]

    return change()


@transaction.atomic
def achievement_correct(*, player: Player, achievement_id: int, data: Mapping[str, Any],
                        reason: str, by: Any) -> Achievement:
    """Correct an achievement entered by hand: a new row with the corrected values
    supersedes it (and its copies from a merged record); the old row stays as history."""
    old = _live_row(player, achievement_id)
    new = Achievement(player=old.player, kind=data.get("kind") or "",
                      title=str(data.get("title") or "").strip(),
                      game_version=data.get("game_version") or "", held_on=data.get("held_on"),
                      source=str(data.get("source") or "").strip(),
                      limited=data.get("limited") or "", by=_who(by))
    state = _state(old)
    _checked(lambda: check_achievement_correction(
        ad.achievement_of(old), ad.achievement_of(new), reason=reason, **state))
    new.full_clean()

    def change() -> Achievement:
        copies = _copies(old)
        new.save()
        for r in copies:
            AchievementCorrection.objects.create(achievement=r, replacement=new,
                                                 reason=reason.strip(), by=_who(by))
        return new

    return change()


def _search_key(name: str, reading: str) -> str:
    return "\x1f".join(kana_fold(part) for part in (reading, name))[:250]


@transaction.atomic
def player_rename(*, player: Player, name: str, reading: str, reason: str,
                  by: Any) -> PlayerRename:
    """A player's name and reading changed, recorded with the values they replace; the
    desk's search finds the new name from now on."""
    player = Player.objects.select_for_update().get(pk=ad.canonical(player).pk)
    name, reading, reason = name.strip(), reading.strip(), reason.strip()
    _checked(lambda: check_rename(name=name, reading=reading, was_name=player.name,
                                  was_reading=player.reading))
    if reason:
        _checked(lambda: check_reason(reason))
    row = PlayerRename.objects.create(player=player, name=name, reading=reading,
                                      was_name=player.name, was_reading=player.reading,
                                      reason=reason, by=_who(by))
    player.name, player.reading = name, reading
    player.search_key = _search_key(name, reading)
    player.save(update_fields=["name", "reading", "search_key"])
    return row


def _entry_refusal(tournament: Tournament, entrant: Entrant, player: Player) -> tuple[str, str]:
    """What the desk would refuse about registering ``player`` as this entrant: the
    refusal as the desk words it and as the link's history keeps it (both "" when
    nothing). H0 at a qualifier (a berth of the series, or a card other than the first
    appearance's), or no berth at the series' main event unless the entrant was already
    admitted without one (``BerthOverride``)."""
    refusals = eligibility_for(tournament=tournament, player=player,
                               card_name=entrant.card_name)
    if refusals:
        text = _("この大会に出場できません（H0）: %(why)s") % {"why": "、".join(refusals)}
        return text, text
    series = main_event_series(tournament=tournament)
    if series is None or BerthOverride.objects.filter(entrant=entrant).exists():
        return "", ""
    try:
        check_main_event_entry(sa.player_key(player), series=series.name,
                               holders=main_event_holders(series=series, tournament=tournament))
    except RuleRefusal as exc:
        return error_text(exc), _("%(series)sの本戦出場権なし") % {"series": series.name}
    return "", ""


def _override_checked(tournament: Tournament, refusal: str, override: str, by: Any) -> None:
    """The desk's rule: a refused entry stands only on an organiser's recorded reason."""
    if not override:
        raise ValidationError({"entrant": [refusal]})
    if not has_role(by, tournament, Role.ORGANISER):
        raise ValidationError({"override": [
            _("参加資格を越えて結び付ける判断は主催者だけが記録できます。")]})
    try:
        check_reason(override)
    except RuleRefusal as exc:
        raise ValidationError({"override": [error_text(exc)]}) from exc


@transaction.atomic
def entrant_link(*, tournament: Tournament, entrant_id: int, player: Player, reason: str,
                 by: Any, override: str = "") -> EntrantPlayerChange:
    """Link an entrant of this tournament to a registry player (or move it from another
    one). Refused when the player already has another entrant here, and, as at the desk,
    when the entry rule refuses the player here (H0 at a qualifier, no berth at the main
    event) unless an organiser records ``override``, the reason, kept with the refusal's
    words. The entrant's 修羅 duties then read the player's record (derived when read)."""
    entrant = (Entrant.objects.select_for_update(of=("self",))
               .filter(tournament=tournament, pk=entrant_id).first())
    kept = ad.canonical(Player.objects.select_for_update().get(pk=player.pk))
    linked = ad.canonical(entrant.player).pk if entrant and entrant.player_id else None
    other = (Entrant.objects.filter(tournament=tournament, player_id__in=ad.family_ids(kept))
             .exclude(pk=getattr(entrant, "pk", None)).first())
    _checked(lambda: check_entrant_link(here=entrant is not None, linked_to=linked,
                                        player=kept.pk, other_entrant=other.name if other else ""))
    assert entrant is not None
    if reason.strip():
        _checked(lambda: check_reason(reason))
    override = override.strip()
    refusal, kept_words = _entry_refusal(tournament, entrant, kept)
    if refusal:
        _override_checked(tournament, refusal, override, by)
    if refusal and main_event_series(tournament=tournament) is not None:
        BerthOverride.objects.create(entrant=entrant, reason=override, by=_who(by))
    row = EntrantPlayerChange.objects.create(
        entrant=entrant, player=kept, was_player=entrant.player, reason=reason.strip(),
        overridden=kept_words[:500] if refusal else "",
        override_reason=override if refusal else "", by=_who(by))
    entrant.player = kept
    entrant.save(update_fields=["player", "updated_at"])
    return row


@transaction.atomic
def entrant_unlink(*, tournament: Tournament, entrant_id: int, reason: str,
                   by: Any) -> EntrantPlayerChange:
    """Unlink an entrant from its registry player (linked to the wrong person); its
    fields stay as they are, and the player's record no longer lists this tournament."""
    entrant = (Entrant.objects.select_for_update(of=("self",))
               .filter(tournament=tournament, pk=entrant_id).first())
    _checked(lambda: check_entrant_unlink(here=entrant is not None,
                                          linked_to=getattr(entrant, "player_id", None)))
    assert entrant is not None
    if reason.strip():
        _checked(lambda: check_reason(reason))
    row = EntrantPlayerChange.objects.create(entrant=entrant, player=None,
                                             was_player=entrant.player, reason=reason.strip(),
                                             by=_who(by))
    entrant.player = None
    entrant.save(update_fields=["player", "updated_at"])
    return row
