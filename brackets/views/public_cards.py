"""The public round page's group cards, each cached under what it shows.

A card shows one group: its facts (every write to them moves the group's ``version``; a
confirmation, which leaves the version, is keyed by its own id), its seated players' names
and whether they withdrew or advanced, and the tournament settings that decide its status.
Its key names exactly those, so after one save only the saved group's card is built
again: a round page of 256 groups rebuilt after a save reads the facts of one group, not
of the round. What only the round knows (the cross-group table, wildcards, advancers)
is built from the whole round on its own section (brackets/views/public.py).

The staff round page keeps its own cards under the same names (:func:`page_cards`), plus
its links and the viewer's roles (brackets/views/rounds/index.py).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Max
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from brackets import engine_adapter as ea
from brackets.labels import penalised_score_html, ratio_text
from brackets.models import ConfirmationFact, Group, Round, Seat, SelectionFact, Tournament
from brackets.perf import fragments
from brackets.selectors import rounds as sel
from brackets.templatetags.rounds_tags import pair_role_badge
from brackets.views.group_cards import GroupCard, render_cards


def player_url(tournament: Tournament) -> Callable[[str], str]:
    base = reverse("public_player", args=[tournament.slug, 0])[: -len("0/")]
    return lambda player: f"{base}{player}/"


@dataclass(frozen=True)
class CardContext:
    """What the cards of one round share: links, names, and who advanced or withdrew."""

    url: Callable[[str], str]
    names: dict[str, str]
    advancers: frozenset[str]
    wildcards: frozenset[str]
    withdrawn: frozenset[str]
    pair_rows: dict[int, list[dict[str, Any]]]


def pair_card_rows(rows: list[dict[str, Any]], url: Any, gone: Iterable[str]) -> str:
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


def public_card(g: sel.GroupView, ctx: CardContext) -> GroupCard:
    """One group's public card; its rows are built in Python (a round of 256 groups is the
    largest fragment of the public pages, and per-cell template tags dominate its cost)."""
    url, names, gone = ctx.url, ctx.names, ctx.withdrawn
    adv, wild = ctx.advancers, ctx.wildcards
    quit_badge = (f' <span class="badge text-bg-dark withdrawn-badge">'
                  f'{escape(_("棄権"))}</span>')
    out: list[str] = []
    caption = ""
    if g.group.id in ctx.pair_rows:
        rows = ctx.pair_rows[g.group.id]
        # Bootstrap shows a table's caption (first child) under its rows.
        if any(r["role"] == "partner" for r in rows):
            caption = _("パートナーの順位は数えません。")
        out.append(pair_card_rows(rows, url, gone))
    elif g.result is not None:
        for p in g.result.players:
            cls = ("table-warning" if p.player in wild else "table-success"
                   ) if p.player in adv else ""
            extra = ' <span class="wildcard-mark">WC</span>' if p.player in wild else ""
            if p.disqualified:
                extra += f' <span class="badge text-bg-danger">{escape(_("失格"))}</span>'
            if p.player in gone:
                extra += quit_badge
            ratio = g.ratios.get(p.player)
            out.append(
                f'<tr class="{cls}"><td>{p.place}</td><td><a href="{url(p.player)}">'
                f'{escape(names.get(p.player, p.player))}</a>{extra}</td>'
                f'<td class="num">{penalised_score_html(p)}</td><td class="num text-muted">'
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
    return GroupCard(label=g.label, status=g.status, status_label=sel.STATUS_LABELS[g.status],
                     rows=mark_safe("".join(out)), css="public-group", rule=g.group.rule,
                     dom_id=f"pg-{g.label}", caption=caption)


def cards_html(views: Iterable[sel.GroupView], ctx: CardContext) -> str:
    """Every shown card of ``views`` (a group the round no longer needs is left out)."""
    return render_cards(public_card(g, ctx) for g in views if g.status != sel.UNUSED)


@dataclass(frozen=True)
class PageCards:
    """The cards of some groups of one round: what each card shows, by group id (its
    fragment's name: brackets/perf/fragments.py), what they share, and ``version``, which
    moves exactly when one of them does."""

    shown: dict[int, Any]
    ctx: CardContext
    version: str


def page_cards(tournament: Tournament, rnd: Round, groups: list[Group],
               views: Iterable[sel.GroupView] | None = None,
               also: tuple[Any, ...] = ()) -> PageCards:
    """What the cards show, from a few plain-value queries (no fact is read): ``groups``
    are loaded in this request, so every fact a card is built from later is at least as
    new as the version its key names. ``views`` of ``groups``, when already read, give the
    seats instead of a query. ``also`` names what else every card of the caller's page
    shows (the staff page's links and its viewer's roles)."""
    ids = [g.id for g in groups]
    seats: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    names: dict[str, str] = {}
    seated = (Seat.objects.filter(group_id__in=ids, superseded_by__isnull=True)
              .order_by("group_id", "number", "id")
              .values_list("group_id", "number", "entrant_id", "id", "entrant__name")
              if views is None else
              [(v.group.id, s.number, s.entrant_id, s.id,
                s.entrant.name if s.entrant_id is not None else None)
               for v in views for s in v.seats])
    for group_id, number, entrant_id, seat_id, name in seated:
        seats[group_id].append((number, entrant_id, seat_id, name or ""))
        if entrant_id is not None:
            names[ea.player_key(entrant_id)] = name
    gone = frozenset(ea.player_key(i) for i in sel.withdrawn_ids(tournament))
    step = rnd.steps.filter(action="advance", undone_by__isnull=True).order_by("-id").first()
    ctx = CardContext(url=player_url(tournament), names=names,
                      advancers=frozenset(str(a) for a in step.data.get("advancers", []))
                      if step else frozenset(),
                      wildcards=frozenset(str(w) for w in step.data.get("wildcards", []))
                      if step else frozenset(),
                      withdrawn=gone, pair_rows={})
    confirmed: dict[int, int] = {}
    if tournament.two_person_confirmation:
        confirmed = dict(ConfirmationFact.objects.filter(group_id__in=ids)
                         .values_list("group_id").annotate(last=Max("id")))
    # H7: a set accepted as illegal is judged against the player's history in other
    # groups, so its card follows every write of the tournament, not only its group's.
    judged = set(SelectionFact.objects.filter(group_id__in=ids, accepted_illegal=True)
                 .values_list("group_id", flat=True))
    # What every card of the round depends on beyond its own facts and players.
    shared = (tournament.pk, f"{tournament.created_at:%y%m%d%H%M%S%f}",
              tournament.two_person_confirmation, tournament.lottery_seed, rnd.status,
              repr(rnd.spec), get_language(), also)
    shown = {}
    for g in groups:
        players = seats.get(g.id, [])
        seated = {ea.player_key(p[1]) for p in players if p[1] is not None}
        shown[g.id] = (g.id, g.version, g.label, g.rule, confirmed.get(g.id), players,
                       sorted(seated & ctx.advancers), sorted(seated & ctx.wildcards),
                       sorted(seated & gone), tournament.revision if g.id in judged else None,
                       shared)
    return PageCards(shown=shown, ctx=ctx, version=_digest(list(shown.values())))


def _digest(value: Any) -> str:
    return hashlib.blake2b(repr(value).encode(), digest_size=16).hexdigest()


def cached_cards_html(tournament: Tournament, groups: list[Group], page: PageCards,
                      views: dict[int, sel.GroupView] | None = None) -> str:
    """The cards of ``groups`` (one round, not a pair or series round), each from the
    cache when what it shows is unchanged; only the others' facts are read, unless the
    caller has read them already (``views``, by group id)."""
    def build(ids: list[int]) -> dict[int, str]:
        wanted = set(ids)
        missing = [g for g in groups if g.id in wanted]
        return {view.group.id: "" if view.status == sel.UNUSED
                else str(cards_html([view], page.ctx))
                for view in ([views[g.id] for g in missing] if views is not None
                             else sel.group_views(missing, tournament))}

    found = fragments.cached_fragments("pub-card", page.shown, build)
    return mark_safe("".join(found[g.id] for g in groups))
