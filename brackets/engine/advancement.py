"""Who advances from a round of groups: top k per group, then wildcards by 惜敗率 (K4).

The round's facts are the :class:`~brackets.engine.results.MatchResult` of each group.
From them this module derives:

* :func:`standings` — one row per real player with placement, score after penalties and
  惜敗率;
* :func:`advance` — the top ``k`` of each group, then wildcards (追加勝ち抜け) from the
  non-advancers, ranked across groups by an ordered tie-break chain, until the next round
  reaches its target size. Withdrawn (players who leave) and disqualified players never
  advance; their places are refilled by wildcards. The outcome carries the cross-group
  wildcard table and its cut line, because staff confirm it on screen before it counts;
* :func:`processing_order` — K6's "group winners by score desc, then runners-up by 惜敗率
  desc", a reusable cross-group order (also the cross-group table staff look at).

Tie-breaks are registered under stable slugs (:data:`TIE_BREAKS`) and a tournament stores
an ordered tuple of slugs, so organisers can reorder them without code. A chain that
cannot separate two players at the cut line never guesses: the outcome carries an
``unresolved_tie_at_cut`` warning.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Literal

from .errors import EngineBug, RuleRefusal, Violation
from .lottery import Lottery
from .ratio import Ratio, group_ratios
from .results import MatchResult


@dataclass(frozen=True)
class Standing:
    """One real player's result in a round, as the cross-group tables need it."""

    player: str
    group: str
    place: int
    score: Decimal
    screen_score: Decimal
    screen_place: int
    seat: int
    ratio: Ratio
    disqualified: bool = False


def standings(results: Mapping[str, MatchResult]) -> list[Standing]:
    """Every real player of the round, group by group in placement order."""
    rows: list[Standing] = []
    seen: set[str] = set()
    for group, result in results.items():
        ratios = group_ratios(result)
        for row in result.players:
            if row.player in seen:
                raise RuleRefusal(
                    "player_in_two_groups",
                    f"{row.player!r} has results in two groups of one round",
                    player=row.player,
                )
            seen.add(row.player)
            rows.append(
                Standing(
                    player=row.player,
                    group=group,
                    place=row.place,
                    score=row.score,
                    screen_score=row.screen_score,
                    screen_place=row.screen_place,
                    seat=row.seat,
                    ratio=ratios[row.player],
                    disqualified=row.disqualified,
                )
            )
    return rows


# ------------------------------------------------------------------ tie-break registry


@dataclass(frozen=True)
class TieContext:
    """Facts outside the round that some tie-breaks need.

    ``previous_place``: placement in the previous round; ``seed_rank``: 1 = top seed;
    ``recorded_lottery``: the order a physical lottery produced (first = best); when empty,
    ``lottery`` (a :class:`Lottery` from the stored seed) draws one reproducibly.
    """

    previous_place: Mapping[str, int] = field(default_factory=dict)
    seed_rank: Mapping[str, int] = field(default_factory=dict)
    lottery: Lottery | None = None
    recorded_lottery: Sequence[str] = ()
    lottery_rank: Mapping[str, int] = field(default_factory=dict)


SortKey = tuple[int, Fraction]
"""(missing flag, value): ascending; a missing value sorts after every present one."""

TieBreak = Callable[[Standing, TieContext], SortKey]

TIE_BREAKS: dict[str, TieBreak] = {}
"""Registered tie-breaks by slug; a tournament stores an ordered tuple of these slugs."""


def register_tie_break(slug: str) -> Callable[[TieBreak], TieBreak]:
    """Register a tie-break under a stable slug (a new rule is a new slug, not a fork)."""

    def decorate(func: TieBreak) -> TieBreak:
        if slug in TIE_BREAKS:
            raise EngineBug("tie_break_duplicate", f"tie-break {slug!r} exists", slug=slug)
        TIE_BREAKS[slug] = func
        return func

    return decorate


@register_tie_break("score")
def _by_score(row: Standing, ctx: TieContext) -> SortKey:
    """Score after penalties, higher first."""
    return (0, -Fraction(row.score))


