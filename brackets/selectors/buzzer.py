"""Reads for live buzzer rounds: the replayed state and the JSON the console and scoreboard draw.

The state of a round is always ``replay(config, players, events)`` from the engine, and its
JSON (with the display hints) the engine's ``scoreboard(state)``; this module only loads
the three inputs (a fixed number of queries, whatever the number of players or events) and
adds what the screens need beside the rules: names, the clock reading at this moment,
Japanese messages for the engine's codes, and who tapped when.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from brackets.engine import EngineError
from brackets.engine.buzzer import (
    PlayerSpec,
    Rejudge,
    RoundConfig,
    RoundState,
    ThrowOut,
    allowed_actions,
    apply,
    check,
    event_from_dict,
    protest_preview,
    replay,
    scoreboard,
    start,
    tiebreak_called,
)
from brackets.labels import group_name, round_name
from brackets.messages import engine_message, error_text
from brackets.models import (
    BuzzerEvent,
    BuzzerPlayer,
    BuzzerQuestionFile,
    BuzzerRound,
    BuzzerSettingsChange,
)
from brackets.selectors.buzzer_questions import (
    in_effect,
    judged_answer,
    newest_question_record,
    question_card,
)


def round_players(round_: BuzzerRound) -> list[BuzzerPlayer]:
    """Seats in seat order (one query)."""
    return list(BuzzerPlayer.objects.filter(round=round_).order_by("seat"))


def player_spec(player: BuzzerPlayer) -> PlayerSpec:
    """The engine's view of a seat: id, seat, fallback rank, advantage and carried values."""
    carried = player.carried or {}
    return PlayerSpec(
        id=player.key,
        seat=player.seat,
        rank=player.rank,
        advantage=player.advantage,
        points=int(carried.get("points", 0)),
        rests=int(carried.get("rests", 0)),
        board_correct=int(carried.get("board_correct", 0)),
    )


def round_specs(
    round_: BuzzerRound, players: Sequence[BuzzerPlayer] | None = None
) -> tuple[RoundConfig, list[PlayerSpec]]:
    """The engine inputs besides the events."""
    seats = list(players) if players is not None else round_players(round_)
    return RoundConfig.from_dict(round_.config), [player_spec(p) for p in seats]


def round_log(round_: BuzzerRound) -> list[BuzzerEvent]:
    """Every event of the round in order, with who entered it (one query)."""
    return list(BuzzerEvent.objects.filter(round=round_).select_related("by").order_by("seq"))


