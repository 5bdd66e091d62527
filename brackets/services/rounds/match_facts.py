"""Facts bracket staff enter at a cabinet: selections, results, penalties,
disqualifications, re-matches, confirmations and seats.

Every write here takes the one write path of :mod:`._write` (lock, idempotency key,
version check, stale merge, revision). Legality and results come from the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import connection, transaction
from django.utils.translation import gettext as _

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.engine import EngineError, Lottery, RuleRefusal, Selection, bounds
from brackets.labels import listed
from brackets.messages import violation_text
from brackets.models import (
    ConfirmationFact,
    DisqualificationFact,
    Group,
    PenaltyFact,
    RematchFact,
    ResultFact,
    Seat,
    SelectionFact,
)
from brackets.selectors import rounds as sel
from brackets.services.rounds._write import RoundError, _engine_text, _seat, match_write


def _refuse_unneeded_game(snap: sel.MatchSnapshot) -> None:
    """K10: once a finalist has won enough games the rest are not played. A selection or
    result for such a game cannot change the champion, so it is refused, not recorded
    (the match page already says the game is not needed)."""
    if not snap.game_needed:
        raise RoundError(_("この試合は不要です：第{n}試合までで勝敗が決まっています。入力は保存していません。")
                         .format(n=snap.group.game - 1), field="game")


def selection_save(*, group: Group, by: Any, seat_number: int, genre: str, format: str,
                   difficulty: str, base_version: int | None = None,
                   confirm_illegal: bool = False, key: str = "") -> SelectionFact:
    """Record a seat's set before play; an illegal set needs ``confirm_illegal`` and is
    then recorded as accepted (its violations and penalty are derived on reading:
    :meth:`~brackets.selectors.rounds.MatchSnapshot.selection_check`)."""
    with match_write(group, by=by, kind="selection", touched={("selection", seat_number)},
                     base_version=base_version, key=key,
                     content=[seat_number, genre, format, difficulty, confirm_illegal]) as g:
        return _selection_write(g, by=by, seat_number=seat_number, genre=genre, format=format,
                                difficulty=difficulty, confirm_illegal=confirm_illegal)


def _selection_write(g: Group, *, by: Any, seat_number: int, genre: str, format: str,
                     difficulty: str, confirm_illegal: bool) -> SelectionFact:
    """:func:`selection_save` on the locked group."""
    catalog = ea.catalog_for(g.round.tournament.version_id)
    # The match as the tablet showed it: its gates and choices come from the same snapshot.
    snap = sel.match_snapshot(g, catalog)
    _refuse_unneeded_game(snap)
    seat = _seat(g, seat_number)
    if seat.entrant_id is None:
        raise RoundError(_("ダミーの出題は固定です。"), field="seat")
    # K7: the drawn 下関 cards decide what may be chosen, so no selection before the draw
    # (whoever calls: the tablet page, a replay, a script).
    try:
        snap.require_cards()
    except RuleRefusal as exc:
        raise RoundError(_engine_text(exc), field="cards") from exc
    # K8: the revealed bans decide what may be chosen; a set taken before the reveal would
    # never be checked against them.
    rules = snap.rules
    if snap.gates.bans_pending:
        raise RoundError(_("禁止ジャンルを一斉公開するまで出題は登録できません。"), field="bans")
    selection = Selection(genre, format, difficulty)
    try:
        catalog.validate(selection)
    except RuleRefusal as exc:
        raise RoundError(_("「{genre} / {format} / {difficulty}」はこの大会のカタログにありません。")
                         .format(genre=genre, format=format, difficulty=difficulty),
                         field="genre") from exc
    choices = snap.choices[seat_number].choices
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
        accepted_illegal=not check.ok, supersedes=previous, by=by, base_version=g.version)
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
    """Record the result screen (:func:`results_record`); returns the group's new version."""
    return results_record(group=group, by=by, rows=rows, base_version=base_version,
                          key=key).version


@dataclass(frozen=True)
class ResultsSaved:
    """What a result save did: the group's new version and the seats whose score or
    placement it changed (none when the screen was entered again as it stands, so the
    tablet can say 変更はありません instead of 保存しました)."""

    version: int
    changed_seats: tuple[int, ...]

    @property
    def changed(self) -> bool:
        return bool(self.changed_seats)


