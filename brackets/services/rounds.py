"""Writes for rounds and matches: configure, draw, seats, start, close, advance, undo, and
every fact bracket staff enter at a cabinet.

Each public function is keyword-only, one transaction, and either saves everything or
nothing (bad input raises :class:`RoundError` with a Japanese message before any write).
Every write on a match locks its group row, compares the version the tablet saw
(``base_version``) and bumps it: a stale save whose fields overlap with what changed
meanwhile is refused with the changes (:class:`StaleVersion`); one that touches other
fields is merged. A form's idempotency key (``key``) makes a double-tapped submit record
once (:class:`Duplicate`, which views treat as success).

Rules are never decided here: draws, results, legality, advancement, lots, rule choice,
cards, bans, partners and dice all come from :mod:`brackets.engine` via the adapter.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from brackets import engine_adapter as ea
from brackets import lean, revision
from brackets.adapters.rounds import round_rules, stored_form
from brackets.engine import match as gates
from brackets.engine.catalog import Selection
from brackets.engine.draws import draw_groups
from brackets.engine.errors import EngineBug, EngineError, RuleRefusal
from brackets.engine.lottery import Lottery
from brackets.engine.shura import (
    DrawnLots,
    PastWin,
    draw_lots,
    format_lots_allowed,
    lots_owed,
    validate_drawn,
)
from brackets.engine.special import (
    Card,
    assign_rules,
    draw_cards,
    partner_match,
    record_cards,
    record_dice,
    reveal_bans,
    roll_dice,
)
from brackets.errors import Refused
from brackets.labels import listed
from brackets.messages import error_text, player_ids, violation_text
from brackets.models import (
    ConfirmationFact,
    DisqualificationFact,
    Entrant,
    Group,
    PenaltyFact,
    RematchFact,
    ResultFact,
    Round,
    RoundStep,
    Seat,
    SelectionFact,
    SpecialFact,
    Submission,
    Tournament,
)
from brackets.selectors import rounds as sel

GROUP_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

# SQLite has one writer at a time and its busy handler retries by sleeping, which starves
# some tablets for seconds under load. Match writes in one server process take turns on
# this lock instead (PostgreSQL needs no such thing: rows are locked per group).
_SQLITE_WRITES = threading.Lock()


def serialised(func: Any) -> Any:
    """Run a write service under the process-wide SQLite write lock (outermost wrapper)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            if connection.vendor != "sqlite" or connection.in_atomic_block:
                return func(*args, **kwargs)
            with _SQLITE_WRITES:
                return func(*args, **kwargs)
        except IntegrityError as exc:
            if "submission" in str(exc).lower():
                raise Duplicate() from exc
            raise

    return wrapper


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


def label_for(index: int) -> str:
    if index < len(GROUP_LABELS):
        return GROUP_LABELS[index]
    return f"{GROUP_LABELS[index // len(GROUP_LABELS) - 1]}{GROUP_LABELS[index % len(GROUP_LABELS)]}"


# ------------------------------------------------------------------ round lifecycle


@transaction.atomic
def rounds_configure(*, tournament: Tournament, by: Any) -> list[Round]:
    """Create the tournament's rounds from its preset (once; later calls change nothing)."""
    existing = list(Round.objects.filter(tournament=tournament))
    if existing:
        return existing
    try:
        entrants, seeds = _plan_counts(tournament)
        preset = ea.preset_for(tournament)
        specs = preset.rounds_for(entrants, seeds)
    except EngineError as exc:
        raise RoundError(_("ルールプリセット {preset} で回戦を作れません：{error}").format(
            preset=tournament.preset, error=_engine_text(exc))) from exc
    _slug, changed = ea.preset_source(tournament)
    rounds = []
    for number, spec in enumerate(specs, start=1):
        rounds.append(Round.objects.create(
            tournament=tournament, number=number, name=spec.name, kind=spec.kind,
            advance_per_group=spec.advance_per_group or spec.group_size,
            target_size=spec.target, created_by=by,
            spec=stored_form(spec, preset_slug=preset.slug, settings=changed,
                             planned_for=(entrants, seeds))))
    return rounds


def _plan_counts(tournament: Tournament) -> tuple[int, int]:
    """Round-1 players and seeds joining later, as the preset plans them: checked in and
    not withdrawn (the same people :func:`round_players` draws)."""
    gone = sel.withdrawn_ids(tournament)
    checked = [e for e in Entrant.objects.filter(tournament=tournament, checked_in=True)
               .only("id", "seed") if e.id not in gone]
    seeds = sum(1 for e in checked if e.seed is not None)
    preset = ea.preset_for(tournament)
    if any(sp.seeds_enter for sp in preset.rounds):
        return len(checked) - seeds, seeds
    return len(checked), 0


def _replan_if_needed(rnd: Round, by: Any) -> Round:
    """Before round 1 is drawn, re-plan the rounds if check-ins changed since they were
    configured (ladder presets add or drop rounds with the count). Refused once anything
    references the rounds."""
    tournament = rnd.tournament
    counts = list(_plan_counts(tournament))
    if list(round_rules(rnd).planned_for) == counts:
        return rnd
    rounds = Round.objects.filter(tournament=tournament)
    if (rounds.exclude(status=Round.Status.CONFIGURED).exists()
            or SpecialFact.objects.filter(round__in=rounds).exists()):
        # The rounds stay as planned, but the preset must still accept today's field (a
        # field too large for round 2, say), or the tournament would stall rounds later.
        try:
            ea.preset_for(tournament).rounds_for(*counts)
        except EngineError as exc:
            raise RoundError(_("抽選できません：{error}").format(error=_engine_text(exc))) from exc
        return rnd
    rounds.delete()
    rounds_configure(tournament=tournament, by=by)
    return Round.objects.select_for_update().get(tournament=tournament, number=1)


def _step(rnd: Round, action: str, status: str, by: Any, data: dict[str, Any] | None = None,
          undoes: RoundStep | None = None) -> RoundStep:
    step = RoundStep.objects.create(round=rnd, action=action, status_after=status,
                                    data=data or {}, undoes=undoes, by=by)
    Round.objects.filter(id=rnd.id).update(status=status)
    rnd.status = status
    return step


