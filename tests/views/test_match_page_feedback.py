"""What the tablet's match page says after a save: 変更はありません when nothing changed
(issue 19), and which values are saved after another tablet's save won (issue 13, item 14)."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Group, ResultFact, Seat, Tournament
from tests.conftest import client_for
from tests.rounds.conftest import running_round_one

pytestmark = pytest.mark.django_db


def _first_group(tournament: Tournament, cast: dict[str, Any]) -> Group:
    rnd = running_round_one(tournament, 16, cast["organiser"])
    return Group.objects.filter(round=rnd).order_by("number").first()


def _rows(group: Group, scores: list[int]) -> dict[str, str]:
    seats = Seat.objects.filter(group=group, superseded_by__isnull=True).count()
    rows = {f"score_{n}": str(scores[n - 1]) for n in range(1, seats + 1)}
    rows.update({f"place_{n}": str(n) for n in range(1, seats + 1)})
    return rows


def test_results_saved_again_unchanged_say_nothing_changed(tournament: Tournament,
                                                           cast: dict[str, Any]) -> None:
    group = _first_group(tournament, cast)
    staff = client_for(cast["bracket"])
    page = f"/t/{tournament.slug}/match/{group.id}/"
    rows = _rows(group, [300, 250, 200, 150])
    first = staff.post(f"{page}results/", {**rows, "key": "r-first"})
    assert first.status_code == 302
    html = staff.get(page).content.decode()
    assert "保存しました" in html and "変更はありません" not in html
    facts = ResultFact.objects.filter(group=group).count()

    again = staff.post(f"{page}results/", {**rows, "key": "r-again"})
    assert again.status_code == 302
    html = staff.get(page).content.decode()
    assert "変更はありません" in html and "保存しました" not in html
    assert ResultFact.objects.filter(group=group).count() == facts

    corrected = staff.post(f"{page}results/", {**rows, "score_1": "310", "key": "r-fix"})
    assert corrected.status_code == 302
    html = staff.get(page).content.decode()
    assert "保存しました" in html and "変更はありません" not in html
    assert ResultFact.objects.filter(group=group).count() == facts + 1