@register_tie_break("screen_score")
def _by_screen_score(row: Standing, ctx: TieContext) -> SortKey:
    """The raw on-screen score, before penalties, higher first."""
    return (0, -Fraction(row.screen_score))


@register_tie_break("ratio")
def _by_ratio(row: Standing, ctx: TieContext) -> SortKey:
    """惜敗率, higher first; undefined ratios after every defined one."""
    return row.ratio.sort_key()


@register_tie_break("place")
def _by_place(row: Standing, ctx: TieContext) -> SortKey:
    """Placement in this round's group, better first."""
    return (0, Fraction(row.place))


@register_tie_break("previous_place")
def _by_previous_place(row: Standing, ctx: TieContext) -> SortKey:
    """Placement in the previous round, better first; players without one last."""
    if row.player not in ctx.previous_place:
        return (1, Fraction(0))
    return (0, Fraction(ctx.previous_place[row.player]))


@register_tie_break("seed")
def _by_seed(row: Standing, ctx: TieContext) -> SortKey:
    """Seed rank (1 = top seed) first; unseeded players after every seed."""
    if row.player not in ctx.seed_rank:
        return (1, Fraction(0))
    return (0, Fraction(ctx.seed_rank[row.player]))


@register_tie_break("screen_order")
def _by_screen_order(row: Standing, ctx: TieContext) -> SortKey:
    """On-screen placement (the dummy included), better first (H9)."""
    return (0, Fraction(row.screen_place))


@register_tie_break("seat")
def _by_seat(row: Standing, ctx: TieContext) -> SortKey:
    """Seat number, lower first (a last, arbitrary but published resort)."""
    return (0, Fraction(row.seat))


@register_tie_break("lottery")
def _by_lottery(row: Standing, ctx: TieContext) -> SortKey:
    """A recorded lottery (physical order, or drawn from the stored seed)."""
    if row.player not in ctx.lottery_rank:
        return (1, Fraction(0))
    return (0, Fraction(ctx.lottery_rank[row.player]))


def _with_lottery(rows: Sequence[Standing], chain: Sequence[str], ctx: TieContext) -> TieContext:
    if "lottery" not in chain or ctx.lottery_rank:
        return ctx
    if ctx.recorded_lottery:
        ranks = {p: i for i, p in enumerate(ctx.recorded_lottery)}
    elif ctx.lottery is not None:
        # The population is every player in the table, sorted, so the same seed and
        # purpose give the same order whichever subset turns out to be tied. A fresh
        # Lottery of the same seed and purpose: the context's own one keeps no state
        # between calls, so reusing a TieContext never changes an outcome.
        population = sorted({row.player for row in rows})
        fresh = Lottery(ctx.lottery.seed, ctx.lottery.purpose)
        ranks = {p: i for i, p in enumerate(fresh.shuffled(population))}
    else:
        return ctx
    return dataclasses.replace(ctx, lottery_rank=ranks)


def chain_key(chain: Sequence[str], ctx: TieContext) -> Callable[[Standing], tuple[SortKey, ...]]:
    """The sort key of an ordered tie-break chain (unknown slugs are an error)."""
    for slug in chain:
        if slug not in TIE_BREAKS:
            raise RuleRefusal("tie_break_unknown", f"no tie-break {slug!r}", slug=slug)
    funcs = [TIE_BREAKS[slug] for slug in chain]

    def key(row: Standing) -> tuple[SortKey, ...]:
        return tuple(func(row, ctx) for func in funcs)

    return key


def rank_by_chain(
    rows: Sequence[Standing], chain: Sequence[str], ctx: TieContext | None = None
) -> list[tuple[Standing, bool]]:
    """``rows`` ordered by the chain; the flag says 'still tied with the row above'."""
    ctx = _with_lottery(rows, chain, ctx or TieContext())
    key = chain_key(chain, ctx)
    ordered = sorted(rows, key=lambda r: (key(r), r.player))
    result: list[tuple[Standing, bool]] = []
    previous: tuple[SortKey, ...] | None = None
    for row in ordered:
        k = key(row)
        result.append((row, previous is not None and k == previous))
        previous = k
    return result


# ------------------------------------------------------------------------ advancement