def _tournament_status_change(rnd: Round, action: str) -> list[str] | None:
    """[before, after] when this round step moves the tournament's status, else None.

    Drawing round 1 starts the event (進行中); confirming the last round (the final, K10,
    whose order is the champion first) finishes it (終了). The change is written and kept
    in the step's data, so undoing the step puts back exactly the status it replaced.
    """
    tournament = Tournament.objects.select_for_update().get(id=rnd.tournament_id)
    before = tournament.status
    after = None
    if action == "draw" and rnd.number == 1 and before in (Tournament.Status.PREPARING,
                                                           Tournament.Status.ENTRY):
        after = Tournament.Status.RUNNING
    elif action == "advance" and before != Tournament.Status.FINISHED and not (
            Round.objects.filter(tournament_id=rnd.tournament_id, number__gt=rnd.number)
            .exists()):
        after = Tournament.Status.FINISHED
    if after is None:
        return None
    Tournament.objects.filter(id=tournament.id).update(status=after)
    rnd.tournament.status = after
    return [str(before), str(after)]


def _tournament_status_restore(rnd: Round, undone: RoundStep) -> list[str] | None:
    """Undo the status change an undone step made (only if nobody changed it since)."""
    change = undone.data.get("tournament_status")
    if not change:
        return None
    before, after = change
    tournament = Tournament.objects.select_for_update().get(id=rnd.tournament_id)
    if tournament.status != after:
        return None
    Tournament.objects.filter(id=tournament.id).update(status=before)
    rnd.tournament.status = before
    return [after, before]


def _engine_text(exc: EngineError) -> str:
    """The staff wording of an engine refusal (``messages.ERROR_TEXT``), with the
    players it names shown by name: the engine only knows entrant keys."""
    return error_text(exc, sel.entrant_names(player_ids(exc.params)))


def _require(rnd: Round, *statuses: str) -> None:
    if rnd.status not in statuses:
        raise RoundError(_("{round}は今「{status}」のため、この操作はできません。").format(
            round=rnd.name, status=rnd.get_status_display()))


def round_players(rnd: Round) -> tuple[list[int], list[int]]:
    """Entrant ids playing ``rnd`` and the seeds among them (in seed order)."""
    tournament = rnd.tournament
    gone = sel.withdrawn_ids(tournament)
    if rnd.number == 1:
        seeds_later = round_rules(rnd).seeds_later
        qs = Entrant.objects.filter(tournament=tournament, checked_in=True)
        if seeds_later:
            qs = qs.filter(seed__isnull=True)
        players = [e.id for e in qs.order_by("id") if e.id not in gone]
        seeds = [] if seeds_later else list(
            qs.filter(seed__isnull=False).order_by("seed").values_list("id", flat=True))
        return players, [s for s in seeds if s not in gone]
    prev = Round.objects.get(tournament=tournament, number=rnd.number - 1)
    advanced = sel.advancers_of(prev)
    if advanced is None:
        raise RoundError(_("{round}の勝ち抜けがまだ確定していません。").format(round=prev.name))
    seeds = [e.id for e in sel.seeds_entering(rnd)]
    players = [p for p in advanced if p not in gone] + seeds
    return players, seeds


@transaction.atomic
def round_draw(*, round: Round, by: Any) -> Round:
    """Draw the round's groups and seats from the stored lottery seed (reproducible).

    The seed and purpose are stored on the round and in its draw step, so anyone can
    re-run :func:`brackets.engine.draws.draw_groups` and get the same groups.
    """
    rnd = Round.objects.select_for_update().get(id=round.id)
    _require(rnd, Round.Status.CONFIGURED)
    if rnd.number == 1:
        rnd = _replan_if_needed(rnd, by)
    rules = round_rules(rnd)
    if rules.spec.is_pair:
        return _draw_partner_round(rnd, by)
    players, seeds = round_players(rnd)
    if rnd.number > 1:
        prev = Round.objects.get(tournament=rnd.tournament, number=rnd.number - 1)
        _require(prev, Round.Status.ADVANCED)
    seed = rnd.tournament.lottery_seed
    purpose = f"round-{rnd.number}/draw"
    keys = [ea.player_key(p) for p in players]
    seed_keys = [ea.player_key(s) for s in seeds]
    draws: list[tuple[str, Any]] = []
    try:
        if rules.spec.is_rule_selection:
            assignment = _rule_assignment(rnd, players)
            for variant in rules.variants:
                rule = variant.key
                members = assignment.players_of(rule)
                lottery = Lottery(seed, f"{purpose}/{rule}")
                try:
                    draws.append((rule, draw_groups(members, lottery=lottery,
                                                    method=rules.draw_method)))
                except RuleRefusal as exc:
                    # Fewer players than the capacities add up to (a withdrawal, a small
                    # event) can leave a rule with a number no groups of 3–4 make (1, 2,
                    # 5). Staff fix it by changing someone's form, so say that.
                    raise RoundError(_("{rule}は{n}人になり、組を作れません（1組3〜4人、ダミーは1組に1人"
                                       "まで：1・2・5人では組めません）。どのルールも組める人数になるよう、"
                                       "ルール選択用紙の記録を変更してください。").format(
                        rule=variant.name, n=len(members))) from exc
        else:
            lottery = Lottery(seed, purpose)
            draws.append(("", draw_groups(keys, method=rules.draw_method,
                                          lottery=lottery, seeds=seed_keys)))
    except EngineError as exc:
        raise RoundError(_("抽選できません：{error}").format(error=_engine_text(exc))) from exc
    index = 0
    layout = []
    for rule, draw in draws:
        for g in draw.groups:
            label = label_for(index)
            group = Group.objects.create(round=rnd, number=index + 1, label=label, rule=rule)
            for n, player in enumerate(g.seats, start=1):
                Seat.objects.create(group=group, number=n,
                                    entrant_id=None if player is None else int(player), by=by)
            layout.append({"label": label, "rule": rule, "seats": list(g.seats)})
            index += 1
    rnd.lottery_seed = seed
    rnd.lottery_purpose = purpose
    Round.objects.filter(id=rnd.id).update(lottery_seed=seed, lottery_purpose=purpose)
    data: dict[str, Any] = {"seed": seed, "purpose": purpose, "groups": layout}
    change = _tournament_status_change(rnd, "draw")
    if change:
        data["tournament_status"] = change
    _step(rnd, "draw", Round.Status.DRAWN, by, data)
    return rnd


