"""Bracket staff pages: rounds, the tablet match page, special rounds and the 修羅 desk.

Views stay thin: they parse the form, call one service, and render selector data. Every
rule (legal choices, placements, 惜敗率, advancers) comes from the engine through the
selectors; a refused save re-renders the page with the service's message (HTTP 400, or
409 for a stale version) and nothing saved.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from brackets import engine_adapter as ea
from brackets import lean
from brackets import tables_rounds as rt
from brackets.adapters.rounds import round_rules
from brackets.engine.presets import RoundRestrictions
from brackets.labels import (
    COUNTING_LABELS,
    KIND_LABELS,
    MODE_LABELS,
    PAIR_ROLE_LABELS,
    QUESTION_ORDER_LABELS,
    RANKED_FINAL_LABEL,
    label,
    listed,
    translated,
)
from brackets.messages import violation_text
from brackets.models import Entrant, Group, Role, Round, SpecialFact, Tournament
from brackets.page_cache import render_page
from brackets.permissions import role_required
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc

STAFF = (Role.ORGANISER, Role.BRACKET)


def seat_rule_label(conf: RoundRestrictions, rules: Any) -> str:
    """The restriction that actually applies to a seat, in the organisers' words: the
    player's mode only where the round keeps a history (K1); K6 rule B and the
    third-place match have none (K9), the final restarts it per pair (K10)."""
    sep = _("・")  # a list separator: " · " in English
    mode = (f"{label(MODE_LABELS, str(rules.mode))}{sep}"
            f"{label(COUNTING_LABELS, str(rules.counting), '')}")
    pair = _("2セットでジャンル・形式群が重複不可") if conf.pair_sets else ""
    if conf.read_window is None:
        return pair or _("制限なし（履歴に残らない）")
    if conf.pair_history:
        text = _("決勝内でペアごとに基本ルール")
        return f"{text}{sep}{pair}" if pair else text
    return mode


def round_summary(rnd: Round) -> str:
    """What decides the round, for its page header: groups advance n each, but a pair
    round or a ranked final has no 「各組の勝ち抜け」 (K6 rules each have their own)."""
    rules = round_rules(rnd)
    spec = rules.spec
    if spec.is_series:
        return _("3本勝負：先に{n}勝した方が優勝（対戦者の順位で勝敗、パートナーは数えない）").format(
            n=rules.wins_needed)
    if spec.is_partner_match:
        return _("対戦者2人のうち上位が3位（パートナーの順位は数えない）")
    if spec.is_ranked_final:
        return _("順位決定：この試合の順位が最終順位")
    if spec.is_rule_selection and spec.variants:
        return _("・").join(_("ルール{r}：各組の勝ち抜け {n}").format(r=v.key, n=v.advance_per_group)
                        for v in spec.variants)
    text = _("各組の勝ち抜け") + f" {rnd.advance_per_group}"
    if rnd.target_size:
        text += " · " + _("次の回戦") + f" {rnd.target_size}" + _("名")
    return text


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def _group(tournament: Tournament, group_id: int) -> Group:
    # Every match request reads its group: one prebuilt statement (brackets.lean).
    found = lean.fetch(Group, where=["id", "round__tournament_id"],
                       params=[group_id, tournament.pk], related=["round"])
    if not found:
        raise Http404(_("この組はありません。"))
    group = found[0]
    group.round.tournament = tournament  # loaded by the permission check: not again
    return group


@role_required(*STAFF)
def rounds_index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rounds = sel.tournament_rounds(tournament)
    from brackets.presets import preset_choices

    # Staff read the preset's and the round kinds' names, not their code slugs.
    kinds = translated(KIND_LABELS)

    def kind_label(rnd: Round) -> str:
        spec = round_rules(rnd).spec
        return _(RANKED_FINAL_LABEL) if spec.is_ranked_final else kinds.get(spec.kind, "")

    return render(request, "brackets/rounds/index.html",
                  {"tournament": tournament, "rounds": [(r, kind_label(r)) for r in rounds],
                   "preset_name": dict(preset_choices()).get(tournament.preset,
                                                             tournament.preset)})


@require_POST
@role_required(Role.ORGANISER)
def rounds_configure(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        svc.rounds_configure(tournament=tournament, by=request.user)
        messages.success(request, _("プリセットから回戦を作成しました。"))
    except svc.RoundError as exc:
        messages.error(request, exc.message)
    return redirect("rounds_index", slug=tournament.slug)


def _round_context(tournament: Tournament, rnd: Round) -> dict[str, Any]:
    rv = sel.round_view(rnd)
    return {"tournament": tournament, "round": rnd, "rv": rv,
            "names": sel.seated_names(rv.groups),
            "status_labels": sel.STATUS_LABELS, "counts": rv.counts(),
            "last_step": sel.last_step(rnd)}


def _staff_cards_html(tournament: Tournament, rv: sel.RoundView, names: dict[str, str],
                      withdrawn: set[int] | None = None) -> str:
    """Every group card of the round page, built in Python (256 cards at 1,024 entrants).
    A withdrawn player (棄権) is marked wherever they sit."""
    quit_badge = (f' <span class="badge text-bg-dark withdrawn-badge">{escape(_("棄権"))}'
                  f'</span>')
    base = reverse("match_page", args=[tournament.slug, 0])[: -len("0/")]
    out: list[str] = []
    for g in rv.groups:
        rule = (f' <span class="badge text-bg-dark">{escape(_("ルール"))}{escape(g.group.rule)}'
                f'</span>' if g.group.rule else "")
        out.append(
            f'<div class="col"><div class="card h-100 group-card status-{g.status}">'
            f'<a class="card-header d-flex justify-content-between align-items-center '
            f'text-decoration-none text-body py-2" href="{base}{g.group.id}/"><strong>'
            f'{escape(g.label)}{rule}</strong><span class="badge status-badge-{g.status}">'
            f'{escape(sel.STATUS_LABELS[g.status])}</span></a>'
            f'<table class="table table-sm mb-0 small">')
        adjusted = {p.seat: p for p in g.result.players} if g.result is not None else {}
        for seat in g.seats:
            who = escape(_("ダミー")) if seat.entrant_id is None else escape(seat.entrant.name)
            if seat.entrant_id is not None and seat.entrant_id in (withdrawn or ()):
                who += quit_badge
            r = g.result_rows.get(seat.number)
            score = "" if r is None else str(r.score)
            placed = adjusted.get(seat.number)
            if placed is not None and placed.penalty:
                # The score that ranks (after a −400 penalty, H7), the screen's in brackets.
                score = (f'{placed.score} <span class="text-danger">'
                         f'({placed.screen_score})</span>')
            out.append(f'<tr class="{"dummy-row" if seat.entrant_id is None else ""}">'
                       f'<td class="text-muted">{seat.number}</td><td>{who}</td>'
                       f'<td class="num">{score}</td></tr>')
        out.append("</table>")
        pair = rv.rules.spec.is_pair
        if g.result is not None and pair:
            # K9/K10: the game is decided by the contenders; partners' places do not count.
            won = [k for k, role in sel.pair_roles(g).items() if role == "winner"]
            if won:
                text = escape(_("勝ち：{name}").format(name=names.get(won[0], won[0])))
                out.append(f'<div class="card-footer small py-1 pair-outcome">{text}</div>')
        elif g.result is not None:
            parts = [f'{p.place}. {escape(names.get(p.player, p.player))} '
                     f'<span class="text-muted">{g.ratios.get(p.player, "")}</span>'
                     for p in g.result.players]
            out.append(f'<div class="card-footer small py-1">{" · ".join(parts)}</div>')
        if g.error:
            out.append(f'<div class="card-footer text-danger small">{escape(g.error)}</div>')
        out.append("</div></div>")
    if not rv.groups:
        out.append(f'<p class="text-muted">{escape(_("まだ組がありません。"))}</p>')
    return mark_safe("".join(out))


def _round_grid(tournament: Tournament, rnd: Round) -> dict[str, Any]:
    """The group grid of the round page (cached with the page body: round_detail)."""
    rv = sel.round_view(rnd)
    grid = render_to_string("brackets/rounds/_grid.html", {
        "tournament": tournament, "rv": rv,
        "cards": _staff_cards_html(tournament, rv, sel.seated_names(rv.groups),
                                   sel.withdrawn_ids(tournament))})
    return {"grid": grid, "counts": rv.counts(), "all_done": rv.all_done}


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
                               "last_step": sel.last_step(rnd), **_round_grid(tournament, rnd)}
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
            # next (it was two taps away, through the rounds list).
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


@role_required(*STAFF)
def round_advance_preview(request: HttpRequest, tournament: Tournament,
                          number: int) -> HttpResponse:
    """The cut line and the 惜敗率 table, shown before staff confirm the advancers."""
    rnd = _round(tournament, number)
    rv = sel.round_view(rnd)
    ctx = _round_context(tournament, rnd)
    ctx["rv"] = rv
    ids = [s.entrant_id for g in rv.groups for s in g.seats if s.entrant_id]
    ctx["names"] = {ea.player_key(k): v for k, v in
                    ((e.id, e.name) for e in sel.entrant_map(ids).values())}
    if rv.all_done and not rv.rules.spec.is_last:
        ctx["outcomes"] = sel.advancement_preview(rnd, rv)
    elif rv.all_done:
        ctx["final_order"] = sel.final_order(rv)
        ctx["final_rows"] = list(zip(sel.place_labels(rnd, len(ctx["final_order"])),
                                     (ctx["names"].get(p, p) for p in ctx["final_order"])))
    ctx["last_round"] = rv.rules.spec.is_last
    # K8: the semi-final's 3rd and 4th are not out, they play the 3位決定戦 (a later round
    # whose contenders come from this round's lower places).
    for later in Round.objects.filter(tournament=tournament, number__gt=rnd.number,
                                      kind="partner_match"):
        src = round_rules(later).contenders_from
        if src is not None and src[0] == rnd.number:
            ctx["fed_round"] = later
            ctx["fed_places"] = _("・").join(str(p) for p in src[1])
    # The engine's warnings in words (a tie at the cut line, too many or too few advancers).
    ctx["warning_texts"] = {rule: [violation_text(w, ctx["names"]) for w in outcome.warnings]
                            for rule, outcome in ctx.get("outcomes", [])}
    # The tables the round's Excel export writes (brackets.exporters.spreadsheets).
    outcomes = ctx.get("outcomes", [])
    people = rt.people_of(rv)
    advancers, wildcards = rt.advance_marks(rnd, outcomes)
    ctx["wildcard_tables"] = [(rule, outcome, rt.table_html(table)) for rule, outcome, table
                              in rt.wildcard_tables(rv, outcomes, people=people)]
    cross = rt.cross_table(rv, outcomes, people=people)
    ctx["cross_table"] = rt.table_html(cross) if cross is not None and len(cross.data) else ""
    ctx["results_table"] = rt.table_html(rt.results_table(rv, advancers=advancers,
                                                          wildcards=wildcards))
    return render(request, "brackets/rounds/advance.html", ctx)


# ------------------------------------------------------------------ match page


_OPTION_TEXT: dict[tuple[str, str], tuple[str, str]] = {}
# A seat's two option lists, keyed by everything they are computed from (the engine's
# inputs, the names shown in reasons, the preselected value, the language of the reasons). The value keeps the catalog
# it was built from, so an id() in the key can never be reused by a newer catalog.
_SEAT_OPTIONS: dict[tuple[Any, ...], tuple[Any, str, str]] = {}


def _seat_options_html(catalog: Any, sc: sel.SeatChoices, names: dict[str, str],
                       chosen: str) -> tuple[str, str]:
    """_options_html for one seat, reused while its inputs stay the same (a tablet reloads
    its match page after every save; the ~130-option grid changes only with the history)."""
    # The illegal options carry the engine's reasons in the reader's language: a Japanese
    # list cached first must not be served to an English reader (and back).
    key = (sc.key, tuple(sorted(names.items())), chosen, get_language())
    hit = _SEAT_OPTIONS.get(key) if sc.key else None
    if hit is not None and hit[0] is catalog:
        return mark_safe(hit[1]), mark_safe(hit[2])
    legal, illegal = _options_html(sc.choices.options(), names, chosen)
    if sc.key:
        if len(_SEAT_OPTIONS) >= 4096:
            _SEAT_OPTIONS.clear()
        _SEAT_OPTIONS[key] = (catalog, str(legal), str(illegal))
    return legal, illegal


def _options_html(options: list[Any], names: dict[str, str], chosen: str) -> tuple[str, str]:
    """The <option> lists of one seat (legal first, illegal greyed with the engine's
    reason), built in Python: ~100 options per seat is the heaviest part of the page."""
    legal: list[str] = []
    illegal: list[str] = []
    # Most illegal options share their reasons (every format of a used genre says the same
    # thing): each distinct violation is worded and escaped once per seat, not per option.
    texts: dict[tuple[str, str], str] = {}

    def text(v: Any) -> str:
        k = (v.code, repr(v.params))
        if k not in texts:
            texts[k] = violation_text(v, names)
        return texts[k]

    for opt in options:
        pair = (opt.genre, opt.format)
        shown = _OPTION_TEXT.get(pair)
        if shown is None:  # catalog names never change meaning: escape each pair once
            shown = _OPTION_TEXT[pair] = (escape(f"{opt.genre}|{opt.format}"),
                                          escape(f"{opt.genre} / {opt.format}"))
        value, label = shown
        selected = " selected" if f"{opt.genre}|{opt.format}" == chosen else ""
        if opt.legal:
            legal.append(f'<option value="{value}"{selected}>{label}</option>')
        else:
            reason = escape(listed(text(v) for v in opt.reasons))
            illegal.append(f'<option class="illegal" value="{value}" '
                           f'data-reason="{reason}"{selected}>✕ {label} — {reason}</option>')
    return mark_safe("".join(legal)), mark_safe("".join(illegal))


def _match_context(request: HttpRequest, tournament: Tournament, group: Group,
                   **extra: Any) -> dict[str, Any]:
    gv = sel.group_view(group)
    catalog = ea.catalog_for(tournament.version_id)
    mctx = sel.match_context(gv)
    choices = sel.seat_choices(gv, catalog, mctx)
    names = {ea.player_key(s.entrant_id): s.entrant.name for s in gv.seats if s.entrant_id}
    last = len(catalog.difficulties) - 1
    seats = []
    posted = extra.get("posted")
    places = list(range(1, len(gv.seats) + 1))
    conf = sel.round_restrictions(group.round, group)
    for seat in gv.seats:
        current = gv.result_rows.get(seat.number)
        row: dict[str, Any] = {"seat": seat, "selection": gv.selection_rows.get(seat.number),
                               "result": current,
                               "score_value": current.score if current else None,
                               "place_value": current.placement if current else None}
        if posted is not None and f"score_{seat.number}" in posted:
            row["score_value"] = posted.get(f"score_{seat.number}")
            raw_place = posted.get(f"place_{seat.number}", "")
            row["place_value"] = int(raw_place) if raw_place.isdigit() else None
        # Built here, not by template loops: per seat × place and seat × difficulty tags
        # were a third of the page's render time. Same markup as the loops they replace.
        row["place_options"] = mark_safe("".join(
            f'<option value="{p}"{" selected" if row["place_value"] == p else ""}>{p}</option>'
            for p in places))
        n = seat.number
        # A refused save comes back with the difficulty staff tapped, not the default: a
        # second tap (e.g. confirming an illegal set) would otherwise save HARD unseen.
        # Otherwise the seat's saved set shows as it is, so changing only its difficulty
        # is one tap (the form came back empty, and the set had to be found again).
        saved = row["selection"]
        tapped = (posted.get("difficulty") if posted is not None
                  and posted.get("seat") == str(n) else None)
        if tapped is None and saved is not None:
            tapped = saved.difficulty
        pick = (catalog.difficulties.index(tapped) if tapped in catalog.difficulties
                else last)
        row["difficulty_radios"] = mark_safe("".join(
            f'\n          <input type="radio" class="btn-check" name="difficulty" '
            f'id="d{n}{escape(d)}" value="{escape(d)}"{" checked" if i == pick else ""}>'
            f'\n          <label class="btn btn-outline-secondary" for="d{n}{escape(d)}">'
            f'{escape(d)}</label>'
            for i, d in enumerate(catalog.difficulties)))
        if seat.entrant_id:
            key = ea.player_key(seat.entrant_id)
            sc = choices[seat.number]
            chosen = "" if saved is None else f"{saved.genre}|{saved.format}"
            if posted is not None and posted.get("seat") == str(seat.number):
                chosen = posted.get("set", "")
            legal, illegal = _seat_options_html(catalog, sc, names, chosen)
            row.update(legal=legal, illegal=illegal, rules=sc.rules,
                       mode_label=seat_rule_label(conf, sc.rules),
                       lots=[*sc.rules.lot_genres, *sc.rules.lot_formats],
                       placed=gv.row_of(key), ratio=gv.ratios.get(key),
                       penalties=[p for p in gv.penalty_rows if p.seat_id == seat.id],
                       dq=any(d.seat_id == seat.id for d in gv.dq_rows),
                       ban=mctx["bans"].get(seat.entrant_id))
        seats.append(row)
    rnd = group.round
    rules = round_rules(rnd)
    set_order_row = None
    if rules.spec.is_series:
        from brackets.engine.special import set_order

        setup = sel.special_facts(tournament, SpecialFact.Kind.FINAL_SETUP, round=rnd)
        if setup:
            qo = setup[0].data["question_order"]
            set_order_row = {"label": label(QUESTION_ORDER_LABELS, qo),
                             "order": set_order(qo, group.game)}
    series_winner = ""
    if rules.spec.is_series and group.game > 1:
        # K10: once a finalist has won enough games the rest are not played; say so here
        # rather than let staff enter a game that cannot change the champion.
        prior = sel.series_progress(sel.round_view(rnd), upto=group.game - 1)
        if prior is not None and prior.winner is not None:
            series_winner = names.get(prior.winner, prior.winner)
    series_score = ""
    if rules.spec.is_pair:
        # K9/K10: which two play for the place and which two only partner them (their
        # places do not count), and after a result who won the game.
        roles = sel.pair_roles(gv)
        for row in seats:
            if row["seat"].entrant_id:
                role = roles.get(ea.player_key(row["seat"].entrant_id), "")
                row["pair_role"] = role
                row["pair_role_label"] = label(PAIR_ROLE_LABELS, role)
    if rules.spec.is_series:
        # The series so far (this game included), so staff know what the next game is for.
        state = sel.series_progress(sel.round_view(rnd), upto=group.game)
        if state is not None:
            a, b = (names.get(p, p) for p in state.players)
            series_score = _("{a} {x}勝 – {y}勝 {b}").format(a=a, b=b, x=state.wins[0],
                                                           y=state.wins[1])
    banned = sorted({f.data["genre"] for f in mctx["bans"].values()}) if mctx["revealed"] else []
    page_base = reverse("match_page", args=[tournament.slug, 0])[: -len("0/")]
    # The physical-draw form offers exactly the genres and groups of the preset's K7 deck
    # (the default deck has サブジャンル cards, which the app may also draw).
    deck = svc._deck(catalog, rnd) if rules.cards else []
    deck_genres = list(dict.fromkeys(c.genre for c in deck))
    deck_groups = list(dict.fromkeys(c.group for c in deck))
    # A refused physical draw comes back with the cards staff picked, not blank selects.
    drawn_back = posted is not None and posted.get("action") == "cards_physical"
    # K7: what the drawn cards allow, in one line (the badges alone left staff to work it
    # out while the players wait).
    drawn = mctx["cards"].data.get("cards", []) if mctx["cards"] else []
    cards_allowed = {"genres": list(dict.fromkeys(c[0] for c in drawn)),
                     "groups": list(dict.fromkeys(c[1] for c in drawn)),
                     "extra": len(drawn) > 2}
    card_rows = [{"i": i,
                  "genre": posted.get(f"card_genre_{i}", "") if drawn_back else "",
                  "group": posted.get(f"card_group_{i}", "") if drawn_back else ""}
                 for i in range(1, 4)]
    return {"tournament": tournament, "group": group, "round": rnd, "round_rules": rules,
            "gv": gv, "seats": seats,
            "set_order": set_order_row, "banned": banned,
            "deck_genres": deck_genres, "deck_groups": deck_groups,
            "card_rows": card_rows, "cards_allowed": cards_allowed, "cards_error": extra.get("error", "") if drawn_back else "",
            "series_winner": series_winner, "series_score": series_score,
            "can_reseat": not gv.selection_rows and not gv.result_rows,
            "catalog": catalog, "dummy_set": list(rules.dummy_set),
            "places": places,
            "status_label": sel.STATUS_LABELS[gv.status], "mctx": mctx,
            # Nearby groups only: one tap to the neighbours, the round page for the rest
            # (a 256-group round would otherwise put 256 tabs on every match page).
            # Links built here: one reverse() instead of one {% url %} per tab and per seat.
            "siblings": [{**s, "url": f"{page_base}{s['id']}/"} for s in Group.objects.filter(
                round=rnd, number__gte=group.number - 5, number__lte=group.number + 6)
                .order_by("number").values("id", "label")],
            "selection_url": reverse("match_selection", args=[tournament.slug, group.id]),
            "two_person": tournament.two_person_confirmation,
            # K10: a game after the series is decided takes no input (the service refuses).
            "accepting": (rnd.status in (Round.Status.DRAWN, Round.Status.RUNNING)
                          and not series_winner),
            # K8: no selection form until the bans are revealed (the service refuses too).
            "bans_pending": rules.bans and not mctx["revealed"],
            # K7: no selection form until the 下関 cards are drawn (the service refuses too).
            "cards_pending": ea.cards_pending(conf, mctx["cards"].data.get("cards", [])
                                              if mctx["cards"] else None), **extra}


def _match_response(request: HttpRequest, tournament: Tournament, group_id: int, *,
                    cache: bool, status: int = 200, **extra: Any) -> HttpResponse:
    """The match page; its body comes from the page cache unless it shows what this
    request posted (``cache=False``)."""
    def build() -> dict[str, Any]:
        group = _group(tournament, group_id)
        return {**_match_context(request, tournament, group, **extra),
                # A one-match round's group is named after it: 「3位決定戦」, not twice.
                "frame": {"title": group.round.name if group.label == group.round.name
                          else f"{group.round.name} {group.label}"}}

    return render_page(request, "brackets/rounds/match.html", "brackets/rounds/_match_body.html",
                       build, tournament=tournament,
                       cache_as=("match", group_id) if cache else None, status=status)


@role_required(*STAFF)
def match_page(request: HttpRequest, tournament: Tournament, group_id: int) -> HttpResponse:
    return _match_response(request, tournament, group_id, cache=True)


def _refused(request: HttpRequest, tournament: Tournament, group: Group,
             exc: svc.RoundError) -> HttpResponse:
    """The match page again, with what staff typed and the error beside it (HTTP 400, or
    409 for a stale version). Nothing was saved. ``page_url`` lets match.js put the match
    page's own URL in the address bar (history.replaceState), so reloading it is a plain
    GET instead of a re-post of the refused form."""
    status = 409 if isinstance(exc, svc.StaleVersion) else 400
    return _match_response(request, tournament, group.id, cache=False, status=status,
                           error=exc.message, error_field=exc.field,
                           changes=getattr(exc, "changes", []), posted=request.POST,
                           reasons=exc.extra.get("reasons", []),
                           page_url=reverse("match_page", args=[tournament.slug, group.id]))


def _saved(request: HttpRequest, tournament: Tournament, group: Group) -> HttpResponse:
    """POST/redirect/GET: back on the match page with 「保存しました」, so a reload there
    is a plain GET and the tablet sees at once that the tap was recorded."""
    messages.success(request, _("保存しました"))
    return redirect("match_page", slug=tournament.slug, group_id=group.id)


def _base(request: HttpRequest) -> int | None:
    raw = request.POST.get("version", "")
    return int(raw) if raw.isdigit() else None


@require_POST
@role_required(*STAFF)
def match_selection(request: HttpRequest, tournament: Tournament, group_id: int) -> HttpResponse:
    group = _group(tournament, group_id)
    post = request.POST
    try:
        seat = int(post.get("seat", "0"))
        genre, _sep, fmt = post.get("set", "").partition("|")
        if not genre or not fmt:
            raise svc.RoundError(_("出題（ジャンル・形式）を選んでください。"), field="set")
        svc.selection_save(group=group, by=request.user, seat_number=seat, genre=genre,
                           format=fmt, difficulty=post.get("difficulty", ""),
                           base_version=_base(request),
                           confirm_illegal=post.get("confirm_illegal") == "1",
                           key=post.get("key", ""))
    except svc.Duplicate:
        pass  # the first tap was recorded: same outcome as a save
    except svc.RoundError as exc:
        return _refused(request, tournament, group, exc)
    except ValueError:
        return _refused(request, tournament, group, svc.RoundError(_("サテを選んでください。")))
    return _saved(request, tournament, group)


@require_POST
@role_required(*STAFF)
def match_results(request: HttpRequest, tournament: Tournament, group_id: int) -> HttpResponse:
    group = _group(tournament, group_id)
    post = request.POST
    rows = {}
    for n in range(1, 5):
        if f"score_{n}" in post:
            rows[n] = (post.get(f"score_{n}", ""), post.get(f"place_{n}", ""))
    try:
        svc.results_save(group=group, by=request.user, rows=rows, base_version=_base(request),
                         key=post.get("key", ""))
    except svc.Duplicate:
        pass  # the first tap was recorded: same outcome as a save
    except svc.RoundError as exc:
        return _refused(request, tournament, group, exc)
    return _saved(request, tournament, group)


@require_POST
@role_required(*STAFF)
def match_action(request: HttpRequest, tournament: Tournament, group_id: int) -> HttpResponse:
    """Penalty, disqualification (or lifting one), re-match: each with a reason."""
    group = _group(tournament, group_id)
    post = request.POST
    action = post.get("action", "")
    common = {"group": group, "by": request.user, "base_version": _base(request),
              "key": post.get("key", "")}
    try:
        seat = int(post.get("seat", "0") or 0)
        reason = post.get("reason", "")
        if action == "penalty":
            svc.penalty_add(seat_number=seat, points=post.get("points", ""), reason=reason,
                            **common)
        elif action == "penalty_revoke":
            svc.penalty_revoke(penalty_id=int(post.get("penalty", "0")), reason=reason, **common)
        elif action in ("dq", "dq_revoke"):
            svc.disqualification_add(seat_number=seat, reason=reason,
                                     revoke=action == "dq_revoke", **common)
        elif action == "rematch":
            svc.rematch_record(reason=reason, **common)
        elif action == "reseat":
            order: list[int | None] = []
            for n in range(1, 5):
                raw = post.get(f"seat_order_{n}")
                if raw is None:
                    continue
                order.append(int(raw) if raw.isdigit() else None)
            svc.seats_assign(group=group, by=request.user, order=order,
                             base_version=_base(request))
        else:
            raise svc.RoundError(_("操作を選んでください。"))
    except svc.Duplicate:
        pass  # the first tap was recorded: same outcome as a save
    except svc.RoundError as exc:
        return _refused(request, tournament, group, exc)
    except ValueError:
        return _refused(request, tournament, group, svc.RoundError(_("入力を確認してください。")))
    return _saved(request, tournament, group)


@require_POST
@role_required(*STAFF)
def match_confirm(request: HttpRequest, tournament: Tournament, group_id: int) -> HttpResponse:
    group = _group(tournament, group_id)
    try:
        svc.result_confirm(group=group, by=request.user, version=_base(request) or 0)
        messages.success(request, _("結果を確認しました。"))
    except svc.RoundError as exc:
        return _refused(request, tournament, group, exc)
    return redirect("match_page", slug=tournament.slug, group_id=group.id)


@require_POST
@role_required(*STAFF)
def match_special(request: HttpRequest, tournament: Tournament, group_id: int) -> HttpResponse:
    """下関 cards (physical or app draw) and semi-final bans (enter all, reveal together)."""
    group = _group(tournament, group_id)
    post = request.POST
    action = post.get("action", "")
    try:
        if action == "cards_app":
            svc.card_draw(group=group, by=request.user)
        elif action == "cards_physical":
            cards = []
            for i in range(1, 4):
                g, grp = post.get(f"card_genre_{i}", ""), post.get(f"card_group_{i}", "")
                if g and grp:
                    cards.append((g, grp))
                elif g or grp:  # half a card was silently dropped before
                    raise svc.RoundError(
                        _("カード{i}はジャンルと形式群の両方を選んでください。").format(i=i),
                        field="cards")
            svc.card_draw(group=group, by=request.user, cards=cards)
        elif action == "ban":
            entrant = get_object_or_404(Entrant, id=int(post.get("entrant", "0")),
                                        tournament=tournament)
            svc.ban_record(group=group, entrant=entrant, genre=post.get("genre", ""),
                           by=request.user)
        elif action == "reveal":
            svc.ban_reveal(group=group, by=request.user)
        else:
            raise svc.RoundError(_("操作を選んでください。"))
    except svc.RoundError as exc:
        return _refused(request, tournament, group, exc)
    return _saved(request, tournament, group)


@role_required(*STAFF)
def match_history(request: HttpRequest, tournament: Tournament, group_id: int) -> HttpResponse:
    group = _group(tournament, group_id)
    return render(request, "brackets/rounds/history.html",
                  {"tournament": tournament, "group": group,
                   "events": sel.group_history(group)})


# ------------------------------------------------------------------ round specials


@role_required(*STAFF)
def round_special(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Rule-selection forms (K6), partners (K9/K10), dice and the final's decisions."""
    rnd = _round(tournament, number)
    error = ""
    if request.method == "POST":
        post = request.POST
        action = post.get("action", "")
        try:
            if action == "rule":
                entrant = get_object_or_404(Entrant, id=int(post.get("entrant", "0")),
                                            tournament=tournament)
                svc.rule_choice_record(round=rnd, entrant=entrant, rule=post.get("rule", ""),
                                       by=request.user)
            elif action == "partner":
                contender = get_object_or_404(Entrant, id=int(post.get("contender", "0")),
                                              tournament=tournament)
                if not post.get("partner", "").strip():
                    raise svc.RoundError(_("{name} さんのパートナーを選んでください。").format(
                        name=contender.name))
                partner = get_object_or_404(Entrant, id=int(post.get("partner", "0")),
                                            tournament=tournament)
                svc.partner_record(round=rnd, contender=contender, partner=partner,
                                   by=request.user)
            elif action == "dice":
                a, b = int(post.get("a", "0")), int(post.get("b", "0"))
                rolls = None
                if post.get("rolls", "").strip():
                    rolls = [tuple(int(x) for x in pair.split("-"))
                             for pair in post["rolls"].split()]
                svc.dice_record(round=rnd, players=(a, b), by=request.user,
                                rolls=rolls)  # type: ignore[arg-type]
            elif action == "withdraw":
                entrant = get_object_or_404(Entrant, id=int(post.get("entrant", "0")),
                                            tournament=tournament)
                if not post.get("reason", "").strip():
                    raise svc.RoundError(_("理由を入力してください。"))
                svc.withdrawal_record(tournament=tournament, entrant=entrant, by=request.user,
                                      reason=post["reason"].strip())
                messages.success(request, _("棄権を記録しました。"))
                return redirect("round_detail", slug=tournament.slug, number=number)
            elif action == "setup":
                svc.final_setup_record(round=rnd, by=request.user,
                                       winner_decides=post.get("winner_decides", ""),
                                       first=int(post.get("first", "0")),
                                       question_order=post.get("question_order", ""))
            else:
                raise svc.RoundError(_("操作を選んでください。"))
            return redirect("round_special", slug=tournament.slug, number=number)
        except svc.RoundError as exc:
            error = exc.message
        except ValueError:
            error = _("入力を確認してください。")
    ctx = _special_context(tournament, rnd)
    ctx["error"] = error
    return render(request, "brackets/rounds/special.html", ctx, status=400 if error else 200)


