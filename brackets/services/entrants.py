"""Entry desk writes: register, edit, check in and mark paid, each kept as a revision.

Every save stores an :class:`EntrantRevision` (who, when, the full data) so nothing typed at
the desk is lost, and bumps ``Entrant.revision``: an edit whose form was loaded from an
older revision is refused with :class:`StaleEntrantError`, which carries what changed in
between, instead of silently overwriting a colleague's work on another tablet. The rules
the data obeys are in :mod:`brackets.adapters.entrants` (its names import from here
too); imports are :mod:`brackets.services.entrant_imports`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from brackets.adapters.entrants import (  # noqa: F401 - desk pages and tests import them here
    ACTION_LABELS,
    ENTRANT_FIELDS,
    Change,
    Owner,
    Roster,
    _has_kanji,
    diff_snapshots,
    display_value,
    entrant_keys,
    entrant_validate,
    kana_fold,
    shura_declaration,
    snapshot,
)
from brackets.errors import Refused
from brackets.models import Entrant, EntrantRevision, Tournament


class StaleEntrantError(Refused):
    """The form was based on an older revision: someone saved the entrant in between."""

    def __init__(self, entrant: Entrant, base_revision: int, changes: list[Change]) -> None:
        super().__init__(f"entrant {entrant.pk} is at revision {entrant.revision}, not {base_revision}")
        self.entrant = entrant
        self.base_revision = base_revision
        self.changes = changes


def _record(entrant: Entrant, *, by: Any, action: str) -> EntrantRevision:
    return EntrantRevision.objects.create(
        entrant=entrant,
        number=entrant.revision,
        data=snapshot(entrant),
        action=action,
        by=by if getattr(by, "is_authenticated", False) else None,
    )


def _apply(entrant: Entrant, clean: Mapping[str, Any]) -> None:
    for name in ENTRANT_FIELDS:
        setattr(entrant, name, clean[name])
    entrant.search_key, entrant.card_key = entrant_keys(
        name=entrant.name, reading=entrant.reading, card_name=entrant.card_name
    )


def _save(entrant: Entrant) -> None:
    """Save, turning a lost race on a unique constraint into the desk's message."""
    try:
        with transaction.atomic():
            entrant.save()
    except IntegrityError as exc:
        raise ValidationError(
            {"__all__": [_("同時に別の端末で同じカードネームかシード番号が登録されました。もう一度確認してください。")]}
        ) from exc


@transaction.atomic
def entrant_register(
    *,
    tournament: Tournament,
    by: Any,
    data: Mapping[str, Any],
    action: str = "register",
    roster: Roster | None = None,
) -> Entrant:
    """Register a new entrant (desk form, walk-in or import) and keep revision 1.

    ``roster`` lets an import check many rows against one load; it is updated in place.
    """
    roster = roster if roster is not None else Roster.load(tournament)
    clean = entrant_validate(tournament=tournament, data=data, roster=roster)
    entrant = Entrant(tournament=tournament, revision=1)
    _apply(entrant, clean)
    _save(entrant)
    _record(entrant, by=by, action=action)
    roster.add(clean, Owner(entrant.pk, entrant.name, entrant.card_name))
    return entrant


@transaction.atomic
def entrant_update(
    *,
    tournament: Tournament,
    entrant_id: int,
    by: Any,
    base_revision: int,
    data: Mapping[str, Any],
) -> Entrant:
    """Save an edit made on ``base_revision``; refuse it if the entrant moved on since.

    A refused edit raises :class:`StaleEntrantError` listing what others changed, so the
    desk can re-apply their own typing (kept by the form) on top of the current data.
    An edit that changes nothing stores no revision.
    """
    entrant = Entrant.objects.select_for_update().get(tournament=tournament, pk=entrant_id)
    if entrant.revision != base_revision:
        base = EntrantRevision.objects.filter(entrant=entrant, number=base_revision).first()
        before = base.data if base is not None else {}
        raise StaleEntrantError(entrant, base_revision, diff_snapshots(before, snapshot(entrant)))
    clean = entrant_validate(tournament=tournament, data=data, entrant=entrant)
    if not diff_snapshots(snapshot(entrant), clean):
        return entrant
    _apply(entrant, clean)
    entrant.revision += 1
    _save(entrant)
    _record(entrant, by=by, action="edit")
    return entrant


def _set_flag(*, tournament: Tournament, entrant_id: int, by: Any, name: str, value: bool) -> tuple[Entrant, bool]:
    entrant = Entrant.objects.select_for_update().get(tournament=tournament, pk=entrant_id)
    if getattr(entrant, name) == value:
        return entrant, False
    setattr(entrant, name, value)
    entrant.revision += 1
    entrant.save(update_fields=[name, "revision", "updated_at"])
    _record(entrant, by=by, action=f"{name}:{'on' if value else 'off'}")
    return entrant, True


@transaction.atomic
def entrant_check_in(
    *, tournament: Tournament, entrant_id: int, by: Any, checked_in: bool = True
) -> tuple[Entrant, bool]:
    """Set the check-in state; returns ``(entrant, changed)``.

    The request says the state wanted, not "toggle", so a double tap records once.
    """
    return _set_flag(tournament=tournament, entrant_id=entrant_id, by=by, name="checked_in", value=checked_in)


@transaction.atomic
def entrant_mark_paid(
    *, tournament: Tournament, entrant_id: int, by: Any, fee_paid: bool = True
) -> tuple[Entrant, bool]:
    """Set whether the fee is paid; idempotent like :func:`entrant_check_in`."""
    return _set_flag(tournament=tournament, entrant_id=entrant_id, by=by, name="fee_paid", value=fee_paid)