def latest_seq(round_id: int) -> int:
    """The newest sequence number of a round: one indexed query (the SSE poll)."""
    seq = (
        BuzzerEvent.objects.filter(round_id=round_id)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    return seq or 0


def display_version(seq: int, settings: int | None, questions: int | None) -> str:
    """What a round's screens show changes with: its newest event (``seq``), its newest
    settings edit and its newest question-file record (ids). ``"seq"`` while the round has
    neither, else ``"seq.settings.questions"``: a tap, an edit of a display setting
    (``show_answer``) and a question file confirmed or withdrawn each give a new version,
    and the screens redraw on a new version, not only on a new ``seq``."""
    if not settings and not questions:
        return str(seq)
    return f"{seq}.{settings or 0}.{questions or 0}"


def display_versions(round_ids: Sequence[int]) -> dict[int, str]:
    """:func:`display_version` of each round, in one query (the streams' change-watcher);
    a round that does not exist is missing from the answer."""
    newest_event = (BuzzerEvent.objects.filter(round=OuterRef("pk")).order_by("-seq")
                    .values("seq")[:1])
    newest_edit = (BuzzerSettingsChange.objects.filter(round=OuterRef("pk")).order_by("-id")
                   .values("id")[:1])
    newest_file = (BuzzerQuestionFile.objects.filter(round=OuterRef("pk")).order_by("-id")
                   .values("id")[:1])
    rows = (
        BuzzerRound.objects.filter(pk__in=list(round_ids))
        .order_by()
        .annotate(seq=Subquery(newest_event), edit=Subquery(newest_edit),
                  file=Subquery(newest_file))
        .values_list("pk", "seq", "edit", "file")
    )
    return {int(pk): display_version(seq or 0, edit, file) for pk, seq, edit, file in rows}


def round_state(
    round_: BuzzerRound,
    records: Sequence[BuzzerEvent] | None = None,
    players: Sequence[BuzzerPlayer] | None = None,
) -> RoundState:
    """``replay(config, players, events)``: the only way a round's state is obtained."""
    config, specs = round_specs(round_, players)
    log = list(records) if records is not None else round_log(round_)
    return replay(config, specs, [event_from_dict(r.data) for r in log])


def effective_records(records: Sequence[BuzzerEvent]) -> list[BuzzerEvent]:
    """The records still in effect after the undos (for timestamps shown beside events)."""
    stack: list[BuzzerEvent] = []
    for record in records:
        if record.kind == "undo":
            if stack:
                stack.pop()
        else:
            stack.append(record)
    return stack


def clock_reading_ms(
    state: RoundState, effective: Sequence[BuzzerEvent], now: datetime.datetime | None = None
) -> int | None:
    """The round clock now: the engine's reading at the last start plus wall time since.

    ``None`` for a round without a clock. The engine keeps readings only; the wall time
    comes from the ``at`` of the clock-start record still in effect.
    """
    clock = state.clock
    if clock.limit_ms is None:
        return None
    if not clock.running:
        return clock.elapsed_ms
    started = next((r for r in reversed(effective) if r.kind == "clock_start"), None)
    if started is None:
        return clock.elapsed_ms
    now = now or timezone.now()
    since = int((now - started.at).total_seconds() * 1000)
    return clock.elapsed_ms + max(since, 0)


PROTEST_KINDS = ("rejudge", "throw_out")

STATUS_LABELS = {
    "active": "",
    "won": gettext_lazy("勝ち抜け"),
    # A buzzer round's 失格 is being out of the round (its loss condition), not a
    # disqualification for breaking a rule (H8): its own context gives it its own English.
    "out": pgettext_lazy("buzzer status", "失格"),
    "locked": gettext_lazy("解答権なし"),
    "continuing": gettext_lazy("継続"),
}


def _won_label(state: RoundState) -> str | None:
    """The badge of a player who went on from a written round, or None for a buzzer round.

    Why: a written round's survivors go on together at one question, so 「1抜け」「2抜け」
    (an order of winning) is wrong for them: M4's lone top or last one standing is revived
    (敗者復活), the rest pass on to the next step (通過). Buzzer rounds keep 「n抜け」.
    """
    if state.config.format != "written":
        return None
    return _("敗者復活") if state.end_reason == "revived" else _("通過")


def _status_label(
    p: Mapping[str, Any], *, disqualified: bool = True, won: str | None = None
) -> str:
    """The badge under a player; ``disqualified`` is False for a player who merely lost.

    Why: 失格 is what the rules call hitting the loss condition (2 wrongs in 10 up-down,
    6 in 10by10) or an explicit elimination line (M5 "下位2名が失格"). Players still
    standing when the slots fill (Number10, 5○2×) or beaten in the final (M6) are not
    disqualified, and the stage must not say they were: they are 敗退.
    """
    if p["status"] == "won" and won is not None:
        return won
    if p["status"] == "won":
        return _("%(n)d抜け") % {"n": p["win_order"]} if p.get("win_order") else _("勝ち抜け")
    if p["status"] == "out":
        return pgettext("buzzer status", "失格") if disqualified else _("敗退")
    if p["status"] == "locked":
        return _("解答権なし")
    if p.get("resting"):
        return _("%(n)d休") % {"n": p["rests"]}
    return ""


def _disqualified(state: RoundState, pid: str) -> bool:
    """Whether an out player was put out by a rule (loss condition, elimination line).

    Written rounds keep 失格 (the rules say a seated player is 失格); in a buzzer round a
    player out without meeting the loss condition, in a round with no elimination count,
    was out only because the winners' places were filled.
    """
    config = state.config
    if config.format != "buzzer" or config.eliminate is not None:
        return True
    return check(config.loss, state.players[pid])


def _mark(correct: bool) -> str:
    return "○" if correct else "×"


def protest_text(data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One line of the history for a protest record: what was decided."""
    question = data.get("question")
    late = _("（主催者承認）") if data.get("overrule") else ""
    if data.get("kind") == "throw_out":
        return _("第%(q)s問を没問（差し替え）") % {"q": question} + late
    player = str(data.get("player") or "")
    return _("第%(q)s問 %(name)s の判定を%(before)s→%(after)sに変更") % {
        "q": question,
        "name": names.get(player, player),
        "before": _mark(not data.get("correct")),
        "after": _mark(bool(data.get("correct"))),
    } + late


def superseded_by(
    round_: BuzzerRound, records: Sequence[BuzzerEvent], players: Sequence[BuzzerPlayer]
) -> dict[int, int]:
    """Which recorded taps a protest in effect replaced: {tap seq: protest seq}.

    The engine says, for each protest, which plain events it voided and where each event
    of the new version came from; this follows the records through those answers (and
    through undos, which take a protest's replacements back with it).
    """
    if not any(r.kind in PROTEST_KINDS for r in records):
        return {}
    config, specs = round_specs(round_, players)
    state = start(config, specs)
    origin: list[BuzzerEvent] = []
    marks: dict[int, int] = {}
    stack: list[tuple[RoundState, list[BuzzerEvent], dict[int, int]]] = []
    for record in records:
        event = event_from_dict(record.data)
        if record.kind == "undo":
            if stack:
                state, origin, marks = stack.pop()
            continue
        stack.append((state, origin, marks))
        if record.kind in PROTEST_KINDS:
            assert isinstance(event, Rejudge | ThrowOut)
            preview = protest_preview(state, event)
            marks = dict(marks)
            for voided in preview.voided:
                if voided.index is not None:
                    marks[origin[voided.index].seq] = record.seq
            origin = [record if i is None else origin[i] for i in preview.sources]
        else:
            origin = [*origin, record]
        state = apply(state, event)
    return marks


def _who(record: BuzzerEvent | None) -> str:
    if record is None or record.by is None:
        return ""
    return str(record.by.get_username())


def round_payload(round_: BuzzerRound, *, for_console: bool = False) -> dict[str, Any]:
    """Everything the scoreboard (and, with ``for_console``, the console) draws.

    Five queries (round players, events, users via select_related, the question file,
    the newest settings edit), whatever the number of players or events. Of a question file the public payload
    carries only the last judged question, and only with ``show_answer``; the question in
    play with its answer is in the console's payload alone.
    """
    players = round_players(round_)
    records = round_log(round_)
    state = round_state(round_, records, players)
    effective = effective_records(records)
    names = {p.key: p.name for p in players}
    data = scoreboard(state)
    allowed = allowed_actions(state)
    rows = []
    won = _won_label(state)
    for row in data["players"]:
        row = dict(row)
        row["name"] = names.get(row["id"], row["id"])
        row["label"] = _status_label(row, disqualified=_disqualified(state, row["id"]), won=won)
        if for_console:
            row["actions"] = sorted(allowed.players.get(row["id"], frozenset()))
            reason = allowed.blocked.get(row["id"])
            row["blocked"] = engine_message(reason) if reason else ""
        rows.append(row)
    data["players"] = rows
    data["names"] = names
    data["ranking"] = [dict(r, name=names.get(r["player"], r["player"])) for r in data["ranking"]]
    for decision in data["decisions"]:
        decision["names"] = [names.get(pid, pid) for pid in decision["candidates"]]
    reading = clock_reading_ms(state, effective)
    data["clock"]["reading_ms"] = reading
    data["seq"] = len(records)
    newest = newest_question_record(round_)
    questions = in_effect(newest)
    edit = (BuzzerSettingsChange.objects.filter(round=round_).order_by("-id")
            .values_list("id", flat=True).first())
    data["version"] = display_version(len(records), edit, newest.pk if newest else None)
    data["answer"] = judged_answer(questions, state)
    # The round's settings by slug, for scripts and exports reading the JSON; the screens
    # draw data["display"] (the engine's display hints) and compare none of these.
    data["round"] = {
        "id": round_.pk,
        "name": round_name(round_.name),
        "group": group_name(round_.group_name),
        "status": round_.status,
        "format": state.config.format,
        "slots": state.config.slots,
        "scoring": state.config.scoring.slug,
        "sets_to_win": state.config.sets_to_win,
        "tie_rule": state.config.tie_rule,
    }
    if for_console:
        data["questions"] = question_card(questions, state)
        data["allowed"] = sorted(allowed.round)
        last = records[-1] if records else None
        # A protest's line says what was decided (the earlier tap stays in its own line).
        replaced = superseded_by(round_, records, players)
        data["log"] = [
            {
                "seq": r.seq,
                "kind": r.kind,
                "data": r.data,
                "text": protest_text(r.data, names) if r.kind in PROTEST_KINDS else "",
                "by": _who(r),
                "at": timezone.localtime(r.at).strftime("%H:%M:%S"),
                "in_effect": r in effective,
                "superseded_by": replaced.get(r.seq),
            }
            for r in records[-30:][::-1]
        ]
        data["last"] = {"by": _who(last), "kind": last.kind if last else ""}
    return data


def tiebreak_is_playoff(round_: BuzzerRound) -> bool:
    """Whether a tie-break round is an 早押しプレーオフ (M3/M5), not a サドンデス (L11).

    The parent round's tie rule names it; a round that is no tie-break, or whose parent's
    stored settings do not read as a config, is a サドンデス.
    """
    if round_.parent is None:
        return False
    try:
        return tiebreak_called(RoundConfig.from_dict(round_.parent.config)) == "playoff"
    except EngineError:
        return False


def tournament_rounds(tournament_id: int) -> list[BuzzerRound]:
    """The tournament's live rounds in running order (one query)."""
    return list(BuzzerRound.objects.filter(tournament_id=tournament_id).order_by("position", "id"))


def safe_payload(round_: BuzzerRound, *, for_console: bool = False) -> dict[str, Any]:
    """``round_payload``, or an error payload when the stored settings do not replay.

    A screen must never go blank at the venue because of one bad record; the message says
    what to fix.
    """
    try:
        return round_payload(round_, for_console=for_console)
    except EngineError as error:
        return {
            "error": error_text(error),
            "seq": latest_seq(round_.pk),
            "round": {"id": round_.pk, "name": round_name(round_.name),
                      "group": group_name(round_.group_name)},
        }
