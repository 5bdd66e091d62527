"""Reads for a buzzer round's files: the spreadsheet and the judge's score sheet.

Everything here is what the screens already show, laid out for paper: the engine's decided
version question by question (:func:`brackets.engine.buzzer.question_history`), the
scoreboard's numbers and badges for each player after each question, the final ranking of
:func:`brackets.selectors.buzzer.round_payload` (the page's own payload), and the protest
history with who decided. No rule is decided here; the rule summary only names the round's
settings as the settings form does (:data:`brackets.engine.buzzer.LABELS`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from brackets.engine import EngineError
from brackets.engine.buzzer import (
    LABELS,
    BoardResults,
    Correct,
    Event,
    QuestionRecord,
    Rejudge,
    RoundConfig,
    RoundState,
    ThrowOut,
    Thru,
    WrittenResults,
    Wrong,
    apply,
    config_values,
    display_hints,
    event_from_dict,
    player_rows,
    protest_preview,
    question_history,
    setting_fields,
    start,
)
from brackets.errors import DocumentError
from brackets.labels import group_name, round_name
from brackets.messages import error_text
from brackets.models import BuzzerEvent, BuzzerPlayer, BuzzerRound, Tournament
from brackets.selectors.buzzer import (
    PROTEST_KINDS,
    _disqualified,
    _status_label,
    _won_label,
    effective_records,
    protest_text,
    round_log,
    round_payload,
    round_players,
    round_specs,
    round_state,
)


@dataclass(frozen=True)
class SheetPlayer:
    """A seat as the sheets print it."""

    key: str
    seat: int
    name: str


@dataclass(frozen=True)
class QuestionLine:
    """One question of the decided version: who answered, the judgement, every player's
    numbers after it (seat order), the marks a judge writes for it, and what a protest
    changed on it."""

    number: int
    answers: str
    judgement: str
    cells: tuple[str, ...]
    marks: tuple[str, ...]
    note: str = ""
    closed: bool = True
    #: Read in place of a thrown-out question (没問の差し替え).
    replaced: bool = False


@dataclass(frozen=True)
class ProtestLine:
    """A protest record (審議・没問) with who decided and whether it still stands."""

    seq: int
    at: str
    by: str
    text: str
    in_effect: bool


@dataclass(frozen=True)
class BuzzerRoundDoc:
    """A round for its files; ``standings`` is a table (header row first)."""

    round_id: int
    name: str
    group: str
    status: str
    rules: tuple[str, ...]
    unit: str
    question_limit: int | None
    players: tuple[SheetPlayer, ...]
    questions: tuple[QuestionLine, ...]
    standings: list[list[Any]]
    protests: tuple[ProtestLine, ...] = ()
    settings: list[list[Any]] = field(default_factory=list)
    #: Whether the round is over (its ranking final, not provisional).
    over: bool = False
    #: Each player's place in seat order, as ``standings`` ranks them.
    places: tuple[int, ...] = ()

    @property
    def title(self) -> str:
        return f"{self.name}　{self.group}".strip()

    @property
    def totals(self) -> tuple[str, ...]:
        """Each player's numbers now (after the last question), seat order."""
        return self.questions[-1].cells if self.questions else ()


def _condition(rule: Any) -> str:
    """A win / loss / lockout condition as staff read it (the form's label with its n)."""
    label = _(LABELS["conditions"].get(rule.slug, rule.slug))
    n = rule.params.get("n")
    return label.replace(" n ", f" {n} ") if n is not None else label


#: Scorings whose numbers the summary states (the others' label says it all).
SCORING_TEXT = {
    "plus-minus": gettext_noop("+%(plus)d/−%(minus)d"),
    "by": gettext_noop("%(n)d by %(n)d"),
    "rest-fixed": gettext_noop("誤答で%(rests)d問休み"),
    "rentou": gettext_noop("連答つき（連答権ありの正解で%(streak_points)dポイント）"),
    "board": gettext_noop("ボードクイズ（早押し+%(plus)d/−%(minus)d、ボード正解+%(board)d）"),
}


def _scoring_text(config: RoundConfig) -> str:
    """The scoring as staff name it, with its numbers (+2/−1, 10 by 10) where it has any."""
    slug = config.scoring.slug
    template = SCORING_TEXT.get(slug)
    if template is None:
        return _(LABELS["scoring"].get(slug, slug))
    values = config_values(config)
    params = {sf.param.name: values[sf.key] for sf in setting_fields()
              if sf.section == "scoring" and sf.slug == slug}
    return _(template) % params


