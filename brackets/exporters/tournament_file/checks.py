"""The rules across the records of a tournament file, checked after the import wrote them
inside its transaction (:mod:`.importer`): what no desk or tablet could have entered is
refused with its place in the file, and the transaction writes nothing."""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.utils.translation import gettext

from brackets.engine import MAX_LOTS, RuleRefusal, lots_owed
from brackets.exporters.tournament_file.layout import TournamentFileError, file_models
from brackets.models import BuzzerQuestionFile, Entrant, Round, Tournament


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
    from brackets.adapters.entrants import shura_declaration, shura_rules_of, snapshot
    from brackets.selectors import rounds as sel
    from brackets.services.rounds import RoundError, recorded_facts_check

    def fail(where: str, why: str) -> TournamentFileError:
        return TournamentFileError(
            gettext("ファイルが壊れています（{where}：{why}）。").format(where=where, why=why),
            where=where)

    entrants = Entrant.objects.filter(tournament=tournament).order_by("pk")
    rules = shura_rules_of(tournament)
    for index, entrant in enumerate(entrants):
        try:
            lots_owed(shura_declaration(snapshot(entrant), rules))
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
    _question_files_check(tournament, fail)
    catalog = ea.catalog_for(tournament.version_id)
    for rnd in Round.objects.filter(tournament=tournament).order_by("number"):
        for gv in sel.round_view(rnd).groups:
            try:
                recorded_facts_check(gv, catalog)
            except RoundError as exc:
                raise fail(f"records.group（{rnd.name} {gv.label}）", exc.message) from None



def _question_files_check(tournament: Tournament, fail: Any) -> None:
    """Each question file reads as an upload would (the engine's check of its rows, in
    reading order) and supersedes a file of its own round: what the console reads."""
    from brackets.engine.buzzer import check_question_table
    from brackets.messages import error_text

    files = list(BuzzerQuestionFile.objects.filter(round__tournament=tournament).order_by("pk"))
    for index, qfile in enumerate(files):
        where = f"records.buzzerquestionfile[{index}]"
        rows = qfile.questions
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise fail(f"{where}.questions", gettext("形式が違います"))
        if qfile.withdrawn:
            # A withdrawal carries no questions; it supersedes the file it took back.
            if rows:
                raise fail(f"{where}.questions", gettext("形式が違います"))
            _supersedes_check(qfile, where, fail)
            continue
        table = [["番号", "問題", "答え", "備考"]] + [
            [str(r.get("number", "")), *(r.get(k) if isinstance(r.get(k), str) else ""
                                          for k in ("question", "answer", "notes"))]
            for r in rows]
        checked = check_question_table(table)
        if checked.problems:
            raise fail(f"{where}.questions", error_text(checked.problems[0]))
        if [q.to_dict() for q in checked.questions] != rows:
            raise fail(f"{where}.questions", gettext("問題が番号順に並んでいません"))
        _supersedes_check(qfile, where, fail)


def _supersedes_check(qfile: BuzzerQuestionFile, where: str, fail: Any) -> None:
    old = qfile.supersedes
    if old is not None and (old.round_id != qfile.round_id or old.pk > qfile.pk):
        raise fail(f"{where}.supersedes", gettext("別のラウンドの問題ファイルを指しています"))
