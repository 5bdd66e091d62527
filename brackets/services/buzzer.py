"""Writes for live buzzer rounds: create a round, append an operator's tap, upload markings.

Every rule lives in :mod:`brackets.engine.buzzer`. This module only turns a tap into an
engine event, asks the engine whether the event is allowed (by applying it to the replayed
state: ``EngineError`` means refused, nothing stored) and appends it to the log with who and
when. Appends are serialised per round: the round row is locked, the operator's expected
sequence number must equal the log's length (a stale screen is refused instead of silently
interleaving with another operator), and a repeated idempotency key returns the first
record instead of storing the tap twice.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from brackets.engine.buzzer import (
    PRESETS,
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
    entrants,
    event_from_dict,
    is_skipped,
    number10_courses,
    start,
    tiebreak_called,
    tiebreak_round,
)
from brackets.engine.errors import EngineError
from brackets.models import (
    BuzzerEvent,
    BuzzerPlayer,
    BuzzerRound,
    Entrant,
    PaperMarking,
    Tournament,
)
from brackets.selectors.buzzer import (
    clock_reading_ms,
    effective_records,
    engine_message,
    round_log,
    round_players,
    round_specs,
    round_state,
)


class BuzzerRefused(Exception):
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
        raise BuzzerRefused(error.code, engine_message(error.code, error.params)) from error
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
        raise BuzzerRefused(error.code, engine_message(error.code, error.params)) from error
    if existing is not None and existing.status != BuzzerRound.Status.FINISHED:
        return existing
    seats = {p.key: p for p in round_players(locked)}
    side_label = {"win": _("勝ち抜け側"), "loss": _("失格側"), "both": _("両側")}.get(side, side)
    name = (
        _("%(name)s プレーオフ（%(side)s）")
        if tiebreak_called(state.config) == "playoff"
        else _("%(name)s サドンデス（%(side)s）")
    )
    return buzzer_round_create(
        tournament=round.tournament,
        name=name % {"name": locked.name, "side": side_label},
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
    payload = dict(data)
    if kind in ("board", "written"):
        payload["question"] = question
    try:
        return event_from_dict(payload)
    except EngineError as error:
        raise BuzzerRefused(error.code, engine_message(error.code, error.params)) from error


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
    key = (idempotency_key or "")[:64]
    try:
        with transaction.atomic():
            return _append(round, data, expected_seq, by, key)
    except IntegrityError:
        # Another process appended the same seq (or the same key) between our read and write.
        if key:
            earlier = BuzzerEvent.objects.filter(round=round, idempotency_key=key).first()
            if earlier is not None:
                return Appended(earlier, round_state(round), True)
        seq = BuzzerEvent.objects.filter(round=round).count()
        raise BuzzerRefused(
            "stale", _("別の端末で先に入力されました。画面を更新してからやり直してください。"), seq
        ) from None


def _append(
    round_: BuzzerRound, data: Mapping[str, Any], expected_seq: int | None, by: Any, key: str
) -> Appended:
    # Lock the round row: appends to one round happen one at a time on PostgreSQL (SQLite
    # already serialises writers with IMMEDIATE transactions).
    locked = BuzzerRound.objects.select_for_update().get(pk=round_.pk)
    if key:
        earlier = BuzzerEvent.objects.filter(round=locked, idempotency_key=key).first()
        if earlier is not None:
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
    event = _event_for_tap(state, data, reading)
    try:
        new_state = apply(state, event)
    except EngineError as error:
        raise BuzzerRefused(error.code, engine_message(error.code, error.params), seq) from error
    record = BuzzerEvent.objects.create(
        round=locked,
        seq=seq + 1,
        kind=event.kind,
        data=event.to_dict(),
        idempotency_key=key,
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


# ------------------------------------------------------------------------- paper quiz

TRUE_MARKS = {"1", "○", "〇", "o", "O", "◯", "true", "TRUE", "正", "✓"}
FALSE_MARKS = {"0", "×", "x", "X", "✕", "false", "FALSE", "誤", "", "-"}


def _read_table(content: bytes, filename: str) -> list[list[str]]:
    """Rows of the uploaded sheet as strings (first sheet of an .xlsx, or a CSV)."""
    if filename.lower().endswith(".xlsx"):
        from openpyxl import load_workbook

        try:
            book = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
        except Exception as error:  # openpyxl raises many kinds for a broken file
            raise BuzzerRefused("bad_file", _("Excelファイルを読み込めませんでした。")) from error
        sheet = book.worksheets[0]
        return [
            [
                ""
                if v is None
                else str(int(v) if isinstance(v, float) and v.is_integer() else v).strip()
                for v in row
            ]
            for row in sheet.iter_rows(values_only=True)
        ]
    from charset_normalizer import from_bytes

    best = from_bytes(content).best()
    text = str(best) if best is not None else content.decode("utf-8", errors="replace")
    return [
        [cell.strip() for cell in row] for row in csv.reader(io.StringIO(text.lstrip("\ufeff")))
    ]


def paper_sheet_parse(content: bytes, filename: str, questions: int) -> list[dict[str, Any]]:
    """Parse a marking sheet: a header row ``名前, 1, 2, …, N``, one row per entrant.

    Every question 1..N must have a column (a missing one is refused, naming it); marks are
    1/0 or ○/×; a blank counts as wrong (nothing written).
    """
    table = [row for row in _read_table(content, filename) if any(cell for cell in row)]
    if not table:
        raise BuzzerRefused("bad_file", _("シートが空です。"))
    header = table[0]
    columns: dict[int, int] = {}
    for index, cell in enumerate(header[1:], start=1):
        label = cell.upper().removeprefix("Q").removesuffix("問").strip()
        if label.isdigit():
            columns[int(label)] = index
    missing = [q for q in range(1, questions + 1) if q not in columns]
    if missing:
        shown = "、".join(f"Q{q}" for q in missing[:10]) + ("…" if len(missing) > 10 else "")
        raise BuzzerRefused("missing_column", _("問題の列がありません: %(cols)s") % {"cols": shown})
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for line, row in enumerate(table[1:], start=2):
        name = row[0] if row else ""
        if not name:
            raise BuzzerRefused("bad_row", _("%(line)d行目: 名前がありません。") % {"line": line})
        if name in seen:
            raise BuzzerRefused(
                "bad_row",
                _("%(line)d行目: 「%(name)s」が2回あります。") % {"line": line, "name": name},
            )
        seen.add(name)
        marks = []
        for q in range(1, questions + 1):
            col = columns[q]
            cell = row[col] if col < len(row) else ""
            if cell in TRUE_MARKS:
                marks.append("1")
            elif cell in FALSE_MARKS:
                marks.append("0")
            else:
                raise BuzzerRefused(
                    "bad_mark",
                    _("%(line)d行目 Q%(q)d: 「%(cell)s」は ○(1) か ×(0) で入力してください。")
                    % {"line": line, "q": q, "cell": cell},
                )
        rows.append({"name": name, "marks": "".join(marks)})
    return rows


@transaction.atomic
def paper_marking_upload(
    *,
    tournament: Tournament,
    name: str,
    questions: int,
    content: bytes,
    filename: str,
    first_half: int = 50,
    by: Any = None,
    lottery_seed: str = "",
) -> PaperMarking:
    """Store an uploaded marking sheet (a new record; an earlier upload stays as history).

    Rows are matched to entrants by name or card name where one matches, so the ranked
    list can link to the entrant.
    """
    if questions < 1:
        raise BuzzerRefused("bad_request", _("問題数は1以上にしてください。"))
    if not 0 <= first_half <= questions:
        raise BuzzerRefused("bad_request", _("前半の問題数は問題数以下にしてください。"))
    rows = paper_sheet_parse(content, filename, questions)
    by_name: dict[str, int] = {}
    for entrant_id, entrant_name, card in Entrant.objects.filter(tournament=tournament).values_list(
        "id", "name", "card_name"
    ):
        by_name.setdefault(entrant_name, entrant_id)
        by_name.setdefault(card, entrant_id)
    for row in rows:
        row["entrant"] = by_name.get(row["name"])
    return PaperMarking.objects.create(
        tournament=tournament,
        name=name,
        questions=questions,
        first_half=first_half,
        rows=rows,
        filename=filename[:200],
        lottery_seed=lottery_seed or tournament.lottery_seed,
        by=by if getattr(by, "is_authenticated", False) else None,
    )


# ---------------------------------------------------------------------------- presets


def available_presets() -> list[Any]:
    """The engine's whole-tournament presets (seed 003, seed 004 …), in slug order."""

    return [PRESETS.get(slug) for slug in PRESETS.slugs()]


