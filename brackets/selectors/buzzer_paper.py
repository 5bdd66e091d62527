"""Reads for the paper quiz: a stored marking ranked by the engine's M1 tie-break chain."""

from __future__ import annotations

from typing import Any

from brackets.engine import Lottery
from brackets.engine.buzzer import PaperScore, paper_ranking, paper_scores_ranking
from brackets.models import PaperMarking, Tournament


def paper_ranked(tournament: Tournament, marking: PaperMarking) -> list[Any]:
    """The engine's M1 ranking of a marking (reproducible lottery from the stored seed)."""
    lottery = Lottery(marking.lottery_seed or tournament.lottery_seed, f"paper-{marking.pk}")
    if any("scores" in row for row in marking.rows):
        # Typed totals and tie-break data (paper_scores_enter): no answers to count.
        return paper_scores_ranking(
            [PaperScore(row["name"], **row["scores"]) for row in marking.rows], lottery=lottery)
    sheets = {row["name"]: [m == "1" for m in row["marks"]] for row in marking.rows}
    return paper_ranking(
        sheets,
        lottery=lottery,
        questions=marking.questions,
        first_half=marking.first_half,
    )
