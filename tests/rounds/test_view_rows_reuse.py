"""Pages built from a group's kept rows (selectors.rounds._rows_at_versions): after a save,
the match page does not read the group's facts again; what it shows is still current."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from brackets.models import Entrant, Group, Round
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.conftest import running_round_one

pytestmark = pytest.mark.django_db(transaction=True)  # saves outside a transaction, as served

ROWS = {1: ("310.50", 1), 2: ("290.00", 2), 3: ("250.00", 3), 4: ("180.00", 4)}
# What selectors.rounds.group_rows reads: the seats, then each fact table by the seats
# group (the players' earlier selections are read by entrant, for the rules: not these).
GROUP_ROW_READS = ('FROM "brackets_resultfact"', 'FROM "brackets_penaltyfact"',
                   'FROM "brackets_disqualificationfact"', 'FROM "brackets_rematchfact"',
                   'FROM "brackets_seat"')


@pytest.fixture
def group(tournament: Any, cast: dict[str, Any]) -> Group:
    rnd: Round = running_round_one(tournament, 16, cast["organiser"])
    return Group.objects.select_related("round", "round__tournament").filter(
        round=rnd).order_by("number").first()


def _page(client: Any, group: Group) -> tuple[str, list[str]]:
    with CaptureQueriesContext(connection) as ctx:
        html = client.get(reverse("match_page", args=[group.round.tournament.slug,
                                                      group.id])).content.decode()
    return html, [q["sql"] for q in ctx.captured_queries]


def test_match_page_after_a_save_is_built_from_the_rows_the_save_kept(
        group: Group, cast: dict[str, Any]) -> None:
    client = client_for(cast["bracket"])
    svc.results_save(group=group, by=cast["bracket"], rows=ROWS)
    html, queries = _page(client, group)
    assert "310.50" in html and "180.00" in html
    assert not [q for q in queries if any(read in q for read in GROUP_ROW_READS)]
    # The same page without kept rows reads them (the check above is not vacuous).
    sel._WRITE_ROWS.clear()
    caches["pages"].clear()
    _html, queries = _page(client, group)
    assert [q for q in queries if any(read in q for read in GROUP_ROW_READS)]


def test_a_renamed_entrant_shows_the_new_name_from_kept_rows(
        group: Group, cast: dict[str, Any]) -> None:
    client = client_for(cast["bracket"])
    svc.results_save(group=group, by=cast["bracket"], rows=ROWS)
    seat = sel.group_view(group).seats[0]
    Entrant.objects.filter(id=seat.entrant_id).update(name="改名後の選手")
    from brackets.perf import revision
    revision.touch(group.round.tournament_id)  # as the desk's edit does (a new page)
    html, _queries = _page(client, group)
    assert "改名後の選手" in html


def test_kept_rows_are_not_changed_by_pages(group: Group, cast: dict[str, Any]) -> None:
    svc.results_save(group=group, by=cast["bracket"], rows=ROWS)
    fresh = Group.objects.select_related("round", "round__tournament").get(id=group.id)
    kept = sel._WRITE_ROWS[sel._write_rows_key(fresh.round.tournament, fresh.id)][1]
    before = [(id(s), s.__dict__.copy(), dict(s._state.fields_cache)) for s in kept.seats]
    view = sel.group_view(fresh)
    assert all(s.entrant.name for s in view.seats if s.entrant_id)  # names attached
    assert not {id(s) for s in view.seats} & {id(s) for s in kept.seats}  # copies
    assert [(id(s), s.__dict__.copy(), dict(s._state.fields_cache))
            for s in kept.seats] == before
