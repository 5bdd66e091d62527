"""Check-in by QR (issue 15 item 5): a signed code per entrant, one scan checks in."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import signing
from django.urls import reverse

from brackets.models import Entrant, EntrantRevision, Tournament
from brackets.selectors.checkin_codes import (
    SALT,
    CheckinCodeRefused,
    checkin_token,
    checkin_url,
    entrant_of_code,
    token_of,
)
from brackets.selectors.documents import entrant_documents
from brackets.services.checkin_scan import entrant_check_in_by_code
from tests.states import register_entrants

pytestmark = pytest.mark.django_db


def _entrants(tournament: Tournament, user: Any, count: int = 3) -> list[Entrant]:
    """Registered at the desk, not checked in yet (they arrive with their sheets)."""
    entrants = register_entrants(tournament, user, count, check_in_later=True)
    Entrant.objects.filter(tournament=tournament).update(checked_in=False)
    return [Entrant.objects.get(pk=e.pk) for e in entrants]


def test_a_code_names_its_entrant_as_a_bare_token_or_a_whole_address(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    entrant = _entrants(tournament, cast["desk"])[1]
    url = checkin_url(entrant, tournament.slug, "http://192.168.1.20:8765/")
    assert url.startswith("http://192.168.1.20:8765/p/kyushu9/c/")
    assert token_of(url) == checkin_token(entrant)
    assert entrant_of_code(tournament, url) == entrant
    assert entrant_of_code(tournament, f"  {checkin_token(entrant)}\n") == entrant


@pytest.mark.parametrize("forge", ["other_entrant", "bad_signature", "garbage", "truncated"])
def test_a_forged_or_damaged_code_is_refused(tournament: Tournament, cast: dict[str, Any],
                                             forge: str) -> None:
    first, second, _third = _entrants(tournament, cast["desk"])
    token = checkin_token(first)
    value, signature = token.split(":", 1)
    code = {"other_entrant": f"{tournament.pk}.{second.pk}:{signature}",
            "bad_signature": f"{value}:{'A' * len(signature)}",
            "garbage": "https://example.com/some/page",
            "truncated": token[:-3]}[forge]
    with pytest.raises(CheckinCodeRefused):
        entrant_of_code(tournament, code)
    with pytest.raises(CheckinCodeRefused):
        entrant_check_in_by_code(tournament=tournament, code=code, by=cast["desk"])
    assert not Entrant.objects.filter(tournament=tournament, checked_in=True).exists()


def test_a_code_of_another_tournament_is_refused(tournament: Tournament,
                                                other_tournament: Tournament,
                                                cast: dict[str, Any]) -> None:
    mine = _entrants(tournament, cast["desk"], 1)[0]
    # Signed with the right key and salt, but for the other tournament's id.
    foreign = signing.Signer(salt=SALT).sign(f"{other_tournament.pk}.{mine.pk}")
    with pytest.raises(CheckinCodeRefused, match="別の大会"):
        entrant_of_code(tournament, foreign)


def test_one_scan_checks_in_through_the_desk_service_and_a_second_changes_nothing(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    entrant = _entrants(tournament, cast["desk"])[0]
    before = EntrantRevision.objects.filter(entrant=entrant).count()
    code = checkin_url(entrant, tournament.slug, "http://venue.local")
    checked, changed = entrant_check_in_by_code(tournament=tournament, code=code,
                                                by=cast["desk"])
    assert changed and checked.checked_in
    again, changed_again = entrant_check_in_by_code(tournament=tournament, code=code,
                                                    by=cast["desk"])
    assert not changed_again and again.checked_in
    # The desk's own check-in recorded it once, with who did it.
    revisions = EntrantRevision.objects.filter(entrant=entrant).order_by("id")
    assert revisions.count() == before + 1
    assert revisions.last().by == cast["desk"]


def test_the_desk_scan_field_says_checked_in_then_already_checked_in(
        tournament: Tournament, cast: dict[str, Any], clients: Any) -> None:
    entrant = _entrants(tournament, cast["desk"])[2]
    url = reverse("desk_scan", args=[tournament.slug])
    code = checkin_url(entrant, tournament.slug, "http://venue.local")
    first = clients["desk"].post(url, {"code": code}, HTTP_HX_REQUEST="true").content.decode()
    assert "を受付しました" in first and entrant.name in first and "alert-success" in first
    assert 'id="desk-counts"' in first  # the counts follow, out of band
    second = clients["desk"].post(url, {"code": code}, HTTP_HX_REQUEST="true").content.decode()
    assert "受付済みです" in second and "alert-info" in second
    forged = clients["desk"].post(url, {"code": code[:-2] + "zz"},
                                  HTTP_HX_REQUEST="true").content.decode()
    assert "alert-danger" in forged and "受付票のものではない" in forged
    empty = clients["desk"].post(url, {"code": "  "}, HTTP_HX_REQUEST="true").content.decode()
    assert "QRコードを読み取ってください" in empty
    assert Entrant.objects.filter(tournament=tournament, checked_in=True).count() == 1


def test_without_javascript_a_scan_comes_back_to_the_desk_with_a_message(
        tournament: Tournament, cast: dict[str, Any], clients: Any) -> None:
    entrant = _entrants(tournament, cast["desk"])[0]
    response = clients["desk"].post(reverse("desk_scan", args=[tournament.slug]),
                                    {"code": checkin_token(entrant)}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("desk", args=[tournament.slug])
    assert "を受付しました" in response.content.decode()


def test_the_code_opens_the_players_own_page_and_checks_nobody_in(
        tournament: Tournament, cast: dict[str, Any], clients: Any) -> None:
    entrant = _entrants(tournament, cast["desk"])[0]
    path = reverse("public_checkin_code", args=[tournament.slug, checkin_token(entrant)])
    response = clients["anonymous"].get(path)
    assert response.status_code == 302
    assert response["Location"] == reverse("public_player", args=[tournament.slug, entrant.pk])
    assert not Entrant.objects.get(pk=entrant.pk).checked_in
    forged = reverse("public_checkin_code", args=[tournament.slug, "1.2:forged"])
    assert clients["anonymous"].get(forged).status_code == 404


def test_the_entry_sheet_and_the_confirmation_slip_carry_the_code(
        tournament: Tournament, cast: dict[str, Any], clients: Any) -> None:
    entrants = _entrants(tournament, cast["desk"])
    docs = entrant_documents(tournament, base_url="http://venue.local:8765")
    for doc in docs.entrants:
        assert doc.checkin_url.startswith("http://venue.local:8765/p/kyushu9/c/")
        assert entrant_of_code(tournament, doc.checkin_url).pk == doc.id
    slip = clients["desk"].get(reverse("desk_entrant_qr", args=[tournament.slug,
                                                               entrants[0].pk]))
    body = slip.content.decode()
    assert slip.status_code == 200 and "<svg" in body and entrants[0].name in body
    assert checkin_token(entrants[0]) in body
