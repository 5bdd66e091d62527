"""Round lifecycle: configure, re-plan, draw (groups, K6 rule assignment, K9/K10 partner
rounds), start, close, advance and undo.

Each public function is keyword-only, one transaction, and either saves everything or
nothing (bad input raises :class:`RoundError` with a Japanese message before any write).
Rules are never decided here: draws, advancement and rule assignment come from
:mod:`brackets.engine` via the adapter.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules, stored_form
from brackets.engine import (
    EngineBug,
    EngineError,
    Lottery,
    RuleRefusal,
    assign_rules,
    contenders,
    contenders_complete,
    draw_groups,
    games_scheduled,
    partner_match,
    seeds_round,
)
from brackets.labels import GROUP_LETTERS, group_label, listed
from brackets.models import (
    Entrant,
    Group,
    ResultFact,
    Round,
    RoundStep,
    Seat,
    SelectionFact,
    SpecialFact,
    Tournament,
)
from brackets.selectors import rounds as sel
from brackets.services.rounds._write import RoundError, _engine_text, draw_released_by_play

GROUP_LABELS = GROUP_LETTERS


def label_for(index: int) -> str:
    """The draw's label for its ``index``-th group (A … Z, AA …, AAA …: labels.group_label)."""
    return group_label(index)


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
    # The tournament's slug, not the preset's: a rule-set tournament's preset carries the
    # document's own slug, and its rounds rebuild it from ``ruleset`` and the document.
    slug, changed = ea.preset_source(tournament)
    rounds = []
    for number, spec in enumerate(specs, start=1):
        rounds.append(Round.objects.create(
            tournament=tournament, number=number, name=spec.name, kind=spec.kind,
            advance_per_group=spec.advance_per_group or spec.group_size,
            target_size=spec.target, created_by=by,
            spec=stored_form(spec, preset_slug=slug, settings=changed,
                             planned_for=(entrants, seeds))))
    return rounds


def _plan_counts(tournament: Tournament) -> tuple[int, int]:
    """Round-1 players and seeds joining later, as the preset plans them: checked in and
    not withdrawn (the same people :func:`round_players` draws)."""
    gone = sel.withdrawn_ids(tournament)
    checked = [e for e in Entrant.objects.filter(tournament=tournament, checked_in=True)
               .only("id", "seed") if e.id not in gone]
    seeds = sum(1 for e in checked if e.seed is not None)
    if seeds_round(ea.preset_for(tournament).rounds) is not None:
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
    from brackets.engine import TieContext, processing_order

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
    table = [(row.player, row.place) for row in sel.round_table(rv)]
    found = contenders(places, table)
    if not contenders_complete(found):
        # A disqualification or withdrawal in the source round leaves a place empty (the
        # table ranks only who is still in). Say which places and who is there, so staff
        # can revoke a mistaken disqualification, or leave this match unplayed.
        names = sel.entrant_names(int(c) for c in found)
        raise RoundError(_("{round}の対戦者が揃っていません：{src}の{places}位から2人が必要ですが、"
                           "いるのは{who}です（失格・棄権で欠けています）。失格が誤りなら取り消してください。"
                           "取り消さない場合、この回戦は行えません。").format(
            round=rnd.name, src=src.name, places="・".join(str(p) for p in places),
            who=listed([names.get(c, c) for c in found]) or _("0人")))
    partners = {ea.player_key(f.entrant_id): ea.player_key(int(f.data["partner"]))
                for f in sel.special_facts(rnd.tournament, SpecialFact.Kind.PARTNER, round=rnd)}
    present = [ea.player_key(e.id) for e in Entrant.objects.filter(
        tournament=rnd.tournament, checked_in=True)
        if e.id not in sel.withdrawn_ids(rnd.tournament)]
    try:
        match = partner_match((found[0], found[1]), partners, present=present)
    except EngineError as exc:
        raise RoundError(_("パートナーを確認してください：{error}").format(
            error=_engine_text(exc))) from exc
    setup = sel.special_facts(rnd.tournament, SpecialFact.Kind.FINAL_SETUP, round=rnd)
    if setup and setup[0].data.get("first") == match.second:
        match = partner_match((match.second, match.first), partners, present=present)
    for game in range(1, games_scheduled(rules.spec) + 1):
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
    draw_released_by_play(rnd, by)
    return rnd


@transaction.atomic
def round_close(*, round: Round, by: Any) -> Round:
    """Close a round once every group has a complete (and, if required, confirmed) result.

    A drawn round takes input at once, so it closes from 抽選済 as well: 開始 is no step
    the round page asks for (older files and scripts may still record it)."""
    rnd = Round.objects.select_for_update().get(id=round.id)
    _require(rnd, Round.Status.DRAWN, Round.Status.RUNNING)
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
        # The release was of these groups: a new draw is private until released again.
        Round.objects.filter(id=rnd.id).update(draw_released_at=None, draw_released_by=None)
    previous = (RoundStep.objects.filter(round=rnd, undoes__isnull=True, undone_by__isnull=True)
                .exclude(id=step.id).order_by("-id").first())
    status = previous.status_after if previous else Round.Status.CONFIGURED
    undo_data: dict[str, Any] = {"undid": step.action}
    restored = _tournament_status_restore(rnd, step)
    if restored:
        undo_data["tournament_status"] = restored
    _step(rnd, "undo", status, by, undo_data, undoes=step)
    return rnd
