"""Public page weight and rebuild cost (a script, not a test):
``python3 bench/pages.py [--entrants 72,1024] [--runs 15]``.

Per tournament size, in-process (Django's test client, full middleware), mid-round 1 with
half the groups played, like tablets.py:

- the public round page's size: raw, and gzip as the server sends it to a browser that
  accepts it; for a paged round also the largest page;
- the public round page rebuilt after one result save and after one selection save (median
  ms, the save not timed), and the same page when nothing changed (a cache hit) and a 304 revalidation;
- a result save through the staff form (median ms) and the match page after a save;
- the staff round page (every group's card) rebuilt after one result save and after one
  selection save.

It works on a throwaway SQLite database in a temporary folder (or on ``DATABASE_URL`` if
set, in fresh tournaments), so the venue's own data is never touched. Figures are as
measured on whatever else the machine runs.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if "DATABASE_URL" not in os.environ:
    os.environ["KYUSHU_VAR_DIR"] = tempfile.mkdtemp(prefix="kyushu-bench-pages-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kyushu.settings")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")

import django

django.setup()

from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from brackets.models import Entrant, Group, Membership, QmaVersion, Role, Seat, Tournament
from brackets.services import rounds as svc
from brackets.services.catalog import catalog_load_builtin

try:
    from brackets.views.public import PAGE_GROUPS
except ImportError:  # a version of the app before paged round pages (for before/after)
    PAGE_GROUPS = 32

FORM_ENCODED = "application/x-www-form-urlencoded"


def prepare(count: int, played: float = 0.5) -> tuple[Tournament, Any]:
    slug = f"bench-pages-{count}-{uuid.uuid4().hex[:6]}"
    tournament = Tournament.objects.create(
        slug=slug, name="ベンチ大会", version=QmaVersion.objects.get(slug="qma-2016"),
        capacity=count, preset="katata-kansai5-qualifier", lottery_seed="bench")
    Entrant.objects.bulk_create(
        [Entrant(tournament=tournament, name=f"参加者{i}", card_name=f"CN{i}",
                 q_level=i % 120, checked_in=True) for i in range(count)], batch_size=500)
    user, _ = get_user_model().objects.get_or_create(username=f"bench-{slug}")
    Membership.objects.create(tournament=tournament, user=user, role=Role.BRACKET)
    rounds = svc.rounds_configure(tournament=tournament, by=user)
    svc.round_draw(round=rounds[0], by=user)
    svc.round_start(round=rounds[0], by=user)
    groups = list(Group.objects.filter(round=rounds[0]).order_by("number"))
    for g in groups[: int(len(groups) * played)]:
        for seat in Seat.objects.filter(group=g, entrant__isnull=False):
            svc.selection_save(group=g, by=user, seat_number=seat.number, genre="芸能",
                               format="四択", difficulty="HARD")
        svc.results_save(group=g, by=user, rows=rows_for(0))
    return tournament, user


def rows_for(counter: int) -> dict[int, tuple[str, int]]:
    bump = counter % 9000
    return {1: (f"{300 + bump / 100:.2f}", 1), 2: ("250.00", 2), 3: ("200.00", 3),
            4: ("150.00", 4)}


def timed(run: Callable[[int], Any], runs: int,
          before: Callable[[int], Any] | None = None) -> float:
    run(-1)
    times = []
    for i in range(runs):
        if before is not None:
            before(i)
        start = time.perf_counter()
        response = run(i)
        times.append((time.perf_counter() - start) * 1000)
        if response is not None and response.status_code >= 400:
            raise SystemExit(f"HTTP {response.status_code}")
    return statistics.median(times)


def expire_public(slug: str) -> None:
    """As when the 1 s a visitor's page trusts the revision it read has passed."""
    caches["default"].delete(f"public-version:{slug}")


def sizes(public: Client, url: str) -> tuple[int, int]:
    raw = public.get(url).content
    sent = public.get(url, HTTP_ACCEPT_ENCODING="gzip")
    body = sent.content
    if sent.get("Content-Encoding") != "gzip":
        body = gzip.compress(raw)  # what compression would give (not sent compressed)
    return len(raw), len(body)


