"""Round tables, 惜敗率 and advancers: what a round hands on to the next one."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from django.utils.translation import gettext, gettext_noop

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
from brackets.messages import undefined_ratio_text
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
from brackets.selectors.rounds.groups import (
    GroupView,
    RoundView,
    _newest,
    group_views,
    seated_names,
)


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


def round_group_views(rnd: Round, group_ids: Collection[int]) -> list[GroupView]:
    """The views of some of a round's groups, as :func:`round_view` gives them, without
    deriving the others (a call list needs the few groups on sets, not a round of 256). A
    series round is built whole: whether a game is still needed reads the games before it."""
    if round_rules(rnd).spec.is_series:
        return [gv for gv in round_view(rnd).groups if gv.group.id in group_ids]
    groups = list(Group.objects.filter(round=rnd, id__in=list(group_ids))
                  .select_related("round").order_by("number"))
    return group_views(groups, rnd.tournament)


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


def round_advancing(rv: RoundView) -> dict[str, int]:
    """How many of each group advance directly (K6: each group by its rule's count)."""
    if rv.rules.spec.is_rule_selection:
        per_rule = {v.key: v.advance_per_group for v in rv.rules.variants}
        return {g.label: int(per_rule.get(g.group.rule, 1)) for g in rv.groups}
    return {g.label: int(rv.round.advance_per_group) for g in rv.groups}


def overall_order_note(rv: RoundView, *, translate: bool = True) -> str:
    """How the overall list is ordered, in words (its heading, on screen and on paper).

    Japanese as printed unless ``translate``; it follows :func:`round_table`'s order.
    """
    def t(text: str) -> str:
        return gettext(text) if translate else text

    tops = set(round_advancing(rv).values()) or {1}
    if len(tops) > 1:
        return t(gettext_noop("各組1位は得点順、勝ち抜けの順位は順位ごとに惜敗率順、"
                              "それ以外はまとめて惜敗率順（追加勝ち抜けの順）"))
    k = tops.pop()
    if k == 1:
        return t(gettext_noop("各組1位は得点順、2位以下はまとめて惜敗率順（追加勝ち抜けの順）"))
    if k == 2:
        return t(gettext_noop("各組1位は得点順、2位は惜敗率順、3位以下はまとめて惜敗率順"
                              "（追加勝ち抜けの順）"))
    return t(gettext_noop("各組1位は得点順、2〜{k}位は順位ごとに惜敗率順、{n}位以下はまとめて"
                          "惜敗率順（追加勝ち抜けの順）")).format(k=k, n=k + 1)


def undefined_ratio_note(rv: RoundView) -> str:
    """K3, flagged: which groups have no 惜敗率 (their 1st scored ≤ 0) and what orders
    their players below the cut; ``""`` when every group has one."""
    groups = [g.label for g in rv.groups if g.result is not None
              and any(r.undefined and not r.disqualified for r in g.ratios.values())]
    return undefined_ratio_text(groups, rv.rules.tie_break) if groups else ""


def round_table(rv: RoundView) -> list[Any]:
    """The overall list (全体の成績, engine ``cross_group_table``): group winners by score,
    the other direct advancers by 惜敗率, then every non-advancer together in the
    wildcard table's order, so the list and the cut line read the same (K4)."""
    res = results_by_label(rv)
    if not res:
        return []
    ctx = TieContext(lottery=Lottery(rv.round.tournament.lottery_seed,
                                     f"round-{rv.round.number}/wildcards"))
    return cross_group_table(res, context=ctx, advancing=round_advancing(rv),
                             chain=rv.rules.tie_break)


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


