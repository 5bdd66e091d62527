"""Issue 19, defect 1: a penalty of 100000 or more bricked its round.

It was saved (SQLite) with only ``value <= 0`` checked against a seven-digit column; then
every page, document and the tournament-file export that read it back failed, and so did
revoking it. The range is now ``bounds.PENALTY`` at every entry (form post, service,
tournament file, replay), and migration ``0011_bounds`` repairs a value stored before.
"""

from __future__ import annotations

import importlib
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.db import DataError, connection, transaction

from brackets.engine import bounds
from brackets.exporters.tournament_file import tournament_file_export
from brackets.models import Group, PenaltyFact
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

GOOD = {1: ("310.50", 1), 2: ("290.00", 2), 3: ("250.00", 3), 4: ("180.00", 4)}


def _pages(group: Group) -> list[str]:
    slug = group.round.tournament.slug
    return [f"/t/{slug}/match/{group.id}/", f"/t/{slug}/rounds/{group.round.number}/",
            f"/p/{slug}/r/{group.round.number}/", f"/p/{slug}/bracket/"]


@pytest.mark.parametrize("points", ["100000", "99999.99", "10000", "1e9", "0", "-400",
                                    "0.001", "NaN", "Infinity", "abc", ""])
def test_penalty_outside_bounds_is_refused_by_the_service(group: Group, cast: dict[str, Any],
                                                          points: str) -> None:
    svc.results_save(group=group, by=cast["bracket"], rows=GOOD)
    with pytest.raises(svc.RoundError) as refused:
        svc.penalty_add(group=group, by=cast["bracket"], seat_number=1, points=points,
                        reason="バグ技")
    assert "減点は0.01〜9999.99" in refused.value.message
    assert not PenaltyFact.objects.filter(group=group).exists()


def test_penalty_at_the_bound_is_recorded(group: Group, cast: dict[str, Any]) -> None:
    svc.results_save(group=group, by=cast["bracket"], rows=GOOD)
    svc.penalty_add(group=group, by=cast["bracket"], seat_number=1, points="9999.99",
                    reason="バグ技")
    fact = PenaltyFact.objects.get(group=group)
    assert fact.points == bounds.PENALTY.high
    assert sel.group_view(group).result.players[-1].seat == 1


def test_penalty_of_100000_posted_from_the_tablet_is_refused_and_the_round_still_reads(
        group: Group, cast: dict[str, Any]) -> None:
    svc.results_save(group=group, by=cast["bracket"], rows=GOOD)
    group.refresh_from_db()
    staff = client_for(cast["bracket"])
    url = f"/t/{group.round.tournament.slug}/match/{group.id}/action/"
    response = staff.post(url, {"action": "penalty", "seat": "1", "points": "100000",
                                "reason": "バグ技", "version": group.version})
    assert response.status_code == 400
    assert "減点は0.01〜9999.99" in response.content.decode()
    assert not PenaltyFact.objects.filter(group=group).exists()
    organiser = client_for(cast["organiser"])
    assert [organiser.get(u).status_code for u in _pages(group)] == [200] * 4
    assert tournament_file_export(tournament=group.round.tournament)


def test_column_holds_every_penalty_and_score_in_bounds() -> None:
    """The models read the bounds: no value the bounds admit can overflow a column."""
    points = PenaltyFact._meta.get_field("points")
    assert bounds.PENALTY.max_digits <= points.max_digits
    assert bounds.PENALTY.decimals == points.decimal_places
    score = apps.get_model("brackets", "ResultFact")._meta.get_field("score")
    assert bounds.SCORE.max_digits <= score.max_digits


def _bounds_migration() -> Any:
    """The migration adding the bounds (found by name: the integrator renumbers it)."""
    folder = Path(importlib.import_module("brackets.migrations").__file__).parent
    name = next(p.stem for p in sorted(folder.glob("*_bounds.py")))
    return importlib.import_module(f"brackets.migrations.{name}")


def test_penalty_stored_above_the_bound_is_repaired_and_pages_read_again(
        group: Group, cast: dict[str, Any]) -> None:
    """A penalty an older version stored above the column (SQLite kept it) is clamped to
    the bound by the migration, its typed value kept in the reason, so the round's pages,
    the export and revoking it work again (PostgreSQL never stored one: it is a no-op)."""
    svc.results_save(group=group, by=cast["bracket"], rows=GOOD)
    fact = svc.penalty_add(group=group, by=cast["bracket"], seat_number=1, points="400",
                           reason="バグ技")
    table = PenaltyFact._meta.db_table
    editor = SimpleNamespace(connection=connection, quote_name=connection.ops.quote_name)
    if connection.vendor != "sqlite":
        # PostgreSQL's numeric(7, 2) refuses the value itself: no such row can exist, and
        # the repair finds nothing to change.
        with pytest.raises(DataError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f'UPDATE "{table}" SET points = %s WHERE id = %s',
                           [100000, fact.id])
        _bounds_migration().repair_penalties_above_bound(apps, editor)
        fact.refresh_from_db()
        assert (fact.points, fact.reason) == (Decimal("400.00"), "バグ技")
        return
    with connection.cursor() as cursor:  # what the old service wrote for "100000"
        cursor.execute(f'UPDATE "{table}" SET points = %s WHERE id = %s', [100000, fact.id])
    _bounds_migration().repair_penalties_above_bound(apps, editor)
    fact.refresh_from_db()
    assert fact.points == Decimal("9999.99")
    assert fact.reason.startswith("バグ技") and "100000" in fact.reason
    organiser = client_for(cast["organiser"])
    assert [organiser.get(u).status_code for u in _pages(group)] == [200] * 4
    assert tournament_file_export(tournament=group.round.tournament)
    group.refresh_from_db()
    svc.penalty_revoke(group=group, by=cast["bracket"], penalty_id=fact.id, reason="取消")
    assert sel.group_view(group).result.players[0].seat == 1