def _rule_assignment(rnd: Round, players: list[int]) -> Any:
    """K6: processing order from the previous round, then each player's A/B wish."""
    rules = round_rules(rnd)
    prev = Round.objects.get(tournament=rnd.tournament, number=rules.order_from_round)
    rv = sel.round_view(prev)
    keys = [ea.player_key(p) for p in players]
    from brackets.engine.advancement import TieContext, processing_order

    wishes = {ea.player_key(f.entrant_id): f.data["rule"] for f in
              sel.special_facts(rnd.tournament, SpecialFact.Kind.RULE_CHOICE, round=rnd)}
    caps = {v.key: v.capacity for v in rules.variants}
    try:
        order = processing_order(sel.results_by_label(rv), players=keys,
                                 context=TieContext(lottery=Lottery(
                                     rnd.tournament.lottery_seed, f"round-{rnd.number}/order")))
        return assign_rules([r.player for r in order], wishes, caps)
    except EngineError as exc:
        # Missing forms, an unknown rule, no room, a tie the order cannot break: staff
        # read what to fix (with names), never the engine's English.
        raise RoundError(_engine_text(exc)) from exc


def rule_assignment_preview(rnd: Round) -> Any:
    """The K6 assignment with its processing order, shown before the draw."""
    players, _seeds = round_players(rnd)
    return _rule_assignment(rnd, players)


def _draw_partner_round(rnd: Round, by: Any) -> Round:
    """K9/K10: contenders at seats 1 and 4, their partners beside them (2 and 3)."""
    rules = round_rules(rnd)
    source = rules.contenders_from
    if source is None:
        raise EngineBug("contenders_unknown", f"{rnd.name}: no round gives its contenders",
                        round=rnd.name)
    src = Round.objects.get(tournament=rnd.tournament, number=source[0])
    _require(src, Round.Status.ADVANCED, Round.Status.CLOSED)
    rv = sel.round_view(src)
    places = list(source[1])
    table = sel.round_table(rv)
    contenders = []
    for place in places:
        contenders += [row.player for row in table if row.place == place]
    if len(contenders) != 2:
        # A disqualification or withdrawal in the source round leaves a place empty (the
        # table ranks only who is still in). Say which places and who is there, so staff
        # can revoke a mistaken disqualification, or leave this match unplayed.
        names = sel.entrant_names(int(c) for c in contenders)
        raise RoundError(_("{round}の対戦者が揃っていません：{src}の{places}位から2人が必要ですが、"
                           "いるのは{who}です（失格・棄権で欠けています）。失格が誤りなら取り消してください。"
                           "取り消さない場合、この回戦は行えません。").format(
            round=rnd.name, src=src.name, places="・".join(str(p) for p in places),
            who=listed([names.get(c, c) for c in contenders]) or _("0人")))
    partners = {ea.player_key(f.entrant_id): ea.player_key(int(f.data["partner"]))
                for f in sel.special_facts(rnd.tournament, SpecialFact.Kind.PARTNER, round=rnd)}
    present = [ea.player_key(e.id) for e in Entrant.objects.filter(
        tournament=rnd.tournament, checked_in=True)
        if e.id not in sel.withdrawn_ids(rnd.tournament)]
    try:
        match = partner_match((contenders[0], contenders[1]), partners, present=present)
    except EngineError as exc:
        raise RoundError(_("パートナーを確認してください：{error}").format(
            error=_engine_text(exc))) from exc
    setup = sel.special_facts(rnd.tournament, SpecialFact.Kind.FINAL_SETUP, round=rnd)
    if setup and setup[0].data.get("first") == match.second:
        match = partner_match((match.second, match.first), partners, present=present)
    for game in range(1, gates.games_scheduled(rules.spec) + 1):
        label = "3位決定戦" if rules.spec.is_partner_match else f"第{game}試合"
        group = Group.objects.create(round=rnd, number=game, label=label, game=game)
        for n, player in match.seats.items():
            Seat.objects.create(group=group, number=n, entrant_id=int(player), by=by)
    _step(rnd, "draw", Round.Status.DRAWN, by,
          {"contenders": [match.first, match.second], "partners": partners})
    return rnd


@transaction.atomic
def round_start(*, round: Round, by: Any) -> Round:
    rnd = Round.objects.select_for_update().get(id=round.id)
    _require(rnd, Round.Status.DRAWN)
    _step(rnd, "start", Round.Status.RUNNING, by)
    return rnd


@transaction.atomic
def round_close(*, round: Round, by: Any) -> Round:
    """Close a round once every group has a complete (and, if required, confirmed) result."""
    rnd = Round.objects.select_for_update().get(id=round.id)
    _require(rnd, Round.Status.RUNNING)
    rv = sel.round_view(rnd)
    _check_done(rv)
    _step(rnd, "close", Round.Status.CLOSED, by)
    return rnd


def _check_done(rv: sel.RoundView) -> None:
    pending = [g.label for g in rv.groups if g.status not in (sel.DONE, sel.UNUSED)]
    if pending:
        raise RoundError(_("まだ結果が揃っていない組があります：{groups}").format(
            groups=listed(pending)))
    errors = [f"{g.label}：{g.error}" for g in rv.groups if g.error]
    if errors:
        raise RoundError(_("結果に問題がある組があります：{groups}").format(groups="／".join(errors)))


