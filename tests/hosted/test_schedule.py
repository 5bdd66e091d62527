"""The pusher's timing rules (brackets/hosted/schedule.py), on a clock the test moves."""

from __future__ import annotations

from brackets.hosted.schedule import PushSchedule


def schedule() -> PushSchedule:
    return PushSchedule(debounce=0.5, max_wait=2.0, first_backoff=1.0, max_backoff=8.0)


def test_a_burst_of_changes_is_one_push_once_the_burst_stops() -> None:
    plan = schedule()
    for t in (0.0, 0.1, 0.2, 0.3):
        plan.changed(7, t)
        assert plan.due(t) == []
    assert plan.due(0.79) == []
    assert plan.due(0.8) == [7]
    assert plan.next_due() == 0.8


def test_a_tournament_that_never_goes_quiet_is_pushed_after_max_wait() -> None:
    plan = schedule()
    t = 0.0
    while t < 2.0:
        plan.changed(7, t)
        assert plan.due(t) == []
        t += 0.25
    assert plan.due(2.0) == [7]


def test_a_pushed_tournament_is_no_longer_due() -> None:
    plan = schedule()
    plan.changed(7, 0.0)
    plan.pushed(7, started=1.0)
    assert plan.due(100.0) == []
    assert plan.next_due() is None


def test_a_change_during_the_push_stays_pending() -> None:
    plan = schedule()
    plan.changed(7, 0.0)
    plan.changed(7, 1.2)  # committed after the push that began at 1.0 read its snapshot
    plan.pushed(7, started=1.0)
    assert plan.waiting() == [7]
    assert plan.due(1.69) == []
    assert plan.due(1.7) == [7]


def test_failures_back_off_doubling_up_to_the_cap() -> None:
    plan = schedule()
    plan.changed(7, 0.0)
    delays = [plan.failed(7, now) for now in (1.0, 2.0, 4.0, 8.0, 16.0, 24.0)]
    assert delays == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    assert plan.due(31.9) == []
    assert plan.due(32.0) == [7]


def test_a_change_while_the_link_is_down_does_not_bring_the_retry_forward() -> None:
    plan = schedule()
    plan.changed(7, 0.0)
    plan.failed(7, 1.0)
    plan.failed(7, 2.0)  # next try at 4.0
    plan.changed(7, 2.5)
    assert plan.due(3.5) == []
    assert plan.due(4.0) == [7]


def test_success_after_failures_starts_the_backoff_afresh() -> None:
    plan = schedule()
    plan.changed(7, 0.0)
    plan.failed(7, 1.0)
    plan.failed(7, 2.0)
    plan.pushed(7, started=4.0)
    plan.changed(7, 5.0)
    assert plan.failed(7, 6.0) == 1.0


def test_oldest_change_is_pushed_first() -> None:
    plan = schedule()
    plan.changed(9, 0.0)
    plan.changed(3, 0.1)
    assert plan.due(5.0) == [9, 3]


def test_an_expensive_push_spaces_out_the_next_one() -> None:
    plan = schedule()  # duty 0.2: a push of 0.4 s waits 2 s before the next
    plan.changed(7, 0.0)
    plan.pushed(7, started=1.0, cost=0.4)
    plan.changed(7, 1.5)
    assert plan.due(2.0) == []
    assert plan.due(3.39) == []
    assert plan.due(3.4) == [7]
