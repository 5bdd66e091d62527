"""Public pages (no login): bracket, rounds, results, 惜敗率 table, advancers, projector,
player pages. They never show staff-only data (notes, who entered what).

Freshness without cost: every page carries the tournament's change fingerprint
(:func:`brackets.selectors.rounds.tournament_version`: the tournament's revision). The
rendered fragment is cached under that fingerprint, so a new entry shows on the next poll
(htmx, every few seconds) and an unchanged tournament costs only the fingerprint; the live
endpoint answers 204 when the client already has the current version.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from brackets import engine_adapter as ea
from brackets import tables_rounds as rt
from brackets.adapters.rounds import round_rules
from brackets.labels import MODE_LABELS, ratio_text, translated
from brackets.models import Entrant, Round, SpecialFact, Tournament
from brackets.perf.page_cache import public_page
from brackets.selectors import players as player_sel
from brackets.selectors import rounds as sel
from brackets.templatetags.rounds_tags import pair_role_badge
from brackets.views.group_cards import GroupCard, render_cards

POLL_SECONDS = 3
# Up to this many rows, the projector's 惜敗率 table is set in larger type (fits 1080p).
PROJ_BIG_ROWS = 12


def _names_for(rvs: list[sel.RoundView]) -> dict[str, str]:
    return sel.seated_names(g for rv in rvs for g in rv.groups)


def _round_payload(tournament: Tournament, rnd: Round,
                   withdrawn: set[str] | None = None) -> dict[str, Any]:
    # A round not drawn yet has no groups, results or advancers: nothing to read. (A ladder
    # preset plans up to 9 rounds at 1,024 entrants; the bracket shows the undrawn ones as
    # empty columns without a query each.)
    drawn = rnd.status != Round.Status.CONFIGURED
    rv = (sel.round_view(rnd) if drawn
          else sel.RoundView(round=rnd, groups=[], rules=round_rules(rnd)))
    spec = rv.rules.spec
    if withdrawn is None:
        withdrawn = {ea.player_key(i) for i in sel.withdrawn_ids(tournament)}
    names = _names_for([rv])
    advancers = sel.advancers_of(rnd) if drawn else None
    step_data = {}
    if advancers is not None:
        step = rnd.steps.filter(action="advance", undone_by__isnull=True).order_by("-id").first()
        step_data = step.data if step else {}
    outcomes = []
    if rv.all_done and not spec.is_last:
        outcomes = sel.advancement_preview(rnd, rv)
    # The tables the round's Excel export writes too (brackets.tables_rounds).
    url = _player_url(tournament)
    people = rt.people_of(rv)
    cross = rt.cross_table(rv, outcomes, player_url=url, people=people)
    wild_tables = rt.wildcard_tables(rv, outcomes, row_classes=rt.PUBLIC_ROWS, player_url=url,
                                     near_cut=5, people=people)
    pair = spec.is_pair
    return {"tournament": tournament, "round": rnd, "rv": rv, "names": names,
            "pair": pair, "withdrawn": withdrawn,
            # K9/K10: per game, who won and who only partnered (their places do not count).
            "pair_rows": {g.group.id: _pair_rows(g, names) for g in rv.groups} if pair else {},
            "podium": sel.podium(tournament, [rv]) if drawn and spec.is_last else [],
            "wild_tables": wild_tables,
            "status_labels": sel.STATUS_LABELS, "outcomes": outcomes, "cross": cross,
            "advancers": [ea.player_key(a) for a in advancers or []],
            "wildcards": step_data.get("wildcards", []),
            "final_order": sel.final_order(rv) if spec.is_last else []}


_ROLE_ORDER = {"winner": 0, "loser": 1, "contender": 1, "partner": 2}


def _pair_rows(g: sel.GroupView, names: dict[str, str]) -> list[dict[str, Any]]:
    """One pair game (K9/K10) as shown to the public: the contenders first (winner, then
    loser), then the partners, labelled as such and without a placement."""
    roles = sel.pair_roles(g)
    placed = {p.player: p for p in g.result.players} if g.result is not None else {}
    rows = []
    for seat in g.seats:
        if seat.entrant_id is None:
            continue
        key = ea.player_key(seat.entrant_id)
        row = placed.get(key)
        rows.append({"player": key, "name": names.get(key, key), "seat": seat.number,
                     "role": roles.get(key, "contender"),
                     "score": row.score if row is not None else None})
    rows.sort(key=lambda r: (_ROLE_ORDER[r["role"]], r["seat"]))
    return rows


def _pair_card_rows(rows: list[dict[str, Any]], url: Any, gone: set[str]) -> str:
    out = []
    for r in rows:
        role = r["role"]
        cls = {"winner": "table-success fw-bold", "partner": "partner-row text-muted"}.get(
            role, "")
        # Beside the winner and loser, "contender" says nothing: only the others are marked.
        badge = "" if role == "contender" else pair_role_badge(role)
        score = "" if r["score"] is None else str(r["score"])
        if role == "partner" and score:
            score = f'<small>{score}</small>'
        quit_badge = (f' <span class="badge text-bg-dark withdrawn-badge">'
                      f'{escape(_("棄権"))}</span>' if r["player"] in gone else "")
        out.append(f'<tr class="{cls}"><td>{badge}</td><td><a href="{url(r["player"])}">'
                   f'{escape(r["name"])}</a>{quit_badge}</td><td class="num">{score}</td></tr>')
    return "".join(out)


def _player_url(tournament: Tournament) -> Any:
    base = reverse("public_player", args=[tournament.slug, 0])[: -len("0/")]
    return lambda player: f"{base}{player}/"


def _group_cards_html(payload: dict[str, Any]) -> str:
    """Every group box of a round, in the card the staff round page shows too; the rows
    are built in Python: a round of 256 groups is the largest fragment of the public
    pages, and per-cell template tags dominate its cost."""
    tournament, names = payload["tournament"], payload["names"]
    url = _player_url(tournament)
    adv, wild = set(payload["advancers"]), set(payload["wildcards"])
    gone = payload["withdrawn"]
    quit_badge = (f' <span class="badge text-bg-dark withdrawn-badge">'
                  f'{escape(_("棄権"))}</span>')
    labels = sel.STATUS_LABELS
    cards: list[GroupCard] = []
    for g in payload["rv"].groups:
        if g.status == sel.UNUSED:
            continue
        out: list[str] = []
        caption = ""
        if payload["pair"]:
            # Bootstrap shows a table's caption (first child) under its rows.
            if any(r["role"] == "partner" for r in payload["pair_rows"][g.group.id]):
                caption = _("パートナーの順位は数えません。")
            out.append(_pair_card_rows(payload["pair_rows"][g.group.id], url, gone))
        elif g.result is not None:
            for p in g.result.players:
                cls = ("table-warning" if p.player in wild else "table-success"
                       ) if p.player in adv else ""
                extra = ' <span class="wildcard-mark">WC</span>' if p.player in wild else ""
                if p.disqualified:
                    extra += f' <span class="badge text-bg-danger">{escape(_("失格"))}</span>'
                if p.player in gone:
                    extra += quit_badge
                pen = (f' <small class="text-danger">(−{p.penalty})</small>'
                       if p.penalty else "")
                ratio = g.ratios.get(p.player)
                out.append(
                    f'<tr class="{cls}"><td>{p.place}</td><td><a href="{url(p.player)}">'
                    f'{escape(names.get(p.player, p.player))}</a>{extra}</td>'
                    f'<td class="num">{p.score}{pen}</td><td class="num text-muted">'
                    f'{escape(ratio_text(ratio))}</td></tr>')
        else:
            for seat in g.seats:
                if seat.entrant_id is None:
                    who, cls = escape(_("ダミー")), "dummy-row"
                else:
                    who = (f'<a href="{url(seat.entrant_id)}">{escape(seat.entrant.name)}</a>')
                    if ea.player_key(seat.entrant_id) in gone:
                        who += quit_badge
                    cls = ""
                chosen = g.selection_rows.get(seat.number)
                shown = (escape(f"{chosen.genre}/{chosen.format}")
                         if chosen is not None and g.status == sel.PLAYING else "")
                out.append(f'<tr class="{cls}"><td class="text-muted">{escape(_("サテ"))}'
                           f'{seat.number}</td><td>{who}</td><td class="small text-muted">'
                           f'{shown}</td></tr>')
        cards.append(GroupCard(label=g.label, status=g.status, status_label=labels[g.status],
                               rows=mark_safe("".join(out)), css="public-group",
                               rule=g.group.rule, dom_id=f"pg-{g.label}", caption=caption))
    return render_cards(cards)


def _cross_tables_html(payload: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    """The cross-group table (winners by score, then by 惜敗率) and the wildcard tables
    around the cut, rendered from their table objects without per-cell templates."""
    cross = payload["cross"]
    cross_html = rt.table_html(cross) if cross is not None and len(cross.data) else ""
    wild = [(rule, rt.table_html(table)) for rule, _outcome, table in payload["wild_tables"]]
    return cross_html, wild


def _cached(name: str, version: str, build: Any) -> str:
    # The language is part of the key: the fragment holds translated text.
    key = f"brackets:pub:{name}:{version}:{get_language()}"
    html = cache.get(key)
    if html is None:
        html = build()
        cache.set(key, html, 300)
    return str(html)


def _live(request: HttpRequest, version: str) -> bool:
    """True when the poller already shows ``version`` (answer 204, nothing to swap)."""
    return request.GET.get("v") == version


_BUILDING: dict[str, threading.Lock] = {}
_BUILDING_GUARD = threading.Lock()


def _build_lock(name: str) -> threading.Lock:
    """One lock per page: when a write invalidates a round, the pollers arriving together
    wait for one rebuild instead of each rebuilding it (no cache stampede)."""
    with _BUILDING_GUARD:
        return _BUILDING.setdefault(name, threading.Lock())


def _round_cached(tournament: Tournament, number: int, version: str) -> dict[str, Any]:
    """The rendered round (name, nav, live body) for one version; built once per change."""
    key = f"brackets:pub:round:{tournament.id}:{number}:{version}:{get_language()}"
    hit = cache.get(key)
    if hit is not None:
        return dict(hit)
    with _build_lock(f"round:{tournament.id}:{number}"):
        hit = cache.get(key)
        if hit is not None:
            return dict(hit)
        return _round_build(tournament, number, version, key)


def _round_build(tournament: Tournament, number: int, version: str,
                 key: str) -> dict[str, Any]:
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    payload = {**_round_payload(tournament, rnd), "version": version}
    payload["cards_html"] = _group_cards_html(payload)
    payload["cross_html"], payload["wild_html"] = _cross_tables_html(payload)
    payload["cross_order"] = sel.overall_order_note(payload["rv"])
    payload["ratio_note"] = sel.undefined_ratio_note(payload["rv"])
    built = {
        "name": rnd.name,
        "nav": render_to_string("brackets/public/_round_nav.html",
                                {"tournament": tournament, "round": rnd,
                                 "rounds": sel.tournament_rounds(tournament)}),
        "body": render_to_string("brackets/public/_round_live.html", payload),
    }
    cache.set(key, built, 300)
    return built


@public_page
def public_round(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    version = sel.tournament_version(tournament)
    built = _round_cached(tournament, number, version)
    return render(request, "brackets/public/round.html",
                  {"tournament": tournament, "number": number, **built})


@public_page
def public_round_live(request: HttpRequest, tournament: Tournament,
                      number: int) -> HttpResponse:
    version = sel.tournament_version(tournament)
    if _live(request, version):
        return HttpResponse(status=204)
    return HttpResponse(_round_cached(tournament, number, version)["body"])


@public_page
def public_projector(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Large type for a projector: the round's groups, or (?view=table) the 惜敗率 table."""
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    view = "table" if request.GET.get("view") == "table" else "groups"
    version = sel.tournament_version(tournament)
    if request.GET.get("live") and _live(request, version):
        return HttpResponse(status=204)
    def build() -> str:
        payload = {**_round_payload(tournament, rnd), "version": version, "view": view}
        if view == "table":
            # The staff check's wildcard table in projector type: colours, no links.
            tables = rt.wildcard_tables(
                payload["rv"], payload["outcomes"], row_classes={"wildcard": "wild"},
                attrs={"class": "table wildcard-table"}, exclude=("mark",))
            payload["proj_tables"] = [(rule, rt.table_html(table)) for rule, _o, table in tables]
            # A short table (a small event, a later round) is set in larger type so it
            # fills the screen and reads from the back of the room.
            payload["proj_big"] = sum(len(table.data) for *_x, table in tables) <= PROJ_BIG_ROWS
        return render_to_string("brackets/public/_projector_live.html", payload, request=None)

    body = _cached(f"proj:{rnd.id}:{view}", version, build)
    if request.GET.get("live"):
        return HttpResponse(body)
    return render(request, "brackets/public/projector.html",
                  {"tournament": tournament, "round": rnd, "body": body, "view": view})