def results_record(*, group: Group, by: Any, rows: Mapping[int, tuple[Any, Any]],
                   base_version: int | None = None, key: str = "") -> ResultsSaved:
    """Record the result screen: every seat's score and on-screen placement at once.

    Validated by the engine (score range, placements 1..n, players in the group) before
    anything is written. Returns the new version and the seats it changed.

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


def _results_write(*, group: Group, by: Any, rows: Mapping[int, tuple[Any, Any]],
                   base_version: int | None, key: str, prepared: _Prepared | None
                   ) -> ResultsSaved:
    with match_write(group, by=by, kind="results", touched={("result", n) for n in rows},
                     base_version=base_version, key=key,
                     content=sorted((n, str(s).strip(), str(p).strip())
                                    for n, (s, p) in rows.items())) as g:
        if prepared is not None and prepared.version == g.version:
            read, gv, parsed = prepared.rows, prepared.view, prepared.parsed
            _refuse_unneeded_game(sel.match_snapshot(gv))
        else:
            read = sel.group_rows([g.id], with_entrants=False)[g.id]
            gv = sel.assemble(g, read)
            _refuse_unneeded_game(sel.match_snapshot(gv))
            parsed = _results_check(g, gv, rows)
        seats = {s.number: s for s in gv.seats}
        changed = [ResultFact(group=g, seat=seats[n], score=value, placement=placement,
                              supersedes=current, by=by, base_version=g.version)
                   for n, (value, placement) in parsed.items()
                   if (current := gv.result_rows.get(n)) is None
                   or (current.score, current.placement) != (value, placement)]
        # One INSERT for the changed seats (a first entry is all four); it sends no
        # signals, and the write path moves the tournament's revision itself.
        ResultFact.objects.bulk_create(changed)
        if all(fact.pk is not None for fact in changed):  # ids come back on SQLite ≥ 3.35 and PG
            after = read.with_results(changed)
            # The group's rows at its new version (the write path moves it on the locked
            # row, so it is the next one), for its next save, once they are committed.
            version = g.version + 1
            transaction.on_commit(lambda: sel.remember_write_rows(g.round.tournament,
                                                                    {g.id: (version, after)}))
    return ResultsSaved(g.version, tuple(sorted(fact.seat.number for fact in changed)))


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
    # H9: the screen may show two players on one placement (1, 2, 2, 4); the engine
    # accepts that shape, orders the tie by the round's chain and refuses any other.
    trial = ea.GroupFacts(seats=gv.facts.seats, selections=gv.facts.selections,
                          penalties=gv.facts.penalties, disqualified=gv.facts.disqualified,
                          results={n: v for n, v in parsed.items()})
    try:
        ea.group_result(trial, Lottery(g.round.tournament.lottery_seed, "validate"),
                        round_rules(g.round).tie_break)
    except EngineError as exc:
        field = "place" if exc.code == "placements_invalid" else "score"
        raise RoundError(_engine_text(exc), field=field) from exc
    return parsed


def recorded_facts_check(gv: sel.GroupView, catalog: Any) -> None:
    """The checks a group's recorded facts pass when a tablet enters them, for facts that
    arrive another way (a tournament file): every set is in the catalog, and the results
    pass :func:`results_save`'s own check (every seat once, placements 1..n used once,
    the engine's score range and consistency). Raises :class:`RoundError`."""
    if gv.error:
        raise RoundError(gv.error, field="score")
    for number, chosen in sorted(gv.facts.selections.items()):
        try:
            catalog.validate(chosen)
        except RuleRefusal as exc:
            raise RoundError(_("サテ{n}の「{genre} / {format} / {difficulty}」はこの大会のカタログに"
                               "ありません。").format(n=number, genre=chosen.genre,
                                                    format=chosen.format,
                                                    difficulty=chosen.difficulty),
                             field="genre") from exc
    rows = {n: (score, place) for n, (score, place) in gv.facts.results.items()}
    if rows:
        _results_check(gv.group, gv, rows)


def penalty_add(*, group: Group, by: Any, seat_number: int, points: Any, reason: str,
                base_version: int | None = None, key: str = "") -> PenaltyFact:
    """A penalty with its reason (H7: −400 by default); placements are re-derived."""
    if not reason.strip():
        raise RoundError(_("理由を入力してください。"), field="reason")
    _check_reason(reason)
    with match_write(group, by=by, kind="penalty", touched={("penalty", seat_number)},
                     base_version=base_version, key=key,
                     content=[seat_number, str(points).strip(), reason.strip()]) as g:
        seat = _seat(g, seat_number)
        if seat.entrant_id is None:
            raise RoundError(_("ダミーにはペナルティを付けられません。"), field="seat")
        try:
            # The one range of a penalty (engine bounds): the column holds every value in
            # it, so no page that reads the penalty back can fail on it.
            value = bounds.PENALTY.check("penalty", points)
        except RuleRefusal as exc:
            raise RoundError(_engine_text(exc), field="points") from exc
        return PenaltyFact.objects.create(group=g, seat=seat, points=value,
                                          reason=reason.strip(), by=by, base_version=g.version)


