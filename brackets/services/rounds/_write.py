"""The one write path every match write takes, and the refusals it raises.

Every write on a match locks its group row, records the form's idempotency key, compares
the version the tablet saw (``base_version``) and bumps it: a stale save whose fields
overlap with what changed meanwhile is refused with the changes (:class:`StaleVersion`); one
that touches other fields is merged. A form's idempotency key (``key``) makes a
double-tapped submit record once (:class:`Duplicate`, which views treat as success); the
key is stored with a digest of what was submitted, so the same key sent again with other
content (a corrected form re-sent from a page loaded before the first save) is refused as
stale (:class:`RepeatedKey`), never taken for the double tap it is not.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from brackets.engine import EngineError
from brackets.errors import Refused
from brackets.messages import error_text, player_ids
from brackets.models import (
    Group,
    RematchFact,
    ResultFact,
    Round,
    Seat,
    SelectionFact,
    Submission,
)
from brackets.perf import revision
from brackets.selectors import rounds as sel
from brackets.services.submit_keys import KEY_MAX_LENGTH, content_digest

# SQLite has one writer at a time and its busy handler retries by sleeping, which starves
# some tablets for seconds under load. Match writes in one server process take turns on
# this lock instead (PostgreSQL needs no such thing: rows are locked per group).
_SQLITE_WRITES = threading.Lock()


@contextmanager
def _serialised(key: str = "", digest: str = "") -> Iterator[None]:
    """Take turns on the process-wide SQLite write lock (outside the transaction), and turn
    a repeated idempotency key into :class:`Duplicate` (same content) or
    :class:`RepeatedKey` (other content)."""
    try:
        if connection.vendor != "sqlite" or connection.in_atomic_block:
            yield
        else:
            with _SQLITE_WRITES:
                yield
    except IntegrityError as exc:
        if "submission" in str(exc).lower():
            # The failed insert rolled back to before the write (its own transaction or
            # savepoint), so the first submit's row can be read here.
            first = Submission.objects.filter(key=key).values_list("digest", flat=True).first()
            if first is not None and first and first != digest:
                raise RepeatedKey() from exc
            raise Duplicate() from exc
        raise


class RoundError(Refused):
    """Refused input: ``message`` says what to fix; ``field`` names the form field."""

    def __init__(self, message: str, field: str = "", **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.extra = extra


class StaleVersion(RoundError):
    """Someone saved this match after the tablet loaded it, on the same fields."""

    def __init__(self, changes: list[str]) -> None:
        super().__init__(_("他の端末がこの組を先に更新しました。変更内容を確認して、もう一度入力してください。"),
                         changes=changes)
        self.changes = changes


class Duplicate(Exception):
    """The same form was submitted twice; the first submit was recorded."""


class RepeatedKey(RoundError):
    """A submit key already recorded with other content: the form was sent again from a
    page loaded before its first save, changed. Nothing of it is saved."""

    def __init__(self) -> None:
        super().__init__(_("この画面からは既に別の内容が保存されています。今回の変更は保存していません。"
                           "ページを読み込み直して、最新の内容を確認してから入力してください。"))


def _engine_text(exc: EngineError) -> str:
    """The staff wording of an engine refusal (``messages.ERROR_TEXT``), with the
    players it names shown by name: the engine only knows entrant keys."""
    return error_text(exc, sel.entrant_names(player_ids(exc.params)))


#: What a write touches, for the stale merge: (kind, seat number) pairs such as
#: ("selection", 2) or ("result", 1); :data:`WHOLE_MATCH` overlaps any change.
Touched = AbstractSet[tuple[str, int]]
WHOLE_MATCH: Touched = frozenset({("all", 0)})


@contextmanager
def match_write(group: Group, *, by: Any, kind: str, touched: Touched = WHOLE_MATCH,
                base_version: int | None = None, key: str = "", content: Any = None,
                requires_input: bool = True, confirming: int | None = None) -> Iterator[Group]:
    """The one write path of a match; the body writes its facts on the locked group it gets.

    In order: take the SQLite write lock, open the transaction, lock the group row, record
    the submit's idempotency ``key``, refuse a round that takes no input, compare
    ``base_version`` (the version the tablet saw) and merge or refuse (:class:`StaleVersion`
    when what changed meanwhile overlaps ``touched``), run the body, then move the group's
    version and the tournament's revision. A refusal anywhere rolls back everything,
    the key included; a repeated key raises :class:`Duplicate` when ``content`` (what the
    submit carries, stored as a digest with the key) is the same as the first time, and
    :class:`RepeatedKey` when it is not.

    ``requires_input=False``: K7 cards and K8 bans are recorded whatever the round's status
    (their own rules refuse them once selections exist or the bans are revealed).
    ``confirming``: a confirmation attests exactly this version of the result, so any save
    since refuses it, and it leaves the version where it is (nothing is derived from it).
    """
    if len(key) > KEY_MAX_LENGTH:
        raise RoundError(_("送信内容が正しくありません（キーが長すぎます）。ページを読み込み直してください。"),
                         field="key")
    digest = content_digest(kind, content) if key else ""
    with _serialised(key, digest), transaction.atomic():
        g = _lock(group, key, kind, by, digest)
        if confirming is not None:
            if confirming != g.version:
                raise StaleVersion([_("確認中に結果が更新されました。最新の内容を確認してください。")])
            yield g
            return
        if requires_input and g.round.status not in (Round.Status.DRAWN, Round.Status.RUNNING):
            raise RoundError(_("{round}は入力を受け付けていません（{status}）。").format(
                round=g.round.name, status=g.round.get_status_display()))
        if base_version is not None and base_version != g.version:
            changes = _changes_since(g, base_version, touched)
            if changes:
                raise StaleVersion(changes)
        yield g
        if requires_input:
            draw_released_by_play(g.round, by)
        _finish(g)


def draw_release_record(rnd: Round, by: Any) -> None:
    """Record the release of the round's draw: who and when. A conditional update, so two
    tablets' first saves never overwrite the first release."""
    when = timezone.now()
    who = by if getattr(by, "pk", None) is not None else None
    if Round.objects.filter(id=rnd.id, draw_released_at=None).update(
            draw_released_at=when, draw_released_by=who):
        rnd.draw_released_at, rnd.draw_released_by = when, who
        revision.touch(rnd.tournament_id)  # an update() sends no signal


