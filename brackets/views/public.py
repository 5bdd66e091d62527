"""Public pages (no login): bracket, rounds, results, 惜敗率 table, advancers, projector.
They never show staff-only data (notes, who entered what).

Freshness without cost: every page carries the tournament's change fingerprint
(:func:`brackets.selectors.rounds.tournament_version`: the tournament's revision). The
rendered fragment is cached under that fingerprint, so a new entry shows on the next poll
(htmx, every few seconds) and an unchanged tournament costs only the fingerprint; the live
endpoint answers 204 when the client already has the current version (and a full page
answers 304 to a browser that has it: brackets/perf/page_cache.py).

A big round (more than PAGE_GROUPS groups) comes a page of group cards at a time, plus a
全体の成績 section for the round-wide tables. A card page is keyed by what it shows, not
by the revision: each card under its group's version (brackets/views/public_cards.py), the
page under the versions of its cards, so at a venue, where the revision moves with every
tablet's save, a phone's poll of a page nobody saved on is still a cache hit or a 304.
A round on one page is rebuilt per revision from the same cards, and its round-wide
tables are kept under the rows they show (brackets/perf/fragments.py), so a save costs
about its own group's card and the table rows it changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.translation import get_language

from brackets import engine_adapter as ea
from brackets import tables_rounds as rt
from brackets.adapters.rounds import round_rules
from brackets.models import Group, Round, Tournament
from brackets.perf import fragments
from brackets.perf.page_cache import Builders, public_page
from brackets.selectors import floor as floor_sel
from brackets.selectors import rounds as sel
from brackets.views import projector
from brackets.views import public_cards as cards

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
    # A draw not released yet (brackets/services/draw_release.py) is read as not drawn: the
    # public sees 「抽選済・公開前」 and no group.
    drawn = rnd.draw_public
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


def _player_url(tournament: Tournament) -> Any:
    return cards.player_url(tournament)


def _group_cards_html(payload: dict[str, Any]) -> str:
    """Every group box of a round, in the card the staff round page shows too."""
    ctx = cards.CardContext(
        url=_player_url(payload["tournament"]), names=payload["names"],
        advancers=frozenset(payload["advancers"]), wildcards=frozenset(payload["wildcards"]),
        withdrawn=frozenset(payload["withdrawn"]),
        pair_rows=payload["pair_rows"] if payload["pair"] else {})
    return cards.cards_html(payload["rv"].groups, ctx)


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


# Inside a whole page's build (brackets/perf/page_cache.py), for the round body it shows.
_round_builder = Builders()

#: A round with more groups than this is shown a page of groups at a time (a 1,024-entrant
#: round 1 has 256: ~460 KB of HTML for a phone to lay out), plus a section for what only
#: the whole round tells (the cross-group table, wildcards, advancers).
PAGE_GROUPS = 32
TABLE_SECTION = "table"


def _page_of(request: HttpRequest) -> str:
    page = request.GET.get("page", "")
    return page if page == TABLE_SECTION or page.isdigit() else ""


def _round_cached(tournament: Tournament, number: int, version: str,
                  page: str = "") -> dict[str, Any]:
    """The rendered round (name, nav, live body) for one version and page; built once
    per change."""
    key = f"brackets:pub:round:{tournament.id}:{number}:{page}:{version}:{get_language()}"
    hit = cache.get(key)
    if hit is not None:
        return dict(hit)
    with _round_builder(f"round:{tournament.id}:{number}:{page}"):
        hit = cache.get(key)
        if hit is not None:
            return dict(hit)
        built = _round_build(tournament, number, version, page)
        cache.set(key, built, 300)
        return built


def _round_build(tournament: Tournament, number: int, version: str,
                 page: str) -> dict[str, Any]:
    """The round page, or a paged round's 全体の成績 section (its card pages are built
    by :func:`_card_page_built`)."""
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    rnd.tournament = tournament
    labels, pages = _paging(rnd)
    if pages and page != TABLE_SECTION:
        raise Http404("no such page")
    built = {"name": rnd.name, "nav": _nav(tournament, rnd, sel.tournament_rounds(tournament))}
    payload = {**_round_payload(tournament, rnd), "version": version}
    built["calls"] = _calls(tournament, rnd, payload["rv"] if rnd.draw_public else None)
    payload["cards_html"] = "" if pages else _round_cards_html(tournament, rnd, payload)
    payload["cross_order"] = sel.overall_order_note(payload["rv"])
    payload["ratio_note"] = sel.undefined_ratio_note(payload["rv"])
    payload["tables_html"] = _tables_html(payload)
    if pages:
        payload.update(page=TABLE_SECTION, pages=_page_links(labels, pages), paged=True)
    built["body"] = render_to_string("brackets/public/_round_live.html", payload)
    return built


def _round_cards_html(tournament: Tournament, rnd: Round, payload: dict[str, Any]) -> str:
    """The cards of a round shown on one page: each from the cache while its group is
    unchanged (as on a card page), so a save re-renders one card, not the round's. A pair
    or series round's cards read each other (K9/K10): they are built together."""
    rv = payload["rv"]
    if payload["pair"] or rv.rules.spec.is_series or not rv.groups:
        return _group_cards_html(payload)
    groups = [g.group for g in rv.groups]
    return cards.cached_cards_html(tournament, groups,
                                   cards.page_cards(tournament, rnd, groups, rv.groups),
                                   views={g.group.id: g for g in rv.groups})


