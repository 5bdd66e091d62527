"""Reads for printed documents: plain rows, a fixed number of queries per document.

Documents never touch the ORM themselves: they receive these dataclasses, so a document is a
pure layout function of its data (and the benchmark can feed it synthetic rows). Derived
values (restriction mode, 修羅 lots owed) come from the rule engine, never from a table here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from brackets.adapters.rounds import RoundRules, rules_from_stored
from brackets.engine import RoundSpec, seeds_play_round_1, seeds_round
from brackets.labels import COUNTING_LABELS, MODE_LABELS
from brackets.models import Entrant, Genre, Rank, Tournament

#: 修羅 lot reasons as printed on Japanese sheets (entry sheets, 修羅くじ記録).
LOT_REASON_TEXT = {
    "national_title": gettext_noop("全国大会タイトル"),
    "shiga_winner": gettext_noop("滋賀大会優勝"),
    "seed_or_invitation": gettext_noop("シード・招待権"),
    "volunteer": gettext_noop("修羅の道"),
    "extra": gettext_noop("追加くじ（自己申告）"),
}
#: The same reasons for web pages (the 修羅 desk): translated into the reader's language.
LOT_REASONS = {code: gettext_lazy(text) for code, text in LOT_REASON_TEXT.items()}
#: Names tried, in order, for a public page of one player (the public area may add one).
PLAYER_URL_NAMES = ("public_entrant", "public_player", "public_entrant_detail")
_URL_SENTINEL = 987654321


@dataclass(frozen=True)
class EntrantDoc:
    """One entrant as the desk documents print them."""

    id: int
    number: int
    name: str
    reading: str
    card_name: str
    home_store: str
    q_level: int
    rank: str
    seed: int | None
    mode: str
    lots_owed: int
    lot_reasons: tuple[str, ...]
    lots_drawn: tuple[str, ...] | None
    lot_error: str
    round1_group: str
    round1_seat: int | None
    public_url: str
    fee_paid: bool = False
    checked_in: bool = False
    #: Why there is no round-1 seat (a seed who starts later, K5).
    round1_note: str = ""

    @property
    def lots_text(self) -> str:
        """What the entry sheet prints in the 修羅くじ row."""
        if self.lot_error:
            return self.lot_error
        if not self.lots_owed:
            return "なし"
        reasons = "・".join(dict.fromkeys(self.lot_reasons))
        text = f"{self.lots_owed}本（{reasons}）"
        if self.lots_drawn:
            text += "　引いたジャンル：" + "、".join(self.lots_drawn)
        elif self.lots_drawn is None:
            text += "　未抽選"
        return text


@dataclass(frozen=True)
class EntrantDocs:
    tournament_name: str
    restriction: str
    entrants: list[EntrantDoc] = field(default_factory=list)


def rank_name(ranks: Iterable[tuple[str, int, int]], q_level: int) -> str:
    for name, q_min, q_max in ranks:
        if q_min <= q_level <= q_max:
            return name
    return ""


def player_public_url(tournament: Tournament, entrant_id: int, base_url: str) -> str:
    """The address of a player's public page (the QR code on the entry sheet).

    The public area names its per-player page one of :data:`PLAYER_URL_NAMES`; until one
    exists, the tournament's public page with an anchor for the player.
    """
    path = None
    for name in PLAYER_URL_NAMES:
        for kwargs in ({"slug": tournament.slug, "entrant_id": entrant_id},
                       {"slug": tournament.slug, "pk": entrant_id}):
            try:
                path = reverse(name, kwargs=kwargs)
                break
            except NoReverseMatch:
                continue
        if path:
            break
    if path is None:
        path = reverse("public_tournament", kwargs={"slug": tournament.slug}) + (
            f"#entrant-{entrant_id}")
    return base_url.rstrip("/") + path


def _planned(tournament: Tournament) -> tuple[RoundSpec, ...] | None:
    """The preset's rounds before any entrant is counted (None: the preset is unknown)."""
    try:
        from brackets.engine_adapter import preset_for

        return tuple(preset_for(tournament).rounds_for(0, 0))
    except Exception:  # noqa: BLE001 - an unknown preset still prints entry sheets
        return None


def first_round_restriction(tournament: Tournament) -> str:
    """The restriction kind of the tournament's first round: ``preset`` (the preset
    decides), or ``rank`` (H2's modes by rank) when the preset is unknown."""
    return "preset" if _planned(tournament) is not None else "rank"


def lots_apply(tournament: Tournament) -> bool:
    """Whether the preset has 修羅 lots at all (seed 002 does, 九州杯IX does not)."""
    planned = _planned(tournament)
    return True if planned is None else any(sp.restrictions.lots for sp in planned)


