"""A rule set seen before it is applied (#17): rehearsed as composed, and its rule page.

Both read the rule set's newest version, not the tournament's rules, so an organiser tries
a variant (a 下関 deck of three cards, another K6 split) before the day without touching
the event. The rehearsal is the tournament rehearsal's own code and template; a version
with problems is refused with the problems, as applying it would be.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from brackets.engine import EngineError, RuleSet
from brackets.messages import error_text
from brackets.models import Role, RuleSetDoc, RuleSetVersion, Tournament
from brackets.permissions import role_required
from brackets.selectors import rulesets as sel
from brackets.selectors.rule_page import rule_page
from brackets.services import rulesets as svc
from brackets.views.rules import rehearsal_page


def _newest(ruleset_id: int) -> tuple[RuleSetDoc, RuleSetVersion, RuleSet]:
    ruleset = get_object_or_404(RuleSetDoc, pk=ruleset_id)
    version = svc.current_version(ruleset)
    rs, refusal = sel.parsed(version)
    if rs is None:
        raise Http404(str(refusal))
    return ruleset, version, rs


@role_required(Role.ORGANISER)
def ruleset_rehearsal(request: HttpRequest, tournament: Tournament, ruleset_id: int
                      ) -> HttpResponse:
    """GET: the form; POST: the newest version rehearsed (refused while it has problems)."""
    ruleset, version, rs = _newest(ruleset_id)
    return rehearsal_page(request, tournament, lambda: rs, refuse_problems=True, context={
        "ruleset": ruleset, "version": version, "rs": rs,
        "rehearsal_action": reverse("ruleset_rehearsal", args=[tournament.slug, ruleset.pk])})


@role_required(Role.ORGANISER)
def ruleset_rule_page(request: HttpRequest, tournament: Tournament, ruleset_id: int
                      ) -> HttpResponse:
    """The rule page the newest version would publish, titled with the tournament's name."""
    ruleset, version, rs = _newest(ruleset_id)
    try:
        page, error = rule_page(rs, tournament.name), ""
    except EngineError as exc:
        page, error = None, error_text(exc)
    return render(request, "brackets/rulesets/rule_page.html", {
        "tournament": tournament, "ruleset": ruleset, "version": version, "rs": rs,
        "page": page, "error": error})