def _tables_html(payload: dict[str, Any]) -> str:
    """The round-wide tables (全体の成績, 惜敗率, advancers) under the rows they show:
    a selection save, most of a venue's saves, leaves them as they were, and rendering
    them (django-tables2, 72 rows and more) is half of a round page's build."""
    cross = payload["cross"]
    advancers = payload["advancers"]
    shown = (payload["tournament"].slug, payload["ratio_note"], payload["cross_order"],
             None if cross is None else (cross.attrs, cross.data.data),
             [(rule, table.attrs, table.data.data) for rule, _o, table in payload["wild_tables"]],
             advancers, payload["wildcards"], [payload["names"].get(a) for a in advancers],
             bool(payload["podium"]))
    return fragments.cached_fragment(
        "round-tables", shown,
        lambda: render_to_string("brackets/public/_round_tables.html", payload))


def _calls(tournament: Tournament, rnd: Round, rv: sel.RoundView | None = None) -> str:
    """Every called player of the round: 「あなたの出番: C組 A台 サテ2」."""
    return render_to_string("brackets/floor/_your_turn_list.html", {
        "tournament": tournament, "calls": floor_sel.round_calls(rnd, rv)})


def _paging(rnd: Round) -> tuple[list[str], int]:
    """The round's group labels and its number of card pages (0: one page for all)."""
    spec = round_rules(rnd).spec
    if spec.is_pair or spec.is_series:  # a few games, whose cards read each other
        return [], 0
    if rnd.draw_private:  # no card to page through until the draw is released
        return [], 0
    labels = list(Group.objects.filter(round=rnd).order_by("number")
                  .values_list("label", flat=True))
    pages = -(-len(labels) // PAGE_GROUPS)
    return labels, pages if pages > 1 else 0


def _nav(tournament: Tournament, rnd: Round, rounds: list[Round]) -> str:
    return render_to_string("brackets/public/_round_nav.html",
                            {"tournament": tournament, "round": rnd, "rounds": rounds})


@dataclass
class CardPage:
    """One page of a paged round's group cards, with the version of what it shows."""

    round: Round
    number: int
    labels: list[str]
    groups: list[Group]
    rounds: list[Round]
    cards: cards.PageCards
    version: str


def _card_page(tournament: Tournament, number: int, page: str) -> CardPage | None:
    """The card page ``page`` of round ``number``, or None when the round is not paged,
    the 全体の成績 section is asked for, or there is no such page (the round path
    answers those)."""
    if page == TABLE_SECTION:
        return None
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        return None
    rnd.tournament = tournament
    labels, pages = _paging(rnd)
    index = int(page or 1)
    if not pages or not 1 <= index <= pages:
        return None
    groups = list(Group.objects.filter(round=rnd).order_by("number")
                  [(index - 1) * PAGE_GROUPS:index * PAGE_GROUPS])
    page_cards = cards.page_cards(tournament, rnd, groups)
    rounds = sel.tournament_rounds(tournament)
    # Everything the page shows besides its cards: the round's name and status, the
    # tournament's name, the rounds in the nav, the page links.
    shown = (page_cards.version, rnd.pk, rnd.status, rnd.name, tournament.name,
             [(r.pk, r.number, r.name) for r in rounds], labels, index, get_language())
    return CardPage(round=rnd, number=index, labels=labels, groups=groups, rounds=rounds,
                    cards=page_cards, version="rp." + cards._digest(shown))


def _card_page_version(request: HttpRequest, slug: str, number: int) -> str | None:
    """public_page's key for a card page: it moves only when the page's groups do, not
    with every save in the tournament (16 tablets save several times a second)."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is not None:
        # Read before the page's version, so the pair is never newer than the revision.
        request.revision_read = sel.tournament_version(tournament)  # type: ignore[attr-defined]
        request.tournament_id_read = tournament.pk  # type: ignore[attr-defined]
    page = _card_page(tournament, number, _page_of(request)) if tournament else None
    request.card_page = page  # type: ignore[attr-defined]
    return page.version if page is not None else None


def _card_page_built(tournament: Tournament, page: CardPage) -> dict[str, Any]:
    body = render_to_string("brackets/public/_round_live.html", {
        "tournament": tournament, "round": page.round, "version": page.version,
        "page": page.number, "pages": _page_links(page.labels, -(-len(page.labels) // PAGE_GROUPS)),
        "paged": True, "cards_html": cards.cached_cards_html(tournament, page.groups, page.cards)})
    return {"name": page.round.name, "nav": _nav(tournament, page.round, page.rounds),
            "calls": _calls(tournament, page.round), "body": body}


def _card_page_of(request: HttpRequest, tournament: Tournament,
                  number: int) -> CardPage | None:
    page = getattr(request, "card_page", None)
    return page if page is not None else _card_page(tournament, number, _page_of(request))


def _page_links(labels: list[str], pages: int) -> list[tuple[str, str]]:
    """(page, label) per page of groups: the labels of its first and last group, so a
    player finds their group's page by its name."""
    out = []
    for index in range(pages):
        chunk = labels[index * PAGE_GROUPS:(index + 1) * PAGE_GROUPS]
        out.append((str(index + 1), f"{chunk[0]}–{chunk[-1]}"))
    return out


@public_page(version=_card_page_version)
def public_round(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    page = _card_page_of(request, tournament, number)
    if page is not None:
        built = _card_page_built(tournament, page)
    else:
        built = _round_cached(tournament, number, sel.tournament_version(tournament),
                              _page_of(request))
    return render(request, "brackets/public/round.html",
                  {"tournament": tournament, "number": number, **built})


@public_page(version=_card_page_version)
def public_round_live(request: HttpRequest, tournament: Tournament,
                      number: int) -> HttpResponse:
    page = _card_page_of(request, tournament, number)
    if page is not None:
        if _live(request, page.version):
            return HttpResponse(status=204)
        return HttpResponse(_card_page_built(tournament, page)["body"])
    version = sel.tournament_version(tournament)
    if _live(request, version):
        return HttpResponse(status=204)
    return HttpResponse(_round_cached(tournament, number, version, _page_of(request))["body"])


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
            # In screens of columns that fit 1080 px, turned by projector.js.
            screens = projector.table_screens(tables)
            payload.update(proj_screens=screens, screen_seconds=projector.SCREEN_SECONDS,
                           proj_col=12 // max((len(s.columns) for s in screens), default=1))
            # A short table (a small event, a later round) is set in larger type so it
            # fills the screen and reads from the back of the room.
            payload["proj_big"] = projector.row_count(tables) <= PROJ_BIG_ROWS
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
        ranking = None
        if rounds and rounds[-1].status == Round.Status.ADVANCED:
            # The event is over: the final ranking, the table its Excel file writes.
            from brackets.selectors.round_documents import final_ranking

            ranking = rt.ranking_table(final_ranking(tournament, translate=True),
                                       player_url=_player_url(tournament))
        return render_to_string("brackets/public/_bracket_live.html",
                                {"tournament": tournament, "payloads": payloads,
                                 "names": names, "version": version,
                                 "ranking": ranking,
                                 "podium": sel.podium(tournament,
                                                      [p["rv"] for p in payloads]),
                                 "status_labels": sel.STATUS_LABELS}, request=None)

    body = _cached("bracket", f"{tournament.id}:{version}", build)
    if request.GET.get("live"):
        return HttpResponse(body)
    return render(request, "brackets/public/bracket.html",
                  {"tournament": tournament, "body": body,
                   "rounds": sel.tournament_rounds(tournament)})