@transaction.atomic
def round_advance(*, round: Round, by: Any) -> list[int]:
    """Confirm the engine's advancers (shown to staff first) and store them as a step."""
    rnd = Round.objects.select_for_update().get(id=round.id)
    _require(rnd, Round.Status.CLOSED)
    rv = sel.round_view(rnd)
    _check_done(rv)
    if round_rules(rnd).spec.is_last:
        order = sel.final_order(rv)
        data: dict[str, Any] = {"advancers": order[:1], "final_order": order}
        change = _tournament_status_change(rnd, "advance")
        if change:
            data["tournament_status"] = change
        _step(rnd, "advance", Round.Status.ADVANCED, by, data)
        return [int(p) for p in order[:1]]
    outcomes = sel.advancement_preview(rnd, rv)
    advancers: list[str] = []
    wildcards: list[str] = []
    for _rule, outcome in outcomes:
        for w in outcome.warnings:
            if w.code == "unresolved_tie_at_cut":
                raise RoundError(_("ボーダーで同率の選手がいます。抽選を記録してください。"))
        advancers += outcome.players
        wildcards += [a.player for a in outcome.advancers if a.reason == "wildcard"]
    step_data: dict[str, Any] = {"advancers": advancers, "wildcards": wildcards}
    change = _tournament_status_change(rnd, "advance")
    if change:
        step_data["tournament_status"] = change
    _step(rnd, "advance", Round.Status.ADVANCED, by, step_data)
    return [int(p) for p in advancers]


@transaction.atomic
def round_undo(*, round: Round, by: Any) -> Round:
    """Undo the round's last step while nothing downstream has been entered."""
    rnd = Round.objects.select_for_update().get(id=round.id)
    step = sel.last_step(rnd)
    if step is None:
        raise RoundError(_("取り消す操作がありません。"))
    nxt = Round.objects.filter(tournament=rnd.tournament, number=rnd.number + 1).first()
    if step.action == "advance" and nxt is not None and nxt.status != Round.Status.CONFIGURED:
        raise RoundError(_("{round}の抽選が済んでいるため取り消せません。先に{round}を取り消してください。")
                         .format(round=nxt.name))
    if step.action == "draw":
        groups = Group.objects.filter(round=rnd)
        if (SelectionFact.objects.filter(group__in=groups).exists()
                or ResultFact.objects.filter(group__in=groups).exists()):
            raise RoundError(_("出題や結果が入力済みのため抽選を取り消せません。"))
        SpecialFact.objects.filter(group__in=groups).exists() and None
        Seat.objects.filter(group__in=groups).delete()
        groups.delete()
    previous = (RoundStep.objects.filter(round=rnd, undoes__isnull=True, undone_by__isnull=True)
                .exclude(id=step.id).order_by("-id").first())
    status = previous.status_after if previous else Round.Status.CONFIGURED
    undo_data: dict[str, Any] = {"undid": step.action}
    restored = _tournament_status_restore(rnd, step)
    if restored:
        undo_data["tournament_status"] = restored
    _step(rnd, "undo", status, by, undo_data, undoes=step)
    return rnd


# ------------------------------------------------------------------ match writes


def _lock(group: Group, base_version: int | None, key: str, kind: str,
          touched: set[tuple[str, int]], by: Any) -> Group:
    """Lock the group, record the submit's key, and check the version the tablet saw.

    The key is inserted at once instead of looked up first: a second submit of the same
    form (a double tap) fails the key's unique constraint, the whole save rolls back and
    ``serialised`` turns that into :class:`Duplicate`, before the version check could
    mistake the first tap's save for another tablet's. The version it records is the one
    ``_finish`` is about to write (the row is locked, so it is exact); a refused save
    rolls the key back with everything else.
    """
    # Prebuilt statements (brackets.lean): this runs under the write lock on every save.
    found = lean.fetch(Group, where=["id"], params=[group.id], related=["round"],
                       for_update=True)
    if not found:
        raise Group.DoesNotExist(f"group {group.id}")
    locked = found[0]
    # The tournament row as the request loaded it: what a match write reads of it (seed,
    # catalog, settings) is fixed once round 1 is drawn, and its revision is moved by SQL.
    locked.round.tournament = group.round.tournament
    if key:
        # No signals (as bulk_create); _finish moves the tournament's revision itself.
        lean.insert([Submission(key=key, group=locked, kind=kind,
                                result_version=locked.version + 1, by=by)])
    if locked.round.status not in (Round.Status.DRAWN, Round.Status.RUNNING):
        raise RoundError(_("{round}は入力を受け付けていません（{status}）。").format(
            round=locked.round.name, status=locked.round.get_status_display()))
    if base_version is not None and base_version != locked.version:
        changes = _changes_since(locked, base_version, touched)
        if changes:
            raise StaleVersion(changes)
    return locked


def _changes_since(group: Group, base: int, touched: set[tuple[str, int]]) -> list[str]:
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
    if ("all", 0) in touched:
        if not out:
            out.append(_("この組の内容が更新されています"))
    return out


def _finish(group: Group) -> int:
    """Bump the version (the group row is locked, so +1 is exact; ``_lock`` recorded the
    submit's key with this version)."""
    lean.add(Group, group.id, "version", 1)
    group.version += 1
    revision.touch(group.round.tournament_id)  # update() sends no signal (a save may add no fact)
    return group.version


def _refuse_unneeded_game(group: Group) -> None:
    """K10: once a finalist has won enough games the rest are not played. A selection or
    result for such a game cannot change the champion, so it is refused, not recorded
    (the match page already says the game is not needed)."""
    if not round_rules(group.round).spec.is_series or group.game <= 1:
        return
    prior = sel.series_progress(sel.round_view(group.round), upto=group.game - 1)
    if prior is not None and prior.finished:
        raise RoundError(_("この試合は不要です：第{n}試合までで勝敗が決まっています。入力は保存していません。")
                         .format(n=group.game - 1), field="game")


def _seat(group: Group, number: int) -> Seat:
    seat = Seat.objects.filter(group=group, number=number, superseded_by__isnull=True).first()
    if seat is None:
        raise RoundError(_("サテ{n}はこの組にありません。").format(n=number), field=f"seat_{number}")
    return seat


