"""The revision a public page trusts, as another server process left it in a shared cache
(brackets/perf/page_cache.py): trusted for 1 s from when it was read, however long the
entry itself lives or however long its page took to build."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from brackets.models import Group, Tournament
from brackets.perf.page_cache import PUBLIC_FRESH_SECONDS
from brackets.services import rounds as svc
from tests.rounds.conftest import running_round_one

pytestmark = pytest.mark.django_db

ROWS = {1: ("310.50", 1), 2: ("290.00", 2), 3: ("250.00", 3), 4: ("180.00", 4)}


@pytest.fixture
def group(tournament: Tournament, cast: dict[str, Any]) -> Group:
    rnd = running_round_one(tournament, 16, cast["organiser"])
    return Group.objects.select_related("round", "round__tournament").filter(
        round=rnd).order_by("number").first()


def test_a_revision_read_more_than_a_second_ago_is_not_trusted_though_its_entry_lives(
        group: Group, cast: dict[str, Any]) -> None:
    slug = group.round.tournament.slug
    url = reverse("public_round", args=[slug, 1])
    visitor = Client()
    assert "310.50" not in visitor.get(url).content.decode()
    trusted = caches["default"].get(f"public-version:{slug}")
    svc.results_save(group=group, by=cast["bracket"], rows=ROWS)
    # Another process stored the old revision late (its page took long to build), after
    # this save dropped the entry: the entry is there, but its read is too old to trust.
    caches["default"].set(f"public-version:{slug}",
                          (trusted[0], time.time() - PUBLIC_FRESH_SECONDS - 0.5), 600)
    assert "310.50" in visitor.get(url).content.decode()


def test_a_revision_read_just_now_is_trusted(group: Group, cast: dict[str, Any]) -> None:
    """The other side: within the second, the page another process cached is served as it
    is (no read of the tournament), which is what the second buys."""
    slug = group.round.tournament.slug
    url = reverse("public_round", args=[slug, 1])
    visitor = Client()
    visitor.get(url)
    trusted = caches["default"].get(f"public-version:{slug}")
    svc.results_save(group=group, by=cast["bracket"], rows=ROWS)
    # Stamped ahead of the clock, so a slow machine cannot age it past the second.
    caches["default"].set(f"public-version:{slug}", (trusted[0], time.time() + 3600), 600)
    assert "310.50" not in visitor.get(url).content.decode()
