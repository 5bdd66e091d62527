"""The round's special page: K6 rule choices, K9/K10 partners, dice and the final's setup."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.engine import contenders as contenders_at
from brackets.engine import contenders_complete, series_games, set_order
from brackets.forms.fields import RefusalForm
from brackets.forms.special import (
    DiceForm,
    FinalSetupForm,
    PartnerForm,
    RuleChoiceForm,
    WithdrawalForm,
)
from brackets.labels import (
    QUESTION_ORDER_LABELS,
    label,
)
from brackets.models import Entrant, Round, SpecialFact, Tournament
from brackets.permissions import role_required
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from brackets.views.rounds._common import STAFF, _round, round_summary


def _entrant(tournament: Tournament, entrant_id: int) -> Entrant:
    return get_object_or_404(Entrant, id=entrant_id, tournament=tournament)


def _rule_choice(request: HttpRequest, rnd: Round, data: dict[str, Any]) -> None:
    svc.rule_choice_record(round=rnd, entrant=_entrant(rnd.tournament, data["entrant"]),
                           rule=data["rule"], by=request.user)


def _partner(request: HttpRequest, rnd: Round, data: dict[str, Any]) -> None:
    contender = _entrant(rnd.tournament, data["contender"])
    if data["partner"] is None:
        raise svc.RoundError(_("{name} さんのパートナーを選んでください。").format(
            name=contender.name))
    svc.partner_record(round=rnd, contender=contender,
                       partner=_entrant(rnd.tournament, data["partner"]), by=request.user)


def _dice(request: HttpRequest, rnd: Round, data: dict[str, Any]) -> None:
    svc.dice_record(round=rnd, players=(data["a"], data["b"]), by=request.user,
                    rolls=data["rolls"])  # type: ignore[arg-type]


def _withdrawal(request: HttpRequest, rnd: Round, data: dict[str, Any]) -> HttpResponse:
    entrant = _entrant(rnd.tournament, data["entrant"])
    if not data["reason"].strip():
        raise svc.RoundError(_("理由を入力してください。"))
    svc.withdrawal_record(tournament=rnd.tournament, entrant=entrant, by=request.user,
                          reason=data["reason"].strip())
    messages.success(request, _("棄権を記録しました。"))
    return redirect("round_detail", slug=rnd.tournament.slug, number=rnd.number)


def _final_setup(request: HttpRequest, rnd: Round, data: dict[str, Any]) -> None:
    svc.final_setup_record(round=rnd, by=request.user, winner_decides=data["winner_decides"],
                           first=data["first"], question_order=data["question_order"])


# The special page's sections post to the page itself, naming their action: it picks the
# form and the service call (which may answer with a page of its own).
ROUND_SPECIALS: dict[str, tuple[type[RefusalForm], Any]] = {
    "rule": (RuleChoiceForm, _rule_choice),
    "partner": (PartnerForm, _partner),
    "dice": (DiceForm, _dice),
    "withdraw": (WithdrawalForm, _withdrawal),
    "setup": (FinalSetupForm, _final_setup),
}


@role_required(*STAFF)
def round_special(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Rule-selection forms (K6), partners (K9/K10), dice and the final's decisions."""
    rnd = _round(tournament, number)
    rnd.tournament = tournament  # loaded by the permission check: not again
    error = ""
    if request.method == "POST":
        form_class, write = ROUND_SPECIALS.get(request.POST.get("action", ""),
                                               (RefusalForm, None))
        form = form_class(request.POST)
        try:
            if not form.is_valid():
                error = form.refusal()[0]
            elif write is None:
                error = _("操作を選んでください。")
            else:
                response = write(request, rnd, form.cleaned_data)
                return response or redirect("round_special", slug=tournament.slug,
                                            number=number)
        except svc.RoundError as exc:
            error = exc.message
        except ValueError:  # a malformed value only the service could see
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
        contenders: list[int] = []
        if src is not None and src_round is not None:
            table = sel.round_table(sel.round_view(src_round))
            contenders = [int(p) for p in contenders_at(
                src[1], ((r.player, r.place) for r in table))]
        emap = sel.entrant_map(contenders)
        ctx["contenders"] = [emap[c] for c in contenders if c in emap]
        # K9/K10: dice and the final's setup need both contenders (the engine says when).
        ctx["contenders_complete"] = contenders_complete(
            [ea.player_key(c.id) for c in ctx["contenders"]])
        # In 五十音 order of the reading (the search key starts with it), as the desk lists.
        ctx["present"] = list(Entrant.objects.filter(tournament=tournament, checked_in=True)
                              .exclude(id__in=contenders).order_by("search_key", "id"))
        ctx["partners"] = {f.entrant_id: f.data["partner"] for f in sel.special_facts(
            tournament, SpecialFact.Kind.PARTNER, round=rnd)}
        partner_names = {e.id: e.name for e in sel.entrant_map(
            ctx["partners"].values()).values()}
        ctx["contender_rows"] = [
            {"entrant": c, "partner_id": ctx["partners"].get(c.id),
             "partner_name": partner_names.get(ctx["partners"].get(c.id) or 0, ""),
             # Whom the other contender has already taken (greyed in this one's select).
             "taken": {p: other.name for other in ctx["contenders"] if other.id != c.id
                       for p in [ctx["partners"].get(other.id)] if p}}
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
            qo = ctx["setup"]["question_order"]
            ctx["question_order_label"] = label(QUESTION_ORDER_LABELS, qo)
            ctx["set_orders"] = [(g, set_order(qo, g)) for g in
                                 range(1, series_games(rules.wins_needed) + 1)]
        ctx["names"] = {ea.player_key(e.id): e.name for e in ctx["contenders"]}
        if ctx["dice"]:
            # Whose roll is whose: 「5–6」 alone did not say.
            a, b = (ctx["names"].get(p, p) for p in ctx["dice"]["players"])
            ctx["dice_rows"] = [f"{a} {r[0]} – {r[1]} {b}" for r in ctx["dice"]["rolls"]]
    return ctx
