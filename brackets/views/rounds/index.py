"""The rounds list, the round page (every group's card, each kept under what it shows)
and the round's lifecycle steps."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from brackets import engine_adapter as ea
from brackets.adapters.rounds import RoundRules, round_rules
from brackets.labels import (
    KIND_LABELS,
    RANKED_FINAL_LABEL,
    penalised_score_html,
    ratio_text,
    translated,
)
from brackets.messages import undefined_ratio_text
from brackets.models import Group, Role, Round, Tournament
from brackets.perf import fragments
from brackets.perf.page_cache import render_page
from brackets.permissions import role_required
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from brackets.views import public_cards
from brackets.views.group_cards import Footer, GroupCard, render_cards
from brackets.views.rounds._common import STAFF, _round, round_summary


@role_required(*STAFF)
def rounds_index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rounds = sel.tournament_rounds(tournament)
    from brackets.presets import preset_label

    # Staff read the preset's and the round kinds' names, not their code slugs.
    kinds = translated(KIND_LABELS)

    def kind_label(rnd: Round) -> str:
        spec = round_rules(rnd).spec
        return _(RANKED_FINAL_LABEL) if spec.is_ranked_final else kinds.get(spec.kind, "")

    return render(request, "brackets/rounds/index.html",
                  {"tournament": tournament, "rounds": [(r, kind_label(r)) for r in rounds],
                   "preset_name": preset_label(tournament)})


@require_POST
@role_required(Role.ORGANISER)
def rounds_configure(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        svc.rounds_configure(tournament=tournament, by=request.user)
        messages.success(request, _("プリセットから回戦を作成しました。"))
    except svc.RoundError as exc:
        messages.error(request, exc.message)
    return redirect("rounds_index", slug=tournament.slug)


def _staff_card(base: str, g: sel.GroupView, rules: RoundRules, names: dict[str, str],
                withdrawn: Collection[str]) -> GroupCard:
    """One group's card: the shared card with the header linking the match page (``base``
    + the group's id), one row per seat and the result below. A withdrawn player (棄権)
    (``withdrawn`` holds player keys) is marked wherever they sit."""
    quit_badge = (f' <span class="badge text-bg-dark withdrawn-badge">{escape(_("棄権"))}'
                  f'</span>')
    rows: list[str] = []
    adjusted = {p.seat: p for p in g.result.players} if g.result is not None else {}
    for seat in g.seats:
        who = escape(_("ダミー")) if seat.entrant_id is None else escape(seat.entrant.name)
        if seat.entrant_id is not None and ea.player_key(seat.entrant_id) in withdrawn:
            who += quit_badge
        r = g.result_rows.get(seat.number)
        score = "" if r is None else str(r.score)
        placed = adjusted.get(seat.number)
        if placed is not None and placed.penalty:
            # The score that ranks (after a −400 penalty, H7) and how it came about.
            score = penalised_score_html(placed)
        rows.append(f'<tr class="{"dummy-row" if seat.entrant_id is None else ""}">'
                    f'<td class="text-muted">{seat.number}</td><td>{who}</td>'
                    f'<td class="num">{score}</td></tr>')
    footers: list[Footer] = []
    if g.result is not None and rules.spec.is_pair:
        # K9/K10: the game is decided by the contenders; partners' places do not count.
        won = [k for k, role in sel.pair_roles(g).items() if role == "winner"]
        if won:
            text = escape(_("勝ち：{name}").format(name=names.get(won[0], won[0])))
            footers.append(Footer("small py-1 pair-outcome", text))
    elif g.result is not None:
        dq = f' <span class="badge text-bg-danger dq-badge">{escape(_("失格"))}</span>'
        parts = [f'{p.place}. {escape(names.get(p.player, p.player))}'
                 f'{dq if p.disqualified else ""} <span class="text-muted">'
                 f'{"" if p.disqualified else escape(ratio_text(g.ratios.get(p.player)))}'
                 f'</span>'
                 for p in g.result.players]
        footers.append(Footer("small py-1", mark_safe(" · ".join(parts))))
        if any(r.undefined and not r.disqualified for r in g.ratios.values()):
            # K3, flagged: why this card shows 「—」 and what orders its players.
            footers.append(Footer("small py-1 text-warning-emphasis ratio-undefined-note",
                                  escape(undefined_ratio_text(None, rules.tie_break))))
    if g.error:
        footers.append(Footer("text-danger small", g.error))
    return GroupCard(label=g.label, status=g.status, status_label=sel.STATUS_LABELS[g.status],
                     rows=mark_safe("".join(rows)), css=f"group-card status-{g.status}",
                     staff=True, rule=g.group.rule, href=f"{base}{g.group.id}/",
                     footers=tuple(footers))


@dataclass(frozen=True)
class KeptCard:
    """A group's staff card as kept, with what the page around the cards counts."""

    label: str
    html: str
    status: str
    error: bool


