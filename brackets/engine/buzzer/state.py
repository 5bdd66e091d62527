"""The state of a round: derived from the event log, never stored.

Everything here is a frozen value, so a replayed state can be compared with ``==`` and
shared between requests. ``RoundState.previous`` links to the state before the last event,
which is how :class:`~brackets.engine.buzzer.events.Undo` works without replaying.

Values only: this module imports nothing of the engine but the round's configuration, so
every other module may build on it. The scoreboard's JSON is
:mod:`brackets.engine.buzzer.scoreboard`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from brackets.engine.buzzer.config import RoundConfig

ACTIVE = "active"
WON = "won"
OUT = "out"
LOCKED = "locked"

PLAYING = "playing"
DECIDING = "deciding"
OVER = "over"


@dataclass(frozen=True)
class PlayerState:
    """One player in one round.

    ``correct`` is the ○ count including any ○ advantage; ``wrong`` the × marks (Swedish10
    adds several per miss); ``misses`` the wrong answers themselves; ``points`` the score of
    the rule in use (10by10: correct × (10 − wrong)). ``streak`` is the 連答 right (M2).
    ``status`` is active / won / out / locked (locked = may not answer, still ranked, L7).
    """

    id: str
    seat: int
    rank: int
    advantage: int = 0
    correct: int = 0
    wrong: int = 0
    misses: int = 0
    points: int = 0
    rests: int = 0
    streak: bool = False
    status: str = ACTIVE
    win_order: int | None = None
    out_order: int | None = None
    board_correct: int = 0
    sets: int = 0
    first_miss: int | None = None
    last_correct_seq: int | None = None

    def evolve(self, **changes: Any) -> PlayerState:
        """A copy with ``changes``: ``dataclasses.replace`` without its per-call overhead.

        Written rounds update a thousand players per question, and ``replace`` (a full
        ``__init__`` per call) would be most of the replay time.
        """
        unknown = changes.keys() - _PLAYER_FIELDS
        if unknown:
            raise TypeError(f"PlayerState has no field {min(unknown)!r}")
        new = object.__new__(PlayerState)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    @property
    def resting(self) -> bool:
        """Sitting out questions (N休, Freeze10)."""
        return self.rests > 0

    @property
    def in_play(self) -> bool:
        """Still competing for a place (active or locked-but-ranked)."""
        return self.status in (ACTIVE, LOCKED)


_PLAYER_FIELDS = frozenset(f.name for f in fields(PlayerState))


@dataclass(frozen=True)
class Clock:
    """The round clock as last reported by clock events (the web layer ticks the display)."""

    limit_ms: int | None = None
    elapsed_ms: int = 0
    running: bool = False
    expired: bool = False
    last_question: bool = False


@dataclass(frozen=True)
class Decision:
    """A sudden death / playoff the rules require before the round can close (L11).

    ``side`` is ``"win"`` (who advances), ``"loss"`` (who is eliminated) or ``"both"`` (one
    tie straddles both lines). ``places`` is how many of ``candidates`` fall on the better
    side of the line (for ``"both"``: those advancing; ``out_places`` are eliminated).
    """

    side: str
    candidates: tuple[str, ...]
    places: int
    out_places: int = 0
    order: tuple[str, ...] | None = None


@dataclass(frozen=True)
class RankEntry:
    """A row of the current ranking; ``tied`` marks a tie broken only by fallback rank."""

    position: int
    player: str
    status: str
    tied: bool = False


@dataclass(frozen=True)
class RoundState:
    """A round after some events.

    ``question`` counts closed questions; ``open_wrongs`` are players who already missed the
    question in play. ``winners`` and ``outs`` are in the order it happened (judged outs are
    appended worst first, so later in ``outs`` always means ranked higher). When judging
    needs a sudden death, ``phase`` is ``"deciding"`` and ``decisions`` say which.
    ``continuing`` are players neither winning nor out when a set ends (L7, M5).
    """

    config: RoundConfig
    players: dict[str, PlayerState]
    seat_order: tuple[str, ...]
    phase: str = PLAYING
    question: int = 0
    open_wrongs: frozenset[str] = frozenset()
    correct_questions: frozenset[int] = frozenset()
    clock: Clock = Clock()
    winners: tuple[str, ...] = ()
    outs: tuple[str, ...] = ()
    continuing: tuple[str, ...] = ()
    decisions: tuple[Decision, ...] = ()
    judged: tuple[tuple[str, ...], ...] = ()
    end_reason: str | None = None
    seq: int = 0
    # File positions of thrown-out questions (brackets.engine.buzzer.questions): the
    # replacement of one is the next unused question of the question file.
    thrown: tuple[int, ...] = ()
    previous: RoundState | None = field(default=None, compare=False, repr=False)
    # The plain events in effect (no undo, no protest), oldest first: a protest rewrites
    # them and replays the round from its start (brackets.engine.buzzer.protests).
    played: tuple[Any, ...] = field(default=(), compare=False, repr=False)

    @property
    def over(self) -> bool:
        """No more events except undo."""
        return self.phase == OVER

    @property
    def pending(self) -> tuple[Decision, ...]:
        """Decisions still waiting for a tie-break result."""
        return tuple(d for d in self.decisions if d.order is None)

    @property
    def open_slots(self) -> int:
        """Win places not yet taken."""
        return max(self.config.slots - len(self.winners), 0)

    @property
    def remaining(self) -> tuple[str, ...]:
        """Players still in play (active or locked), in seat order."""
        return tuple(pid for pid in self.seat_order if self.players[pid].in_play)

    def player(self, pid: str) -> PlayerState:
        """One player's state."""
        return self.players[pid]