def player_rules_of(tournament: Tournament, restriction: str, entrant: Entrant,
                    lots: dict[str, Any] | None) -> Any:
    """The engine's standing rules for one entrant (the round adapter decides: K1 fixed,
    or H2–H5 by rank with 修羅 lots); a desk error in the declarations falls back to the
    rank alone so a sheet still prints."""
    from brackets import engine_adapter as ea
    from brackets.engine import EngineBug, EngineError

    rules_input = ea.rules_input_from_entrant(entrant, lots)
    try:
        try:
            return ea.player_rules(restriction, rules_input, tournament)
        except TypeError:  # an adapter without the preset argument
            return ea.player_rules(restriction, rules_input)
    except EngineBug:
        raise
    except EngineError:
        from brackets.engine import player_rules_for

        return player_rules_for(entrant.q_level)


def mode_label(rules: Any, *, shura: bool, opt_up: bool) -> str:
    """How a sheet names a player's restriction: 高火力ボンバーマン, 基本ルール（…）, ＋修羅.

    Printed sheets stay Japanese, so the shared labels (:mod:`brackets.labels`) are used
    untranslated here; web pages translate them with :func:`brackets.labels.label`.
    """
    from brackets.engine import BASIC_RULE

    mode = MODE_LABELS[str(rules.mode)]
    if str(rules.mode) != "free":
        mode = f"{COUNTING_LABELS[str(rules.counting)]}{mode}"
    if rules == BASIC_RULE and not shura:
        return f"基本ルール（{mode}）"
    if shura:
        return mode + "（修羅）"
    if opt_up:
        return mode + "（プチ修羅の道）"
    return mode


def _restriction(tournament: Tournament, kind: str, entrant: Entrant,
                 lots: dict[str, Any] | None, with_lots: bool
                 ) -> tuple[str, int, tuple[str, ...], str]:
    """(mode text, lots owed, lot reasons, error) for one entrant, from the engine."""
    from brackets.engine import RuleRefusal, ShuraDeclaration, lots_owed

    count, reasons, error = 0, (), ""
    if with_lots:
        declaration = ShuraDeclaration(
            national_title=entrant.shura_titles > 0,
            shiga_winner=entrant.shura_local_wins > 0,
            seed_or_invitation=entrant.shura_invited,
            volunteer=entrant.shura_voluntary,
            extra_lots=entrant.shura_extra_lots,
        )
        try:
            owed = lots_owed(declaration)
            count, reasons = owed.genre_lots, owed.reasons
        except RuleRefusal:
            error = "くじ数が上限を超えています（受付で確認）"
    rules = player_rules_of(tournament, kind, entrant, lots)
    mode = mode_label(rules, shura=bool(count or error), opt_up=bool(entrant.opt_up))
    return mode, count, tuple(LOT_REASON_TEXT.get(r, r) for r in reasons), error


