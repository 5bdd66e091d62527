"""Entry desk timings at 1,000 entrants (a script, not a test): ``python3 bench/desk.py``.

Prints the median server time per request, in ms, for the entrant list, an htmx search and
a one-tap check-in, measured with Django's test client in-process (the full middleware,
session, permission checks, database and template rendering; no network).

It works on a throwaway SQLite database in a temporary folder (or on ``DATABASE_URL`` if
set, in a fresh tournament), so the venue's own data is never touched.

Why: the desk is the busiest page of the day at the doors; it must stay quick when a large
event has a thousand entrants.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if "DATABASE_URL" not in os.environ:
    os.environ["KYUSHU_VAR_DIR"] = tempfile.mkdtemp(prefix="kyushu-bench-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kyushu.settings")

import django

django.setup()

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.test.utils import setup_test_environment
from django.urls import reverse

from brackets.models import Entrant, Membership, QmaVersion, Role, Tournament
from brackets.services.catalog import catalog_load_builtin
from brackets.services.entrants import entrant_keys

ENTRANTS = 1000
RUNS = 30
FAMILY = ["たなか", "すずき", "さとう", "たかはし", "いとう", "わたなべ", "やまもと", "なかむら"]


def prepare() -> tuple[Tournament, Client]:
    call_command("migrate", verbosity=0)
    catalog_load_builtin()
    slug = f"bench-{int(time.time())}"
    tournament = Tournament.objects.create(
        slug=slug,
        name="ベンチ大会",
        version=QmaVersion.objects.order_by("order").first(),
        capacity=ENTRANTS,
        seed_slots=8,
    )
    entrants = []
    for i in range(ENTRANTS):
        entrant = Entrant(
            tournament=tournament,
            name=f"参加者{i}",
            reading=f"{FAMILY[i % len(FAMILY)]} {i}",
            card_name=f"CN{i}",
            q_level=i % 120,
        )
        entrant.search_key, entrant.card_key = entrant_keys(
            name=entrant.name, reading=entrant.reading, card_name=entrant.card_name
        )
        entrants.append(entrant)
    Entrant.objects.bulk_create(entrants, batch_size=500)
    user, _ = get_user_model().objects.get_or_create(username=f"bench-desk-{slug}")
    Membership.objects.create(tournament=tournament, user=user, role=Role.DESK)
    client = Client()
    client.force_login(user)
    return tournament, client


def median_ms(request: Callable[[int], object]) -> float:
    request(-1)  # warm up (template loading, first queries)
    times = []
    for i in range(RUNS):
        start = time.perf_counter()
        response = request(i)
        times.append((time.perf_counter() - start) * 1000)
        status = getattr(response, "status_code", 0)
        if status >= 400:
            raise SystemExit(f"request failed with HTTP {status}")
    return statistics.median(times)


def main() -> None:
    tournament, client = prepare()
    desk = reverse("desk", args=[tournament.slug])
    ids = list(Entrant.objects.filter(tournament=tournament).values_list("pk", flat=True))
    htmx = {"HTTP_HX_REQUEST": "true"}

    def check_in(i: int) -> object:
        url = reverse("desk_check_in", args=[tournament.slug, ids[i + 1]])
        return client.post(url, {"checked_in": "1"}, **htmx)

    results = {
        "entrant list (page 1, 50 rows)": median_ms(lambda i: client.get(desk)),
        "search 'すずき' (htmx fragment)": median_ms(lambda i: client.get(desk, {"q": "すずき"}, **htmx)),
        "search 'cn99' (htmx fragment)": median_ms(lambda i: client.get(desk, {"q": "cn99"}, **htmx)),
        "one-tap check-in (htmx)": median_ms(check_in),
    }
    engine = django.db.connection.vendor
    print(f"entry desk, {ENTRANTS} entrants, {engine}, median of {RUNS} requests (ms):")
    for name, ms in results.items():
        print(f"  {name:<34} {ms:8.1f}")
    Tournament.objects.filter(pk=tournament.pk).delete()


if __name__ == "__main__":
    main()