@serialised
@transaction.atomic
def selection_save(*, group: Group, by: Any, seat_number: int, genre: str, format: str,
                   difficulty: str, base_version: int | None = None,
                   confirm_illegal: bool = False, key: str = "") -> SelectionFact:
    """Record a seat's set before play; an illegal set needs ``confirm_illegal`` and then
    carries the engine's violations and the preset's penalty."""
    g = _lock(group, base_version, key, "selection", {("selection", seat_number)}, by)
    _refuse_unneeded_game(g)
    seat = _seat(g, seat_number)
    if seat.entrant_id is None:
        raise RoundError(_("ダミーの出題は固定です。"), field="seat")
    gv = sel.group_view(g)
    mctx = sel.match_context(gv)
    # K7: the drawn 下関 cards decide what may be chosen, so no selection before the draw
    # (whoever calls: the tablet page, a replay, a script).
    card_fact = mctx.get("cards")
    try:
        ea.require_cards(sel.round_restrictions(g.round, g),
                         None if card_fact is None else card_fact.data.get("cards", []),
                         g.round.name)
    except EngineError as exc:
        raise RoundError(_engine_text(exc), field="cards") from exc
    # K8: the revealed bans decide what may be chosen; a set taken before the reveal would
    # never be checked against them.
    rules = round_rules(g.round)
    if rules.bans and not mctx.get("revealed"):
        raise RoundError(_("禁止ジャンルを一斉公開するまで出題は登録できません。"), field="bans")
    catalog = ea.catalog_for(g.round.tournament.version_id)
    selection = Selection(genre, format, difficulty)
    try:
        catalog.validate(selection)
    except RuleRefusal as exc:
        raise RoundError(_("「{genre} / {format} / {difficulty}」はこの大会のカタログにありません。")
                         .format(genre=genre, format=format, difficulty=difficulty),
                         field="genre") from exc
    choices = sel.seat_choices(gv, catalog, mctx)[seat_number].choices
    check = choices.check(selection, penalty=rules.penalty)
    reasons = [violation_text(v) for v in check.violations]
    if not check.ok and rules.refuses_illegal:
        raise RoundError(_("この出題は規定違反のため登録できません：{reasons}。").format(
            reasons=listed(reasons)),
                         field="set", reasons=reasons)
    if not check.ok and not confirm_illegal:
        raise RoundError(_("この出題は規定違反です：{reasons}。違反を承知で登録する場合は確認にチェックして"
                           "ください。").format(reasons=listed(reasons)),
                         field="confirm_illegal", reasons=reasons)
    previous = (SelectionFact.objects.filter(seat=seat).order_by("-id").first())
    fact = SelectionFact.objects.create(
        group=g, seat=seat, genre=genre, format=format, difficulty=difficulty,
        violations=[{"code": v.code, "text": t} for v, t in zip(check.violations, reasons)],
        penalty=check.penalty if not check.ok else Decimal(0),
        accepted_illegal=not check.ok, supersedes=previous, by=by, base_version=g.version)
    _finish(g)
    return fact


def parse_score(raw: Any, seat: int) -> Decimal:
    try:
        value = Decimal(str(raw).strip())
    except (InvalidOperation, ValueError) as exc:
        raise RoundError(_("サテ{n}の得点「{raw}」が数値ではありません。").format(n=seat, raw=raw),
                         field=f"score_{seat}") from exc
    if not value.is_finite():
        raise RoundError(_("サテ{n}の得点が数値ではありません。").format(n=seat), field=f"score_{seat}")
    return value


def results_save(*, group: Group, by: Any, rows: Mapping[int, tuple[Any, Any]],
                 base_version: int | None = None, key: str = "") -> int:
    """Record the result screen: every seat's score and on-screen placement at once.

    Validated by the engine (score range, placements 1..n, players in the group) before
    anything is written. Returns the group's new version.

    The reading and the engine check run first, outside the SQLite write lock, against the
    version ``group`` was loaded with (every match write bumps it, in the same transaction
    as its facts). Under the lock only that version is re-read: when it has not moved, the
    checked rows are written as they are; otherwise, and whenever the early check refused
    anything, the whole check is redone under the lock exactly as before, so errors and
    their order are unchanged. This keeps the serialised part of a save to a few queries,
    which is what 16 tablets saving at once queue behind. The rows come from the group's
    last save when it is still at that version (``sel.write_check_rows``), so a tablet
    correcting its group does not read them again.
    """
    prepared: _Prepared | None = None
    if not connection.in_atomic_block:
        try:
            read = sel.write_check_rows(group)
            early = sel.assemble(group, read)
            prepared = _Prepared(group.version, read, early, _results_check(group, early, rows))
        except Exception:  # noqa: BLE001 - redone under the lock, which raises it properly
            prepared = None
    return _results_write(group=group, by=by, rows=rows, base_version=base_version, key=key,
                          prepared=prepared)


@dataclass(frozen=True)
class _Prepared:
    """A result save's reading and check, done before the lock at ``version``."""

    version: int
    rows: sel.GroupRows
    view: sel.GroupView
    parsed: dict[int, tuple[Decimal, int]]


@serialised
@transaction.atomic
def _results_write(*, group: Group, by: Any, rows: Mapping[int, tuple[Any, Any]],
                   base_version: int | None, key: str, prepared: _Prepared | None) -> int:
    touched = {("result", n) for n in rows}
    g = _lock(group, base_version, key, "results", touched, by)
    _refuse_unneeded_game(g)
    if prepared is not None and prepared.version == g.version:
        read, gv, parsed = prepared.rows, prepared.view, prepared.parsed
    else:
        read = sel.group_rows([g.id], with_entrants=False)[g.id]
        gv = sel.assemble(g, read)
        parsed = _results_check(g, gv, rows)
    seats = {s.number: s for s in gv.seats}
    changed = [ResultFact(group=g, seat=seats[n], score=value, placement=placement,
                          supersedes=current, by=by, base_version=g.version)
               for n, (value, placement) in parsed.items()
               if (current := gv.result_rows.get(n)) is None
               or (current.score, current.placement) != (value, placement)]
    # One INSERT for the changed seats (a first entry is all four); it sends no signals,
    # and _finish moves the tournament's revision itself.
    lean.insert(changed)
    version = _finish(g)
    if all(fact.pk is not None for fact in changed):  # ids come back on SQLite ≥ 3.35 and PG
        after = read.with_results(changed)
        # The group's rows at its new version, for its next save, once they are committed.
        transaction.on_commit(lambda: sel.remember_write_rows(g.round.tournament,
                                                                {g.id: (version, after)}))
    return version