def _kept_cards(tournament: Tournament, rnd: Round, roles: Iterable[str]) -> list[KeptCard]:
    """Every group's card, in order, each kept under what it shows (the public cards'
    :func:`~brackets.views.public_cards.page_cards`, plus this page's links and the
    viewer's roles): after a save only the saved group's facts are read and its card
    rendered, not the round's 256. A pair or series round's cards read each other
    (K9/K10) and it has a few groups: they are built together, from the whole round."""
    base = reverse("match_page", args=[tournament.slug, 0])[: -len("0/")]
    rules = round_rules(rnd)

    def kept(views: list[sel.GroupView], withdrawn: Collection[str]) -> dict[int, KeptCard]:
        names = sel.seated_names(views)
        return {g.group.id: KeptCard(
            g.label, render_cards([_staff_card(base, g, rules, names, withdrawn)]),
            g.status, bool(g.error)) for g in views}

    if rules.spec.is_pair or rules.spec.is_series:
        rv = sel.round_view(rnd)
        return list(kept(rv.groups, {ea.player_key(i) for i in sel.withdrawn_ids(tournament)}
                         ).values())
    groups = list(Group.objects.filter(round=rnd).order_by("number"))
    if not groups:
        return []
    for g in groups:
        g.round = rnd  # the round as loaded, not once more per group
    page = public_cards.page_cards(tournament, rnd, groups,
                                   also=("staff", base, rnd.number, sorted(roles)))
    by_id = {g.id: g for g in groups}
    found = fragments.cached_fragments(
        "staff-card", page.shown,
        lambda ids: kept(sel.group_views([by_id[i] for i in ids], tournament),
                         page.ctx.withdrawn))
    return [found[g.id] for g in groups]


def _round_grid(tournament: Tournament, rnd: Round, roles: Iterable[str]) -> dict[str, Any]:
    """The group grid of the round page and what the page says of the groups' statuses
    (cached with the page body: round_detail)."""
    cards = _kept_cards(tournament, rnd, roles)
    html = (mark_safe("".join(c.html for c in cards)) if cards
            else render_cards([], empty_text=_("まだ組がありません。")))
    grid = render_to_string("brackets/rounds/_grid.html", {"cards": html})
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.status] = counts.get(card.status, 0) + 1
    # Why 締め切る is greyed, said beside it: the groups still without a full result.
    return {"grid": grid, "counts": counts,
            "all_done": bool(cards) and all(c.status in (sel.DONE, sel.UNUSED) for c in cards),
            "close_pending": [c.label for c in cards if c.status not in (sel.DONE, sel.UNUSED)],
            "close_errors": [c.label for c in cards if c.error]}


