"""A tournament's rules as players read them, and the organiser's rehearsal (#17 items 3, 4).

Both read the tournament's rules as a :class:`~brackets.engine.RuleSet` through
:func:`brackets.selectors.rule_page.tournament_ruleset`, so a composed rule set shows and
rehearses the same way as a built-in preset. The rehearsal writes nothing: it plays the
event headless in the engine and shows the report.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from brackets.engine import (
    REHEARSAL_MAX_ENTRANTS,
    EngineError,
    Rehearsal,
    RoundRehearsal,
    RuleSet,
    Shortfall,
    rehearse,
    validate_ruleset,
)
from brackets.forms.rehearsal import RehearsalForm
from brackets.labels import MODE_LABELS, RULE_LABELS, label
from brackets.messages import error_text
from brackets.models import CabinetSet, Role, Tournament
from brackets.perf.page_cache import public_page
from brackets.permissions import role_required
from brackets.selectors.rule_page import round_name, rule_page, tournament_ruleset

#: What a player had none of left (``Shortfall.axis``).
AXIS_LABELS = {"genre": gettext_noop("ジャンル"), "format": gettext_noop("形式"),
               "forced": gettext_noop("ジャンル・形式")}


@public_page
def public_rules(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The rule page of the tournament, as the PDF prints it."""
    try:
        page = rule_page(tournament_ruleset(tournament), tournament.name)
    except EngineError as exc:
        return render(request, "brackets/public/rules.html",
                      {"tournament": tournament, "page": None, "error": error_text(exc)})
    return render(request, "brackets/public/rules.html",
                  {"tournament": tournament, "page": page, "error": ""})


@dataclass(frozen=True)
class RoundRow:
    """One round of the report as the table shows it."""

    round: RoundRehearsal
    name: str
    minutes: str
    shortfalls: list[dict[str, Any]]


def _minutes(value: float) -> str:
    hours, minutes = divmod(round(value), 60)
    return _("{h}時間{m}分").format(h=hours, m=minutes) if hours else _("{m}分").format(m=minutes)


def _spot(shortfall: Shortfall) -> str:
    """Where the match was, in the reader's language as the live pages word a group
    (「1組」 / "Group 1"; a K6 rule's name before it; a K10 series' game)."""
    spot = shortfall.spot
    if spot.game:
        return _("第{n}戦").format(n=spot.game)
    group = _("{label}組").format(label=spot.number)
    if not spot.variant:
        return group
    rule = _(spot.variant) if spot.variant in RULE_LABELS.values() else spot.variant
    return _("{rule} {group}").format(rule=rule, group=group)


def _rows(report: Rehearsal) -> list[RoundRow]:
    rows = []
    for r in report.rounds:
        shortfalls = [{"s": s, "round": round_name(s.round), "mode": label(MODE_LABELS, s.mode),
                       "group": _spot(s), "axis": _(AXIS_LABELS.get(s.axis, s.axis))}
                      for s in r.shortfalls]
        rows.append(RoundRow(r, round_name(r.name), _minutes(r.minutes), shortfalls))
    return rows


def rehearsal_cabinets(tournament: Tournament) -> int:
    """The cabinet sets in service: the rehearsal's minutes are estimated over them."""
    return CabinetSet.objects.filter(tournament=tournament, in_service=True).count()


def rehearsal_initial(tournament: Tournament) -> dict[str, Any]:
    """The form's field size: the entrants so far, else the capacity, else 40."""
    field_size = tournament.entrants.count() or tournament.capacity or 40
    return {"entrants": min(max(field_size, 2), REHEARSAL_MAX_ENTRANTS)}


def rehearsal_page(request: HttpRequest, tournament: Tournament, read: Callable[[], RuleSet],
                   *, refuse_problems: bool = False,
                   context: dict[str, Any] | None = None) -> HttpResponse:
    """GET: the form; POST: the rules ``read`` gives played headless with the typed field,
    and the report. With ``refuse_problems`` rules the validator finds problems in are not
    rehearsed (a rule set not yet applied: what it would play is not yet an event)."""
    cabinets = rehearsal_cabinets(tournament)
    form = RehearsalForm(request.POST if request.method == "POST" else None,
                         initial=rehearsal_initial(tournament))
    report: Rehearsal | None = None
    error = ""
    problems: list[str] = []
    status = 200
    try:
        document: RuleSet | None = read()
        problems = [error_text(p) for p in validate_ruleset(document)]
    except EngineError as exc:
        document = None
        error = error_text(exc)
    if request.method == "POST" and document is not None:
        if refuse_problems and problems:
            error = _("このルールセットには要修正の問題があるため、リハーサルできません。"
                      "下の問題を直して保存してから、もう一度お試しください。")
            status = 400
        elif form.is_valid():
            data = form.cleaned_data
            try:
                report = rehearse(document, data["entrants"], data["seeds"], data["runs"],
                                  seed=data["seed"], minutes_per_match=data["minutes"],
                                  cabinets=cabinets or None)
            except EngineError as exc:
                error = error_text(exc)
                status = 400
        else:
            status = 400
    return render(request, "brackets/rules/rehearsal.html", {
        "tournament": tournament, "form": form, "report": report, "error": error,
        "problems": problems, "cabinets": cabinets,
        "rows": _rows(report) if report is not None else [],
        "total": _minutes(report.minutes) if report is not None else "",
        **(context or {}),
    }, status=status)


@role_required(Role.ORGANISER)
def rules_rehearsal(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's own rules, rehearsed."""
    return rehearsal_page(request, tournament, lambda: tournament_ruleset(tournament))