def _results_check(g: Group, gv: sel.GroupView, rows: Mapping[int, tuple[Any, Any]]
                   ) -> dict[int, tuple[Decimal, int]]:
    """The typed rows, parsed and accepted by the engine, or the RoundError to show."""
    seats = {s.number: s for s in gv.seats}
    unknown = [n for n in rows if n not in seats]
    if unknown:
        raise RoundError(_("サテ{n}はこの組にありません（この組にいない選手の結果です）。").format(
            n=unknown[0]),
                         field=f"score_{unknown[0]}")
    missing = [n for n in seats if n not in rows]
    if missing:
        raise RoundError(_("サテ{n}の結果がありません。").format(n=missing[0]),
                         field=f"score_{missing[0]}")
    parsed: dict[int, tuple[Decimal, int]] = {}
    for n, (score, place) in rows.items():
        value = parse_score(score, n)
        try:
            placement = int(str(place).strip())
        except ValueError as exc:
            raise RoundError(_("サテ{n}の順位を選んでください。").format(n=n),
                             field=f"place_{n}") from exc
        parsed[n] = (value, placement)
    places = [p for _s, p in parsed.values()]
    dupes = sorted({p for p in places if places.count(p) > 1})
    if dupes:
        raise RoundError(_("{place}位が2回使われています。画面どおりの順位を入力してください。").format(
            place=dupes[0]),
                         field="place")
    trial = ea.GroupFacts(seats=gv.facts.seats, selections=gv.facts.selections,
                          penalties=gv.facts.penalties, disqualified=gv.facts.disqualified,
                          results={n: v for n, v in parsed.items()})
    try:
        ea.group_result(trial, Lottery(g.round.tournament.lottery_seed, "validate"))
    except EngineError as exc:
        raise RoundError(_engine_text(exc), field="score") from exc
    return parsed


@serialised
@transaction.atomic
def penalty_add(*, group: Group, by: Any, seat_number: int, points: Any, reason: str,
                base_version: int | None = None, key: str = "") -> PenaltyFact:
    """A penalty with its reason (H7: −400 by default); placements are re-derived."""
    if not reason.strip():
        raise RoundError(_("理由を入力してください。"), field="reason")
    g = _lock(group, base_version, key, "penalty", {("penalty", seat_number)}, by)
    seat = _seat(g, seat_number)
    if seat.entrant_id is None:
        raise RoundError(_("ダミーにはペナルティを付けられません。"), field="seat")
    value = parse_score(points, seat_number)
    if value <= 0:
        raise RoundError(_("減点は正の数で入力してください。"), field="points")
    fact = PenaltyFact.objects.create(group=g, seat=seat, points=value, reason=reason.strip(),
                                      by=by, base_version=g.version)
    _finish(g)
    return fact


@serialised
@transaction.atomic
def penalty_revoke(*, group: Group, by: Any, penalty_id: int, reason: str,
                   base_version: int | None = None, key: str = "") -> PenaltyFact:
    g = _lock(group, base_version, key, "penalty", {("all", 0)}, by)
    old = PenaltyFact.objects.get(id=penalty_id, group=g)
    fact = PenaltyFact.objects.create(group=g, seat=old.seat, points=old.points,
                                      reason=reason or old.reason, revoked=True, supersedes=old,
                                      by=by, base_version=g.version)
    _finish(g)
    return fact


@serialised
@transaction.atomic
def disqualification_add(*, group: Group, by: Any, seat_number: int, reason: str,
                         base_version: int | None = None, key: str = "",
                         revoke: bool = False) -> DisqualificationFact:
    """Disqualify (H8) or lift it; lower players move up in this match only."""
    if not reason.strip():
        raise RoundError(_("理由を入力してください。"), field="reason")
    g = _lock(group, base_version, key, "dq", {("dq", seat_number)}, by)
    seat = _seat(g, seat_number)
    if seat.entrant_id is None:
        raise RoundError(_("ダミーは失格にできません。"), field="seat")
    previous = DisqualificationFact.objects.filter(seat=seat).order_by("-id").first()
    fact = DisqualificationFact.objects.create(group=g, seat=seat, reason=reason.strip(),
                                               revoked=revoke, supersedes=previous, by=by,
                                               base_version=g.version)
    _finish(g)
    return fact


@serialised
@transaction.atomic
def rematch_record(*, group: Group, by: Any, reason: str, base_version: int | None = None,
                   key: str = "") -> RematchFact:
    """A re-match after a machine fault: earlier results stop counting; the aborted
    selections are kept so a changed selection gets the H7 penalty."""
    if not reason.strip():
        raise RoundError(_("理由を入力してください。"), field="reason")
    g = _lock(group, base_version, key, "rematch", {("all", 0)}, by)
    gv = sel.group_view(g)
    aborted = {str(n): [s.genre, s.format, s.difficulty] for n, s in gv.facts.selections.items()}
    fact = RematchFact.objects.create(group=g, reason=reason.strip(), aborted=aborted, by=by,
                                      base_version=g.version)
    _finish(g)
    return fact


@serialised
@transaction.atomic
def result_confirm(*, group: Group, by: Any, version: int) -> ConfirmationFact:
    """Two-person confirmation: a second staff member confirms the result as it stands."""
    g = Group.objects.select_for_update().get(id=group.id)
    if version != g.version:
        raise StaleVersion([_("確認中に結果が更新されました。最新の内容を確認してください。")])
    gv = sel.group_view(g)
    if gv.result is None:
        raise RoundError(_("結果が揃っていません。"))
    entered_by = {r.by_id for r in gv.result_rows.values()}
    if by is not None and entered_by == {by.id}:
        raise RoundError(_("結果を入力した人とは別のスタッフが確認してください。"))
    return ConfirmationFact.objects.create(group=g, version=g.version, by=by,
                                           base_version=g.version)


