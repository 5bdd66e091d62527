"""Reads for the round pages, the match page, the public pages and the replay printer.

Everything derived (placements, 惜敗率, advancers, legal choices) is computed here from the
current facts through :mod:`brackets.engine_adapter`; nothing derived is stored. Each
function issues a fixed number of queries whatever the number of entrants, so pages stay
flat as a tournament grows.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import connection
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from brackets import engine_adapter as ea
from brackets.adapters.rounds import RoundRules, round_rules
from brackets.engine.advancement import (
    AdvancementOutcome,
    AdvancementRule,
    TieContext,
    advance,
    cross_group_table,
)
from brackets.engine.catalog import Catalog, Selection
from brackets.engine.errors import EngineError, RuleRefusal
from brackets.engine.lottery import Lottery
from brackets.engine.presets import RoundRestrictions
from brackets.engine.ratio import Ratio, group_ratios
from brackets.engine.results import MatchResult, check_rematch
from brackets.engine.special import PartnerMatch, partner_match_winner, series_state
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
    Tournament,
)

WAITING, SELECTING, PLAYING, CONFIRMING, DONE, UNUSED = (
    "waiting", "selecting", "playing", "confirming", "done", "unused")
#: Lazy so every page, fragment and f-string that shows them translates at render time
#: (the page caches are keyed by language).
STATUS_LABELS = {WAITING: gettext_lazy("待機"), SELECTING: gettext_lazy("出題入力中"),
                 PLAYING: gettext_lazy("対戦中"), CONFIRMING: gettext_lazy("確認待ち"),
                 DONE: gettext_lazy("終了"), UNUSED: gettext_lazy("不要")}


# ---------------------------------------------------------------- plain snapshots


@dataclass
class GroupView:
    """One group with its current facts and what the engine derives from them."""

    group: Group
    seats: list[Seat]
    facts: ea.GroupFacts
    result: MatchResult | None = None
    ratios: dict[str, Ratio] = field(default_factory=dict)
    error: str = ""
    warnings: list[str] = field(default_factory=list)
    status: str = WAITING
    confirmed: bool = False
    selection_rows: dict[int, SelectionFact] = field(default_factory=dict)
    result_rows: dict[int, ResultFact] = field(default_factory=dict)
    penalty_rows: list[PenaltyFact] = field(default_factory=list)
    dq_rows: list[DisqualificationFact] = field(default_factory=list)
    rematches: list[RematchFact] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.group.label

    def row_of(self, player: str) -> Any:
        if self.result is None:
            return None
        for row in self.result.players:
            if row.player == player:
                return row
        return None


def _newest(rows: Iterable[Any], key: Any) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for row in rows:
        k = key(row)
        if k not in out or row.id > out[k].id:
            out[k] = row
    return out


def current_seats(group_ids: list[int], with_entrants: bool = True) -> dict[int, list[Seat]]:
    """Seats per group (newest row per seat number), entrants loaded unless a write's
    check needs only their ids (``with_entrants=False``).

    Two queries, seats then the groups' entrants, attached as select_related would (two
    plain queries are cheaper for Django to build than one two-join query).
    """
    out: dict[int, list[Seat]] = defaultdict(list)
    seats = list(Seat.objects.filter(group_id__in=group_ids, superseded_by__isnull=True)
                 .order_by("group_id", "number", "id"))
    if with_entrants and any(seat.entrant_id is not None for seat in seats):
        entrants = {e.id: e for e in Entrant.objects.filter(seats__group_id__in=group_ids)}
    for seat in seats:
        if with_entrants and seat.entrant_id is not None:
            seat.entrant = entrants[seat.entrant_id]
        out[seat.group_id].append(seat)
    return out


@dataclass(frozen=True)
class GroupRows:
    """One group's fact rows as read from the database, before anything is chosen or
    derived from them: the seats (current rows) and every fact on them, oldest first.

    Kept apart from :class:`GroupView` so a write can reuse what it read (see
    :func:`write_check_rows`) and add the rows it wrote, without reading them again."""

    seats: tuple[Seat, ...]
    selections: tuple[SelectionFact, ...] = ()
    results: tuple[ResultFact, ...] = ()
    penalties: tuple[PenaltyFact, ...] = ()
    dqs: tuple[DisqualificationFact, ...] = ()
    rematches: tuple[RematchFact, ...] = ()

    def with_results(self, written: Iterable[ResultFact]) -> GroupRows:
        return GroupRows(self.seats, self.selections, self.results + tuple(written),
                         self.penalties, self.dqs, self.rematches)


def group_rows(group_ids: list[int], with_entrants: bool = True) -> dict[int, GroupRows]:
    """The fact rows of many groups in a fixed number of queries (seats, entrants unless
    ``with_entrants=False``, then one query per fact table)."""
    ids = list(group_ids)
    seats = current_seats(ids, with_entrants=with_entrants)
    seat_group = {s.id: s.group_id for ss in seats.values() for s in ss}

    def current(model: Any) -> dict[int, list[Any]]:
        """The model's facts on the groups' current seats, per group. Filtered by the
        seats' group in SQL (a join) rather than ``seat_id IN`` 1,024 ids, whose parameter
        handling cost more than the query, then bucketed once instead of rescanned for
        every group."""
        out: dict[int, list[Any]] = defaultdict(list)
        for row in model.objects.filter(seat__group_id__in=ids).order_by("id"):
            gid = seat_group.get(row.seat_id)
            if gid is not None:
                out[gid].append(row)
        return out

    sels = current(SelectionFact)
    results = current(ResultFact)
    pens = current(PenaltyFact)
    dqs = current(DisqualificationFact)
    rematches: dict[int, list[RematchFact]] = defaultdict(list)
    for rm in RematchFact.objects.filter(group_id__in=ids).order_by("id"):
        rematches[rm.group_id].append(rm)
    return {gid: GroupRows(tuple(seats.get(gid, [])), tuple(sels[gid]), tuple(results[gid]),
                           tuple(pens[gid]), tuple(dqs[gid]), tuple(rematches[gid]))
            for gid in ids}


def group_views(groups: list[Group], tournament: Tournament,
                derive: bool = True) -> list[GroupView]:
    """Current facts of many groups in a fixed number of queries, then derive results.

    ``derive=False`` gives the facts alone, as a write checks them: no verdicts, and the
    seats carry entrant ids without loading the entrants (names are not needed)."""
    ids = [g.id for g in groups]
    rows = _rows_at_versions(groups, tournament, with_entrants=derive)
    confirmations: dict[int, set[int]] = defaultdict(set)
    if derive and tournament.two_person_confirmation:
        for c in ConfirmationFact.objects.filter(group_id__in=ids):
            confirmations[c.group_id].add(c.version)
    views = []
    for group in groups:
        view = assemble(group, rows[group.id])
        if derive:
            _derive(view, tournament)
            if tournament.two_person_confirmation and view.result is not None:
                view.confirmed = group.version in confirmations[group.id]
            view.status = _status(view, tournament)
        views.append(view)
    return views


# A result save checks the group's facts before it writes (see services.rounds.
# results_save). Tablets save the same group again and again (corrections, the next
# seat), so the rows a save read, plus the rows it wrote, are kept here for the next save
# of that group, with the group's version. Every write to a group's facts bumps its
# version in the same transaction, so a version names exactly one set of committed rows;
# the save still compares the version under its lock and reads again when it moved.
# Only each group's newest rows are kept: a save loads its group just before, so an older
# version is almost never asked for, and keeping every version held a million objects
# after a few thousand saves, which Python's garbage collector then walked for a third of
# a second every few seconds (the loopback bench's slowest saves). The key also carries
# the tournament's creation time: a test database may reuse ids.
_WRITE_ROWS: OrderedDict[tuple[Any, ...], tuple[int, GroupRows]] = OrderedDict()
_WRITE_ROWS_MAX = 2048
_WRITE_ROWS_LOCK = threading.Lock()


def _write_rows_key(tournament: Tournament, group_id: int) -> tuple[Any, ...]:
    return (tournament.pk, tournament.created_at, group_id)


def write_check_rows(group: Group) -> GroupRows:
    """The rows of ``group`` at the version it was loaded with, for a write's check: from
    the last save or read of the group when that was at this version, else read (and kept).

    Call it outside a transaction only (committed rows): the rows read may be newer than
    ``group.version`` if someone saved meanwhile, which is harmless because a save trusts
    them only when its lock finds that same version, and versions only grow."""
    return _rows_at_versions([group], group.round.tournament, with_entrants=False)[group.id]


def remember_write_rows(tournament: Tournament,
                        rows: Mapping[int, tuple[int, GroupRows]]) -> None:
    """Keep each group's rows at its version (group id → (version, rows)) unless newer
    rows are kept already; call it with committed rows only, read after the group row that
    gave the version."""
    with _WRITE_ROWS_LOCK:
        for group_id, (version, group_rows_) in rows.items():
            key = _write_rows_key(tournament, group_id)
            kept = _WRITE_ROWS.get(key)
            if kept is None or kept[0] <= version:
                _WRITE_ROWS[key] = (version, group_rows_)
            _WRITE_ROWS.move_to_end(key)
        while len(_WRITE_ROWS) > _WRITE_ROWS_MAX:
            _WRITE_ROWS.popitem(last=False)


def _rows_at_versions(groups: list[Group], tournament: Tournament,
                      with_entrants: bool) -> dict[int, GroupRows]:
    """Each group's rows at the version it was loaded with.

    A group whose rows are kept at that version (its last save or read) is not read again:
    after a tablet's save its match page is built from the rows the save kept, and a round
    page rebuilt after one save reads one group's facts instead of 256 groups'. The kept
    seats are copied with the entrants read now, so a renamed entrant (which moves no
    group's version) shows its new name, and kept rows are never changed. Rows read here
    outside a transaction (committed, read after the groups) are kept for the next save
    or page."""
    kept: dict[int, GroupRows] = {}
    with _WRITE_ROWS_LOCK:
        for g in groups:
            key = _write_rows_key(tournament, g.id)
            found = _WRITE_ROWS.get(key)
            if found is not None and found[0] == g.version:
                kept[g.id] = found[1]
                _WRITE_ROWS.move_to_end(key)  # recently used: the last to be dropped
    missing = [g.id for g in groups if g.id not in kept]
    rows = group_rows(missing, with_entrants=with_entrants) if missing else {}
    if rows and not connection.in_atomic_block:
        remember_write_rows(tournament, {g.id: (g.version, rows[g.id]) for g in groups
                                         if g.id in rows})
    if kept and with_entrants:
        kept = _with_current_entrants(kept)
    rows.update(kept)
    return rows


def _with_current_entrants(kept: dict[int, GroupRows]) -> dict[int, GroupRows]:
    """The rows with their seats copied and the entrants (read now, one query) attached."""
    entrants = {e.id: e for e in Entrant.objects.filter(seats__group_id__in=list(kept))}
    entrant_field = Seat._meta.get_field("entrant")
    out = {}
    for group_id, group_rows_ in kept.items():
        seats = []
        for seat in group_rows_.seats:
            copy = Seat.from_db(seat._state.db, _SEAT_ATTNAMES,
                                [getattr(seat, name) for name in _SEAT_ATTNAMES])
            if seat.entrant_id is not None:
                entrant_field.set_cached_value(copy, entrants[seat.entrant_id])
            seats.append(copy)
        out[group_id] = dataclasses.replace(group_rows_, seats=tuple(seats))
    return out


_SEAT_ATTNAMES = [f.attname for f in Seat._meta.concrete_fields]


def assemble(group: Group, rows: GroupRows) -> GroupView:
    """The group's current facts from its rows (no queries): the newest selection and
    result per seat (results before the last re-match do not count), live penalties and
    disqualifications. Reads the rows only, so cached rows can be shared by threads."""
    gs = list(rows.seats)
    sels = _newest(rows.selections, lambda r: r.seat_id)
    last_rm = max((r.base_version for r in rows.rematches), default=-1)
    res = _newest([r for r in rows.results if r.base_version > last_rm], lambda r: r.seat_id)
    gpens = [p for p in _newest(rows.penalties, lambda p: p.supersedes_id or p.id).values()
             if not p.revoked]
    gdqs = [d for d in _newest(rows.dqs, lambda d: d.seat_id).values() if not d.revoked]
    by_seat = {s.id: s for s in gs}
    facts = ea.GroupFacts(seats=[ea.SeatRow(s.id, s.number,
                                            None if s.entrant_id is None
                                            else ea.player_key(s.entrant_id),
                                            s.entrant_id) for s in gs])
    view = GroupView(group=group, seats=gs, facts=facts, rematches=list(rows.rematches))
    for seat in gs:
        sel = sels.get(seat.id)
        if sel is not None:
            facts.selections[seat.number] = Selection(sel.genre, sel.format, sel.difficulty)
            view.selection_rows[seat.number] = sel
            if sel.penalty and seat.entrant_id is not None:
                facts.penalties.append((seat.number, sel.penalty, "illegal_selection"))
        r = res.get(seat.id)
        if r is not None and not r.voided:
            facts.results[seat.number] = (r.score, r.placement)
            view.result_rows[seat.number] = r
    for p in gpens:
        facts.penalties.append((by_seat[p.seat_id].number, p.points, p.reason))
    view.penalty_rows = gpens
    view.dq_rows = gdqs
    facts.disqualified = [by_seat[d.seat_id].number for d in gdqs]
    if view.rematches:
        _rematch_penalties(view)
    return view


def _rematch_penalties(view: GroupView) -> None:
    """H7: a changed selection after a re-match costs the preset penalty (engine check)."""
    aborted = view.rematches[-1].aborted
    facts = view.facts
    before = {}
    after = {}
    for seat in facts.seats:
        key = str(seat.number)
        if seat.player and key in aborted and seat.number in facts.selections:
            before[seat.player] = tuple(aborted[key])
            sel = facts.selections[seat.number]
            after[seat.player] = (sel.genre, sel.format, sel.difficulty)
    if not before:
        return
    check = check_rematch(before, after)
    number_of = {s.player: s.number for s in facts.seats}
    for pen in check.penalties():
        facts.penalties.append((number_of[pen.player], pen.points, pen.reason))


# The engine's verdict on a group is a pure function of the facts it is given and the
# lottery's seed and purpose. A round page, the public round page and the advancement
# check each derive every group of the round (256 at 1,024 entrants) although a write
# changes one: verdicts are memoised under exactly those inputs (scores as text, so 300.0
# and 300.00 stay apart), never under ids or versions that a deleted round could reuse.
_VERDICTS: dict[tuple[Any, ...], tuple[MatchResult | None, dict[str, Ratio], list[str], str]] = {}
_VERDICTS_MAX = 8192


def _derive(view: GroupView, tournament: Tournament) -> None:
    purpose = f"round-{view.group.round.number}/group-{view.group.label}/tie"
    f = view.facts
    key = (tournament.lottery_seed, purpose,
           tuple((s.number, s.player) for s in f.seats),
           tuple((n, None if sc is None else str(sc), pl)
                 for n, (sc, pl) in sorted(f.results.items())),
           tuple((n, str(pts), reason) for n, pts, reason in f.penalties),
           tuple(f.disqualified))
    hit = _VERDICTS.get(key)
    if hit is None:
        hit = _verdict(view.facts, Lottery(tournament.lottery_seed, purpose))
        if len(_VERDICTS) >= _VERDICTS_MAX:
            _VERDICTS.clear()
        _VERDICTS[key] = hit
    result, ratios, warnings, error = hit
    if error:
        view.error = error
        return
    view.result = result
    if result is not None:
        view.ratios = dict(ratios)
        view.warnings = list(warnings)


def _verdict(facts: ea.GroupFacts, lottery: Lottery
             ) -> tuple[MatchResult | None, dict[str, Ratio], list[str], str]:
    try:
        result = ea.group_result(facts, lottery)
    except EngineError as exc:
        return None, {}, [], error_text(exc, entrant_names(player_ids(exc.params)))
    if result is None:
        return None, {}, [], ""
    return result, group_ratios(result), [violation_text(w) for w in result.warnings], ""


def _status(view: GroupView, tournament: Tournament) -> str:
    if view.result is not None:
        if tournament.two_person_confirmation and not view.confirmed:
            return CONFIRMING
        return DONE
    real = [s for s in view.seats if s.entrant_id is not None]
    chosen = [s for s in real if s.number in view.facts.selections]
    if not chosen and not view.facts.results:
        return WAITING
    if len(chosen) < len(real):
        return SELECTING
    return PLAYING


# -------------------------------------------------------------- round snapshots


@dataclass
class RoundView:
    round: Round
    groups: list[GroupView]
    rules: RoundRules

    @property
    def all_done(self) -> bool:
        return bool(self.groups) and all(g.status in (DONE, UNUSED) for g in self.groups)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = defaultdict(int)
        for g in self.groups:
            out[g.status] += 1
        return dict(out)


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


def mark_series(rv: RoundView) -> None:
    """Games after the series is decided (K10: first to n wins) are not needed, even one
    whose result was entered before an earlier game was corrected: it does not count."""
    for gv in rv.groups:
        state = series_progress(rv, upto=gv.group.game - 1)
        if state is not None and state.finished:
            gv.status = UNUSED


def group_view(group: Group, derive: bool = True) -> GroupView:
    return group_views([group], group.round.tournament, derive)[0]


# -------------------------------------------------------------- names and entrants


def seated_names(groups: Iterable[GroupView]) -> dict[str, str]:
    """Player key → name of everyone seated in ``groups``, from the entrants the seats
    already carry (what entrant_names would fetch again for 1,024 ids)."""
    return {ea.player_key(s.entrant_id): s.entrant.name
            for g in groups for s in g.seats if s.entrant_id is not None}


def entrant_names(ids: Iterable[int]) -> dict[str, str]:
    return {ea.player_key(e.id): e.name for e in Entrant.objects.filter(id__in=set(ids))}


# -------------------------------------------------------------- advancement


def seeds_entering(rnd: Round) -> list[Entrant]:
    """Seeds joining ``rnd`` without playing earlier rounds (K5), by seed number."""
    if not round_rules(rnd).spec.seeds_enter:
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


# -------------------------------------------------------------- series / partners


def special_facts(tournament: Tournament, kind: str, **filters: Any) -> list[SpecialFact]:
    """Current facts of one kind (newest per round/group/entrant)."""
    rows = SpecialFact.objects.filter(tournament=tournament, kind=kind, **filters)
    return list(_newest(rows, lambda f: (f.round_id, f.group_id, f.entrant_id)).values())


def partner_match_of(gv: GroupView) -> PartnerMatch | None:
    seats = {s.number: s.entrant_id for s in gv.seats}
    if not all(seats.get(n) for n in (1, 2, 3, 4)):
        return None
    return PartnerMatch(ea.player_key(seats[1]), ea.player_key(seats[2]),
                        ea.player_key(seats[4]), ea.player_key(seats[3]))


def series_progress(rv: RoundView, upto: int | None = None) -> Any:
    winners = []
    players: tuple[str, str] | None = None
    for gv in rv.groups:
        if upto is not None and gv.group.game > upto:
            break
        pm = partner_match_of(gv)
        if pm is None:
            continue
        players = players or (pm.first, pm.second)
        needed = rv.rules.wins_needed
        if any(winners.count(p) >= needed for p in players):
            break  # decided: a game entered after that (K10) must not void the final
        if gv.result is not None and gv.status == DONE:
            winners.append(partner_match_winner(pm, gv.result).winner)
    if players is None:
        return None
    try:
        return series_state(players, winners,
                            wins_needed=rv.rules.wins_needed)
    except RuleRefusal:
        return None


def series_winners(rv: RoundView) -> str | None:
    state = series_progress(rv)
    return None if state is None else state.winner


def final_order(rv: RoundView) -> list[str]:
    """Who finished where in a last round: the champion first (engine outcomes only)."""
    if rv.rules.spec.is_series:
        state = series_progress(rv)
        if state is None or state.winner is None:
            return []
        loser = state.players[1] if state.winner == state.players[0] else state.players[0]
        return [state.winner, loser]
    if rv.rules.spec.is_partner_match:
        gv = rv.groups[0] if rv.groups else None
        pm = partner_match_of(gv) if gv else None
        if gv is None or pm is None or gv.result is None:
            return []
        o = partner_match_winner(pm, gv.result)
        return [o.winner, o.loser]
    if rv.groups and rv.groups[0].result is not None:
        return rv.groups[0].result.ranking()
    return []


#: Who takes each podium place, per kind of last round (K9: the third-place match decides
#: 3位; K10: the final decides 優勝 and 準優勝; H1: a ranked final ranks all four).
#: Marked with gettext_noop (kept Japanese: podium_from compares with 優勝); shown through
#: ``{% trans row.label %}`` / ``gettext(row.label)``.
#: Round kinds played as pair games (K9 third-place match, K10 final): two contenders,
#: each with a partner whose place does not count.
#: Keyed by the engine's kind of a last round (``RoundSpec.is_last``: a pair round, or a
#: final group that ranks all its players).
PODIUM_LABELS = {"partner_series": (gettext_noop("優勝"), gettext_noop("準優勝")),
                 "partner_match": (gettext_noop("3位"),),
                 "final_group": (gettext_noop("優勝"), gettext_noop("準優勝"),
                                 gettext_noop("3位"))}


def podium_kind(rnd: Round) -> str:
    """The kind of a last round as :data:`PODIUM_LABELS` keys it, "" for any other round."""
    spec = round_rules(rnd).spec
    return spec.kind if spec.is_last else ""


def place_labels(rnd: Round, count: int) -> list[str]:
    """The places a last round decides, best first, in the reader's language: the podium
    names (優勝, 準優勝, 3位), the rest as n位. A match for lower places counts from the
    first of them (K9: places 3 and 4 of the semi-final), so its loser is 4位, not 2位."""
    names = PODIUM_LABELS.get(podium_kind(rnd), ())
    first = round_rules(rnd).first_place
    return [_(names[i]) if i < len(names) else _("{n}位").format(n=i + first)
            for i in range(count)]


@dataclass(frozen=True)
class PodiumRow:
    label: str
    player: str
    name: str
    champion: bool


def podium_from(orders: Iterable[tuple[str, list[str]]],
                names: Mapping[str, str]) -> list[PodiumRow]:
    """The podium from each last round's engine order (kind, final_order): the final's
    places first, then the third-place match's. Nothing for a round not yet decided."""
    rows: list[PodiumRow] = []
    ranked = sorted(((k, o) for k, o in orders if k in PODIUM_LABELS and o),
                    key=lambda ko: ko[0] == "partner_match")
    for kind, order in ranked:
        for label, player in zip(PODIUM_LABELS[kind], order):
            rows.append(PodiumRow(label, player, names.get(player, player), label == "優勝"))
    return rows


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


def pair_roles(gv: GroupView) -> dict[str, str]:
    """K9/K10: each player's part in one pair game: "winner" / "loser" for the contenders
    (once the game has a result), "contender" before, "partner" for partners, whose
    placements do not count. Empty for a group that is not a pair game."""
    if not round_rules(gv.group.round).spec.is_pair:
        return {}
    pm = partner_match_of(gv)
    if pm is None:
        return {}
    roles = {pm.first: "contender", pm.second: "contender",
             pm.first_partner: "partner", pm.second_partner: "partner"}
    if gv.result is not None and gv.status != UNUSED:
        try:
            outcome = partner_match_winner(pm, gv.result)
        except RuleRefusal:
            return roles
        roles[outcome.winner], roles[outcome.loser] = "winner", "loser"
    return roles


# -------------------------------------------------------------- history & choices


@dataclass
class HistoryRow:
    entrant_id: int
    round_number: int
    round_name: str
    group_label: str
    selection: Selection
    window: str | None
    recorded: bool


def selection_history(tournament: Tournament, entrant_ids: list[int],
                      before_round: int | None = None) -> dict[int, list[HistoryRow]]:
    """Every current selection the entrants played, per entrant, in round order."""
    qs = (SelectionFact.objects.filter(seat__entrant_id__in=entrant_ids,
                                       seat__superseded_by__isnull=True,
                                       group__round__tournament=tournament)
          .select_related("seat", "group", "group__round"))
    if before_round is not None:
        qs = qs.filter(group__round__number__lt=before_round)
    newest = _newest(qs, lambda r: r.seat_id)
    out: dict[int, list[HistoryRow]] = defaultdict(list)
    for row in sorted(newest.values(), key=lambda r: (r.group.round.number, r.group.game, r.id)):
        rnd = row.group.round
        window, recorded = window_of(rnd, row.group)
        out[row.seat.entrant_id].append(HistoryRow(
            row.seat.entrant_id, rnd.number, rnd.name, row.group.label,
            Selection(row.genre, row.format, row.difficulty), window, recorded))
    return out


def round_restrictions(rnd: Round, group: Group) -> RoundRestrictions:
    """The restriction pieces of a group's round (of its K6 rule, if it has one)."""
    return round_rules(rnd).restrictions(group.rule)


def window_of(rnd: Round, group: Group) -> tuple[str | None, bool]:
    """Where the sets played in this group are recorded (None, False: not recorded)."""
    record = round_restrictions(rnd, group).record_window
    return record, record is not None


def lots_of(tournament: Tournament, entrant_ids: list[int]) -> dict[int, dict[str, Any]]:
    rows = _newest(SpecialFact.objects.filter(tournament=tournament,
                                              kind=SpecialFact.Kind.SHURA_LOTS,
                                              entrant_id__in=entrant_ids),
                   lambda f: f.entrant_id)
    return {eid: f.data for eid, f in rows.items()}


@dataclass
class SeatChoices:
    seat: Seat
    choices: Any
    rules: Any
    history: list[HistoryRow]
    #: Everything the engine's choices were computed from (catalog identity, player rules,
    #: history, match rules), frozen: equal keys give equal choices, so a page may reuse
    #: what it rendered from them.
    key: tuple[Any, ...] = ()


def frozen(value: Any) -> Any:
    """A hashable copy of an engine input (dataclasses, mappings and sequences inside)."""
    import dataclasses

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple(
            (f.name, frozen(getattr(value, f.name))) for f in dataclasses.fields(value))
    if isinstance(value, Mapping):
        return ("{}",) + tuple(sorted((frozen(k), frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return ("[]",) + tuple(frozen(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return ("{,}",) + tuple(sorted(frozen(v) for v in value))
    return value


def match_context(gv: GroupView) -> dict[str, Any]:
    """Cards drawn, bans (revealed or not) and partners of one match."""
    group = gv.group
    rnd = group.round
    # K7 per round (preset setting k7_draw_per): the round's one draw has no group.
    facts = list(SpecialFact.objects.filter(
        Q(group=group) | Q(round=rnd, group__isnull=True, kind=SpecialFact.Kind.CARD_DRAW),
        tournament_id=rnd.tournament_id))
    cards = _newest([f for f in facts if f.kind == SpecialFact.Kind.CARD_DRAW], lambda f: 0)
    bans = _newest([f for f in facts if f.kind == SpecialFact.Kind.BAN], lambda f: f.entrant_id)
    reveal = [f for f in facts if f.kind == SpecialFact.Kind.BAN_REVEAL]
    return {"cards": cards.get(0), "bans": bans, "revealed": bool(reveal)}


def seat_choices(gv: GroupView, catalog: Catalog,
                 ctx: dict[str, Any] | None = None) -> dict[int, SeatChoices]:
    """Each real seat's legal choices for this match (the engine decides)."""
    group = gv.group
    rnd = group.round
    tournament = rnd.tournament
    ctx = ctx if ctx is not None else match_context(gv)
    ids = [s.entrant_id for s in gv.seats if s.entrant_id]
    history = selection_history(tournament, ids)
    lots = lots_of(tournament, ids)
    rules_of_round = round_rules(rnd)
    conf = rules_of_round.restrictions(group.rule)
    card_genres = card_groups = None
    if ctx.get("cards") is not None:
        cards = ctx["cards"].data.get("cards", [])
        card_genres = [c[0] for c in cards]
        card_groups = [c[1] for c in cards]
    bans: dict[str, list[str]] = {}
    if ctx.get("revealed"):
        for eid, f in ctx["bans"].items():
            bans.setdefault(f.data["genre"], []).append(ea.player_key(eid))
    partner_of_seat = {1: 2, 2: 1, 3: 4, 4: 3} if rules_of_round.spec.is_pair else {}
    pair_of_entrant: dict[int, int] = {}
    if partner_of_seat:
        by_num = {s.number: s.entrant_id for s in gv.seats}
        for a, b in partner_of_seat.items():
            if by_num.get(a) and by_num.get(b):
                pair_of_entrant[by_num[a]] = by_num[b]
    out = {}
    for seat in gv.seats:
        if seat.entrant_id is None:
            continue
        entrant = seat.entrant
        rows_input = ea.rules_input_from_entrant(entrant, lots.get(entrant.id))
        rules = ea.player_rules("preset", rows_input, rules_of_round.preset_slug,
                                settings=rules_of_round.settings)
        own = [h for h in history.get(entrant.id, []) if (h.round_number, h.group_label) !=
               (rnd.number, group.label)]
        if rules_of_round.spec.is_series:
            # K10: the pair shares one history inside the final window.
            mate = pair_of_entrant.get(entrant.id)
            own = [h for h in own if h.round_number == rnd.number]
            if mate:
                own += [h for h in history.get(mate, []) if h.round_number == rnd.number
                        and h.group_label != group.label]
        hist = ea.history_of((h.selection, h.round_name, h.window, h.recorded) for h in own
                             if h.round_number <= rnd.number)
        partner_sel = None
        if partner_of_seat:
            partner_sel = gv.facts.selections.get(partner_of_seat[seat.number])
        mr = ea.match_rules(label=rnd.name, window=conf.read_window, apply_lots=conf.lots,
                            card_genres=card_genres,
                            card_groups=card_groups, bans=bans, partner=partner_sel)
        out[seat.number] = SeatChoices(seat, ea.choices_for(catalog, rules, hist, mr), rules,
                                       history.get(entrant.id, []),
                                       key=(id(catalog), frozen(rules), frozen(hist),
                                            frozen(mr)))
    return out


# -------------------------------------------------------------- change tracking


def tournament_version(tournament: Tournament) -> str:
    """The fingerprint of everything the tournament's pages show: its revision, which
    moves in the same transaction as every write (brackets/revision.py). Read from
    ``tournament`` as loaded, so load it in the request that renders the page (the
    permission decorators do). The id and creation time come first because cache keys
    are built on it: a deleted tournament's id may be reused by a new one whose revision
    counts up from 0 again."""
    return f"{tournament.pk}.{tournament.created_at:%y%m%d%H%M%S%f}.{tournament.revision}"


def group_history(group: Group) -> list[dict[str, Any]]:
    """Every fact ever saved on a match, oldest first, for the history view (staff only)."""
    seat_rows = list(Seat.objects.filter(group=group).select_related("entrant", "by"))
    seat_ids = [s.id for s in seat_rows]
    seat_of = {s.id: s for s in seat_rows}
    events: list[dict[str, Any]] = []
    for s in seat_rows:
        events.append({"at": s.at, "by": s.by, "kind": _("席"), "seat": s.number,
                       "text": s.entrant.name if s.entrant else _("ダミー"), "base": None,
                       "corrects": s.supersedes_id is not None})
    for r in SelectionFact.objects.filter(seat_id__in=seat_ids).select_related("by"):
        text = f"{r.genre} / {r.format} / {r.difficulty}"
        if r.violations:
            text += _("（違反承知・−{n}）").format(n=r.penalty)
        events.append({"at": r.at, "by": r.by, "kind": _("出題"), "seat": seat_of[r.seat_id].number,
                       "text": text, "base": r.base_version, "corrects": bool(r.supersedes_id)})
    for r in ResultFact.objects.filter(seat_id__in=seat_ids).select_related("by"):
        events.append({"at": r.at, "by": r.by, "kind": _("結果"), "seat": seat_of[r.seat_id].number,
                       "text": _("{score} 点 / {placement} 位").format(
                           score=r.score, placement=r.placement), "base": r.base_version,
                       "corrects": bool(r.supersedes_id)})
    for r in PenaltyFact.objects.filter(seat_id__in=seat_ids).select_related("by"):
        events.append({"at": r.at, "by": r.by, "kind": _("ペナルティ"),
                       "seat": seat_of[r.seat_id].number,
                       "text": (_("取消") + " " if r.revoked else "") + f"−{r.points}：{r.reason}",
                       "base": r.base_version, "corrects": bool(r.supersedes_id)})
    for r in DisqualificationFact.objects.filter(seat_id__in=seat_ids).select_related("by"):
        events.append({"at": r.at, "by": r.by, "kind": _("失格"), "seat": seat_of[r.seat_id].number,
                       "text": (_("取消") + " " if r.revoked else "") + r.reason, "base": r.base_version,
                       "corrects": bool(r.supersedes_id)})
    for r in RematchFact.objects.filter(group=group).select_related("by"):
        events.append({"at": r.at, "by": r.by, "kind": _("再試合"), "seat": None, "text": r.reason,
                       "base": r.base_version, "corrects": False})
    for r in ConfirmationFact.objects.filter(group=group).select_related("by"):
        events.append({"at": r.at, "by": r.by, "kind": _("確認"), "seat": None,
                       "text": _("版 {v}").format(v=r.version), "base": r.base_version, "corrects": False})
    for r in SpecialFact.objects.filter(group=group).select_related("by", "entrant"):
        events.append({"at": r.at, "by": r.by, "kind": r.get_kind_display(), "seat": None,
                       "text": f"{r.entrant.name if r.entrant else ''} {r.data}",
                       "base": None, "corrects": bool(r.supersedes_id)})
    events.sort(key=lambda e: e["at"])
    return events


def used_summary(rows: list[HistoryRow], catalog: Catalog) -> dict[str, Any]:
    """Genres and format groups a player has used in recorded history (for the player page
    and the group sheets): the engine's :func:`~brackets.engine.restrictions.usage`, the
    count :meth:`~brackets.engine.restrictions.Choices.summary` reports as used."""
    from brackets.engine.restrictions import PlayerRules, usage

    entries = ea.history_of((h.selection, h.round_name, h.window, h.recorded) for h in rows)
    used = usage(catalog, PlayerRules(), [e for e in entries if e.recorded])
    return {"genres": list(used.genres), "groups": list(used.groups)}


#: History windows as players read them: the main window runs to the semi-final; the
#: final starts a new one (K10: history reset at the final).
WINDOW_LABELS = {"main": gettext_noop("決勝前"), "final": gettext_noop("決勝・履歴リセット後")}


def used_by_window(rows: list[HistoryRow], catalog: Catalog) -> list[tuple[str, dict[str, Any]]]:
    """:func:`used_summary` per history window, in the order the windows were played, so
    the final's sets (a fresh window, K10) are not mixed with what was used before it."""
    windows: list[str] = []
    for h in rows:
        if h.window is not None and h.recorded and h.window not in windows:
            windows.append(h.window)
    return [(w, used_summary([h for h in rows if h.window == w], catalog)) for w in windows]


def ratio_display(ratio: Ratio | None) -> Decimal | None:
    return None if ratio is None else ratio.display()


def entrant_map(ids: Iterable[int]) -> Mapping[int, Entrant]:
    return Entrant.objects.in_bulk(list(set(ids)))