def _first_round_rows(tournament: Tournament, names: Sequence[str]) -> list[dict[str, Any]]:
    """1st Round ranking rows (best first) with stable player keys for every later round."""
    by_name: dict[str, Entrant] = {}
    for entrant in Entrant.objects.filter(tournament=tournament):
        by_name.setdefault(entrant.name, entrant)
        by_name.setdefault(entrant.card_name, entrant)
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index, raw in enumerate(names, start=1):
        name = raw.strip()
        if not name:
            continue
        if name in seen:
            raise BuzzerRefused("bad_player", _("「%(name)s」が2回あります。") % {"name": name})
        seen.add(name)
        entrant = by_name.get(name)
        key = f"e{entrant.pk}" if entrant is not None else f"r{len(rows) + 1}"
        rows.append({"key": key, "name": name, "entrant": entrant.pk if entrant else None})
    if not rows:
        raise BuzzerRefused("bad_player", _("1R順位を1人以上入力してください。"))
    return rows


def _preset_results(
    tournament: Tournament, preset_slug: str
) -> tuple[dict[str, list[RoundState]], dict[str, list[BuzzerRound]]]:
    """Replayed states of the preset's rounds already created, by round slug (groups in order)."""
    rounds = list(
        BuzzerRound.objects.filter(
            tournament=tournament, preset=preset_slug, parent__isnull=True
        ).order_by("position", "group_name", "id")
    )
    states: dict[str, list[RoundState]] = {}
    by_slug: dict[str, list[BuzzerRound]] = {}
    for round_ in rounds:
        states.setdefault(round_.round_slug, []).append(round_state(round_))
        by_slug.setdefault(round_.round_slug, []).append(round_)
    return states, by_slug