@transaction.atomic
def seats_assign(*, group: Group, by: Any, order: Sequence[int | None],
                 base_version: int | None = None) -> Group:
    """Reseat a group (サテ 1–4) before any selection: new seat rows supersede the old."""
    g = _lock(group, base_version, "", "seats", {("all", 0)}, by)
    current = list(Seat.objects.filter(group=g, superseded_by__isnull=True).order_by("number"))
    if SelectionFact.objects.filter(group=g).exists() or ResultFact.objects.filter(
            group=g).exists():
        raise RoundError(_("出題・結果の入力後は席を変えられません。"))
    if sorted(map(str, order)) != sorted(str(s.entrant_id) for s in current):
        raise RoundError(_("席替えはこの組の選手の並べ替えだけです。"))
    for seat, entrant_id in zip(current, order):
        Seat.objects.create(group=g, number=seat.number, entrant_id=entrant_id,
                            supersedes=seat, by=by)
    _finish(g)
    return g


# ------------------------------------------------------------------ desk and specials


def _special(tournament: Tournament, kind: str, by: Any, data: dict[str, Any], *,
             round: Round | None = None, group: Group | None = None,
             entrant: Entrant | None = None, purpose: str = "") -> SpecialFact:
    previous = SpecialFact.objects.filter(tournament=tournament, kind=kind, round=round,
                                          group=group, entrant=entrant).order_by("-id").first()
    fact = SpecialFact.objects.create(tournament=tournament, kind=kind, round=round,
                                      group=group, entrant=entrant, data=data, by=by,
                                      supersedes=previous, lottery_purpose=purpose)
    if group is not None:
        Group.objects.filter(id=group.id).update(version=F("version") + 1)
    return fact


@transaction.atomic
def shura_lots_draw(*, tournament: Tournament, entrant: Entrant, by: Any,
                    genres: Sequence[str] | None = None,
                    formats: Sequence[str] | None = None) -> SpecialFact:
    """H4/H5: draw (or record a physical draw of) an entrant's 修羅 lots before round 1."""
    if Round.objects.filter(tournament=tournament, number=1).exclude(
            status=Round.Status.CONFIGURED).exists():
        raise RoundError(_("1回戦の抽選後は修羅くじを引けません。"))
    catalog = ea.catalog_for(tournament.version_id)
    decl = ea.declaration_of(ea.rules_input_from_entrant(entrant, None))
    try:
        owed = lots_owed(decl)
    except RuleRefusal as exc:
        raise RoundError(_("くじは1人4本までです。申告を確認してください。")) from exc
    if not owed.shura:
        raise RoundError(_("{name}さんは修羅くじの対象ではありません。").format(name=entrant.name))
    first = Round.objects.filter(tournament=tournament, number=1).first()
    if first is None:
        raise RoundError(_("先に回戦を作成してください（最大試合数がくじの本数に関わります）。"))
    k = format_lots_allowed([PastWin(entrant.past_win_lots)] if entrant.past_win_lots else [],
                            q_level=entrant.q_level, genre_lots_now=owed.genre_lots,
                            max_matches=round_rules(first).max_matches)
    player = ea.player_key(entrant.id)
    purpose = "shura"
    if genres is None:
        drawn = draw_lots(Lottery(tournament.lottery_seed, purpose), catalog, player,
                          genre_lots=owed.genre_lots, format_lots=k,
                          format_pool=_format_pool(tournament, catalog))
        method = "app"
    else:
        drawn = DrawnLots(player, tuple(genres), tuple(formats or ()))
        try:
            validate_drawn(catalog, drawn, genre_lots=owed.genre_lots, format_lots=k,
                           format_pool=_format_pool(tournament, catalog))
        except RuleRefusal as exc:
            if k:
                raise RoundError(_("くじの記録が正しくありません（{g}本のジャンルくじと{f}本の形式くじ）。")
                                 .format(g=owed.genre_lots, f=k)) from exc
            raise RoundError(_("くじの記録が正しくありません（{g}本のジャンルくじ）。")
                             .format(g=owed.genre_lots)) from exc
        method = "physical"
    return _special(tournament, SpecialFact.Kind.SHURA_LOTS, by,
                    {"genres": list(drawn.genres), "formats": list(drawn.formats),
                     "reasons": list(owed.reasons), "method": method},
                    entrant=entrant, purpose=f"{purpose}/{player}")


def _format_pool(tournament: Tournament, catalog: Any) -> tuple[str, ...]:
    """H5's format-lot types as the preset defines them."""
    return tuple(ea.preset_for(tournament).format_lot_pool(catalog))


@transaction.atomic
def rule_choice_record(*, round: Round, entrant: Entrant, rule: str, by: Any) -> SpecialFact:
    """K6: one player's A/B form."""
    if rule not in {v.key for v in round_rules(round).variants}:
        raise RoundError(_("ルール「{rule}」はありません。").format(rule=rule), field="rule")
    if round.status != Round.Status.CONFIGURED:
        raise RoundError(_("抽選後はルール選択を変更できません。"))
    players, _s = round_players(round)
    if entrant.id not in players:
        raise RoundError(_("{name}さんは{round}の出場者ではありません。").format(
            name=entrant.name, round=round.name))
    return _special(round.tournament, SpecialFact.Kind.RULE_CHOICE, by, {"rule": rule},
                    round=round, entrant=entrant)


def _deck(catalog: Any, rnd: Round) -> list[Card]:
    """K7's deck as the round's preset defines it (engine ``shimonoseki_deck``)."""
    from brackets.engine.presets import shimonoseki_deck

    return list(shimonoseki_deck(catalog, round_rules(rnd).k7_deck))


def _extra_card(rnd: Round) -> Any:
    from brackets.engine.presets import extra_card_rule

    return extra_card_rule(round_rules(rnd).k7_extra_card)


