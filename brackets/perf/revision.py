"""The tournament's revision: one counter that moves with every write that can change a page.

Pages are expensive to build (facts, then the engine's verdicts, then templates) and are
read far more often than a tournament changes, so rendered pages are cached under
``Tournament.revision`` (brackets/perf/page_cache.py). That is only safe if no write can leave
the counter where it was, so it is moved here, from model signals, for every model whose
rows belong to a tournament — not by each service remembering to do it:

- the move runs in the writer's transaction, so a reader that sees the new revision also
  sees the new facts (and a rolled-back write moves nothing);
- one UPDATE per tournament per transaction, however many rows the write saves;
- ``QuerySet.update()`` and ``bulk_create()`` send no signals: the few services that use
  them on page data call :func:`touch` themselves (grep ``revision.touch``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connections, router
from django.db.models import F
from django.db.models.signals import post_delete, post_save


class _Moved:
    """The commit hook of a transaction that moved the tournament's revision: once the
    move is committed it tells the page cache (:func:`_committed`). Until then it is also
    the mark "this transaction already moved it": Django drops commit hooks when the
    transaction ends either way, and those of a savepoint when it rolls back (together with
    its UPDATE), so the mark lives exactly as long as the move it stands for."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id

    def __call__(self) -> None:
        _committed(self.tournament_id)


def _committed(tournament_id: int) -> None:
    """A new revision is visible: public pages of this process stop trusting the one they
    read (they would for up to PUBLIC_FRESH_SECONDS), so a saved result shows at once."""
    from brackets.perf.page_cache import revision_moved

    revision_moved(tournament_id)


def _writer_block(connection: Any) -> int | None:
    """Index of the writer's outermost atomic block, or None outside any. The test runner
    wraps each test in blocks of its own: the writer's is the first that is not."""
    for index, block in enumerate(connection.atomic_blocks):
        if not getattr(block, "_from_testcase", False):
            return index
    return None


def _already_moved(connection: Any, writer: int, tournament_id: int) -> bool:
    # savepoint_ids runs parallel to atomic_blocks[1:]; a hook records the savepoints it
    # was registered under, so under a test's transaction a mark left by an earlier
    # (finished) write is told apart from one of this write.
    writer_sid = connection.savepoint_ids[writer - 1] if writer else None
    return any(isinstance(hook, _Moved) and hook.tournament_id == tournament_id
               and (writer == 0 or writer_sid in sids)
               for sids, hook, *_robust in connection.run_on_commit)


def touch(tournament_id: int | None, *, using: str = "default") -> None:
    """Move the tournament's revision (once per transaction; at once in autocommit)."""
    if tournament_id is None:
        return
    connection = connections[using]
    writer = _writer_block(connection)
    if writer is not None and _already_moved(connection, writer, tournament_id):
        return
    from brackets.models import Tournament

    Tournament.objects.using(using).filter(pk=tournament_id).update(revision=F("revision") + 1)
    if writer is None:
        _committed(tournament_id)  # autocommit: the UPDATE is already committed
    else:
        connection.on_commit(_Moved(tournament_id))


def _via_group(instance: Any) -> int | None:
    # The group is almost always loaded with its round (services lock it that way); the
    # fallback costs one query.
    group = instance.group if instance.group_id is not None else None
    return None if group is None else group.round.tournament_id


def _tournament_resolvers() -> dict[type, Callable[[Any], int | None]]:
    from brackets import models as m

    def own(instance: Any) -> int | None:
        return instance.tournament_id

    resolvers: dict[type, Callable[[Any], int | None]] = {
        m.Tournament: lambda t: t.pk,
        m.Entrant: own,
        m.EntrantRevision: lambda r: r.entrant.tournament_id,
        m.Round: own,
        m.RoundStep: lambda s: s.round.tournament_id,
        m.Group: lambda g: g.round.tournament_id,
        m.Seat: _via_group,
        m.SpecialFact: own,
        m.Submission: _via_group,
        m.PresetSettingChange: own,
        m.Membership: own,
    }
    for fact in (m.SelectionFact, m.ResultFact, m.PenaltyFact, m.DisqualificationFact,
                 m.RematchFact, m.ConfirmationFact):
        resolvers[fact] = _via_group
    return resolvers


def _moved(sender: type, instance: Any, using: str, **kwargs: Any) -> None:
    if kwargs.get("raw"):  # fixture loading: no tournament pages exist yet
        return
    resolve = RESOLVERS.get(sender)
    if resolve is None:
        return
    try:
        tournament_id = resolve(instance)
    except Exception:  # noqa: BLE001 - a parent deleted in the same cascade
        tournament_id = None
    if sender.__name__ == "Tournament" and kwargs.get("signal") is post_delete:
        return  # gone, with its pages' key
    touch(tournament_id, using=using or router.db_for_write(sender))


RESOLVERS: dict[type, Callable[[Any], int | None]] = {}


def connect() -> None:
    """Called once from the app's ready(): every model with tournament rows moves it."""
    RESOLVERS.update(_tournament_resolvers())
    for model in RESOLVERS:
        post_save.connect(_moved, sender=model, dispatch_uid=f"revision-save-{model.__name__}")
        post_delete.connect(_moved, sender=model,
                            dispatch_uid=f"revision-delete-{model.__name__}")
