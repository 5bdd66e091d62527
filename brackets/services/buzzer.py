"""Writes for live buzzer rounds: create a round, open a tie-break, append an operator's tap.

Every rule lives in :mod:`brackets.engine.buzzer`. This module only turns a tap into an
engine event, asks the engine whether the event is allowed (by applying it to the replayed
state: ``EngineError`` means refused, nothing stored) and appends it to the log with who and
when. Appends are serialised per round: the round row is locked, the operator's expected
sequence number must equal the log's length (a stale screen is refused instead of silently
interleaving with another operator), and a repeated idempotency key returns the first
record instead of storing the tap twice.

Paper-quiz markings are written by :mod:`brackets.services.buzzer_paper`, preset rounds
seated by :mod:`brackets.services.buzzer_presets`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from brackets.engine import EngineError
from brackets.engine.buzzer import (
    ClockExpire,
    ClockStart,
    ClockStop,
    Correct,
    Event,
    RoundConfig,
    RoundState,
    Thru,
    Wrong,
    apply,
    event_from_dict,
    start,
    tiebreak_called,
    tiebreak_round,
)
from brackets.errors import Refused
from brackets.labels import tiebreak_round_name
from brackets.messages import error_text
from brackets.models import (
    BuzzerEvent,
    BuzzerPlayer,
    BuzzerRound,
    Entrant,
    Tournament,
)
from brackets.selectors.buzzer import (
    clock_reading_ms,
    effective_records,
    round_log,
    round_players,
    round_specs,
    round_state,
)
from brackets.services.submit_keys import KEY_MAX_LENGTH, content_digest


class BuzzerRefused(Refused):
    """A tap the round refuses; ``message`` is Japanese and shown to the operator as is.

    ``code`` is the engine's code (or ``stale`` / ``bad_request``); ``seq`` is the log's
    current length so the console can resynchronise.
    """

    def __init__(self, code: str, message: str, seq: int = 0) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.seq = seq


@dataclass(frozen=True)
class Appended:
    """The outcome of an append: the record (new, or the earlier one for a double tap)."""

    record: BuzzerEvent
    state: RoundState
    duplicate: bool


# ------------------------------------------------------------------------------ rounds


def _player_rows(players: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for index, raw in enumerate(players, start=1):
        name = str(raw.get("name") or "").strip()
        entrant = raw.get("entrant")
        if not name and isinstance(entrant, Entrant):
            name = entrant.name
        if not name:
            raise BuzzerRefused("bad_player", _("%(n)d人目の名前がありません。") % {"n": index})
        rows.append(
            {
                "name": name,
                "entrant": entrant if isinstance(entrant, Entrant) else None,
                "seat": int(raw.get("seat") or index),
                "rank": raw.get("rank"),
                "advantage": raw.get("advantage"),
                "carried": dict(raw.get("carried") or {}),
                "key": str(raw.get("key") or ""),
            }
        )
    return rows


@transaction.atomic
def buzzer_round_create(
    *,
    tournament: Tournament,
    name: str,
    config: RoundConfig | Mapping[str, Any],
    players: Sequence[Mapping[str, Any]],
    by: Any = None,
    group_name: str = "",
    preset: str = "",
    round_slug: str = "",
    position: int = 0,
    feeds_from: BuzzerRound | None = None,
    ranking_from_seats: bool = False,
    parent: BuzzerRound | None = None,
    side: str = "",
) -> BuzzerRound:
    """Create a round with its seating. The engine checks the settings and seats first.

    ``players`` are dicts with ``name`` (or ``entrant``), optional ``seat`` (default: list
    order), ``rank`` (fallback rank), ``advantage`` (overrides the seat default) and
    ``carried`` (points/rests/board_correct from an earlier set). Bad seating or settings
    raise :class:`BuzzerRefused` and nothing is saved.

    ``ranking_from_seats`` (a round made by hand from a preset round's template) stores the
    players, by fallback rank then seat, as the round's 1R順位. Why: the preset's later
    rounds are seated from this one (M5 sets 2 and 3 from set 1) and need a rank for every
    player key; without it the chain refused with 「1R順位を入力してください。」.

    ``parent`` and ``side`` mark a sudden death / playoff opened for a decision of
    ``parent`` (see :func:`buzzer_tiebreak_open`).
    """
    cfg = config if isinstance(config, RoundConfig) else RoundConfig.from_dict(config)
    rows = _player_rows(players)
    for entrant in (r["entrant"] for r in rows if r["entrant"] is not None):
        if entrant.tournament_id != tournament.id:
            raise BuzzerRefused("bad_player", _("別の大会の参加者は登録できません。"))
    round_ = BuzzerRound.objects.create(
        tournament=tournament,
        name=name,
        group_name=group_name,
        preset=preset,
        round_slug=round_slug,
        position=position,
        config=cfg.to_dict(),
        feeds_from=feeds_from,
        parent=parent,
        side=side,
        created_by=by if getattr(by, "is_authenticated", False) else None,
    )
    created = [
        BuzzerPlayer(
            round=round_,
            entrant=r["entrant"],
            key=r["key"] or f"s{r['seat']}",
            name=r["name"],
            seat=r["seat"],
            rank=r["rank"],
            advantage=r["advantage"],
            carried=r["carried"],
        )
        for r in rows
    ]
    seats = [p.seat for p in created]
    if len(set(seats)) != len(seats):
        raise BuzzerRefused("duplicate_seat", _("同じ席に2人が割り当てられています。"))
    BuzzerPlayer.objects.bulk_create(created)
    try:
        _cfg, specs = round_specs(round_)
        start(cfg, specs)
    except EngineError as error:
        raise BuzzerRefused(error.code, error_text(error)) from error
    if ranking_from_seats:
        ordered = sorted(created, key=lambda p: (p.rank is None, p.rank or 0, p.seat))
        round_.first_round = [
            {"key": p.key, "name": p.name, "entrant": p.entrant.pk if p.entrant else None}
            for p in ordered
        ]
        BuzzerRound.objects.filter(pk=round_.pk).update(first_round=round_.first_round)
    return round_


@transaction.atomic
def buzzer_tiebreak_open(*, round: BuzzerRound, side: str, by: Any = None) -> BuzzerRound:
    """Open the sudden death (or playoff) the engine asks for on ``side`` as its own round.

    The parent round's row is locked, as :func:`buzzer_event_append` locks it, so two
    operators pressing start together open one round: a tie-break on that side that is not
    finished yet is returned instead of a second one. The engine builds the sub-round's
    settings and seats; a refusal raises :class:`BuzzerRefused` and stores nothing.
    """
    locked = BuzzerRound.objects.select_for_update().get(pk=round.pk)
    existing = locked.tiebreaks.filter(side=side).order_by("-id").first()
    try:
        state = round_state(locked)
        config, specs = tiebreak_round(state, side)
    except EngineError as error:
        raise BuzzerRefused(error.code, error_text(error)) from error
    if existing is not None and existing.status != BuzzerRound.Status.FINISHED:
        return existing
    seats = {p.key: p for p in round_players(locked)}
    return buzzer_round_create(
        tournament=round.tournament,
        name=tiebreak_round_name(
            locked.name, playoff=tiebreak_called(state.config) == "playoff", side=side),
        group_name=locked.group_name,
        config=config,
        players=[
            {
                "key": spec.id,
                "name": seats[spec.id].name,
                "entrant": seats[spec.id].entrant,
                "seat": spec.seat,
                "rank": spec.rank,
            }
            for spec in specs
        ],
        by=by,
        position=locked.position,
        parent=locked,
        side=side,
    )


# ----------------------------------------------------------------------------- events


def _event_for_tap(state: RoundState, data: Mapping[str, Any], reading_ms: int | None) -> Event:
    """The engine event for a console tap; the server fills the clock reading.

    The question number defaults to the question in play so that the engine's own guard
    against a second ○ on one question always applies.
    """
    kind = data.get("kind")
    question = data.get("question")
    if question in (None, ""):
        question = state.question + 1
    try:
        question = int(question)
    except (TypeError, ValueError):
        raise BuzzerRefused("bad_request", _("問題番号が正しくありません。")) from None
    if kind in ("correct", "wrong"):
        player = str(data.get("player") or "")
        if not player:
            raise BuzzerRefused("bad_request", _("席を選んでください。"))
        cls = Correct if kind == "correct" else Wrong
        return cls(player, question, reading_ms)
    if kind == "thru":
        return Thru(question, reading_ms)
    if kind == "clock_start":
        return ClockStart(reading_ms or 0)
    if kind == "clock_stop":
        return ClockStop(reading_ms or 0)
    if kind == "clock_expire":
        in_play = str(data.get("question_in_play", "1")).lower() not in ("0", "false", "")
        limit = state.clock.limit_ms
        reading = reading_ms if reading_ms is not None else limit
        if limit is not None and reading is not None:
            reading = min(max(reading, state.clock.elapsed_ms), limit)
        return ClockExpire(reading, in_play)
    if kind in ("rejudge", "throw_out"):
        # A protest needs the protest form: it decides who may overrule the window.
        raise BuzzerRefused("bad_request", _("審議は審議の画面から入力してください。"))
    payload = dict(data)
    if kind in ("board", "written"):
        payload["question"] = question
    try:
        return event_from_dict(payload)
    except EngineError as error:
        raise BuzzerRefused(error.code, error_text(error)) from error


def buzzer_event_append(
    *,
    round: BuzzerRound,
    data: Mapping[str, Any],
    expected_seq: int | None,
    by: Any = None,
    idempotency_key: str = "",
) -> Appended:
    """Append one tap to the round's log, or refuse it with a Japanese message.

    ``data`` is the tap (``{"kind": "correct", "player": "s3"}``, ``{"kind": "undo"}``,
    any ``Event.to_dict()`` ...). ``expected_seq`` is how many events the operator's screen
    had seen; ``None`` skips the check (scripts). Refusals raise :class:`BuzzerRefused`
    and store nothing.
    """
    key = (idempotency_key or "")[:KEY_MAX_LENGTH]
    digest = content_digest("buzzer", {k: v for k, v in data.items()
                                       if k not in ("key", "expected_seq")}) if key else ""
    return _append_atomic(round, data, expected_seq, by, key, digest, None)


EventFor = Callable[[RoundState, "int | None"], Event]


def _append_atomic(
    round: BuzzerRound, data: Mapping[str, Any], expected_seq: int | None, by: Any, key: str,
    digest: str, event_for: EventFor | None,
) -> Appended:
    try:
        with transaction.atomic():
            return _append(round, data, expected_seq, by, key, digest, event_for)
    except IntegrityError:
        # Another process appended the same seq (or the same key) between our read and write.
        if key:
            earlier = BuzzerEvent.objects.filter(round=round, idempotency_key=key).first()
            if earlier is not None:
                _refuse_other_tap(earlier, digest)
                return Appended(earlier, round_state(round), True)
        seq = BuzzerEvent.objects.filter(round=round).count()
        raise BuzzerRefused(
            "stale", _("別の端末で先に入力されました。画面を更新してからやり直してください。"), seq
        ) from None


def _refuse_other_tap(earlier: BuzzerEvent, digest: str) -> None:
    """A key already recorded with another tap: the form was sent again from a screen
    loaded before its first save, changed; refused, never reported as recorded."""
    if earlier.submit_digest and earlier.submit_digest != digest:
        raise BuzzerRefused(
            "stale",
            _("この画面からは既に別の入力が記録されています。今回の入力は記録していません。画面を更新してください。"),
            BuzzerEvent.objects.filter(round_id=earlier.round_id).count(),
        )


def _append(
    round_: BuzzerRound, data: Mapping[str, Any], expected_seq: int | None, by: Any, key: str,
    digest: str = "", event_for: EventFor | None = None,
) -> Appended:
    # Lock the round row: appends to one round happen one at a time on PostgreSQL (SQLite
    # already serialises writers with IMMEDIATE transactions).
    locked = BuzzerRound.objects.select_for_update().get(pk=round_.pk)
    if key:
        earlier = BuzzerEvent.objects.filter(round=locked, idempotency_key=key).first()
        if earlier is not None:
            _refuse_other_tap(earlier, digest)
            return Appended(earlier, round_state(locked), True)
    records = round_log(locked)
    seq = len(records)
    if expected_seq is not None and expected_seq != seq:
        raise BuzzerRefused(
            "stale",
            _(
                "別の端末で入力があり、画面が古くなっています（%(seen)d件目→%(now)d件目）。もう一度操作してください。"
            )
            % {"seen": expected_seq, "now": seq},
            seq,
        )
    state = round_state(locked, records)
    reading = clock_reading_ms(state, effective_records(records))
    try:
        event = (event_for or (lambda st, ms: _event_for_tap(st, data, ms)))(state, reading)
        new_state = apply(state, event)
    except EngineError as error:
        raise BuzzerRefused(error.code, error_text(error), seq) from error
    except BuzzerRefused as refused:
        refused.seq = seq
        raise
    record = BuzzerEvent.objects.create(
        round=locked,
        seq=seq + 1,
        kind=event.kind,
        data=event.to_dict(),
        idempotency_key=key,
        submit_digest=digest,
        by=by if getattr(by, "is_authenticated", False) else None,
    )
    status = BuzzerRound.Status.FINISHED if new_state.over else BuzzerRound.Status.LIVE
    if locked.status != status:
        BuzzerRound.objects.filter(pk=locked.pk).update(status=status)
        round_.status = status
    return Appended(record, new_state, False)


def buzzer_undo(
    *, round: BuzzerRound, expected_seq: int | None, by: Any = None, idempotency_key: str = ""
) -> Appended:
    """Undo the latest event still in effect, as a new event (nothing is deleted)."""
    return buzzer_event_append(
        round=round,
        data={"kind": "undo"},
        expected_seq=expected_seq,
        by=by,
        idempotency_key=idempotency_key,
    )
