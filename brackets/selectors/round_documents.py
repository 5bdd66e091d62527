"""Reads for the printed round documents (group tables, match and result sheets, the wall
bracket, final standings): plain rows, a fixed number of queries per document, every
gate and verdict from the match snapshot and the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_noop

from brackets.adapters.rounds import RoundRules, rules_from_stored
from brackets.labels import ratio_text
from brackets.models import Tournament


@dataclass(frozen=True)
class SeatDoc:
    """One seat of a group as the round documents print it (dummy: ``entrant_id`` None)."""

    number: int
    entrant_id: int | None
    name: str
    card_name: str
    seed: int | None = None
    selection: tuple[str, str, str] | None = None
    screen_score: str = ""
    penalty: str = ""
    score: str = ""
    place: int | None = None
    ratio: str = ""
    disqualified: bool = False
    advanced: str = ""
    #: Advanced as a wildcard (追加勝ち抜け, K4) rather than on the group's own places.
    wildcard: bool = False
    used_genres: tuple[str, ...] = ()
    used_groups: tuple[str, ...] = ()

    @property
    def is_dummy(self) -> bool:
        return self.entrant_id is None


@dataclass(frozen=True)
class GroupDoc:
    label: str
    rule: str
    game: int
    seats: list[SeatDoc]
    has_result: bool
    cards: tuple[tuple[str, str], ...] = ()
    bans: tuple[str, ...] = ()
    problem: str = ""
    #: Pair matches (K9/K10): which contender won this game, or why it is not played.
    outcome: str = ""
    #: A best-of-3 game after the series was decided (K10): not played, not counted.
    unneeded: bool = False
    #: Pair matches: the contender who won this game (engine), once it has a result.
    winner_id: int | None = None
    #: K7 / K8 (the match snapshot's gates): the cards are still to be drawn, the bans
    #: still to be revealed, so the sheet leaves room to write them in.
    cards_pending: bool = False
    bans_pending: bool = False

    def placed(self) -> list[SeatDoc]:
        """Real players in placement order (those without a result last, by seat)."""
        real = [s for s in self.seats if not s.is_dummy]
        return sorted(real, key=lambda s: (s.place is None, s.place or 0, s.number))


@dataclass(frozen=True)
class StandingDoc:
    """One row of the cross-group table (winners by score, then each place by 惜敗率)."""

    order: int
    group: str
    place: int
    entrant_id: int
    name: str
    card_name: str
    score: str
    ratio: str
    advanced: str


@dataclass
class RoundDoc:
    number: int
    name: str
    kind: str
    status: str
    rules: RoundRules
    groups: list[GroupDoc]
    table: list[StandingDoc]
    advanced_confirmed: bool
    dummy_set: tuple[str, str, str]
    restriction: str
    per_group: int
    #: Pair rounds: the series or match result ("優勝：…", "3位：…").
    summary: str = ""
    #: Last rounds: entrant ids in the engine's final order (champion first), once decided.
    final_order: tuple[int, ...] = ()
    #: How ``table`` is ordered, in the printed sheets' Japanese (its heading).
    order_note: str = ""
    #: K3: which groups have no 惜敗率 and what orders their players (``""``: none).
    ratio_note: str = ""

    @property
    def title(self) -> str:
        return self.name

    @property
    def drawn(self) -> bool:
        return bool(self.groups)


def _money(value: Any) -> str:
    if value is None:
        return ""
    return f"{value:.2f}"


def _round_or_error(tournament: Tournament, number: int) -> Any:
    from brackets.errors import DocumentError
    from brackets.models import Round

    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        raise DocumentError(gettext("{number}回目の回戦はありません。").format(number=number))
    rnd.tournament = tournament
    return rnd


def round_document(tournament: Tournament, number: int) -> RoundDoc:
    """A round with its groups, seats, selections, results, 惜敗率 and advancers.

    Reads through the round selectors (a fixed number of queries whatever the size) and
    the engine (placements, 惜敗率, cross-group table); nothing is computed here.
    """
    from brackets import engine_adapter as ea
    from brackets.selectors import rounds as sel

    rnd = _round_or_error(tournament, number)
    rv = sel.round_view(rnd)
    rules = rv.rules
    spec = rules.spec
    seat_ids = [s.entrant_id for g in rv.groups for s in g.seats if s.entrant_id]
    entrants = sel.entrant_map(seat_ids)
    catalog = ea.catalog_for(tournament.version_id)
    history = sel.selection_history(tournament, list(set(seat_ids)), before_round=number)
    advancers = sel.advancers_of(rnd)
    wildcards: set[str] = set()
    if advancers is not None:
        from brackets.models import RoundStep

        adv_step = (RoundStep.objects.filter(round=rnd, action="advance",
                                             undone_by__isnull=True).order_by("-id").first())
        if adv_step is not None:
            wildcards = {str(p) for p in adv_step.data.get("wildcards", [])}
    advanced_keys = {str(p) for p in advancers or []}

    def advanced_text(player: str) -> str:
        if player in wildcards:
            return gettext("追加勝ち抜け")
        if player in advanced_keys:
            if spec.is_series or spec.is_ranked_final:
                return gettext("優勝")
            return gettext("3位") if spec.is_partner_match else gettext("勝ち抜け")
        return ""

    # Cards, bans and pair roles as the tablet sees them: each group's match snapshot.
    snapshots = sel.match_snapshots(rv.groups, catalog)
    groups: list[GroupDoc] = []
    for gv in rv.groups:
        snap = snapshots[gv.group.id]
        rows = []
        for seat in gv.seats:
            sel_fact = gv.facts.selections.get(seat.number)
            selection = ((sel_fact.genre, sel_fact.format, sel_fact.difficulty)
                         if sel_fact is not None else None)
            if seat.entrant_id is None:
                screen = gv.facts.results.get(seat.number, (None, None))
                rows.append(SeatDoc(seat.number, None, gettext("ダミー"), "", selection=selection,
                                    screen_score=_money(screen[0]), score=_money(screen[0])))
                continue
            entrant = entrants.get(seat.entrant_id)
            key = ea.player_key(seat.entrant_id)
            placed = gv.row_of(key)
            used = sel.used_summary(history.get(seat.entrant_id, []), catalog)
            ratio = gv.ratios.get(key)
            rows.append(SeatDoc(
                seat.number, seat.entrant_id, entrant.name if entrant else "?",
                entrant.card_name if entrant else "", seed=entrant.seed if entrant else None,
                selection=selection,
                screen_score=_money(placed.screen_score) if placed else "",
                penalty=_money(placed.penalty) if placed and placed.penalty else "",
                score=_money(placed.score) if placed else "",
                place=placed.place if placed else None,
                ratio=ratio_text(ratio, translate=True) if placed else "",
                disqualified=bool(placed and placed.disqualified),
                advanced=advanced_text(key), wildcard=key in wildcards,
                used_genres=tuple(used["genres"]), used_groups=tuple(used["groups"])))
        outcome = ""
        winner_id = None
        if spec.is_pair:
            outcome = _pair_outcome(gv, entrants)
            winner_id = next((int(k) for k, role in snap.roles.items()
                              if role == "winner"), None)
        gates = snap.gates
        groups.append(GroupDoc(gv.label, gv.group.rule, gv.group.game, rows,
                               gv.result is not None, gates.cards_drawn,
                               tuple(sorted(gates.bans_in_force)), gv.error, outcome,
                               unneeded=gv.status == sel.UNUSED, winner_id=winner_id,
                               cards_pending=gates.cards_pending,
                               bans_pending=gates.bans_pending))
    table: list[StandingDoc] = []
    if not spec.is_pair:
        for order, row in enumerate(sel.round_table(rv), start=1):
            entrant = entrants.get(int(row.player))
            table.append(StandingDoc(
                order, row.group, row.place, int(row.player),
                entrant.name if entrant else "?", entrant.card_name if entrant else "",
                _money(row.score), ratio_text(row.ratio, translate=True),
                advanced_text(row.player)))
    summary = ""
    last_order: list[str] = []
    if spec.is_last:
        last_order = sel.final_order(rv)
    if spec.is_pair:
        if last_order:
            first = entrants.get(int(last_order[0]))
            label = gettext("優勝") if spec.is_series else gettext("勝ち（3位）")
            summary = f"{label}：{first.name if first else '?'}"
    return RoundDoc(
        number=rnd.number, name=rnd.name, kind=spec.kind,
        status=rnd.get_status_display(),
        rules=rules, groups=groups, table=table,
        advanced_confirmed=advancers is not None,
        dummy_set=rules.dummy_set, restriction="preset",
        per_group=int(rnd.advance_per_group), summary=summary,
        final_order=tuple(int(x) for x in last_order),
        order_note=sel.overall_order_note(rv, translate=True) if table else "",
        ratio_note=_printed(sel.undefined_ratio_note, rv))


def _printed(build: Any, *args: Any) -> str:
    """A worded note as the printed sheets print it: in the language of whoever prints
    (the active language; Japanese unless the reader chose another)."""
    return str(build(*args))


def _pair_outcome(gv: Any, entrants: Any) -> str:
    """"勝ち：name" for a played pair game, "行わない" for a game after the series ended."""
    from brackets.engine import partner_match_winner
    from brackets.selectors import rounds as sel

    if gv.status == sel.UNUSED:
        return gettext("行わない（決着済み）")
    match = sel.partner_match_of(gv)
    if match is None or gv.result is None:
        return ""
    winner = entrants.get(int(partner_match_winner(match, gv.result).winner))
    return gettext("勝ち：{name}").format(name=winner.name if winner else "?")


def round_choices(tournament: Tournament, *kinds: str, flag: str | None = None,
                  drawn: bool = False, played: bool = False) -> list[tuple[int, str]]:
    """(number, name) of the tournament's rounds, optionally of some kinds, with a spec
    flag (``cards``, ``bans``), already drawn, or with play begun: what the documents page
    links per round (a link that could only say "not yet" is left out)."""
    from brackets.models import Round

    out = []
    for number, name, kind, spec, status in (Round.objects.filter(tournament=tournament)
                                             .order_by("number")
                                             .values_list("number", "name", "kind", "spec",
                                                          "status")):
        if kinds and kind not in kinds:
            continue
        if flag and not getattr(rules_from_stored(spec, number), flag):
            continue
        if (drawn or played) and status == Round.Status.CONFIGURED:
            continue
        if played and status == Round.Status.DRAWN:
            continue
        out.append((number, name))
    return out


@dataclass(frozen=True)
class RankingRow:
    place: int
    entrant_id: int
    name: str
    card_name: str
    round_name: str
    detail: str


def final_ranking(tournament: Tournament, *, translate: bool = False) -> list[RankingRow]:
    """Everyone who played, best first: the last rounds' orders (final, third place), then
    each earlier round's non-advancers in that round's cross-group order (score for group
    winners, then 惜敗率). Players still in an unfinished round are not ranked yet.

    ``detail`` is Japanese, as the printed standings and the tournament file write it; a web
    page passes ``translate=True`` to get it in the reader's language.
    """
    def t(text: str) -> str:
        return gettext(text) if translate else text

    from brackets.models import Round
    from brackets.selectors import rounds as sel

    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    ranked: list[tuple[str, str, str]] = []  # (player, round name, detail)
    seen: set[str] = set()
    played: list[tuple[Any, Any]] = []
    for rnd in rounds:
        rnd.tournament = tournament
        played.append((rnd, sel.round_view(rnd)))
    special = [(r, v) for r, v in played if v.rules.spec.is_last]
    # The final's places first (K10's series or H1's ranked final), then K9's match.
    special.sort(key=lambda rv: rv[1].rules.spec.is_partner_match)
    for rnd, view in special:
        for place, player in enumerate(sel.final_order(view), start=1):
            if player not in seen:
                seen.add(player)
                if view.rules.spec.is_series:
                    detail = t(gettext_noop("優勝") if place == 1 else gettext_noop("準優勝"))
                elif view.rules.spec.is_partner_match:
                    detail = t(gettext_noop("勝ち") if place == 1 else gettext_noop("負け"))
                else:
                    detail = t(gettext_noop("{place}位")).format(place=place)
                ranked.append((player, rnd.name, detail))
    for rnd, view in reversed(played):
        if view.rules.spec.is_last:
            continue
        advanced = {str(p) for p in (sel.advancers_of(rnd) or [])}
        if sel.advancers_of(rnd) is None:
            continue
        for row in sel.round_table(view):
            if row.player in seen or row.player in advanced:
                continue
            seen.add(row.player)
            ranked.append((row.player, rnd.name,
                           t(gettext_noop("{group}組{place}位　{score}点　惜敗率{ratio}")).format(
                               group=row.group, place=row.place, score=_money(row.score),
                               ratio=ratio_text(row.ratio, translate=translate))))
        # Whoever the cross-group table leaves out (disqualified in a match, H8) still
        # played this round: ranked after its other non-advancers, never dropped.
        for gv in view.groups:
            dq_seats = {d.seat_id for d in gv.dq_rows}
            for seat in gv.seats:
                player = str(seat.entrant_id) if seat.entrant_id else ""
                if not player or player in seen or player in advanced:
                    continue
                seen.add(player)
                ranked.append((player, rnd.name, t(
                    gettext_noop("{group}組　失格") if seat.id in dq_seats
                    else gettext_noop("{group}組　順位なし")).format(group=gv.label)))
    entrants = sel.entrant_map(int(p) for p, _r, _d in ranked)
    rows = []
    for place, (player, round_name, detail) in enumerate(ranked, start=1):
        e = entrants.get(int(player))
        rows.append(RankingRow(place, int(player), e.name if e else "?",
                               e.card_name if e else "", round_name, detail))
    return rows