def rule_summary(config: RoundConfig) -> tuple[str, ...]:
    """The round's settings in a few words for a sheet's header: 5○2×, Number10 (10○・N休),
    勝ち抜け人数, 限定問題数, 制限時間, アドバンテージ, 判定順, 同点のとき."""
    parts: list[str] = []
    win, loss = config.win, config.loss
    if config.format == "written" and config.written is not None:
        w = config.written
        parts.append(_(LABELS["formats"]["written"]))
        parts.append(_("%(n)d回の誤答・無回答で着席") % {"n": w.lives})
        parts.append(_("最終問題 第%(n)d問") % {"n": w.last_question})
        parts.append(_("通過%(n)d人まで") % {"n": w.pass_max})
        return tuple(parts)
    if (win is not None and loss is not None and win.slug == "correct-at-least"
            and loss.slug == "wrong-at-least"):
        parts.append(f"{win.params.get('n')}○{loss.params.get('n')}×")
    else:
        if win is not None:
            parts.append(_("勝ち抜け: %(c)s") % {"c": _condition(win)})
        if loss is not None:
            parts.append(_("失格: %(c)s") % {"c": _condition(loss)})
    if config.scoring.slug != "nomx":
        parts.append(_scoring_text(config))
    if config.lockout is not None:
        parts.append(_("解答権剥奪: %(c)s") % {"c": _condition(config.lockout)})
    if config.rests is not None:
        parts.append(_(LABELS["rest_rules"].get(config.rests.slug, config.rests.slug)))
    if config.sets_to_win:
        parts.append(_("%(n)dセット先取") % {"n": config.sets_to_win})
    if config.slots:
        parts.append(_("勝ち抜け%(n)d人") % {"n": config.slots})
    if config.question_limit:
        parts.append(_("限定%(n)d問") % {"n": config.question_limit})
    if config.clock_ms:
        minutes, seconds = divmod(config.clock_ms // 1000, 60)
        parts.append(_("制限時間%(m)d分%(s)02d秒") % {"m": minutes, "s": seconds})
    if config.advantages:
        parts.append(_("アドバンテージ %(a)s") % {"a": ",".join(map(str, config.advantages))})
    if config.question_limit or config.clock_ms:
        keys = " → ".join(_(LABELS["judge_keys"].get(k, k)) for k in config.judge_keys)
        parts.append(_("判定: %(keys)s") % {"keys": keys})
        parts.append(_(LABELS["tie_rules"].get(config.tie_rule, config.tie_rule)))
    return tuple(parts)


def _numbers(row: Mapping[str, Any], unit: str, label: str) -> str:
    """A player's numbers as the scoreboard shows them: 3○1×, 12P ×1, (3 × 8), the badge."""
    text = f"{row['main']}{unit}"
    if unit == "○":
        text += f"{row['wrong']}×"
    elif row["wrong"]:
        text += f" {row['wrong']}×"
    if row.get("factors"):
        text += " (" + " × ".join(str(f) for f in row["factors"]) + ")"
    if row.get("sets"):
        text += " " + _("%(n)dセット") % {"n": row["sets"]}
    return f"{text} {label}".strip()


def _cells(state: RoundState, unit: str, won: str | None) -> tuple[str, ...]:
    return tuple(
        _numbers(row, unit, _status_label(row, disqualified=_disqualified(state, row["id"]),
                                          won=won))
        for row in player_rows(state)
    )


def _marks(events: Sequence[Event], seat_order: Sequence[str]) -> tuple[str, ...]:
    """What a judge writes in each player's box for a question: ○ or × (boards: ○ for a
    correct board, the buzzer's judgement; written: every mark)."""
    marks: dict[str, str] = {}
    for event in events:
        if isinstance(event, Correct):
            marks[event.player] = "○"
        elif isinstance(event, Wrong):
            marks[event.player] = "×"
        elif isinstance(event, BoardResults):
            for pid in event.correct:
                marks[pid] = "○"
            if event.buzzer is not None:
                marks[event.buzzer] = "○" if event.buzzer_correct else "×"
        elif isinstance(event, WrittenResults):
            for pid, ok in event.marks:
                marks[pid] = "○" if ok else "×"
    return tuple(marks.get(pid, "") for pid in seat_order)


def _answers(record: QuestionRecord, names: Mapping[str, str]) -> tuple[str, str]:
    """(who answered, the judgement) for one question."""
    buzzes: list[str] = []
    judgement = ""
    for event in record.events:
        if isinstance(event, Correct | Wrong):
            mark = "○" if isinstance(event, Correct) else "×"
            buzzes.append(f"{names.get(event.player, event.player)}{mark}")
            if judgement != "○":
                judgement = mark
        elif isinstance(event, Thru) and not judgement:
            judgement = _("スルー")
        elif isinstance(event, BoardResults):
            if event.buzzer is not None:
                mark = "○" if event.buzzer_correct else "×"
                buzzes.append(_("早押し %(name)s%(mark)s") % {
                    "name": names.get(event.buzzer, event.buzzer), "mark": mark})
            board = [names.get(pid, pid) for pid in sorted(event.correct)]
            buzzes.append(_("ボード正解: %(names)s") % {"names": "、".join(board) or "—"})
            judgement = _("ボード正解%(n)d人") % {"n": len(event.correct)}
        elif isinstance(event, WrittenResults):
            judgement = _("正解%(n)d人") % {"n": sum(1 for _p, ok in event.marks if ok)}
    if not record.closed:
        judgement = judgement + " " + _("（出題中）") if judgement else _("（出題中）")
    elif judgement == "×":
        judgement = _("×（正解なし）")
    return " → ".join(buzzes), judgement


def _voided_answers(preview_voided: Sequence[Any], question: int,
                    names: Mapping[str, str]) -> str:
    texts = []
    for voided in preview_voided:
        event = voided.event
        if voided.question != question or voided.code != "protest_thrown":
            continue
        if isinstance(event, Correct | Wrong):
            mark = "○" if isinstance(event, Correct) else "×"
            texts.append(f"{names.get(event.player, event.player)}{mark}")
    return "、".join(texts)


def _who(record: BuzzerEvent) -> str:
    return str(record.by.get_username()) if record.by is not None else ""


def protest_notes(round_: BuzzerRound, records: Sequence[BuzzerEvent],
                  players: Sequence[BuzzerPlayer], names: Mapping[str, str]
                  ) -> tuple[dict[int, str], set[int]]:
    """The note of each question of the decided version that a protest in effect changed,
    and the questions read in place of a thrown-out one.

    A protest names its question as numbered when it was decided; a question thrown out
    later renumbers the ones after it, and the notes follow.
    """
    effective = effective_records(records)
    if not any(r.kind in PROTEST_KINDS for r in effective):
        return {}, set()
    config, specs = round_specs(round_, players)
    state = start(config, specs)
    notes: list[tuple[int, str]] = []
    replaced: set[int] = set()
    for record in effective:
        event = event_from_dict(record.data)
        if isinstance(event, Rejudge):
            notes.append((event.question, _("審議: %(text)s（%(by)s）") % {
                "text": protest_text(record.data, names), "by": _who(record)}))
        elif isinstance(event, ThrowOut):
            original = _voided_answers(protest_preview(state, event).voided, event.question,
                                       names)
            notes = [(q - 1 if q > event.question else q, text) for q, text in notes
                     if q != event.question]
            replaced = {q - 1 if q > event.question else q for q in replaced} | {event.question}
            text = _("没問の差し替え問題（%(by)s）") % {"by": _who(record)}
            if original:
                text += " " + _("元の問題: %(answers)s") % {"answers": original}
            notes.append((event.question, text))
        state = apply(state, event)
    merged: dict[int, str] = {}
    for question, text in notes:
        merged[question] = f"{merged[question]} / {text}" if question in merged else text
    return merged, replaced


def _protest_lines(records: Sequence[BuzzerEvent], names: Mapping[str, str]
                   ) -> tuple[ProtestLine, ...]:
    effective = {r.seq for r in effective_records(records)}
    return tuple(
        ProtestLine(r.seq, timezone.localtime(r.at).strftime("%H:%M:%S"), _who(r),
                    protest_text(r.data, names), r.seq in effective)
        for r in records if r.kind in PROTEST_KINDS
    )


def _standings(payload: Mapping[str, Any], config: RoundConfig,
               ranks: Mapping[str, int | None]) -> list[list[Any]]:
    """The final ranking as the round shows it, with the data its judging used."""
    display = payload["display"]
    rows_by_id = {row["id"]: row for row in payload["players"]}
    keys = set(config.judge_keys)
    head: list[Any] = [_("順位"), _("席"), _("選手"),
                       _("ポイント") if display["main"] == "points" else _("○数"), _("×数")]
    extra: list[tuple[str, str]] = []
    if display["factors"]:
        extra += [("factor0", _("正解ポイント")), ("factor1", _("誤答ポイント"))]
    if display["sets"]:
        extra.append(("sets", _("獲得セット数")))
    if "fewer_misses" in keys or config.scoring.slug in ("swedish",):
        extra.append(("misses", _("誤答数")))
    if "board_correct" in keys or config.scoring.slug == "board":
        extra.append(("board_correct", _("ボード正解数")))
    if "later_first_miss" in keys:
        extra.append(("first_miss", _("最初の誤答")))
    head += [label for _key, label in extra]
    head += [_("状態"), _("基準順位"), _("備考")]
    decided: dict[str, str] = {}
    called = _("プレーオフ") if display["tiebreak"] == "playoff" else _("サドンデス")
    for decision in payload["decisions"]:
        if decision["order"]:
            for place, pid in enumerate(decision["order"], start=1):
                decided[pid] = _("%(called)s%(n)d位") % {"called": called, "n": place}
        else:
            for pid in decision["candidates"]:
                decided[pid] = _("%(called)s待ち") % {"called": called}
    table: list[list[Any]] = [head]
    for entry in payload["ranking"]:
        row = rows_by_id[entry["player"]]
        line: list[Any] = [entry["position"], row["seat"], row["name"], row["main"],
                           row["wrong"]]
        for key, _label in extra:
            if key.startswith("factor"):
                factors = row.get("factors") or [None, None]
                line.append(factors[int(key[-1])])
            else:
                line.append(row.get(key))
        # A tie a sudden death settles (or will) is not one the fallback rank broke.
        note = decided.get(entry["player"]) or (
            _("同点（基準順位で決定）") if entry["tied"] else "")
        line += [row["label"], ranks.get(entry["player"]), note]
        table.append(line)
    return table


def _setting_text(param: Any, value: Any) -> Any:
    """A stored setting as the settings form shows it (labels for slugs, seconds for ms)."""
    if isinstance(value, bool):
        return _("はい") if value else _("いいえ")
    if value is None:
        return ""
    registry = LABELS.get(param.choices or "", {})
    if param.kind == "choice":
        return _(registry.get(value, value))
    if param.kind == "keys":
        return " → ".join(_(registry.get(k, k)) for k in value)
    if param.kind == "checkpoints":
        return " / ".join(f"{c.question}:{'+'.join(c.keys)}" for c in value)
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if param.scale != 1 and isinstance(value, int):
        return value // param.scale
    return value


def _settings_rows(config: RoundConfig) -> list[list[Any]]:
    """Every setting the round uses, labelled as the settings form labels it."""
    values = config_values(config)
    slot_labels = {sf.key: _(sf.param.label) for sf in setting_fields()
                   if sf.section not in ("round", "written") and not sf.slug}
    rows: list[list[Any]] = [[_("設定"), _("値")]]
    for sf in setting_fields():
        if sf.section == "written" and config.format != "written":
            continue
        label = _(sf.param.label)
        if sf.slug:
            piece = getattr(config, sf.section)
            if piece is None or piece.slug != sf.slug:
                continue
            label = f"{slot_labels[sf.section]}: {label}"
        rows.append([label, _setting_text(sf.param, values[sf.key])])
    return rows


def _question_count(config: RoundConfig) -> int | None:
    """How many questions the round reads at most (the limit, or a written round's last
    question), or None when only the clock or the players end it."""
    if config.question_limit:
        return config.question_limit
    if config.format == "written" and config.written is not None:
        return config.written.last_question
    return None


def buzzer_round_doc(round_: BuzzerRound) -> BuzzerRoundDoc:
    """A round for its files (a fixed number of queries whatever its length)."""
    players = round_players(round_)
    records = round_log(round_)
    try:
        state = round_state(round_, records, players)
        payload = round_payload(round_)
    except EngineError as error:
        raise DocumentError(error_text(error)) from None
    names = {p.key: p.name for p in players}
    unit = str(display_hints(state.config)["unit"])
    won = _won_label(state)
    notes, replaced = protest_notes(round_, records, players, names)
    places = {r["player"]: r["position"] for r in payload["ranking"]}
    lines = []
    for record in question_history(state):
        answers, judgement = _answers(record, names)
        lines.append(QuestionLine(
            record.number, answers, judgement, _cells(record.state, unit, won),
            _marks(record.events, state.seat_order), notes.get(record.number, ""),
            record.closed, record.number in replaced))
    return BuzzerRoundDoc(
        round_id=round_.pk,
        name=round_name(round_.name),
        group=round_.group_name,
        status=str(round_.get_status_display()),
        rules=rule_summary(state.config),
        unit=unit,
        question_limit=_question_count(state.config),
        players=tuple(SheetPlayer(p.key, p.seat, p.name) for p in players),
        questions=tuple(lines),
        standings=_standings(payload, state.config, {p.key: p.rank or p.seat for p in players}),
        protests=_protest_lines(records, names),
        settings=_settings_rows(state.config),
        over=state.over,
        places=tuple(places.get(p.key, 0) for p in players),
    )


def buzzer_round_of(tournament: Tournament, round_id: int) -> BuzzerRound:
    """The tournament's buzzer round ``round_id``, or a refusal for staff."""
    round_ = BuzzerRound.objects.filter(tournament=tournament, pk=round_id).first()
    if round_ is None:
        raise DocumentError(_("その早押しラウンドはありません。"))
    return round_


def buzzer_round_choices(tournament: Tournament) -> list[tuple[int, str]]:
    """(id, label) of every buzzer round in running order, in the reader's language."""
    from brackets.selectors.buzzer import tournament_rounds

    # A sudden death's or playoff's own name says which it is and what it decides.
    return [(round_.pk, f"{round_name(round_.name)} {group_name(round_.group_name)}".strip())
            for round_ in tournament_rounds(tournament.pk)]