def _check_reason(reason: str) -> None:
    """A reason longer than its column is refused with its length, never cut."""
    try:
        bounds.REASON.check("reason", reason.strip())
    except RuleRefusal as exc:
        raise RoundError(_engine_text(exc), field="reason") from exc


def penalty_revoke(*, group: Group, by: Any, penalty_id: int, reason: str,
                   base_version: int | None = None, key: str = "") -> PenaltyFact:
    """Lift a penalty: a revoked copy supersedes it."""
    with match_write(group, by=by, kind="penalty", base_version=base_version, key=key,
                     content=["revoke", penalty_id, reason]) as g:
        old = PenaltyFact.objects.filter(id=penalty_id, group=g, revoked=False,
                                         superseded_by__isnull=True).first()
        if old is None:
            raise RoundError(_("取り消すペナルティがこの組にありません。ページを読み込み直してください。"),
                             field="penalty")
        return PenaltyFact.objects.create(group=g, seat=old.seat, points=old.points,
                                          reason=reason or old.reason, revoked=True,
                                          supersedes=old, by=by, base_version=g.version)


def disqualification_add(*, group: Group, by: Any, seat_number: int, reason: str,
                         base_version: int | None = None, key: str = "",
                         revoke: bool = False) -> DisqualificationFact:
    """Disqualify (H8) or lift it; lower players move up in this match only."""
    if not reason.strip():
        raise RoundError(_("理由を入力してください。"), field="reason")
    _check_reason(reason)
    with match_write(group, by=by, kind="dq", touched={("dq", seat_number)},
                     base_version=base_version, key=key,
                     content=[seat_number, reason.strip(), revoke]) as g:
        seat = _seat(g, seat_number)
        if seat.entrant_id is None:
            raise RoundError(_("ダミーは失格にできません。"), field="seat")
        previous = DisqualificationFact.objects.filter(seat=seat).order_by("-id").first()
        return DisqualificationFact.objects.create(group=g, seat=seat, reason=reason.strip(),
                                                   revoked=revoke, supersedes=previous, by=by,
                                                   base_version=g.version)


def rematch_record(*, group: Group, by: Any, reason: str, base_version: int | None = None,
                   key: str = "") -> RematchFact:
    """A re-match after a machine fault: earlier results stop counting; the aborted
    selections are kept so a changed selection gets the H7 penalty."""
    if not reason.strip():
        raise RoundError(_("理由を入力してください。"), field="reason")
    _check_reason(reason)
    with match_write(group, by=by, kind="rematch", base_version=base_version, key=key,
                     content=reason.strip()) as g:
        gv = sel.group_view(g)
        aborted = {str(n): [s.genre, s.format, s.difficulty]
                   for n, s in gv.facts.selections.items()}
        return RematchFact.objects.create(group=g, reason=reason.strip(), aborted=aborted,
                                          by=by, base_version=g.version)


def result_confirm(*, group: Group, by: Any, version: int) -> ConfirmationFact:
    """Two-person confirmation: a second staff member confirms the result as it stands."""
    with match_write(group, by=by, kind="confirm", confirming=version) as g:
        gv = sel.group_view(g)
        if gv.result is None:
            raise RoundError(_("結果が揃っていません。"))
        entered_by = {r.by_id for r in gv.result_rows.values()}
        if by is not None and entered_by == {by.id}:
            raise RoundError(_("結果を入力した人とは別のスタッフが確認してください。"))
        return ConfirmationFact.objects.create(group=g, version=g.version, by=by,
                                               base_version=g.version)


def seats_assign(*, group: Group, by: Any, order: Sequence[int | None],
                 base_version: int | None = None) -> Group:
    """Reseat a group (サテ 1–4) before any selection: new seat rows supersede the old."""
    with match_write(group, by=by, kind="seats", base_version=base_version) as g:
        current = list(Seat.objects.filter(group=g, superseded_by__isnull=True)
                       .order_by("number"))
        if SelectionFact.objects.filter(group=g).exists() or ResultFact.objects.filter(
                group=g).exists():
            raise RoundError(_("出題・結果の入力後は席を変えられません。"))
        if sorted(map(str, order)) != sorted(str(s.entrant_id) for s in current):
            raise RoundError(_("席替えはこの組の選手の並べ替えだけです。"))
        for seat, entrant_id in zip(current, order):
            Seat.objects.create(group=g, number=seat.number, entrant_id=entrant_id,
                                supersedes=seat, by=by)
    return g
