"""Releasing the draw (issue 15 item 4): private to staff until the organiser releases it."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from brackets.hosted.payload import tournament_snapshot
from brackets.models import Group, Round, Seat, Tournament
from brackets.services import rounds as svc
from brackets.services.draw_release import round_draw_release
from tests.states import register_entrants, results_won_by

pytestmark = pytest.mark.django_db


def _drawn(tournament: Tournament, user: Any) -> tuple[Round, Group]:
    register_entrants(tournament, user, 12)
    rounds = svc.rounds_configure(tournament=tournament, by=user)
    rnd = svc.round_draw(round=rounds[0], by=user)
    rnd.refresh_from_db()
    return rnd, Group.objects.filter(round=rnd).order_by("number").first()


def _seated(group: Group) -> Seat:
    return Seat.objects.filter(group=group, entrant__isnull=False).order_by("number").first()


def _public_urls(tournament: Tournament, seat: Seat) -> list[str]:
    slug = tournament.slug
    return [reverse("public_round", args=[slug, 1]), reverse("public_round_live", args=[slug, 1]),
            reverse("public_projector", args=[slug, 1]), reverse("public_bracket", args=[slug]),
            reverse("public_player", args=[slug, seat.entrant_id])]


def test_a_new_draw_is_private_on_every_public_page(tournament: Tournament, cast: dict[str, Any],
                                                    clients: Any) -> None:
    rnd, group = _drawn(tournament, cast["organiser"])
    seat = _seated(group)
    assert rnd.draw_private and not rnd.draw_public
    for url in _public_urls(tournament, seat):
        body = clients["anonymous"].get(url).content.decode()
        assert "抽選済・公開前" in body, url
        assert "bracket-box" not in body and "proj-group" not in body and "group-card" not in body, url
    player = clients["anonymous"].get(_public_urls(tournament, seat)[-1]).content.decode()
    assert "サテ" not in player.split('id="games"', 1)[1].split("</table>", 1)[0]


def test_staff_see_the_groups_and_may_print_before_the_release(
        tournament: Tournament, cast: dict[str, Any], clients: Any) -> None:
    _rnd, group = _drawn(tournament, cast["organiser"])
    page = clients["organiser"].get(reverse("round_detail", args=[tournament.slug, 1]))
    body = page.content.decode()
    assert group.label in body and 'id="release-draw"' in body and "抽選済・公開前" in body
    sheet = clients["organiser"].get(reverse("document_download",
                                             args=[tournament.slug, "group-table"]) + "?round=1")
    assert sheet.status_code == 200 and sheet["Content-Type"] == "application/pdf"
    # The button is the organiser's: bracket staff see the state, not the button.
    bracket = clients["bracket"].get(reverse("round_detail", args=[tournament.slug, 1]))
    assert "抽選済・公開前" in bracket.content.decode()
    assert 'id="release-draw"' not in bracket.content.decode()


def test_the_release_shows_the_groups_at_once_through_the_page_cache(
        tournament: Tournament, cast: dict[str, Any], clients: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    rnd, group = _drawn(tournament, cast["organiser"])
    seat = _seated(group)
    urls = _public_urls(tournament, seat)
    for url in urls:  # fill the cache with the private pages
        assert "抽選済・公開前" in clients["anonymous"].get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # the release is committed
        response = clients["organiser"].post(reverse("round_release",
                                                     args=[tournament.slug, 1]))
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert rnd.draw_public and rnd.draw_released_by == cast["organiser"]
    assert rnd.draw_released_at is not None
    name = seat.entrant.name
    for url in urls:
        body = clients["anonymous"].get(url).content.decode()
        assert "抽選済・公開前" not in body, url
        assert name in body, url


def test_a_second_release_is_refused_and_changes_nothing(tournament: Tournament,
                                                        cast: dict[str, Any]) -> None:
    rnd, _group = _drawn(tournament, cast["organiser"])
    released = round_draw_release(round=rnd, by=cast["organiser"])
    with pytest.raises(svc.RoundError, match="公開済み"):
        round_draw_release(round=rnd, by=cast["bracket"])
    rnd.refresh_from_db()
    assert rnd.draw_released_at == released.draw_released_at
    assert rnd.draw_released_by == cast["organiser"]


def test_an_undrawn_round_cannot_be_released(tournament: Tournament, cast: dict[str, Any]) -> None:
    register_entrants(tournament, cast["organiser"], 12)
    rounds = svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    with pytest.raises(svc.RoundError, match="まだ抽選していません"):
        round_draw_release(round=rounds[0], by=cast["organiser"])
    assert Round.objects.get(id=rounds[0].id).draw_released_at is None


def test_undoing_the_draw_makes_the_next_draw_private_again(tournament: Tournament,
                                                           cast: dict[str, Any]) -> None:
    rnd, _group = _drawn(tournament, cast["organiser"])
    round_draw_release(round=rnd, by=cast["organiser"])
    svc.round_undo(round=rnd, by=cast["organiser"])
    rnd = svc.round_draw(round=Round.objects.get(id=rnd.id), by=cast["organiser"])
    rnd.refresh_from_db()
    assert rnd.draw_private


def test_starting_the_round_releases_a_draw_left_private(tournament: Tournament,
                                                        cast: dict[str, Any]) -> None:
    rnd, _group = _drawn(tournament, cast["organiser"])
    svc.round_start(round=rnd, by=cast["bracket"])
    rnd.refresh_from_db()
    assert rnd.draw_public and rnd.draw_released_by == cast["bracket"]


def test_the_public_copy_push_carries_no_group_of_a_private_draw(tournament: Tournament,
                                                                 cast: dict[str, Any]) -> None:
    rnd, _group = _drawn(tournament, cast["organiser"])
    data, ids = tournament_snapshot(tournament)
    records = data["records"]
    assert "group" not in records and "seat" not in records
    assert all(len(ids[key]) == len(rows) for key, rows in records.items())
    draw_steps = [s for s in records["roundstep"] if s["action"] == "draw"]
    assert draw_steps and all("groups" not in s["data"] for s in draw_steps)
    assert [r["status"] for r in records["round"] if r["number"] == 1] == ["drawn"]
    round_draw_release(round=rnd, by=cast["organiser"])
    data, ids = tournament_snapshot(tournament)
    assert len(data["records"]["group"]) == Group.objects.filter(round=rnd).count()
    assert len(data["records"]["seat"]) == len(ids["seat"]) == Seat.objects.filter(
        group__round=rnd).count()


def test_the_first_result_of_a_private_draw_releases_it(tournament: Tournament,
                                                       cast: dict[str, Any]) -> None:
    # A drawn round takes input at once (no 開始): a match played at the cabinets is no
    # secret, so its first save releases the draw, recorded as that staff member's.
    rnd, group = _drawn(tournament, cast["organiser"])
    winner = _seated(group).entrant_id
    results_won_by(group, cast["bracket"], winner)
    rnd.refresh_from_db()
    assert rnd.draw_public and rnd.draw_released_by == cast["bracket"]
    first = rnd.draw_released_at
    results_won_by(Group.objects.filter(round=rnd).order_by("number")[1], cast["organiser"],
                   Seat.objects.filter(group__round=rnd, group__number=2,
                                       entrant__isnull=False).first().entrant_id)
    rnd.refresh_from_db()
    assert (rnd.draw_released_at, rnd.draw_released_by) == (first, cast["bracket"])


def test_a_refused_result_leaves_the_draw_private(tournament: Tournament,
                                                 cast: dict[str, Any]) -> None:
    rnd, group = _drawn(tournament, cast["organiser"])
    seats = list(Seat.objects.filter(group=group, entrant__isnull=False).order_by("number"))
    places = [1, 1, 2, 3]  # no result screen shows this shape (H9)
    rows = {s.number: (str(300 - 20 * i), places[i]) for i, s in enumerate(seats)}
    with pytest.raises(svc.RoundError):
        svc.results_save(group=group, by=cast["bracket"], rows=rows)
    rnd.refresh_from_db()
    assert rnd.draw_private
