"""The documents page and the one download view: role checks for every document, options,
refusals as messages, query counts flat in the number of entrants, and the file import."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from brackets.exporters.tournament_file import tournament_file_export
from brackets.models import Role, Tournament
from brackets.printing.registry import all_documents
from tests.printing.world import add_named_entrants, build_kyushu

pytestmark = pytest.mark.django_db

ALLOWED = {
    Role.DESK: {"desk", "organiser", "admin"},
    Role.BRACKET: {"bracket", "organiser", "admin"},
    Role.ORGANISER: {"organiser", "admin"},
}


def url(t: Tournament, slug: str, **options: Any) -> str:
    base = reverse("document_download", kwargs={"slug": t.slug, "doc_slug": slug})
    return base + ("?" + "&".join(f"{k}={v}" for k, v in options.items()) if options else "")


def test_every_document_checks_its_role(tournament: Tournament, cast: dict[str, Any],
                                        clients: dict[str, Any]) -> None:
    build_kyushu(tournament, cast["organiser"], count=20, seeds=2, upto=1)
    walked = 0
    for doc in all_documents():
        choices = doc.choices(tournament)
        if not choices:
            continue
        target = url(tournament, doc.slug, **choices[0].options)
        for user, client in clients.items():
            response = client.get(target)
            if user == "anonymous":
                assert response.status_code == 302 and "/accounts/login/" in response["Location"]
            elif user in ALLOWED[doc.role]:
                assert response.status_code in (200, 400), (doc.slug, user)
                if response.status_code == 200:
                    assert response["Content-Type"] == doc.content_type
                    assert tournament.slug in response["Content-Disposition"]
            else:
                assert response.status_code == 403, (doc.slug, user, response.status_code)
        walked += 1
    assert walked >= 12


def test_documents_page_lists_what_each_role_may_print(tournament: Tournament,
                                                       cast: dict[str, Any],
                                                       clients: dict[str, Any]) -> None:
    build_kyushu(tournament, cast["organiser"], count=20, seeds=2, upto=1)
    page = reverse("document_list", kwargs={"slug": tournament.slug})
    desk = clients["desk"].get(page).content.decode()
    bracket = clients["bracket"].get(page).content.decode()
    organiser = clients["organiser"].get(page).content.decode()
    assert url(tournament, "name-tags") in desk and "name-tags" not in bracket
    assert url(tournament, "match-sheets", round=1) in bracket and "match-sheets" not in desk
    assert "tournament-file" in organiser and "tournament-file" not in desk
    assert "名札" in organiser and "対戦記録用紙" in organiser
    assert clients["outsider"].get(page).status_code == 403


def test_bad_options_and_unknown_documents(tournament: Tournament, cast: dict[str, Any],
                                           clients: dict[str, Any]) -> None:
    build_kyushu(tournament, cast["organiser"], count=20, seeds=2, upto=1)
    client = clients["bracket"]
    assert client.get(url(tournament, "no-such-document")).status_code == 404
    for options, message in (({}, "回戦を指定してください"),
                             ({"round": "abc"}, "数字で"),
                             ({"round": 9}, "回戦はありません"),
                             ({"round": 3}, "抽選をしていません")):
        response = client.get(url(tournament, "match-sheets", **options))
        assert response.status_code == 400
        assert message in response.content.decode()
    ok = client.get(url(tournament, "match-sheets", round=1))
    assert ok.status_code == 200 and ok.content.startswith(b"%PDF")


def queries(client: Any, target: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(target)
    assert response.status_code == 200, target
    return len(ctx.captured_queries)


def test_query_counts_do_not_grow_with_entrants(tournament: Tournament, other_tournament:
                                                 Tournament, cast: dict[str, Any],
                                                 clients: dict[str, Any]) -> None:
    small, large = tournament, other_tournament
    build_kyushu(small, cast["organiser"], count=12, seeds=0, upto=0)
    build_kyushu(large, cast["organiser"], count=48, seeds=0, upto=0)
    client = clients["admin"]
    for slug, options in (("entry-sheets", {}), ("name-tags", {}), ("desk-batch", {}),
                          ("match-sheets", {"round": 1}), ("group-table", {"round": 1}),
                          ("round-xlsx", {"round": 1}), ("tournament-file", {})):
        client.get(url(small, slug, **options))  # warm per-process caches (the catalog)
        counts = [queries(client, url(t, slug, **options)) for t in (small, large)]
        assert counts[0] == counts[1], (slug, counts)
    pages = [queries(client, reverse("document_list", kwargs={"slug": t.slug}))
             for t in (small, large)]
    assert pages[0] == pages[1]


def test_import_page_creates_the_tournament_or_says_why_not(
        tournament: Tournament, cast: dict[str, Any], clients: dict[str, Any]) -> None:
    add_named_entrants(tournament, 5, user=cast["desk"])
    content = tournament_file_export(tournament=tournament)
    page = reverse("tournament_import")
    assert clients["organiser"].get(page).status_code == 403
    admin = clients["admin"]
    response = admin.post(page, {"file": SimpleUploadedFile("t.json", content),
                                 "slug": "restored"})
    assert response.status_code == 302
    assert response["Location"] == reverse("tournament_dashboard", kwargs={"slug": "restored"})
    assert Tournament.objects.get(slug="restored").entrants.count() == 5
    data = json.loads(content)
    data["version"] = 7
    response = admin.post(page, {"file": SimpleUploadedFile(
        "t.json", json.dumps(data).encode()), "slug": "newer"})
    assert response.status_code == 200
    assert "version 7" in response.content.decode()
    assert not Tournament.objects.filter(slug="newer").exists()