@role_required(*STAFF)
def round_detail(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Every group's status; staff move between groups in one tap. ``?v=<version>`` is the
    page's own poll (rounds/round.html): 204 while nothing changed, so the organiser's
    page follows the tablets' results without anyone reloading it."""
    version = sel.tournament_version(tournament)
    if request.GET.get("v") == version:
        return HttpResponse(status=204)

    def build() -> dict[str, Any]:
        rnd = _round(tournament, number)
        ctx: dict[str, Any] = {"tournament": tournament, "round": rnd, "version": version,
                               "frame": {
                                   "round": {"name": rnd.name}},
                               "round_summary": round_summary(rnd),
                               "status_labels": sel.STATUS_LABELS,
                               "last_step": sel.last_step(rnd), **_round_grid(tournament, rnd, request.roles)}
        spec = round_rules(rnd).spec
        if spec.is_rule_selection and rnd.status == Round.Status.CONFIGURED:
            try:
                ctx["assignment"] = svc.rule_assignment_preview(rnd)
            except (svc.RoundError, Exception) as exc:  # noqa: BLE001 - shown to staff
                ctx["assignment_error"] = getattr(exc, "message", str(exc))
        if rnd.status == Round.Status.CONFIGURED and rnd.number == 1:
            ctx["players_count"] = len(svc.round_players(rnd)[0])
            # H4: lots cannot be drawn once round 1 is; drawing first would let these
            # players choose as if they had none. Shown, and the draw button held back.
            from brackets.selectors.entrants import shura_lots_pending

            ctx["shura_pending"] = [e.name for e in shura_lots_pending(tournament=tournament)]
            # The page is cached per role, so the link only for those who may open it.
            ctx["shura_link"] = bool({Role.ORGANISER, Role.DESK} & set(request.roles))
        # The page is cached per role: the release button only for the organiser.
        ctx["can_release"] = rnd.draw_private and Role.ORGANISER in set(request.roles)
        ctx["can_withdraw"] = rnd.status in (Round.Status.DRAWN, Round.Status.RUNNING,
                                             Round.Status.CLOSED)
        if spec.is_last and rnd.status == Round.Status.ADVANCED:
            # The last round confirmed: staff see who won here, not only on public pages.
            rv = sel.round_view(rnd)
            ctx["podium"] = sel.podium_from([(spec.kind, sel.final_order(rv))],
                                            sel.seated_names(rv.groups))
        # Only rounds with forms of their own (K6 sheets, K9/K10 partners, dice) link the
        # special page; a ranked final's would be empty (棄権 has its own button).
        ctx["has_special"] = spec.is_rule_selection or spec.is_pair
        if rnd.status == Round.Status.ADVANCED:
            # Advancing is what staff do last on this page; the next round is what they do
            # next, so it is one tap away.
            ctx["next_round"] = (Round.objects.filter(tournament=tournament,
                                                      number__gt=rnd.number)
                                 .order_by("number").first())
        return ctx

    return render_page(request, "brackets/rounds/round.html", "brackets/rounds/_round_body.html",
                       build, tournament=tournament, cache_as=("round", number))


@require_POST
@role_required(*STAFF)
def round_action(request: HttpRequest, tournament: Tournament, number: int,
                 action: str) -> HttpResponse:
    rnd = _round(tournament, number)
    actions = {"draw": svc.round_draw, "start": svc.round_start, "close": svc.round_close,
               "advance": svc.round_advance, "undo": svc.round_undo}
    if action not in actions:
        return HttpResponse(status=404)
    try:
        actions[action](round=rnd, by=request.user)
        last = round_rules(rnd).spec.is_last  # a last round: places, not advancers
        messages.success(request, {"draw": _("抽選しました。"), "start": _("開始しました。"),
                                   "close": _("締め切りました。"),
                                   "advance": (_("最終順位を確定しました。") if last
                                               else _("勝ち抜けを確定しました。")),
                                   "undo": _("直前の操作を取り消しました。")}[action])
    except svc.RoundError as exc:
        messages.error(request, exc.message)
    return redirect("round_detail", slug=tournament.slug, number=number)