@transaction.atomic
def card_draw(*, group: Group, by: Any, cards: Sequence[tuple[str, str]] | None = None
              ) -> SpecialFact:
    """K7: record the physical card draw of a match, or draw it from the stored seed.

    With the preset setting ``k7_draw_per`` = "round" one draw serves the whole round: it
    is recorded on the round (no group), every match of the round reads it, and it can be
    changed only until the first selection of any match of the round.
    """
    g = Group.objects.select_for_update().select_related("round__tournament").get(id=group.id)
    per_round = round_rules(g.round).k7_draw_per_round
    scope = {"group__round": g.round} if per_round else {"group": g}
    if SelectionFact.objects.filter(**scope).exists():
        raise RoundError(_("出題入力後はカードを変更できません。"))
    catalog = ea.catalog_for(g.round.tournament.version_id)
    deck = _deck(catalog, g.round)
    extra = _extra_card(g.round)
    purpose = f"round-{g.round.number}/cards" + ("" if per_round else f"/{g.label}")
    try:
        if cards is None:
            drawn = draw_cards(deck, Lottery(g.round.tournament.lottery_seed, purpose),
                               extra_if=extra)
        else:
            drawn = record_cards([Card(a, b) for a, b in cards], deck=deck, extra_if=extra)
    except EngineError as exc:
        raise RoundError(_("カードの記録が正しくありません：{error}").format(
            error=_engine_text(exc))) from exc
    fact = _special(g.round.tournament, SpecialFact.Kind.CARD_DRAW, by,
                    {"cards": [[c.genre, c.group] for c in drawn.cards],
                     "recorded": drawn.recorded, "per_round": per_round},
                    round=g.round, group=None if per_round else g, purpose=purpose)
    if per_round:  # every match of the round changed (tablets compare versions)
        Group.objects.filter(round=g.round).update(version=F("version") + 1)
    return fact


@transaction.atomic
def ban_record(*, group: Group, entrant: Entrant, genre: str, by: Any) -> SpecialFact:
    """K8: one player's written ban (hidden until every form is in and revealed)."""
    g = Group.objects.select_for_update().select_related("round__tournament").get(id=group.id)
    if sel.special_facts(g.round.tournament, SpecialFact.Kind.BAN_REVEAL, group=g):
        raise RoundError(_("公開後は変更できません。"))
    if not Seat.objects.filter(group=g, entrant=entrant, superseded_by__isnull=True).exists():
        raise RoundError(_("{name}さんはこの組の選手ではありません。").format(name=entrant.name))
    catalog = ea.catalog_for(g.round.tournament.version_id)
    if genre not in catalog.genre_names:
        raise RoundError(_("ジャンル「{genre}」はありません。").format(genre=genre), field="genre")
    return _special(g.round.tournament, SpecialFact.Kind.BAN, by, {"genre": genre},
                    round=g.round, group=g, entrant=entrant)


@transaction.atomic
def ban_reveal(*, group: Group, by: Any) -> SpecialFact:
    g = Group.objects.select_for_update().select_related("round__tournament").get(id=group.id)
    players = [ea.player_key(s.entrant_id) for s in Seat.objects.filter(
        group=g, superseded_by__isnull=True) if s.entrant_id]
    written = {ea.player_key(f.entrant_id): f.data["genre"] for f in
               sel.special_facts(g.round.tournament, SpecialFact.Kind.BAN, group=g)}
    try:
        banned = reveal_bans(players, written)
    except EngineError as exc:
        raise RoundError(_engine_text(exc)) from exc
    return _special(g.round.tournament, SpecialFact.Kind.BAN_REVEAL, by,
                    {"banned": sorted(banned)}, round=g.round, group=g)


@transaction.atomic
def partner_record(*, round: Round, contender: Entrant, partner: Entrant, by: Any
                   ) -> SpecialFact:
    """K9/K10: a contender's partner (checked by the engine when the round is drawn)."""
    if round.status != Round.Status.CONFIGURED:
        raise RoundError(_("組み合わせ確定後はパートナーを変更できません。"))
    if contender.id == partner.id:
        raise RoundError(_("自分自身はパートナーにできません。"), field="partner")
    return _special(round.tournament, SpecialFact.Kind.PARTNER, by,
                    {"partner": partner.id}, round=round, entrant=contender)


@transaction.atomic
def dice_record(*, round: Round, players: tuple[int, int], by: Any,
                rolls: Sequence[tuple[int, int]] | None = None) -> SpecialFact:
    """K10: the dice duel, physical rolls or drawn from the stored seed."""
    keys = (ea.player_key(players[0]), ea.player_key(players[1]))
    purpose = f"round-{round.number}/dice"
    try:
        duel = (roll_dice(keys, Lottery(round.tournament.lottery_seed, purpose)) if rolls is None
                else record_dice(keys, rolls))
    except EngineError as exc:
        raise RoundError(_("ダイスの記録が正しくありません：{error}").format(
            error=_engine_text(exc))) from exc
    return _special(round.tournament, SpecialFact.Kind.DICE, by,
                    {"players": list(keys), "rolls": [list(r) for r in duel.rolls],
                     "winner": duel.winner}, round=round, purpose=purpose)


@transaction.atomic
def final_setup_record(*, round: Round, by: Any, winner_decides: str, first: int,
                       question_order: str) -> SpecialFact:
    """K10: the dice winner's decision and the other's, checked by the engine."""
    from brackets.engine.special import DiceDuel, final_setup

    dice = sel.special_facts(round.tournament, SpecialFact.Kind.DICE, round=round)
    if not dice:
        raise RoundError(_("先にダイスを記録してください。"))
    d = dice[0].data
    duel = DiceDuel(tuple(d["players"]), tuple(tuple(r) for r in d["rolls"]))  # type: ignore[arg-type]
    try:
        setup = final_setup(duel, winner_decides=winner_decides,  # type: ignore[arg-type]
                            first=ea.player_key(first),
                            question_order=question_order)  # type: ignore[arg-type]
    except EngineError as exc:
        raise RoundError(_("設定が正しくありません：{error}").format(
            error=_engine_text(exc))) from exc
    return _special(round.tournament, SpecialFact.Kind.FINAL_SETUP, by,
                    {"first": setup.first, "second": setup.second,
                     "question_order": setup.question_order,
                     "seat_order_by": setup.seat_order_by,
                     "question_order_by": setup.question_order_by}, round=round)


@transaction.atomic
def withdrawal_record(*, tournament: Tournament, entrant: Entrant, by: Any, reason: str,
                      revoke: bool = False) -> SpecialFact:
    """A player leaves: they stop advancing and wildcards refill their place (K4)."""
    return _special(tournament, SpecialFact.Kind.WITHDRAWAL, by,
                    {"reason": reason, "revoked": revoke}, entrant=entrant)
