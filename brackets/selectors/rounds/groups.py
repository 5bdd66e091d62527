"""A group's facts and what the engine derives from them, per group version.

The rows a page or a write read are kept per group version (:func:`write_check_rows`,
:func:`remember_write_rows`) and the engine's verdict is memoised on its exact inputs, so a
round page rebuilt after one save reads and derives one group, not every group.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import connection

from brackets import engine_adapter as ea
from brackets.adapters.rounds import RoundRules, round_rules
from brackets.engine import (
    EngineError,
    Lottery,
    MatchResult,
    Ratio,
    Selection,
    check_rematch,
    group_ratios,
)
from brackets.messages import (
    error_text,
    player_ids,
    screen_tie_text,
    undefined_ratio_text,
    violation_text,
)
from brackets.models import (
    ConfirmationFact,
    DisqualificationFact,
    Entrant,
    Group,
    PenaltyFact,
    RematchFact,
    ResultFact,
    Round,
    Seat,
    SelectionFact,
    Tournament,
)
from brackets.selectors.rounds.choices import selection_penalties
from brackets.selectors.rounds.group_view import (
    CONFIRMING,
    DONE,
    PLAYING,
    SELECTING,
    UNUSED,
    WAITING,
    GroupView,
)
from brackets.selectors.rounds.history import _newest


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
    views = [_facts_of(group, rows[group.id]) for group in groups]
    _add_selection_penalties(views)
    for view in views if derive else ():
        _derive(view, tournament)
        if tournament.two_person_confirmation and view.result is not None:
            view.confirmed = view.group.version in confirmations[view.group.id]
        view.status = _status(view, tournament)
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
    """The group's current facts from its rows: the newest selection and result per seat
    (results before the last re-match do not count), live penalties and
    disqualifications, and the H7 penalty of each set accepted as illegal that is still
    illegal (:func:`.choices.selection_penalties`, which reads only when there is one).
    The rows are only read, so cached rows can be shared by threads."""
    view = _facts_of(group, rows)
    _add_selection_penalties([view])
    return view


def _facts_of(group: Group, rows: GroupRows) -> GroupView:
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


def _add_selection_penalties(views: list[GroupView]) -> None:
    """H7: each still-illegal accepted set's penalty, ahead of the other penalties."""
    view_of = {v.group.id: v for v in views}
    for group_id, by_seat in selection_penalties(views).items():
        view = view_of[group_id]
        view.selection_penalties = dict(sorted(by_seat.items()))
        view.facts.penalties[:0] = [(n, points, "illegal_selection")
                                    for n, points in view.selection_penalties.items() if points]


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
    chain = round_rules(view.group.round).tie_break
    key = (tournament.lottery_seed, purpose, chain,
           tuple((s.number, s.player) for s in f.seats),
           tuple((n, None if sc is None else str(sc), pl)
                 for n, (sc, pl) in sorted(f.results.items())),
           tuple((n, str(pts), reason) for n, pts, reason in f.penalties),
           tuple(f.disqualified))
    hit = _VERDICTS.get(key)
    if hit is None:
        hit = _verdict(view.facts, Lottery(tournament.lottery_seed, purpose), chain)
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


def _verdict(facts: ea.GroupFacts, lottery: Lottery, chain: tuple[str, ...]
             ) -> tuple[MatchResult | None, dict[str, Ratio], list[str], str]:
    try:
        result = ea.group_result(facts, lottery, chain)
    except EngineError as exc:
        return None, {}, [], error_text(exc, entrant_names(player_ids(exc.params)))
    if result is None:
        return None, {}, [], ""
    notes = [violation_text(w) for w in result.warnings]
    ratios = group_ratios(result)
    if any(r.undefined and not r.disqualified for r in ratios.values()):
        notes.append(undefined_ratio_text(None, chain))
    if result.screen_ties:
        names = entrant_names(player_ids({"players": [p for t in result.screen_ties
                                                      for p in t.players]}))
        notes += [screen_tie_text(t, names) for t in result.screen_ties]
    return result, ratios, notes, ""


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


# -------------------------------------------------------------- change tracking


def tournament_version(tournament: Tournament) -> str:
    """The fingerprint of everything the tournament's pages show: its revision, which
    moves in the same transaction as every write (brackets/perf/revision.py). Read from
    ``tournament`` as loaded, so load it in the request that renders the page (the
    permission decorators do). The id and creation time come first because cache keys
    are built on it: a deleted tournament's id may be reused by a new one whose revision
    counts up from 0 again."""
    return f"{tournament.pk}.{tournament.created_at:%y%m%d%H%M%S%f}.{tournament.revision}"


def ratio_display(ratio: Ratio | None) -> Decimal | None:
    return None if ratio is None else ratio.display()


def entrant_map(ids: Iterable[int]) -> Mapping[int, Entrant]:
    return Entrant.objects.in_bulk(list(set(ids)))