@transaction.atomic
def _fed_entrants(tp: Any, round_slug: str, results: Any, ranks: Any, **kwargs: Any) -> Any:
    """The engine's seating of a preset round from the rounds that feed it; an engine
    refusal (feeding round unfinished or missing) becomes a message for staff."""

    try:
        return entrants(tp, round_slug, results, ranks, **kwargs)
    except EngineError as error:
        messages = {
            "round_not_over": _("前のラウンドがまだ終わっていません。"),
            "missing_result": _("前のラウンドがまだ作成されていません。"),
        }
        raise BuzzerRefused(
            error.code, messages.get(error.code) or engine_message(error.code, error.params)
        ) from error


def preset_round_seat(
    *,
    tournament: Tournament,
    preset: str,
    round_slug: str,
    by: Any = None,
    first_round: Sequence[str] | None = None,
    groups: int | None = None,
) -> list[BuzzerRound]:
    """Create one round of a preset, one :class:`BuzzerRound` per group, seated by the engine.

    The engine's :func:`~brackets.engine.buzzer.presets.entrants` evaluates the round's
    feed against the finished rounds of the same preset (winners of one round feed the
    next, carried points and all). ``first_round`` is the 1st Round ranking (names, best
    first), needed by rounds fed from "1r"; later rounds reuse the ranking their sources
    were seated with.
    """

    try:
        tp = PRESETS.get(preset)
        rp = tp.round(round_slug)
    except EngineError as error:
        raise BuzzerRefused(error.code, _("プリセットのラウンドが見つかりません。")) from error
    if rp.config is None or rp.feed is None:
        raise BuzzerRefused(
            "no_feed", _("このラウンドは早押し画面では進行しません（ペーパークイズなど）。")
        )
    results, by_slug = _preset_results(tournament, preset)
    if round_slug in by_slug:
        raise BuzzerRefused("exists", _("このラウンドはすでに作成されています。"))

    if is_skipped(tp, round_slug, dict(results)):
        raise BuzzerRefused(
            "skipped", _("前のステップで敗者復活が決まったため、このラウンドは行いません。")
        )
    if first_round:
        rows = _first_round_rows(tournament, first_round)
    else:
        sources = [r for src in rp.feed.sources for r in by_slug.get(src, [])]
        if not sources:
            sources = [r for rs in by_slug.values() for r in rs]
        rows = next((list(r.first_round) for r in sources if r.first_round), [])
        if not rows:
            raise BuzzerRefused("no_ranking", _("1R順位を入力してください。"))
    ranks = {row["key"]: index for index, row in enumerate(rows, start=1)}
    names = {row["key"]: row["name"] for row in rows}
    entrant_ids = {row["key"]: row.get("entrant") for row in rows}
    split = _fed_entrants(tp, round_slug, results, ranks, groups=groups)
    if rp.feed.grouping == "courses":
        raise BuzzerRefused(
            "courses",
            _(
                "コースは参加者が選びます（優先順: %(order)s）。「コース決め」の欄から作成してください。"
            )
            % {"order": "、".join(names.get(s.id, s.id) for s in split[0])},
        )
    entrant_objs = {
        e.pk: e
        for e in Entrant.objects.filter(
            tournament=tournament, pk__in=[i for i in entrant_ids.values() if i]
        )
    }
    feeds_from = next((r for src in rp.feed.sources for r in by_slug.get(src, [])), None)
    position = list(tp.rounds).index(rp) * 10
    created: list[BuzzerRound] = []
    labels = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for index, specs in enumerate(split):
        if not specs:
            continue
        round_ = buzzer_round_create(
            tournament=tournament,
            name=rp.name,
            group_name=f"{labels[index]}組" if len(split) > 1 else "",
            config=rp.config,
            players=[
                {
                    "key": s.id,
                    "name": names.get(s.id, s.id),
                    "entrant": entrant_objs.get(entrant_ids.get(s.id) or 0),
                    "seat": s.seat,
                    "rank": s.rank,
                    "advantage": s.advantage,
                    "carried": {
                        "points": s.points,
                        "rests": s.rests,
                        "board_correct": s.board_correct,
                    },
                }
                for s in specs
            ],
            by=by,
            preset=preset,
            round_slug=round_slug,
            position=position + index,
            feeds_from=feeds_from,
        )
        BuzzerRound.objects.filter(pk=round_.pk).update(first_round=rows)
        round_.first_round = rows
        created.append(round_)
    return created