def _drawn_lots(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """Newest 修羅 lot record per entrant (a correction supersedes), when lots are drawn."""
    from brackets.models import SpecialFact

    drawn: dict[int, dict[str, Any]] = {}
    rows = SpecialFact.objects.filter(tournament=tournament, kind="shura_lots",
                                      entrant__isnull=False).order_by("id")
    for entrant_id, data in rows.values_list("entrant_id", "data"):
        drawn[entrant_id] = data or {}
    return drawn


def _first_round_seats(tournament: Tournament) -> dict[int, tuple[str, int]]:
    """entrant id → (group label, サテ) in round 1, newest seat row per group and number."""
    from brackets.models import Seat

    current: dict[tuple[int, int], tuple[int | None, str]] = {}
    rows = (Seat.objects.filter(group__round__tournament=tournament, group__round__number=1)
            .order_by("id").values_list("group_id", "number", "entrant_id", "group__label"))
    for group_id, number, entrant_id, label in rows:
        current[(group_id, number)] = (entrant_id, label)
    seats: dict[int, tuple[str, int]] = {}
    for (_group_id, number), (entrant_id, label) in current.items():
        if entrant_id is not None:
            seats[entrant_id] = (label, number)
    return seats


def entrant_documents(tournament: Tournament, *, base_url: str = "") -> EntrantDocs:
    """Every entrant with what name tags and entry sheets print, in entry order."""
    ranks = list(Rank.objects.filter(version_id=tournament.version_id)
                 .order_by("order", "id").values_list("name", "q_min", "q_max"))
    kind = first_round_restriction(tournament)
    with_lots = lots_apply(tournament)
    planned = _planned(tournament)
    seeds_from = None if planned is None else seeds_round(planned)
    drawn = _drawn_lots(tournament)
    seats = _first_round_seats(tournament)
    genre_names = set(Genre.objects.filter(version_id=tournament.version_id)
                      .values_list("name", flat=True))
    rows: list[EntrantDoc] = []
    base = base_url or "http://localhost:8000"
    # One reverse() for the whole list: the address differs only in the id.
    url_pattern = player_public_url(tournament, _URL_SENTINEL, base)
    for number, entrant in enumerate(
            Entrant.objects.filter(tournament=tournament).order_by("id"), start=1):
        lots = drawn.get(entrant.id)
        mode, owed, reasons, error = _restriction(tournament, kind, entrant, lots, with_lots)
        lots_drawn: tuple[str, ...] | None = None
        if lots is not None:
            lots_drawn = tuple(str(g) for g in lots.get("genres", ()) if str(g) in genre_names)
            lots_drawn += tuple(str(f) for f in lots.get("formats", ()))
        seat = seats.get(entrant.id)
        rows.append(EntrantDoc(
            id=entrant.id, number=number, name=entrant.name, reading=entrant.reading,
            card_name=entrant.card_name, home_store=entrant.home_store,
            q_level=entrant.q_level, rank=rank_name(ranks, entrant.q_level), seed=entrant.seed,
            mode=mode, lots_owed=owed, lot_reasons=reasons, lots_drawn=lots_drawn,
            lot_error=error, round1_group=seat[0] if seat else "",
            round1_seat=seat[1] if seat else None,
            public_url=url_pattern.replace(str(_URL_SENTINEL), str(entrant.id)),
            fee_paid=entrant.fee_paid, checked_in=entrant.checked_in,
            round1_note=(f"シード（{seeds_from}回戦から出場）"
                         if entrant.seed and not seeds_play_round_1(seeds_from)
                         and not seat
                         else ""),
        ))
    return EntrantDocs(tournament_name=tournament.name, restriction=kind, entrants=rows)


# ------------------------------------------------------------------------------ rounds



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
    from brackets.models import Round
    from brackets.errors import DocumentError

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
            return "追加勝ち抜け"
        if player in advanced_keys:
            if spec.is_series or spec.is_ranked_final:
                return "優勝"
            return "3位" if spec.is_partner_match else "勝ち抜け"
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
                rows.append(SeatDoc(seat.number, None, "ダミー", "", selection=selection,
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
                ratio=str(ratio) if ratio is not None and placed else "",
                disqualified=bool(placed and placed.disqualified),
                advanced=advanced_text(key),
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
                _money(row.score), str(row.ratio), advanced_text(row.player)))
    summary = ""
    last_order: list[str] = []
    if spec.is_last:
        last_order = sel.final_order(rv)
    if spec.is_pair:
        if last_order:
            first = entrants.get(int(last_order[0]))
            label = "優勝" if spec.is_series else "勝ち（3位）"
            summary = f"{label}：{first.name if first else '?'}"
    return RoundDoc(
        number=rnd.number, name=rnd.name, kind=spec.kind,
        status=rnd.get_status_display(),
        rules=rules, groups=groups, table=table,
        advanced_confirmed=advancers is not None,
        dummy_set=rules.dummy_set, restriction="preset",
        per_group=int(rnd.advance_per_group), summary=summary,
        final_order=tuple(int(x) for x in last_order))


def _pair_outcome(gv: Any, entrants: Any) -> str:
    """"勝ち：name" for a played pair game, "行わない" for a game after the series ended."""
    from brackets.engine import partner_match_winner
    from brackets.selectors import rounds as sel

    if gv.status == sel.UNUSED:
        return "行わない（決着済み）"
    match = sel.partner_match_of(gv)
    if match is None or gv.result is None:
        return ""
    winner = entrants.get(int(partner_match_winner(match, gv.result).winner))
    return f"勝ち：{winner.name if winner else '?'}"


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
                               ratio=row.ratio)))
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


@dataclass(frozen=True)
class ShuraRow:
    """One entrant who owes 修羅 lots, and what was drawn (by whom, when, how)."""

    number: int
    name: str
    card_name: str
    reasons: str
    lots_owed: int
    genres: tuple[str, ...] | None
    formats: tuple[str, ...]
    method: str
    by: str
    at: str
    error: str = ""


def shura_records(tournament: Tournament) -> list[ShuraRow]:
    """Entrants owing lots (H4) with the newest recorded draw of each."""
    from django.utils import timezone

    from brackets.models import SpecialFact

    facts: dict[int, Any] = {}
    for fact in (SpecialFact.objects.filter(tournament=tournament, kind="shura_lots",
                                            entrant__isnull=False)
                 .select_related("by").order_by("id")):
        facts[fact.entrant_id] = fact
    rows = []
    kind = first_round_restriction(tournament)
    with_lots = lots_apply(tournament)
    for number, entrant in enumerate(
            Entrant.objects.filter(tournament=tournament).order_by("id"), start=1):
        _mode, owed, reasons, error = _restriction(tournament, kind, entrant, None, with_lots)
        fact = facts.get(entrant.id)
        if not owed and not error and fact is None:
            continue
        data = fact.data if fact is not None else {}
        rows.append(ShuraRow(
            number, entrant.name, entrant.card_name, "・".join(dict.fromkeys(reasons)), owed,
            tuple(data.get("genres", ())) if fact is not None else None,
            tuple(data.get("formats", ())),
            {"app": "アプリ抽選", "physical": "くじ（記録）"}.get(data.get("method", ""), ""),
            fact.by.get_username() if fact is not None and fact.by else "",
            timezone.localtime(fact.at).strftime("%m/%d %H:%M") if fact is not None else "",
            error))
    return rows
