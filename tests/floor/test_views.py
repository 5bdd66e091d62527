"""The floor's pages and forms: refusals say why and record nothing, typed input is kept."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from brackets.models import CabinetSet, FloorFact, Group, Round, TimetableEntry, Tournament
from brackets.services import floor as floor_svc

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_sets(round_1_running: Tournament, cast: dict[str, Any]) -> tuple[Round, CabinetSet,
                                                                         CabinetSet]:
    rnd = Round.objects.get(tournament=round_1_running, number=1)
    a = floor_svc.cabinet_set_add(tournament=round_1_running, name="A台", by=cast["organiser"])
    b = floor_svc.cabinet_set_add(tournament=round_1_running, name="B台", by=cast["organiser"])
    return rnd, a, b


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_a_call_to_a_set_out_of_service_is_refused_with_the_reason(
        two_sets: tuple[Round, CabinetSet, CabinetSet], clients: dict[str, Any],
        cast: dict[str, Any]) -> None:
    rnd, a, _b = two_sets
    floor_svc.cabinet_set_service(cabinet_set=a, in_service=False, by=cast["organiser"])
    group = Group.objects.filter(round=rnd).first()
    before = FloorFact.objects.count()
    response = clients["bracket"].post(
        reverse("floor_call", args=[rnd.tournament.slug, rnd.number]),
        {"group": group.id, "cabinet_set": a.id}, follow=True)
    assert "A台は停止中です。別の台に呼ぶか、台を再開してください。" in messages_of(response)
    assert FloorFact.objects.count() == before


def test_a_group_of_another_round_or_a_foreign_set_is_refused(
        two_sets: tuple[Round, CabinetSet, CabinetSet], clients: dict[str, Any]) -> None:
    rnd, _a, _b = two_sets
    url = reverse("floor_call", args=[rnd.tournament.slug, rnd.number])
    response = clients["bracket"].post(url, {"group": 999999, "cabinet_set": 999999},
                                       follow=True)
    texts = messages_of(response)
    assert "その組はこの回戦にありません。" in texts and "その台はこの大会にありません。" in texts
    assert not FloorFact.objects.filter(kind="call").exists()


def test_two_sets_with_one_name_keep_what_was_typed(
        two_sets: tuple[Round, CabinetSet, CabinetSet], clients: dict[str, Any]) -> None:
    rnd, _a, _b = two_sets
    response = clients["organiser"].post(
        reverse("floor_set_add", args=[rnd.tournament.slug]), {"name": "  A台 "})
    assert response.status_code == 400
    html = response.content.decode()
    assert "「A台」という台は既にあります。別の名前にしてください。" in html
    assert 'value="  A台 "' in html
    assert CabinetSet.objects.filter(tournament=rnd.tournament).count() == 2


def test_a_bad_planned_start_is_refused_and_a_good_one_shows_on_the_floor(
        two_sets: tuple[Round, CabinetSet, CabinetSet], clients: dict[str, Any]) -> None:
    rnd, _a, _b = two_sets
    url = reverse("floor_planned_start", args=[rnd.tournament.slug, rnd.number])
    bad = clients["organiser"].post(url, {"planned": "午後1時"})
    assert bad.status_code == 400
    assert "開始予定は「2026-12-02 13:00」の形で入力してください。" in bad.content.decode()
    assert not TimetableEntry.objects.filter(tournament=rnd.tournament).exists()
    clients["organiser"].post(url, {"planned": "2026-12-02T13:00"})
    page = clients["organiser"].get(reverse("floor_page", args=[rnd.tournament.slug]))
    assert "13:00" in page.content.decode()


def test_a_no_show_without_a_choice_is_recorded_for_the_organiser_to_decide(
        two_sets: tuple[Round, CabinetSet, CabinetSet], clients: dict[str, Any],
        cast: dict[str, Any]) -> None:
    rnd, a, _b = two_sets
    group = Group.objects.filter(round=rnd).order_by("number").first()
    floor_svc.floor_call(group=group, cabinet_set=a, by=cast["organiser"])
    seat = group.seats.filter(entrant__isnull=False).first()
    clients["bracket"].post(reverse("floor_no_show", args=[rnd.tournament.slug, rnd.number]),
                            {"group": group.id, "entrant": seat.entrant_id})
    fact = FloorFact.objects.get(kind="no_show")
    assert fact.data == {"action": "decide"} and fact.by == cast["bracket"]


def test_the_tablet_opens_the_called_groups_match_page(
        two_sets: tuple[Round, CabinetSet, CabinetSet], clients: dict[str, Any],
        cast: dict[str, Any]) -> None:
    rnd, a, _b = two_sets
    url = reverse("floor_tablet", args=[rnd.tournament.slug, a.id])
    assert clients["bracket"].get(url).status_code == 200
    group = Group.objects.filter(round=rnd).order_by("number").first()
    floor_svc.floor_call(group=group, cabinet_set=a, by=cast["organiser"])
    response = clients["bracket"].get(url)
    assert response.status_code == 302
    assert response["Location"] == (reverse("match_page", args=[rnd.tournament.slug, group.id])
                                    + f"?set={a.id}")