@dataclass(frozen=True)
class AdvancementRule:
    """How many advance from a round.

    ``per_group``: top k of each group (2 in K4/K5, 1 in K6 rule B, per-round in H1).
    ``target``: size of the next round, or ``None`` for no wildcards. ``already_in``:
    players joining the next round without playing this one (K4/K5 seeds: 7).
    ``wildcard_chain``: ordered tie-break slugs ranking the non-advancers (K3 default:
    惜敗率, then raw score, then a recorded lottery).
    """

    per_group: int = 2
    target: int | None = None
    already_in: int = 0
    wildcard_chain: tuple[str, ...] = ("ratio", "score", "lottery")


Reason = Literal["group_top", "wildcard"]
Status = Literal["wildcard", "out", "withdrawn", "disqualified"]


@dataclass(frozen=True)
class Advancer:
    """A player going through, and why: group top-k, or wildcard with its table rank."""

    player: str
    group: str
    reason: Reason
    place: int
    wildcard_rank: int | None = None


@dataclass(frozen=True)
class WildcardRow:
    """One row of the cross-group wildcard table; ``rank`` is ``None`` if not eligible."""

    standing: Standing
    rank: int | None
    status: Status
    tied_with_previous: bool = False


@dataclass(frozen=True)
class AdvancementOutcome:
    """Advancers, the wildcard table with its cut line, and warnings for staff."""

    advancers: tuple[Advancer, ...]
    table: tuple[WildcardRow, ...]
    cut: int
    warnings: tuple[Violation, ...] = ()

    @property
    def players(self) -> list[str]:
        return [a.player for a in self.advancers]

    def reason_of(self, player: str) -> Advancer | None:
        return next((a for a in self.advancers if a.player == player), None)


def advance(
    results: Mapping[str, MatchResult],
    rule: AdvancementRule,
    *,
    withdrawn: Collection[str] = (),
    context: TieContext | None = None,
) -> AdvancementOutcome:
    """Top ``per_group`` of each group, then wildcards to fill ``target`` (K4).

    ``cut`` is the number of wildcards taken: rows of ``table`` with ``rank <= cut`` are
    in. When too few eligible players remain the outcome is short and says so
    (``advancement_short``); when the group tops alone exceed the target, nobody is cut
    (the target only fills, per K4) and ``advancement_over_target`` is reported.
    """
    if rule.per_group < 1:
        raise RuleRefusal(
            "per_group_invalid", "at least one player advances per group", per_group=rule.per_group
        )
    rows = standings(results)
    gone = set(withdrawn)
    direct: list[Advancer] = []
    candidates: list[Standing] = []
    ineligible: list[WildcardRow] = []
    for row in rows:
        if row.disqualified:
            ineligible.append(WildcardRow(row, None, "disqualified"))
        elif row.player in gone:
            ineligible.append(WildcardRow(row, None, "withdrawn"))
        elif row.place <= rule.per_group:
            direct.append(Advancer(row.player, row.group, "group_top", row.place))
        else:
            candidates.append(row)

    warnings: list[Violation] = []
    needed = 0
    if rule.target is not None:
        have = len(direct) + rule.already_in
        needed = max(0, rule.target - have)
        if have > rule.target:
            warnings.append(
                Violation("advancement_over_target", {"target": rule.target, "count": have})
            )
    ranked = rank_by_chain(candidates, rule.wildcard_chain, context)
    cut = min(needed, len(ranked))
    if needed > len(ranked):
        warnings.append(
            Violation(
                "advancement_short",
                {"target": rule.target, "count": len(direct) + rule.already_in + len(ranked)},
            )
        )
    if 0 < cut < len(ranked) and ranked[cut][1]:
        pair = [ranked[cut - 1][0].player, ranked[cut][0].player]
        warnings.append(Violation("unresolved_tie_at_cut", {"players": pair, "cut": cut}))

    table: list[WildcardRow] = []
    wildcards: list[Advancer] = []
    for index, (row, tied) in enumerate(ranked):
        rank = index + 1
        status: Status = "wildcard" if rank <= cut else "out"
        table.append(WildcardRow(row, rank, status, tied))
        if status == "wildcard":
            wildcards.append(Advancer(row.player, row.group, "wildcard", row.place, rank))
    table.extend(ineligible)
    return AdvancementOutcome(
        advancers=tuple(direct + wildcards),
        table=tuple(table),
        cut=cut,
        warnings=tuple(warnings),
    )