def _special_context(tournament: Tournament, rnd: Round) -> dict[str, Any]:
    from brackets.models import Seat

    rules = round_rules(rnd)
    ctx: dict[str, Any] = {"tournament": tournament, "round": rnd, "round_rules": rules,
                           "summary": round_summary(rnd)}
    if rnd.status in (Round.Status.DRAWN, Round.Status.RUNNING, Round.Status.CLOSED):
        ctx["round_players"] = [s.entrant for s in Seat.objects.filter(
            group__round=rnd, entrant__isnull=False, superseded_by__isnull=True)
            .select_related("entrant").order_by("entrant__name")]
    if rules.spec.is_rule_selection:
        try:
            players, _s = svc.round_players(rnd)
        except svc.RoundError as exc:
            players, ctx["error_players"] = [], exc.message
        ctx["players"] = sorted(sel.entrant_map(players).values(), key=lambda e: e.id)
        ctx["wishes"] = {f.entrant_id: f.data["rule"] for f in sel.special_facts(
            tournament, SpecialFact.Kind.RULE_CHOICE, round=rnd)}
        ctx["rules"] = [v.key for v in rules.variants]
        if ctx["players"] and len(ctx["wishes"]) >= len(players):
            try:
                assignment = svc.rule_assignment_preview(rnd)
                names = {ea.player_key(e.id): e.name for e in ctx["players"]}
                # What put each player at their place in the order (K6: the previous
                # round's winners by score, then runners-up by 惜敗率), shown beside it.
                basis: dict[str, Any] = {}
                prev = Round.objects.filter(tournament=tournament,
                                            number=rules.order_from_round).first()
                if prev is not None:
                    ctx["order_round"] = prev.name
                    basis = {row.player: row for row in sel.round_table(sel.round_view(prev))}
                ctx["assignment"] = [(c, names.get(c.player, c.player), basis.get(c.player))
                                     for c in assignment.choices]
                ctx["assigned_counts"] = [
                    (v.key, len(assignment.players_of(v.key)), v.capacity)
                    for v in rules.variants]
            except svc.RoundError as exc:
                ctx["error_players"] = exc.message
    if rules.spec.is_pair:
        src = rules.contenders_from
        src_round = None if src is None else Round.objects.filter(
            tournament=tournament, number=src[0]).first()
        contenders = []
        if src is not None and src_round is not None:
            table = sel.round_table(sel.round_view(src_round))
            for place in src[1]:
                contenders += [int(r.player) for r in table if r.place == place]
        emap = sel.entrant_map(contenders)
        ctx["contenders"] = [emap[c] for c in contenders if c in emap]
        ctx["present"] = list(Entrant.objects.filter(tournament=tournament, checked_in=True)
                              .exclude(id__in=contenders).order_by("name"))
        ctx["partners"] = {f.entrant_id: f.data["partner"] for f in sel.special_facts(
            tournament, SpecialFact.Kind.PARTNER, round=rnd)}
        partner_names = {e.id: e.name for e in sel.entrant_map(
            ctx["partners"].values()).values()}
        ctx["contender_rows"] = [
            {"entrant": c, "partner_id": ctx["partners"].get(c.id),
             "partner_name": partner_names.get(ctx["partners"].get(c.id) or 0, "")}
            for c in ctx["contenders"]]
        dice = sel.special_facts(tournament, SpecialFact.Kind.DICE, round=rnd)
        ctx["dice"] = dice[0].data if dice else None
        setup = sel.special_facts(tournament, SpecialFact.Kind.FINAL_SETUP, round=rnd)
        ctx["setup"] = setup[0].data if setup else None
        # The form shows what was recorded (not its defaults beside a different summary).
        ctx["setup_form"] = {"winner_decides": "seat_order", "first": None,
                             "question_order": "simple"}
        if ctx["setup"] and ctx["dice"]:
            won = ctx["dice"]["winner"]
            ctx["setup_form"] = {
                "winner_decides": ("seat_order" if ctx["setup"].get("seat_order_by") == won
                                   else "question_order"),
                "first": int(ctx["setup"]["first"]),
                "question_order": ctx["setup"]["question_order"]}
        if ctx["setup"]:
            from brackets.engine.special import set_order

            qo = ctx["setup"]["question_order"]
            ctx["question_order_label"] = label(QUESTION_ORDER_LABELS, qo)
            ctx["set_orders"] = [(g, set_order(qo, g)) for g in range(1, rules.wins_needed * 2)]
        ctx["names"] = {ea.player_key(e.id): e.name for e in ctx["contenders"]}
        if ctx["dice"]:
            # Whose roll is whose: 「5–6」 alone did not say.
            a, b = (ctx["names"].get(p, p) for p in ctx["dice"]["players"])
            ctx["dice_rows"] = [f"{a} {r[0]} – {r[1]} {b}" for r in ctx["dice"]["rolls"]]
    return ctx


