"""Round tables, 惜敗率 and advancers: what a round hands on to the next one."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.engine import (
    AdvancementOutcome,
    AdvancementRule,
    Lottery,
    MatchResult,
    TieContext,
    advance,
    cross_group_table,
    seeds_join,
)
from brackets.models import (
    Entrant,
    Group,
    Round,
    RoundStep,
    SpecialFact,
    Tournament,
)
from brackets.selectors.rounds.finals import (
    PODIUM_LABELS,
    PodiumRow,
    final_order,
    mark_series,
    podium_from,
    podium_kind,
)
from brackets.selectors.rounds.groups import RoundView, _newest, group_views, seated_names


def tournament_rounds(tournament: Tournament) -> list[Round]:
    return list(Round.objects.filter(tournament=tournament).order_by("number"))


def round_view(rnd: Round) -> RoundView:
    """A round with every group's facts and derived results (constant query count)."""
    groups = list(Group.objects.filter(round=rnd).select_related("round").order_by("number"))
    views = group_views(groups, rnd.tournament)
    rv = RoundView(round=rnd, groups=views, rules=round_rules(rnd))
    if rv.rules.spec.is_series:
        mark_series(rv)
    return rv


# -------------------------------------------------------------- advancement


def seeds_entering(rnd: Round) -> list[Entrant]:
    """Seeds joining ``rnd`` without playing earlier rounds (K5), by seed number."""
    if not seeds_join(round_rules(rnd).spec):
        return []
    gone = withdrawn_ids(rnd.tournament)
    return [e for e in Entrant.objects.filter(tournament=rnd.tournament, seed__isnull=False,
                                              checked_in=True).order_by("seed")
            if e.id not in gone]


def withdrawn_ids(tournament: Tournament) -> set[int]:
    rows = _newest(SpecialFact.objects.filter(tournament=tournament,
                                              kind=SpecialFact.Kind.WITHDRAWAL),
                   lambda f: f.entrant_id)
    return {eid for eid, f in rows.items() if not f.data.get("revoked")}


def results_by_label(rv: RoundView, rule: str | None = None) -> dict[str, MatchResult]:
    return {g.label: g.result for g in rv.groups
            if g.result is not None and (rule is None or g.group.rule == rule)}


def advancement_preview(rnd: Round, rv: RoundView | None = None) -> list[tuple[str,
                                                                             AdvancementOutcome]]:
    """The engine's advancement for the round (per rule for K6), before staff confirm."""
    rv = rv or round_view(rnd)
    next_round = Round.objects.filter(tournament=rnd.tournament, number=rnd.number + 1).first()
    already = len(seeds_entering(next_round)) if next_round is not None else 0
    withdrawn = {ea.player_key(i) for i in withdrawn_ids(rnd.tournament)}
    ctx = TieContext(lottery=Lottery(rnd.tournament.lottery_seed,
                                     f"round-{rnd.number}/wildcards"))
    out = []
    rules = round_rules(rnd)
    chain = rules.tie_break
    if rules.spec.is_rule_selection:
        for variant in rules.variants:
            res = results_by_label(rv, variant.key)
            out.append((variant.key, advance(res, AdvancementRule(
                per_group=variant.advance_per_group, wildcard_chain=chain),
                withdrawn=withdrawn, context=ctx)))
        return out
    res = results_by_label(rv)
    rule = AdvancementRule(per_group=int(rnd.advance_per_group),
                           target=rnd.target_size, already_in=already, wildcard_chain=chain)
    out.append(("", advance(res, rule, withdrawn=withdrawn, context=ctx)))
    return out


def round_table(rv: RoundView) -> list[Any]:
    """The cross-group table: winners by score, then each placement by 惜敗率 (engine)."""
    res = results_by_label(rv)
    if not res:
        return []
    ctx = TieContext(lottery=Lottery(rv.round.tournament.lottery_seed,
                                     f"round-{rv.round.number}/wildcards"))
    return cross_group_table(res, context=ctx)


def advancers_of(rnd: Round) -> list[int] | None:
    """The confirmed advancers of a round (the newest advance step not undone)."""
    step = (RoundStep.objects.filter(round=rnd, action="advance", undone_by__isnull=True)
            .order_by("-id").first())
    if step is None:
        return None
    return [int(p) for p in step.data.get("advancers", [])]


def last_step(rnd: Round) -> RoundStep | None:
    return (RoundStep.objects.filter(round=rnd, undoes__isnull=True, undone_by__isnull=True)
            .order_by("-id").first())


def podium(tournament: Tournament, views: Iterable[RoundView] = ()) -> list[PodiumRow]:
    """The podium of the tournament; ``views`` already built are reused (no new query)."""
    known = {rv.round.id: rv for rv in views}
    orders = []
    names: dict[str, str] = {}
    for rnd in Round.objects.filter(tournament=tournament, kind__in=list(PODIUM_LABELS)):
        kind = podium_kind(rnd)
        if not kind:
            continue
        rnd.tournament = tournament
        rv = known.get(rnd.id) or round_view(rnd)
        orders.append((kind, final_order(rv)))
        names.update(seated_names(rv.groups))
    return podium_from(orders, names)


