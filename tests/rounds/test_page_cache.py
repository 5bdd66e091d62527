"""Cached page bodies (brackets/perf/page_cache.py) and the revision they hang on
(brackets/perf/revision.py): a cached page is never stale, never another session's form, and
never shares an idempotency key with another page load."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from brackets.models import Group, ResultFact, Tournament
from brackets.services import rounds as svc
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

ROWS = {1: ("310.50", 1), 2: ("290.00", 2), 3: ("250.00", 3), 4: ("180.00", 4)}


def revision_of(t: Tournament) -> int:
    return Tournament.objects.values_list("revision", flat=True).get(pk=t.pk)


def keys(html: str) -> list[str]:
    return re.findall(r'name="key" value="([^"]+)"', html)


def csrf(html: str) -> list[str]:
    return re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)


def test_a_transaction_moves_the_revision_once_and_a_rollback_not_at_all(
        group: Group, cast: dict[str, Any]) -> None:
    t = group.round.tournament
    before = revision_of(t)
    with transaction.atomic():
        # Four result facts, a submission and the group's version: one move.
        svc.results_save(group=group, by=cast["bracket"], rows=ROWS, key="k1")
        svc.penalty_add(group=group, by=cast["bracket"], seat_number=1, points="400",
                        reason="遅刻")
    assert revision_of(t) == before + 1
    svc.penalty_add(group=group, by=cast["bracket"], seat_number=2, points="400", reason="x")
    assert revision_of(t) == before + 2
    with pytest.raises(RuntimeError), transaction.atomic():
        svc.penalty_add(group=group, by=cast["bracket"], seat_number=3, points="400",
                        reason="y")
        raise RuntimeError
    assert revision_of(t) == before + 2


def test_saving_a_stale_tournament_never_moves_the_revision_back(
        group: Group, cast: dict[str, Any]) -> None:
    stale = Tournament.objects.get(pk=group.round.tournament_id)
    svc.results_save(group=group, by=cast["bracket"], rows=ROWS)
    moved = revision_of(stale)
    assert moved > stale.revision
    stale.name = "改名"
    stale.save()  # a settings form loaded before the result was saved
    assert revision_of(stale) == moved + 1


def test_the_match_page_shows_a_new_result_at_once(group: Group,
                                                    cast: dict[str, Any]) -> None:
    client = client_for(cast["bracket"])
    url = reverse("match_page", args=[group.round.tournament.slug, group.id])
    first = client.get(url).content.decode()
    assert "310.50" not in first
    client.get(url)  # cached now
    svc.results_save(group=group, by=cast["bracket"], rows=ROWS)
    after = client.get(url).content.decode()
    assert 'value="310.50"' in after


def test_every_load_of_a_cached_page_gets_its_own_keys_and_this_sessions_token(
        group: Group, cast: dict[str, Any]) -> None:
    url = reverse("match_page", args=[group.round.tournament.slug, group.id])
    a, b = client_for(cast["bracket"]), client_for(cast["organiser"])
    page_a1 = a.get(url).content.decode()
    page_a2 = a.get(url).content.decode()
    page_b = b.get(url).content.decode()
    assert keys(page_a1) and not set(keys(page_a1)) & set(keys(page_a2))
    assert not set(keys(page_a1)) & set(keys(page_b))
    assert "Hole" not in page_a2 and "Hole" not in page_b
    assert "page_cache.py" not in page_a1  # the template's own comment stays a comment
    round_page = a.get(reverse("round_detail", args=[group.round.tournament.slug, 1]))
    assert "page_cache.py" not in round_page.content.decode()
    # The token in the cached body is the one this session's own requests must post.
    token = csrf(page_b)[-1]
    checked = Client(enforce_csrf_checks=True)
    checked.cookies = b.cookies
    response = checked.post(reverse("match_results", args=[group.round.tournament.slug,
                                                           group.id]),
                            {**{f"score_{n}": s for n, (s, _p) in ROWS.items()},
                             **{f"place_{n}": p for n, (_s, p) in ROWS.items()},
                             "key": keys(page_b)[-1], "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert ResultFact.objects.filter(group=group).count() == 4


def test_two_tablets_on_one_cached_page_both_save(group: Group, cast: dict[str, Any]) -> None:
    """Same cached body, different keys: the second save is not taken for a double tap."""
    slug = group.round.tournament.slug
    url = reverse("match_page", args=[slug, group.id])
    one, two = client_for(cast["bracket"]), client_for(cast["organiser"])
    page_one, page_two = one.get(url).content.decode(), two.get(url).content.decode()
    seat_keys = [k for k in keys(page_one) if k.endswith("-s1")]
    seat_keys_two = [k for k in keys(page_two) if k.endswith("-s2")]
    post = reverse("match_selection", args=[slug, group.id])
    one.post(post, {"seat": 1, "set": "芸能|四択", "difficulty": "HARD", "key": seat_keys[0]})
    two.post(post, {"seat": 2, "set": "芸能|四択", "difficulty": "HARD",
                    "key": seat_keys_two[0]})
    from brackets.models import SelectionFact

    saved = SelectionFact.objects.filter(group=group)
    assert sorted(f.seat.number for f in saved) == [1, 2]


def test_languages_and_roles_are_cached_apart(group: Group, cast: dict[str, Any]) -> None:
    url = reverse("match_page", args=[group.round.tournament.slug, group.id])
    client = client_for(cast["bracket"])
    ja = client.get(url).content.decode()
    english = client_for(cast["bracket"])
    english.cookies["django_language"] = "en"
    en = english.get(url).content.decode()
    assert "履歴" in ja and "History" in en and "履歴" not in en.split("<main", 1)[1]


def test_public_pages_cached_for_visitors_carry_no_secret_and_show_a_new_result(
        group: Group, cast: dict[str, Any]) -> None:
    from django.core.cache import caches

    slug = group.round.tournament.slug
    url = reverse("public_round", args=[slug, 1])
    visitor = Client()
    first = visitor.get(url)
    again = visitor.get(url)  # from the cache
    assert "Hole" not in first.content.decode() and "Hole" not in again.content.decode()
    # No token and no cookie: every visitor gets the same bytes, compressed once.
    assert csrf(first.content.decode()) == [] and "X-CSRFToken" not in again.content.decode()
    assert "csrftoken" not in again.cookies and again.content == first.content
    # The language switcher on that page still works with CSRF checks on.
    switched = Client(enforce_csrf_checks=True).post(
        reverse("set_language"), {"language": "en", "next": url})
    assert switched.status_code == 302 and switched.cookies["django_language"].value == "en"
    svc.results_save(group=group, by=cast["bracket"], rows=ROWS)
    caches["default"].delete(f"public-version:{slug}")  # as after PUBLIC_FRESH_SECONDS
    assert "310.50" in visitor.get(url).content.decode()
    missing = visitor.get(reverse("public_round", args=["no-such-tournament", 1]))
    assert missing.status_code == 404 and "Hole" not in missing.content.decode()


def test_a_cached_public_page_is_sent_gzipped_as_kept_and_answers_304(
        group: Group, cast: dict[str, Any]) -> None:
    import gzip

    url = reverse("public_round", args=[group.round.tournament.slug, 1])
    visitor = Client(HTTP_ACCEPT_ENCODING="gzip, deflate")
    first = visitor.get(url)
    hit = visitor.get(url)
    assert hit["Content-Encoding"] == "gzip" and "Accept-Encoding" in hit["Vary"]
    assert gzip.decompress(hit.content) == gzip.decompress(first.content)
    assert hit["ETag"].startswith('W/"')
    # The browser sends the weak tag back: the page has not changed, so nothing is sent.
    polled = visitor.get(url, HTTP_IF_NONE_MATCH=hit["ETag"])
    assert polled.status_code == 304 and polled.content == b""
    plain = Client().get(url)
    assert "Content-Encoding" not in plain and plain.content == gzip.decompress(hit.content)
