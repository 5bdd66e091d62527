"""The venue's pusher (brackets/hosted/pusher.py): what it sends, when, and how a down link
is retried. The clock is the test's and sending is captured, so nothing waits."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import PublicCopyPush
from brackets.hosted.payload import decode
from brackets.hosted.pusher import Prepared, PushConfig, Pusher, PushFailed, connect, disconnect
from brackets.models import Tournament
from brackets.services.entrants import entrant_register
from tests import states

CONFIG = PushConfig(url="http://copy.invalid/", token="t" * 20, debounce=0.5, max_wait=2.0)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Link:
    """The copy as the pusher sees it: records every body, or fails while ``down``."""

    def __init__(self) -> None:
        self.down = False
        self.received: list[dict[str, Any]] = []

    def __call__(self, prepared: Prepared, config: PushConfig) -> None:
        if self.down:
            raise PushFailed("公開コピーにつながりません：Connection refused")
        self.received.append(decode(prepared.body, max_bytes=10**8))


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def link() -> Link:
    return Link()


@pytest.fixture
def pusher(clock: Clock, link: Link) -> Pusher:
    return Pusher(CONFIG, clock=clock, send=link)


def entrant_names(envelope: dict[str, Any]) -> list[str]:
    return [row["name"] for row in envelope["file"]["records"].get("entrant", [])]


def test_a_change_is_pushed_once_the_debounce_has_passed(
        entry_open: Tournament, cast: dict[str, Any], pusher: Pusher, clock: Clock,
        link: Link) -> None:
    pusher.changed(entry_open.pk)
    assert pusher.flush_due() == {}
    clock.now += 0.5
    assert pusher.flush_due() == {entry_open.pk: "sent"}
    [envelope] = link.received
    assert envelope["slug"] == entry_open.slug and envelope["sequence"] == 1
    assert len(entrant_names(envelope)) == 20
    state = PublicCopyPush.objects.get(tournament=entry_open)
    assert (state.sequence, state.acknowledged, state.error) == (1, 1, "")


def test_an_unchanged_tournament_is_not_sent_again(
        entry_open: Tournament, pusher: Pusher, link: Link) -> None:
    assert pusher.flush(entry_open.pk) == "sent"
    assert pusher.flush(entry_open.pk) == "current"
    assert len(link.received) == 1


def test_each_new_state_gets_the_next_number(
        entry_open: Tournament, cast: dict[str, Any], pusher: Pusher, link: Link) -> None:
    pusher.flush(entry_open.pk)
    entrant_register(tournament=entry_open, by=cast["desk"],
                     data={"name": "遅刻太郎", "card_name": "チコク", "q_level": 50})
    pusher.flush(entry_open.pk)
    assert [e["sequence"] for e in link.received] == [1, 2]
    assert "遅刻太郎" in entrant_names(link.received[1])


def test_a_down_link_is_retried_with_backoff_and_then_sends_the_latest_state(
        entry_open: Tournament, cast: dict[str, Any], pusher: Pusher, clock: Clock,
        link: Link) -> None:
    link.down = True
    pusher.changed(entry_open.pk)
    clock.now += 1
    assert pusher.flush_due() == {entry_open.pk: "failed"}
    state = PublicCopyPush.objects.get(tournament=entry_open)
    assert "つながりません" in state.error and state.acknowledged == 0
    clock.now += 0.9
    assert pusher.flush_due() == {}  # the first retry waits 1 s
    clock.now += 0.1
    assert pusher.flush_due() == {entry_open.pk: "failed"}
    entrant_register(tournament=entry_open, by=cast["desk"],
                     data={"name": "遅刻太郎", "card_name": "チコク", "q_level": 50})
    pusher.changed(entry_open.pk)
    clock.now += 1.9
    assert pusher.flush_due() == {}  # the second waits 2 s, change or not
    link.down = False
    clock.now += 0.1
    assert pusher.flush_due() == {entry_open.pk: "sent"}
    [envelope] = link.received
    assert "遅刻太郎" in entrant_names(envelope)
    state.refresh_from_db()
    assert state.error == "" and state.acknowledged == state.sequence
    assert pusher.schedule.waiting() == []


def test_what_the_public_never_sees_stays_at_the_venue(
        entry_open: Tournament, cast: dict[str, Any], pusher: Pusher, link: Link) -> None:
    entrant_register(tournament=entry_open, by=cast["desk"],
                     data={"name": "秘密花子", "card_name": "ヒミツ", "q_level": 50,
                           "notes": "電話 090-0000-0000"})
    pusher.flush(entry_open.pk)
    [envelope] = link.received
    records = envelope["file"]["records"]
    assert "entrantrevision" not in records and "entrantimport" not in records
    assert {row["notes"] for row in records["entrant"]} == {""}
    assert envelope["file"]["staff"] == []


def test_the_envelope_names_each_record_by_its_venue_id(
        entry_open: Tournament, pusher: Pusher, link: Link) -> None:
    pusher.flush(entry_open.pk)
    [envelope] = link.received
    assert envelope["ids"]["entrant"] == list(
        entry_open.entrants.order_by("pk").values_list("pk", flat=True))


def test_a_committed_save_schedules_the_tournament(
        entry_open: Tournament, cast: dict[str, Any], pusher: Pusher,
        django_capture_on_commit_callbacks: Any) -> None:
    connect(pusher)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            entrant_register(tournament=entry_open, by=cast["desk"],
                             data={"name": "遅刻太郎", "card_name": "チコク", "q_level": 50})
    finally:
        disconnect()
    assert pusher.schedule.waiting() == [entry_open.pk]


def test_a_buzzer_tap_schedules_the_tournament_and_travels_in_the_push(
        tournament: Tournament, cast: dict[str, Any], pusher: Pusher, link: Link,
        django_capture_on_commit_callbacks: Any) -> None:
    round_ = states.buzzer_round_running(tournament, cast["organiser"])
    connect(pusher)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            from brackets.services.buzzer import buzzer_event_append

            buzzer_event_append(round=round_, data={"kind": "correct", "player": "s3"},
                                expected_seq=4, by=cast["organiser"])
    finally:
        disconnect()
    assert pusher.schedule.waiting() == [tournament.pk]
    pusher.flush(tournament.pk)
    events = link.received[0]["file"]["records"]["buzzerevent"]
    assert [e["data"].get("player") for e in events][-1] == "s3"


def test_the_sweep_schedules_every_tournament_first_then_only_those_whose_revision_moved(
        entry_open: Tournament, other_tournament: Tournament, cast: dict[str, Any],
        pusher: Pusher, clock: Clock) -> None:
    pusher.sweep()
    assert set(pusher.schedule.waiting()) == {entry_open.pk, other_tournament.pk}
    clock.now += 1
    pusher.flush(entry_open.pk)
    pusher.flush(other_tournament.pk)
    pusher.sweep()
    assert pusher.schedule.waiting() == []
    entrant_register(tournament=entry_open, by=cast["desk"],
                     data={"name": "遅刻太郎", "card_name": "チコク", "q_level": 50})
    pusher.sweep()
    assert pusher.schedule.waiting() == [entry_open.pk]


def test_a_restarted_pusher_sends_each_tournament_once_although_the_copy_had_it(
        entry_open: Tournament, clock: Clock, link: Link) -> None:
    before = Pusher(CONFIG, clock=clock, send=link)
    assert before.flush(entry_open.pk) == "sent"
    after = Pusher(CONFIG, clock=clock, send=link)  # the venue server started again
    after.sweep()
    clock.now += 5
    assert after.flush_due()[entry_open.pk] == "sent"
    mine = [e["sequence"] for e in link.received if e["slug"] == entry_open.slug]
    assert mine == [1, 1]  # the same number: the copy ignores it unless it lost the first
    assert after.flush(entry_open.pk) == "current"
