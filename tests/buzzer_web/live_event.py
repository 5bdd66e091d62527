"""Staff actions on a whole live event, through the services only (no views): seat a
preset round as previewed, tap ○/×/スルー, settle a sudden death or playoff. Used by the
end-to-end tests of seeds 003 and 004."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from brackets.engine.buzzer import RoundState, tiebreak_from
from brackets.models import BuzzerRound, Tournament
from brackets.selectors.buzzer import round_state
from brackets.selectors.buzzer_event import preset_round_plan
from brackets.services.buzzer import buzzer_event_append, buzzer_tiebreak_open
from brackets.services.buzzer_presets import preset_plan_confirm


class Staff:
    """The organiser of one preset event: previews a round's seating, then confirms it."""

    def __init__(self, tournament: Tournament, preset: str, by: Any = None) -> None:
        self.tournament = tournament
        self.preset = preset
        self.by = by

    def seat(self, round_slug: str, **inputs: Any) -> list[BuzzerRound]:
        """Preview the seating (as the event page shows it), then create it as previewed."""
        plan = preset_round_plan(tournament=self.tournament, preset=self.preset,
                                 round_slug=round_slug, **inputs)
        return preset_plan_confirm(tournament=self.tournament, preset=self.preset,
                                   round_slug=round_slug, expect=plan.digest(), by=self.by,
                                   **inputs)


def key(round_: BuzzerRound, name: str) -> str:
    """The engine's id of ``name``'s seat in ``round_``."""
    return str(round_.players.get(name=name).key)


def names(round_: BuzzerRound, ids: Sequence[str]) -> list[str]:
    """Player ids of ``round_`` as names, in the same order."""
    by_key = {p.key: p.name for p in round_.players.all()}
    return [by_key[pid] for pid in ids]


def seated(round_: BuzzerRound) -> list[str]:
    """Names in seat order."""
    return [p.name for p in round_.players.order_by("seat")]


def tap(round_: BuzzerRound, **data: Any) -> RoundState:
    """One operator tap (the console's JSON), appended through the service."""
    return buzzer_event_append(round=round_, data=data, expected_seq=None).state


def correct(round_: BuzzerRound, *who: str) -> RoundState:
    """○ for each name in turn (each on its own question)."""
    state = round_state(round_)
    for name in who:
        state = tap(round_, kind="correct", player=key(round_, name))
    return state


def wrong(round_: BuzzerRound, *who: str) -> RoundState:
    """× for each name in turn; the question is then passed (スルー) if still open."""
    state = round_state(round_)
    for name in who:
        state = tap(round_, kind="wrong", player=key(round_, name))
        if state.phase == "playing" and state.open_wrongs:
            state = tap(round_, kind="thru")
    return state


def tap_written(round_: BuzzerRound, marks: dict[str, bool], question: int) -> RoundState:
    """One written question: ``marks`` (player id → right) for those still standing."""
    state = round_state(round_)
    standing = {pid for pid, p in state.players.items() if p.status == "active"}
    return tap(round_, kind="written", question=question,
               marks={pid: ok for pid, ok in marks.items() if pid in standing})


def time_up(round_: BuzzerRound) -> RoundState:
    """The clock runs out with no question in play (M3, M5)."""
    tap(round_, kind="clock_start")
    return tap(round_, kind="clock_expire", question_in_play="0")


def settle(round_: BuzzerRound, side: str, answers: Sequence[tuple[str, str]]) -> RoundState:
    """Open the sudden death / playoff the round asks for on ``side``, play ``answers``
    (("correct" | "wrong", name) in order) and carry its order back, as the console does."""
    sub = buzzer_tiebreak_open(round=round_, side=side)
    for kind, name in answers:
        if kind == "correct":
            correct(sub, name)
        else:
            wrong(sub, name)
    event = tiebreak_from(round_state(sub), side)
    return buzzer_event_append(round=round_, data=event.to_dict(), expected_seq=None,
                               idempotency_key=f"tiebreak-{sub.pk}").state