def draw_released_by_play(rnd: Round, by: Any) -> None:
    """Once a match of the round is played its groups are no secret: the round's first
    input (or 開始) releases a draw the organiser has not released, so a forgotten release
    never hides a running round."""
    if rnd.draw_released_at is None:
        draw_release_record(rnd, by)


def _lock(group: Group, key: str, kind: str, by: Any, digest: str = "") -> Group:
    """Lock the group and record the submit's key.

    The key is inserted at once instead of looked up first: a second submit of the same
    form (a double tap) fails the key's unique constraint, the whole save rolls back and
    ``_serialised`` turns that into :class:`Duplicate`, before the version check could
    mistake the first tap's save for another tablet's. The version it records is the one
    ``_finish`` is about to write (the row is locked, so it is exact); a refused save
    rolls the key back with everything else.
    """
    found = list(Group.objects.select_related("round").select_for_update()
                 .filter(id=group.id))
    if not found:
        raise Group.DoesNotExist(f"group {group.id}")
    locked = found[0]
    # The tournament row as the request loaded it: what a match write reads of it (seed,
    # catalog, settings) is fixed once round 1 is drawn, and its revision is moved by SQL.
    locked.round.tournament = group.round.tournament
    if key:
        # No signals (as bulk_create); _finish moves the tournament's revision itself.
        Submission.objects.bulk_create([Submission(
            key=key, group=locked, kind=kind, digest=digest,
            result_version=locked.version + 1, by=by)])
    return locked


def _changes_since(group: Group, base: int, touched: Touched) -> list[str]:
    """What was saved on top of ``base`` that overlaps the fields being saved now."""
    out = []
    for r in SelectionFact.objects.filter(group=group, base_version__gte=base).select_related(
            "seat", "by"):
        if ("selection", r.seat.number) in touched:
            out.append(_("サテ{n} 出題 → {genre}/{format}/{difficulty}（{by}）").format(
                n=r.seat.number, genre=r.genre, format=r.format, difficulty=r.difficulty,
                by=r.by or "?"))
    for r in ResultFact.objects.filter(group=group, base_version__gte=base).select_related(
            "seat", "by"):
        if ("result", r.seat.number) in touched:
            out.append(_("サテ{n} 結果 → {score}点 {placement}位（{by}）").format(
                n=r.seat.number, score=r.score, placement=r.placement, by=r.by or "?"))
    for r in RematchFact.objects.filter(group=group, base_version__gte=base):
        out.append(_("再試合が記録されました：{reason}").format(reason=r.reason))
    if ("all", 0) in touched and not out:
        out.append(_("この組の内容が更新されています"))
    return out


def _finish(group: Group) -> int:
    """Bump the version (the group row is locked, so +1 is exact; ``_lock`` recorded the
    submit's key with this version)."""
    Group.objects.filter(pk=group.id).update(version=F("version") + 1)
    group.version += 1
    revision.touch(group.round.tournament_id)  # update() sends no signal (a save may add no fact)
    return group.version


def _seat(group: Group, number: int) -> Seat:
    seat = Seat.objects.filter(group=group, number=number, superseded_by__isnull=True).first()
    if seat is None:
        raise RoundError(_("サテ{n}はこの組にありません。").format(n=number), field=f"seat_{number}")
    return seat