def measure(count: int, runs: int) -> None:
    tournament, user = prepare(count)
    slug = tournament.slug
    staff = Client()
    staff.force_login(user)
    public = Client()
    groups = list(Group.objects.filter(round__tournament=tournament).order_by("number"))
    # The saves go to the groups of one page (for a paged round, the page measured).
    first_free = len(groups) // 2
    free = groups[first_free:first_free + PAGE_GROUPS]
    url = reverse("public_round", args=[slug, 1])

    def save(i: int) -> Any:
        g = free[(i + 1) % len(free)]
        data: dict[str, Any] = {"key": uuid.uuid4().hex}
        for n, (score, place) in rows_for(i + 7).items():
            data[f"score_{n}"], data[f"place_{n}"] = score, place
        return staff.post(reverse("match_results", args=[slug, g.id]), urlencode(data),
                          content_type=FORM_ENCODED)

    def select(i: int) -> None:
        # A venue's other saves: four selections a match for each result.
        g = free[(i + 1) % len(free)]
        seat = Seat.objects.filter(group=g, entrant__isnull=False).order_by("number").first()
        svc.selection_save(group=Group.objects.get(id=g.id), by=user, seat_number=seat.number,
                           genre="芸能", format=("四択", "連想")[i % 2], difficulty="HARD")

    raw, packed = sizes(public, url)
    print(f"{count} entrants ({len(groups)} groups), {django.db.connection.vendor}:")
    print(f"  public round page, half the groups played: {raw / 1024:7.1f} KB raw, "
          f"{packed / 1024:6.1f} KB gzip")
    pages = max((int(p) for p in re.findall(r'href="\?page=(\d+)"',
                                            public.get(url).content.decode())), default=0)
    if pages:
        biggest = max((sizes(public, f"{url}?page={p}") for p in range(1, int(pages) + 1)),
                      key=lambda s: s[0])
        print(f"  largest of its {pages} pages: {biggest[0] / 1024:7.1f} KB raw, "
              f"{biggest[1] / 1024:6.1f} KB gzip")
    done, _user = prepare(count, played=1.0)
    done_url = reverse("public_round", args=[done.slug, 1])
    raw, packed = sizes(public, done_url)
    print(f"  public round page, every group played:     {raw / 1024:7.1f} KB raw, "
          f"{packed / 1024:6.1f} KB gzip")
    if pages:
        raw, packed = sizes(public, f"{done_url}?page=table")
        print(f"  its 全体の成績 section (every group played): {raw / 1024:7.1f} KB raw, "
              f"{packed / 1024:6.1f} KB gzip")
        url = f"{url}?page={first_free // PAGE_GROUPS + 1}"
    hit = timed(lambda i: public.get(url), runs)
    etag = public.get(url).get("ETag")
    revalidate = (timed(lambda i: public.get(url, HTTP_IF_NONE_MATCH=etag), runs)
                  if etag else float("nan"))

    def rebuild(i: int) -> Any:
        return public.get(url)

    def after_save(i: int) -> None:
        save(1000 + i)
        expire_public(slug)

    def after_selection(i: int) -> None:
        select(i)
        expire_public(slug)

    # Before the results: a selection is saved on a group still playing.
    reselected = timed(rebuild, runs, before=after_selection)
    rebuilt = timed(rebuild, runs, before=after_save)
    posted = timed(save, runs)
    match_url = reverse("match_page", args=[slug, free[2].id])
    match_after = timed(lambda i: staff.get(match_url), runs, before=lambda i: save(1))
    round_url = reverse("round_detail", args=[slug, 1])
    staff_round = timed(lambda i: staff.get(round_url), runs, before=lambda i: save(2000 + i))
    staff_reselected = timed(lambda i: staff.get(round_url), runs, before=select)
    if pages:
        table_url = reverse("public_round", args=[slug, 1]) + "?page=table"
        table = timed(lambda i: public.get(table_url), runs, before=after_save)
        print(f"  全体の成績 section rebuilt after one save:  {table:8.2f} ms")
    print(f"  public round page, unchanged (cache hit):   {hit:8.2f} ms")
    print(f"  public round page, 304 revalidation:        {revalidate:8.2f} ms")
    print(f"  public round page rebuilt after one save:   {rebuilt:8.2f} ms")
    print(f"  ... after one selection save:               {reselected:8.2f} ms")
    print(f"  result save (staff form POST):              {posted:8.2f} ms")
    print(f"  match page GET after a save elsewhere:      {match_after:8.2f} ms")
    print(f"  staff round page rebuilt after one save:    {staff_round:8.2f} ms")
    print(f"  ... after one selection save:               {staff_reselected:8.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entrants", default="72,1024")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    catalog_load_builtin()
    for count in (int(c) for c in args.entrants.split(",")):
        measure(count, args.runs)


if __name__ == "__main__":
    main()