@public_page
def public_bracket(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Rounds as columns, groups as boxes, each advancer's path to the next round."""
    version = sel.tournament_version(tournament)
    if request.GET.get("live") and _live(request, version):
        return HttpResponse(status=204)

    def build() -> str:
        rounds = sel.tournament_rounds(tournament)
        gone = {ea.player_key(i) for i in sel.withdrawn_ids(tournament)}
        payloads = [_round_payload(tournament, r, gone) for r in rounds]
        names: dict[str, str] = {}
        for p in payloads:
            names.update(p["names"])
        ranking_html = ""
        if rounds and rounds[-1].status == Round.Status.ADVANCED:
            # The event is over: the final ranking, the table its Excel file writes.
            from brackets.selectors.round_documents import final_ranking

            ranking_html = rt.table_html(rt.ranking_table(
                final_ranking(tournament, translate=True), player_url=_player_url(tournament)))
        return render_to_string("brackets/public/_bracket_live.html",
                                {"tournament": tournament, "payloads": payloads,
                                 "names": names, "version": version,
                                 "ranking_html": ranking_html,
                                 "podium": sel.podium(tournament,
                                                      [p["rv"] for p in payloads]),
                                 "status_labels": sel.STATUS_LABELS}, request=None)

    body = _cached("bracket", f"{tournament.id}:{version}", build)
    if request.GET.get("live"):
        return HttpResponse(body)
    return render(request, "brackets/public/bracket.html",
                  {"tournament": tournament, "body": body,
                   "rounds": sel.tournament_rounds(tournament)})


@public_page
def public_player(request: HttpRequest, tournament: Tournament, entrant_id: int) -> HttpResponse:
    """Everything a player asks staff: rounds, sets, scores, places, 惜敗率, penalties,
    修羅 lots, and what genres and format groups remain."""
    entrant = get_object_or_404(Entrant, id=entrant_id, tournament=tournament)
    catalog = ea.catalog_for(tournament.version_id)
    history = sel.selection_history(tournament, [entrant.id]).get(entrant.id, [])
    rounds = sel.tournament_rounds(tournament)
    key = ea.player_key(entrant.id)
    played = []
    from brackets.models import Seat

    seats = list(Seat.objects.filter(entrant=entrant, superseded_by__isnull=True)
                 .select_related("group", "group__round").order_by("group__round__number",
                                                                   "group__game"))
    groups = [s.group for s in seats]
    views = {gv.group.id: gv for gv in sel.group_views(groups, tournament)} if groups else {}
    for rnd in {g.round.id: g.round for g in groups
                if round_rules(g.round).spec.is_series}.values():
        # A finalist or partner sits in every game of the final: its games are all here,
        # so a game after the series was decided reads 不要, not 待機 (K10).
        sel.mark_series(sel.RoundView(rnd, [v for v in views.values()
                                            if v.group.round_id == rnd.id],
                                      round_rules(rnd)))
    for seat in seats:
        gv = views[seat.group_id]
        row = gv.row_of(key)
        sel_row = gv.selection_rows.get(seat.number)
        # K9/K10: a pair game is won or lost by the pair; 惜敗率 means nothing there.
        pair_role = sel.pair_roles(gv).get(key, "")
        played.append({"round": seat.group.round, "group": seat.group, "seat": seat.number,
                       "selection": sel_row, "row": row,
                       "ratio": None if pair_role else gv.ratios.get(key),
                       "pair_role": pair_role,
                       "penalties": [p for p in gv.penalty_rows if p.seat_id == seat.id],
                       "status": sel.STATUS_LABELS[gv.status]})
    used = sel.used_summary(history, catalog)
    windows = sel.used_by_window(history, catalog)
    # One heading while only the main window was played; per window once the final (a
    # fresh history, K10) has sets, so pre-final use is not read as the final's.
    used_windows = [(_(sel.WINDOW_LABELS.get(w, w)) if len(windows) > 1 else "", u)
                    for w, u in windows]
    lots = sel.lots_of(tournament, [entrant.id]).get(entrant.id)
    withdrawn = entrant.id in sel.withdrawn_ids(tournament)
    # What the engine allows in the player's current match or next round, as the match
    # page computes it: not the whole history, since the final resets it (K10), the
    # third-place match ignores it (K9) and round 4's cards narrow it (K7).
    upcoming = player_sel.next_choices(tournament, entrant, catalog, seats=seats, views=views,
                                       rounds=rounds, history=history, lots=lots)
    standing = None
    rules = (upcoming.rules if upcoming is not None
             else player_sel.standing_rules(entrant, rounds, lots))
    if upcoming is not None:
        standing = {**upcoming.summary(), "round": upcoming.round, "group": upcoming.group,
                    "prospective": upcoming.prospective,
                    "cards_pending": upcoming.cards_pending,
                    "window": upcoming.window,
                    "window_label": (_(sel.WINDOW_LABELS[upcoming.window])
                                     if upcoming.window in sel.WINDOW_LABELS else "")}
    return render(request, "brackets/public/player.html",
                  {"tournament": tournament, "entrant": entrant, "played": played,
                   # The ペナルティ column only when there is one: on a phone an empty
                   # column squeezed the others to a character per line.
                   "any_penalty": any((p["selection"] is not None
                                       and p["selection"].accepted_illegal)
                                      or p["penalties"]
                                      or (p["row"] is not None and p["row"].disqualified)
                                      for p in played),
                   # Where the player finished (優勝, 準優勝, 3位): the champion's own page
                   # did not say so. The built views of their last rounds are reused.
                   "finish": next((row.label for row in sel.podium(tournament, [
                       sel.RoundView(r, [v for v in views.values() if v.group.round_id == r.id],
                                     round_rules(r)) for r in {
                           g.round.id: g.round for g in groups
                           if round_rules(g.round).spec.is_last}.values()])
                       if row.player == key), ""),
                   "used": used, "used_windows": used_windows,
                   "lots": lots, "rounds": rounds,
                   "withdrawn": withdrawn, "standing": standing,
                   "mode": str(rules.mode) if rules is not None else "",
                   "mode_label": translated(MODE_LABELS),
                   "kinds": SpecialFact.Kind})
