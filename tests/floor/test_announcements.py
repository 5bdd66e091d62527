"""Announcements and the timetable (issue 15 item 6)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from brackets.models import Announcement, TimetableEntry, Tournament
from brackets.selectors.timetable import (
    RECEPTION,
    active_announcements,
    round_slot,
    timetable_slots,
)
from brackets.services import rounds as svc
from brackets.services.announcements import announcement_post, announcement_withdraw
from brackets.services.timetable import timetable_set
from tests.states import register_entrants

pytestmark = pytest.mark.django_db


def _round_1_drawn(tournament: Tournament, user: Any) -> None:
    register_entrants(tournament, user, 12)
    rounds = svc.rounds_configure(tournament=tournament, by=user)
    svc.round_draw(round=rounds[0], by=user)
    svc.round_start(round=rounds[0], by=user)


def test_an_announcement_shows_on_the_home_projector_and_player_pages_until_withdrawn(
        tournament: Tournament, cast: dict[str, Any], clients: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    _round_1_drawn(tournament, cast["organiser"])
    player = tournament.entrants.order_by("id").first()
    urls = [reverse("public_tournament", args=[tournament.slug]),
            reverse("public_projector", args=[tournament.slug, 1]),
            reverse("public_player", args=[tournament.slug, player.pk])]
    for url in urls:  # cached before the announcement
        assert 'id="announcements"' not in clients["anonymous"].get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = clients["organiser"].post(reverse("announcements", args=[tournament.slug]),
                                             {"text": "15:00まで休憩です。2回戦は15:10開始。"})
    assert response.status_code == 302
    for url in urls:
        body = clients["anonymous"].get(url).content.decode()
        assert "15:00まで休憩です。2回戦は15:10開始。" in body, url
    announcement = Announcement.objects.get(tournament=tournament)
    with django_capture_on_commit_callbacks(execute=True):
        clients["organiser"].post(reverse("announcement_withdraw",
                                          args=[tournament.slug, announcement.pk]))
    for url in urls:
        assert "15:00まで休憩" not in clients["anonymous"].get(url).content.decode(), url
    # Withdrawn, not deleted: who posted and who withdrew it stay on the organiser's list.
    announcement.refresh_from_db()
    assert announcement.withdrawn_by == cast["organiser"]
    assert announcement.posted_by == cast["organiser"]
    listing = clients["organiser"].get(reverse("announcements", args=[tournament.slug]))
    assert "<s>15:00まで休憩です。2回戦は15:10開始。</s>" in listing.content.decode()


def test_a_second_withdrawal_changes_nothing(tournament: Tournament,
                                            cast: dict[str, Any]) -> None:
    posted = announcement_post(tournament=tournament, by=cast["organiser"], text="ルール補足")
    first, changed = announcement_withdraw(tournament=tournament, announcement_id=posted.pk,
                                           by=cast["organiser"])
    again, changed_again = announcement_withdraw(tournament=tournament,
                                                 announcement_id=posted.pk, by=cast["admin"])
    assert changed and not changed_again
    assert again.withdrawn_at == first.withdrawn_at and again.withdrawn_by == cast["organiser"]
    assert active_announcements(tournament) == []


@pytest.mark.parametrize("text, error", [("   ", "本文を入力"), ("あ" * 201, "200文字まで")])
def test_an_empty_or_too_long_announcement_is_refused_with_the_text_kept(
        tournament: Tournament, clients: Any, text: str, error: str) -> None:
    response = clients["organiser"].post(reverse("announcements", args=[tournament.slug]),
                                         {"text": text})
    body = response.content.decode()
    assert response.status_code == 422 and error in body
    if text.strip():
        assert text in body  # what was typed is still in the field
    assert not Announcement.objects.exists()
    with pytest.raises(ValidationError):
        announcement_post(tournament=tournament, by=None, text=text)


def test_the_timetable_lists_reception_and_the_rounds_with_a_place_for_the_estimate(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    slots = timetable_slots(tournament, {})  # before the rounds exist: the preset's plan
    assert slots[0].key == RECEPTION and slots[1].key == round_slot(1)
    assert all(s.planned is None and s.estimate is None for s in slots)
    timetable_set(tournament=tournament, by=cast["organiser"],
                  times={RECEPTION: datetime.time(10, 0), round_slot(1): datetime.time(11, 0)})
    estimates = {round_slot(1): datetime.time(11, 25)}
    by_key = {s.key: s for s in timetable_slots(tournament, estimates=estimates)}
    assert by_key[RECEPTION].planned == datetime.time(10, 0)
    assert by_key[round_slot(1)].late_minutes == 25


def test_a_changed_time_is_a_new_record_and_an_unchanged_one_records_nothing(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    timetable_set(tournament=tournament, by=cast["organiser"],
                  times={RECEPTION: datetime.time(10, 0)})
    assert timetable_set(tournament=tournament, by=cast["organiser"],
                         times={RECEPTION: datetime.time(10, 0)}) == []
    timetable_set(tournament=tournament, by=cast["organiser"],
                  times={RECEPTION: datetime.time(10, 15)})
    rows = list(TimetableEntry.objects.filter(slot=RECEPTION).order_by("id")
                .values_list("planned", flat=True))
    assert rows == [datetime.time(10, 0), datetime.time(10, 15)]
    with pytest.raises(ValidationError, match="タイムテーブルにない項目"):
        timetable_set(tournament=tournament, by=None, times={"round-99": datetime.time(9)})


def test_the_timetable_form_refuses_a_bad_time_and_keeps_the_others(
        tournament: Tournament, clients: Any) -> None:
    url = reverse("timetable", args=[tournament.slug])
    response = clients["organiser"].post(url, {RECEPTION: "10:00", round_slot(1): "25時"})
    body = response.content.decode()
    assert response.status_code == 422 and "13:30 のように" in body and 'value="10:00"' in body
    assert not TimetableEntry.objects.exists()
    clients["organiser"].post(url, {RECEPTION: "10:00", round_slot(1): "11:30"})
    public = clients["anonymous"].get(reverse("public_timetable", args=[tournament.slug]))
    text = public.content.decode()
    assert "受付開始" in text and "10:00" in text and "11:30" in text


def test_the_same_announcement_twice_is_refused_while_the_first_is_in_force(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    first = announcement_post(tournament=tournament, by=cast["organiser"], text="休憩 15:00まで")
    with pytest.raises(ValidationError, match="同じお知らせが掲示中"):
        announcement_post(tournament=tournament, by=cast["organiser"], text=" 休憩  15:00まで ")
    announcement_withdraw(tournament=tournament, announcement_id=first.pk, by=None)
    again = announcement_post(tournament=tournament, by=cast["organiser"], text="休憩 15:00まで")
    assert [a.pk for a in active_announcements(tournament)] == [again.pk]
