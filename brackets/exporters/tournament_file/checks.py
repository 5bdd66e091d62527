"""The rules across the records of a tournament file, checked after the import wrote them
inside its transaction (:mod:`.importer`): what no desk or tablet could have entered is
refused with its place in the file, and the transaction writes nothing."""

from __future__ import annotations

from django.db.models import F
from django.utils.translation import gettext

from brackets.engine import MAX_LOTS, RuleRefusal, lots_owed
from brackets.exporters.tournament_file.layout import TournamentFileError, file_models
from brackets.models import Entrant, Round, Tournament


def facts_check(tournament: Tournament) -> None:
    """Refuse what no desk or tablet could have entered, with its place in the file.

    Every field already passed its bounds; these are the rules across records: an
    entrant's 修羅 lots within the cap, a fact about a seat of its own group, and every
    group's sets and results passing the very check a tablet's save runs
    (``recorded_facts_check``: catalog, every seat once, placements 1..n used once, the
    engine's score range). Runs inside the import's transaction, so a refusal writes
    nothing.
    """
    from brackets import engine_adapter as ea
    from brackets.adapters.entrants import shura_declaration, snapshot
    from brackets.selectors import rounds as sel
    from brackets.services.rounds import RoundError, recorded_facts_check

    def fail(where: str, why: str) -> TournamentFileError:
        return TournamentFileError(
            gettext("ファイルが壊れています（{where}：{why}）。").format(where=where, why=why),
            where=where)

    entrants = Entrant.objects.filter(tournament=tournament).order_by("pk")
    for index, entrant in enumerate(entrants):
        try:
            lots_owed(shura_declaration(snapshot(entrant)))
        except RuleRefusal:
            raise fail(f"records.entrant[{index}].shura_extra_lots", gettext(
                "修羅くじは1人{cap}本までです").format(cap=MAX_LOTS)) from None
    for model in (m for m in (spec.model for spec in file_models())
                  if {"group", "seat"} <= {f.name for f in m._meta.concrete_fields}):
        stray = (model.objects.filter(group__round__tournament=tournament)
                 .exclude(seat__group=F("group")).order_by("pk").first())
        if stray is not None:
            rows = list(model.objects.filter(group__round__tournament=tournament)
                        .order_by("pk").values_list("pk", flat=True))
            raise fail(f"records.{model._meta.model_name}[{rows.index(stray.pk)}].seat",
                       gettext("別の組のサテを指しています"))
    catalog = ea.catalog_for(tournament.version_id)
    for rnd in Round.objects.filter(tournament=tournament).order_by("number"):
        for gv in sel.round_view(rnd).groups:
            try:
                recorded_facts_check(gv, catalog)
            except RoundError as exc:
                raise fail(f"records.group（{rnd.name} {gv.label}）", exc.message) from None

