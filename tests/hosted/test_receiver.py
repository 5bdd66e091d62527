"""The copy's receiving endpoint and read-only mode (brackets/hosted/views.py, receive.py,
middleware.py). The venue and the copy share the test database here: the venue's state is
numbered and encoded, then deleted, so the copy starts empty as a hosted one does."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client, override_settings
from django.urls import reverse

from brackets.exporters.tournament_file import checksum
from brackets.models import PublicCopyReceipt
from brackets.hosted.payload import decode, encode, tournament_snapshot
from brackets.hosted.receive import tournament_replace_delete
from brackets.models import Entrant, Round, Tournament

TOKEN = "copy-token-0123456789"
PUSH_URL = "/public-copy/push/"
SOURCE = "6f1c3e0e-8a0b-4c1e-9d51-1a2b3c4d5e6f"


@pytest.fixture(autouse=True)
def copy_mode() -> Iterator[None]:
    with override_settings(PUBLIC_COPY_MODE=True, PUBLIC_COPY_TOKEN=TOKEN, PUBLIC_COPY_URL=""):
        yield


def push_body(tournament: Tournament, sequence: int, source: str = SOURCE) -> bytes:
    # By slug: once the copy has taken a push, the row is the copy's.
    data, ids = tournament_snapshot(Tournament.objects.get(slug=tournament.slug))
    return encode(source=source, sequence=sequence, data=data, ids=ids)


def post(body: bytes, token: str = TOKEN) -> Any:
    return Client().post(PUSH_URL, body, content_type="application/json",
                         headers={"Authorization": f"Bearer {token}",
                                  "Content-Encoding": "gzip"})


def public_html(url: str) -> str:
    for cache in caches.all():
        cache.clear()
    response = Client().get(url)
    assert response.status_code == 200, (url, response.status_code)
    # Each visitor gets their own CSRF token (64 letters and digits), and the live parts
    # poll with the database's own fingerprint of the state (tournament id, revision);
    # everything else must be the venue's page.
    html = re.sub(r"\b[A-Za-z0-9]{64}\b", "<token>", response.content.decode())
    return re.sub(r"\b\d+\.\d{18}\.\d+\b", "<version>", html)


def test_a_push_with_a_wrong_token_is_refused_and_changes_nothing(
        entry_open: Tournament) -> None:
    body = push_body(entry_open, 1)
    assert post(body, token="wrong-token-0123456789").status_code == 403
    assert post(body, token="").status_code == 403
    assert not PublicCopyReceipt.objects.exists()


def test_a_valid_push_makes_the_copy_show_the_venues_public_pages(
        after_round_2: Tournament) -> None:
    slug = after_round_2.slug
    player = Entrant.objects.filter(tournament=after_round_2).order_by("pk")[3]
    urls = [reverse("public_tournament", args=[slug]), reverse("public_bracket", args=[slug]),
            reverse("public_round", args=[slug, 1]), reverse("public_round", args=[slug, 2]),
            reverse("public_player", args=[slug, player.pk])]
    venue_pages = [public_html(url) for url in urls]
    body = push_body(after_round_2, 1)
    tournament_replace_delete(after_round_2)
    assert not Round.objects.exists()

    response = post(body)
    assert response.status_code == 200, response.content
    assert response.json() == {"status": "applied", "slug": slug, "sequence": 1}
    assert [public_html(url) for url in urls] == venue_pages
    assert player.name in venue_pages[-1]


def test_an_older_or_repeated_push_is_ignored(entry_open: Tournament) -> None:
    first = push_body(entry_open, 1)
    Tournament.objects.filter(pk=entry_open.pk).update(name="九州杯IX 改")
    second = push_body(entry_open, 2)
    assert post(second).json()["status"] == "applied"
    assert post(first).json() == {"status": "ignored", "slug": entry_open.slug, "sequence": 2}
    assert post(second).json()["status"] == "ignored"
    assert Tournament.objects.get(slug=entry_open.slug).name == "九州杯IX 改"


def test_a_rebuilt_venue_database_is_taken_although_its_numbers_start_again(
        entry_open: Tournament) -> None:
    assert post(push_body(entry_open, 5)).json()["status"] == "applied"
    Tournament.objects.filter(slug=entry_open.slug).update(name="新しいノートPC")
    other_source = "0d4b8f7a-1111-4222-8333-944455556666"
    assert post(push_body(entry_open, 1, other_source)).json()["status"] == "applied"
    assert Tournament.objects.get(slug=entry_open.slug).name == "新しいノートPC"


def test_a_push_keeps_the_venues_ids_so_phone_addresses_survive(
        entry_open: Tournament) -> None:
    ids = sorted(Entrant.objects.filter(tournament=entry_open).values_list("pk", flat=True))
    assert post(push_body(entry_open, 1)).status_code == 200
    copied = Tournament.objects.get(slug=entry_open.slug)
    assert sorted(copied.entrants.values_list("pk", flat=True)) == ids


def test_a_push_whose_ids_collide_with_another_tournament_is_refused_and_changes_nothing(
        entry_open: Tournament) -> None:
    envelope = decode(push_body(entry_open, 1), max_bytes=10**8)
    data = envelope["file"]
    data["tournament"]["slug"] = "kyushu9b"  # another venue's tournament, same entrant ids
    data["checksum"] = checksum(data)
    body = encode(source=SOURCE, sequence=1, data=data, ids=envelope["ids"])
    response = post(body)
    assert response.status_code == 409
    assert not Tournament.objects.filter(slug="kyushu9b").exists()
    assert not PublicCopyReceipt.objects.exists()
    assert entry_open.entrants.count() == 20


def test_a_push_bigger_than_the_limit_is_refused(entry_open: Tournament) -> None:
    body = push_body(entry_open, 1)
    with override_settings(PUBLIC_COPY_MAX_BYTES=len(body) - 1):
        assert post(body).status_code == 413
    with override_settings(PUBLIC_COPY_MAX_BYTES=len(body) + 10):  # inflates beyond it
        assert post(body).status_code == 413
    assert not PublicCopyReceipt.objects.exists()


def test_an_unreadable_push_is_refused(db: Any) -> None:
    response = post(b"not gzip at all")
    assert response.status_code == 400
    assert "gzip" in response.json()["error"]


def test_a_copy_serves_public_pages_and_refuses_staff_pages(
        entry_open: Tournament, cast: dict[str, Any]) -> None:
    slug = entry_open.slug
    organiser = Client()
    organiser.force_login(cast["organiser"])
    assert organiser.get(reverse("public_tournament", args=[slug])).status_code == 200
    assert organiser.get("/").status_code == 200
    for url in (reverse("tournament_dashboard", args=[slug]), reverse("desk", args=[slug]),
                reverse("login"), "/admin/"):
        response = organiser.get(url)
        assert response.status_code == 403, url
        assert "公開コピー" in response.content.decode()
    assert organiser.post(reverse("public_tournament", args=[slug])).status_code == 403
    assert organiser.post(reverse("desk_entrant_new", args=[slug]),
                          {"name": "x", "card_name": "x"}).status_code == 403
    assert organiser.get(PUSH_URL).status_code == 403


@override_settings(PUBLIC_COPY_MODE=False)
def test_a_venue_server_has_no_receiving_endpoint(entry_open: Tournament) -> None:
    assert post(push_body(entry_open, 1)).status_code == 404