# ------------------------------------------------------------------- processing order

DEFAULT_TIERS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (1, ("score", "lottery")),
    (2, ("ratio", "score", "lottery")),
)
"""K6: group winners by score desc, then runners-up by 惜敗率 desc."""


def processing_order(
    results: Mapping[str, MatchResult],
    *,
    tiers: Sequence[tuple[int, Sequence[str]]] = DEFAULT_TIERS,
    players: Collection[str] | None = None,
    rest_chain: Sequence[str] = ("ratio", "score", "lottery"),
    context: TieContext | None = None,
) -> list[Standing]:
    """A cross-group order: tier by tier (a placement and its chain), then the rest.

    K6 processes rule-selection forms in this order. ``players`` restricts the order to
    the players concerned (e.g. those in the next round, which may include wildcards);
    anyone whose placement has no tier comes after all tiers, by placement then
    ``rest_chain``. Disqualified players are left out. Players the chain cannot separate
    (a ``lottery`` key without a lottery in ``context``) raise ``tie_needs_lottery``.
    """
    rows = [r for r in standings(results) if not r.disqualified]
    if players is not None:
        wanted = set(players)
        missing = wanted - {r.player for r in rows}
        if missing:
            raise RuleRefusal(
                "player_without_result", "players without a result", players=sorted(missing)
            )
        rows = [r for r in rows if r.player in wanted]
    ordered: list[Standing] = []

    def extend(tier: list[Standing], chain: Sequence[str], place: int) -> None:
        ranked = rank_by_chain(tier, chain, context)
        tied: set[str] = set()
        for index, (row, with_previous) in enumerate(ranked):
            if with_previous:
                tied.update((ranked[index - 1][0].player, row.player))
        if tied:
            # Players the chain cannot separate would otherwise be ordered by their key:
            # a silent guess that decides who gets their K6 rule. Ask for the lottery.
            raise RuleRefusal(
                "tie_needs_lottery",
                "players the tie-break chain cannot separate: record a lottery",
                place=place, players=sorted(tied), chain=list(chain))
        ordered.extend(row for row, _ in ranked)

    tier_places: set[int] = set()
    for place, chain in tiers:
        tier_places.add(place)
        extend([r for r in rows if r.place == place], chain, place)
    rest = [r for r in rows if r.place not in tier_places]
    for place in sorted({r.place for r in rest}):
        extend([r for r in rest if r.place == place], rest_chain, place)
    return ordered


def cross_group_table(
    results: Mapping[str, MatchResult],
    context: TieContext | None = None,
    *,
    advancing: int | Mapping[str, int] | None = None,
    chain: Sequence[str] = ("ratio", "score", "lottery"),
) -> list[Standing]:
    """Everyone of a round (the overall list, 全体の成績), best first.

    With ``advancing`` (the top k of each group, or k per group label for K6's rules):
    group winners by score, each further advancing placement by 惜敗率, then every
    non-advancer together by ``chain`` (the wildcard chain: 惜敗率 first, K4). That is
    the wildcard table's order, so the overall list and the cut line read the same.
    Without it, each placement by itself (winners by score, then 2nd, 3rd… by 惜敗率).
    Disqualified players are left out.
    """
    if advancing is None:
        return processing_order(results, context=context)

    def top(row: Standing) -> int:
        return advancing if isinstance(advancing, int) else advancing.get(row.group, 1)

    rows = [r for r in standings(results) if not r.disqualified]
    leading = [r.player for r in rows if r.place <= top(r)]
    most = max((top(r) for r in rows), default=1)
    tiers = [(1, ("score", "lottery"))] + [(k, tuple(chain)) for k in range(2, most + 1)]
    ordered = processing_order(results, tiers=tiers, players=leading, context=context)
    rest = [r for r in rows if r.place > top(r)]
    return ordered + [row for row, _tied in rank_by_chain(rest, chain, context)]