# ------------------------------------------------------------------ 修羅 desk


@role_required(Role.ORGANISER, Role.DESK)
def shura_desk(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """H4/H5: each 修羅 entrant's lots, drawn by the app or recorded from the box."""
    error = ""
    if request.method == "POST":
        entrant = get_object_or_404(Entrant, id=int(request.POST.get("entrant", "0") or 0),
                                    tournament=tournament)
        genres = [g for g in request.POST.getlist("genre") if g]
        formats = [f for f in request.POST.getlist("format") if f]
        try:
            svc.shura_lots_draw(tournament=tournament, entrant=entrant, by=request.user,
                                genres=genres if request.POST.get("method") == "physical"
                                else None, formats=formats)
            return redirect(reverse("shura_desk", kwargs={"slug": tournament.slug}))
        except svc.RoundError as exc:
            error = exc.message
    entrants = list(Entrant.objects.filter(tournament=tournament).order_by("id"))
    lots = sel.lots_of(tournament, [e.id for e in entrants])
    rows = []
    from brackets.engine.shura import lots_owed

    for e in entrants:
        try:
            owed = lots_owed(ea.declaration_of(ea.rules_input_from_entrant(e, None)))
        except Exception:  # noqa: BLE001 - an over-cap declaration is shown as an error row
            rows.append({"entrant": e, "owed": None, "lots": lots.get(e.id)})
            continue
        if owed.shura:
            from brackets.selectors.documents import LOT_REASONS

            # Why each lot is owed, in the desk's words (not the engine's codes).
            reasons = [LOT_REASONS.get(str(r), str(r)) for r in owed.reasons]
            rows.append({"entrant": e, "owed": owed, "lots": lots.get(e.id), "reasons": reasons})
    catalog = ea.catalog_for(tournament.version_id)
    return render(request, "brackets/rounds/shura.html",
                  {"tournament": tournament, "rows": rows, "error": error,
                   "lot_genres": catalog.lot_genres,
                   "has_rounds": Round.objects.filter(tournament=tournament, number=1).exists()},
                  status=400 if error else 200)
