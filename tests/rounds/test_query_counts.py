"""Pages issue the same number of queries at 16 and 1,024 entrants (a ladder preset, which
plans more rounds for more entrants: 3 at 16, 9 at 1,024), and 九州杯IX at 16 and 64 (it
takes at most 80 round-1 players)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache, caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from brackets.models import Group, Round, Seat, Tournament
from brackets.services import rounds as svc
from tests.rounds.conftest import running_round_one

pytestmark = pytest.mark.django_db


def prepare(tournament: Tournament, size: int, user: Any, preset: str) -> tuple[Round, Group]:
    rnd = running_round_one(tournament, size, user, preset=preset)
    groups = list(Group.objects.filter(round=rnd).order_by("number"))
    for g in groups[:2]:
        for seat in Seat.objects.filter(group=g, entrant__isnull=False):
            svc.selection_save(group=g, by=user, seat_number=seat.number, genre="芸能",
                               format="四択", difficulty="HARD")
    svc.results_save(group=groups[0], by=user,
                     rows={1: ("300.00", 1), 2: ("200.00", 2), 3: ("100.00", 3),
                           4: ("50.00", 4)})
    return rnd, groups[0]


def count(client: Any, url: str, clear: bool = True, rendered: bool = False) -> int:
    """Queries of one request after a first one; ``clear`` empties the default cache (the
    trusted revision, fragments and cards), ``rendered`` also the kept pages, so the page
    is built whole again."""
    client.get(url)  # warm the per-process catalog cache
    if clear:
        cache.clear()
    if rendered:
        caches["pages"].clear()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def measure(tournament: Tournament, cast: dict[str, Any], clients: Any,
            size: int, preset: str) -> dict[str, int]:
    _rnd, group = prepare(tournament, size, cast["organiser"], preset)
    slug = tournament.slug
    # At 16 entrants the round page is one page, rebuilt whole: the bound a paged round's
    # page of 32 cards must keep to at 1,024 (which builds only its own page).
    whole = size <= 32
    staff = clients["bracket"]
    public = clients["anonymous"]
    return {
        "match": count(staff, reverse("match_page", kwargs={"slug": slug,
                                                            "group_id": group.id})),
        "round": count(staff, reverse("round_detail", kwargs={"slug": slug, "number": 1})),
        "public_round": count(public, reverse("public_round", kwargs={"slug": slug,
                                                                      "number": 1}),
                              rendered=whole),
        "public_round_cached": count(public, reverse("public_round", kwargs={
            "slug": slug, "number": 1}), clear=False),
        # The whole round's tables; a round of more than 32 groups shows its group cards
        # in pages of 32 (the plain round page is then the first of them).
        "public_round_tables": count(public, reverse("public_round", kwargs={
            "slug": slug, "number": 1}) + "?page=table"),
        "public_bracket": count(public, reverse("public_bracket", kwargs={"slug": slug})),
        "public_live": count(public, reverse("public_round_live", kwargs={
            "slug": slug, "number": 1}), rendered=whole),
    }


@pytest.mark.parametrize(("preset", "size"), [("shop-top2", 1024), ("kyushu-cup-ix", 64)])
def test_query_counts_do_not_grow_with_entrants(preset: str, size: int, tournament: Tournament,
                                               other_tournament: Tournament,
                                               cast: dict[str, Any], clients: Any) -> None:
    small = measure(tournament, cast, clients, 16, preset)
    from brackets.models import Membership, Role

    Membership.objects.create(tournament=other_tournament, user=cast["bracket"],
                              role=Role.BRACKET)
    large = measure(other_tournament, cast, clients, size, preset)
    print(small, large)
    paged = {"public_round", "public_live"}  # a page of 32 group cards at 1,024 entrants
    assert {k: v for k, v in small.items() if k not in paged} == {
        k: v for k, v in large.items() if k not in paged}, (small, large)
    assert all(large[k] <= small[k] for k in paged), (small, large)