def preset_rounds_create(
    *, tournament: Tournament, preset: str, by: Any = None
) -> list[BuzzerRound]:
    """Seat every round of ``preset`` that can be seated now (sources over, ranking known)."""

    try:
        tp = PRESETS.get(preset)
    except EngineError as error:
        raise BuzzerRefused(error.code, _("プリセットが見つかりません。")) from error
    created: list[BuzzerRound] = []
    for rp in tp.rounds:
        try:
            created += preset_round_seat(
                tournament=tournament, preset=preset, round_slug=rp.slug, by=by
            )
        except BuzzerRefused:
            continue
    return created


@transaction.atomic
def preset_courses_seat(
    *,
    tournament: Tournament,
    preset: str,
    order: Sequence[str],
    raised: Mapping[str, Sequence[str]],
    by: Any = None,
) -> list[BuzzerRound]:
    """Number10 (M3): seat the course rounds after the entry time.

    ``order`` is the courses' drawn order (round slugs); ``raised[slug]`` the names who
    held a plate up for that course. The engine's priority (2R pass order → 1R rank),
    overflow and forced filling (:func:`~brackets.engine.buzzer.assignment.number10_courses`)
    decide who plays where; each course becomes one round, seated in priority order.
    """

    try:
        tp = PRESETS.get(preset)
    except EngineError as error:
        raise BuzzerRefused(error.code, _("プリセットが見つかりません。")) from error
    courses = [r for r in tp.rounds if r.feed is not None and r.feed.grouping == "courses"]
    slugs = [r.slug for r in courses]
    if not courses:
        raise BuzzerRefused("no_courses", _("このプリセットにはコース選択がありません。"))
    if sorted(order) != sorted(slugs):
        raise BuzzerRefused("bad_request", _("コースの順番をすべて入力してください。"))
    results, by_slug = _preset_results(tournament, preset)
    if any(slug in by_slug for slug in slugs):
        raise BuzzerRefused("exists", _("コースのラウンドはすでに作成されています。"))
    sources = [r for src in courses[0].feed.sources for r in by_slug.get(src, [])]  # type: ignore[union-attr]
    rows = next((list(r.first_round) for r in sources if r.first_round), [])
    if not rows:
        raise BuzzerRefused("missing_result", _("前のラウンドがまだ作成されていません。"))
    ranks = {row["key"]: index for index, row in enumerate(rows, start=1)}
    names = {row["key"]: row["name"] for row in rows}
    priority_specs = _fed_entrants(tp, slugs[0], results, ranks)[0]
    specs = {spec.id: spec for spec in priority_specs}
    priority = [spec.id for spec in priority_specs]
    key_of = {names[pid]: pid for pid in priority}
    raised_keys: dict[str, list[str]] = {}
    for slug in slugs:
        keys = []
        for name in raised.get(slug, ()):
            name = name.strip()
            if not name:
                continue
            if name not in key_of:
                raise BuzzerRefused(
                    "unknown_player",
                    _("「%(name)s」はこのラウンドの参加者ではありません。") % {"name": name},
                )
            keys.append(key_of[name])
        raised_keys[slug] = keys
    size = len(priority) // len(slugs)
    try:
        placed = number10_courses(list(order), raised_keys, priority, size=size)
    except EngineError as error:
        raise BuzzerRefused(error.code, engine_message(error.code, error.params)) from error
    entrant_ids = {row["key"]: row.get("entrant") for row in rows}
    entrant_objs = {
        e.pk: e
        for e in Entrant.objects.filter(
            tournament=tournament, pk__in=[i for i in entrant_ids.values() if i]
        )
    }
    feeds_from = sources[0] if sources else None
    created: list[BuzzerRound] = []
    for index, slug in enumerate(order):
        rp = tp.round(slug)
        seated = sorted(placed[slug], key=priority.index)
        round_ = buzzer_round_create(
            tournament=tournament,
            name=rp.name,
            config=rp.config,  # type: ignore[arg-type]
            players=[
                {
                    "key": pid,
                    "name": names.get(pid, pid),
                    "entrant": entrant_objs.get(entrant_ids.get(pid) or 0),
                    "seat": seat,
                    "rank": specs[pid].rank,
                }
                for seat, pid in enumerate(seated, start=1)
            ],
            by=by,
            preset=preset,
            round_slug=slug,
            position=list(tp.rounds).index(courses[0]) * 10 + index,
            feeds_from=feeds_from,
        )
        BuzzerRound.objects.filter(pk=round_.pk).update(first_round=rows)
        round_.first_round = rows
        created.append(round_)
    return created
