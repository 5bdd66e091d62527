"""When the pusher sends what: debounce, a cap on the wait, and backoff while the link is down.

Pure timing with the clock passed in, so the rules are tested without waiting. Times are
seconds on a monotonic clock.

- A change starts a quiet period of ``debounce``: a burst of saves (a whole result sheet,
  a run of buzzer taps) becomes one push once the burst stops.
- A tournament that never goes quiet (taps every half second) is still pushed
  ``max_wait`` after its first unpushed change, so the copy's scoreboard keeps moving.
- A push costs the venue's CPU (the whole tournament is exported), so after a push that
  took ``cost`` seconds the next one of that tournament waits at least ``cost / duty``:
  the pusher never takes more than ``duty`` of a core away from the staff's requests.
- A failed push is tried again after 1, 2, 4 … seconds up to ``max_backoff``; a change
  meanwhile does not bring the retry forward, so a venue offline for an hour does not
  hammer the link, and the retry sends the state of that moment, not the one that failed.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class _Pending:
    first_change: float
    last_change: float
    retry_at: float | None = None
    failures: int = 0


@dataclass
class PushSchedule:
    """Which tournaments are due for a push, per the rules above."""

    debounce: float = 0.5
    max_wait: float = 2.0
    first_backoff: float = 1.0
    max_backoff: float = 60.0
    duty: float = 0.2
    _pending: dict[int, _Pending] = field(default_factory=dict)
    _not_before: dict[int, float] = field(default_factory=dict)

    def changed(self, tournament_id: int, now: float) -> None:
        """Something of the tournament was committed at ``now``."""
        entry = self._pending.get(tournament_id)
        if entry is None:
            self._pending[tournament_id] = _Pending(first_change=now, last_change=now)
        else:
            entry.last_change = now

    def _due_at(self, tournament_id: int, entry: _Pending) -> float:
        if entry.retry_at is not None:
            return entry.retry_at
        quiet = min(entry.last_change + self.debounce, entry.first_change + self.max_wait)
        return max(quiet, self._not_before.get(tournament_id, quiet))

    def due(self, now: float) -> list[int]:
        """Tournaments to push now, oldest change first."""
        ready = [(entry.first_change, tid) for tid, entry in self._pending.items()
                 if self._due_at(tid, entry) <= now]
        return [tid for _first, tid in sorted(ready)]

    def next_due(self) -> float | None:
        """When the next push falls due, or None when nothing waits."""
        if not self._pending:
            return None
        return min(self._due_at(tid, entry) for tid, entry in self._pending.items())

    def pushed(self, tournament_id: int, started: float, *, cost: float = 0.0) -> None:
        """The push that began at ``started`` and took ``cost`` seconds of the venue's CPU to
        prepare reached the copy, or had nothing new to send. A change committed after it
        began may not be in what was sent, so it stays pending."""
        if self.duty > 0:
            self._not_before[tournament_id] = started + cost + cost / self.duty
        entry = self._pending.get(tournament_id)
        if entry is None:
            return
        if entry.last_change < started:
            del self._pending[tournament_id]
        else:
            entry.first_change = started
            entry.retry_at = None
            entry.failures = 0

    def failed(self, tournament_id: int, now: float) -> float:
        """The push did not reach the copy; returns the delay before the next try."""
        entry = self._pending.setdefault(tournament_id, _Pending(now, now))
        entry.failures += 1
        delay: float = min(self.first_backoff * 2.0 ** (entry.failures - 1), self.max_backoff)
        entry.retry_at = now + delay
        return delay

    def waiting(self) -> list[int]:
        return sorted(self._pending)
