"""What a preset tournament is made of: rounds in playing order, each with its feed.

A :class:`RoundPreset` holds the round's
:class:`~brackets.engine.buzzer.config.RoundConfig` (``None`` for a round scored outside
this engine, such as a paper quiz or an unspecified 1st Round) and a :class:`Feed` saying
which players come from which earlier rounds, in what seat order, split how, and what they
carry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from brackets.engine.buzzer.assignment import PaperRules
from brackets.engine.buzzer.config import RoundConfig, Rule
from brackets.engine.errors import RuleRefusal


@dataclass(frozen=True)
class Feed:
    """How a round's players are found.

    * ``sources`` — earlier round slugs (``"1r"`` = the 1st Round ranking passed in).
    * ``take`` — ``"winners"``, ``"continuing"`` (not yet decided after a set or phase), or
      ``"losers"`` (everyone ranked except the winners of ``sources``: "all losers so far").
    * ``order`` — ``"source"`` (sources in listed order, within each by win order then 1st
      Round rank), ``"rank"`` (1st Round rank), ``"state"`` (the source's own final order,
      e.g. phase-1 points), ``"number10"`` (2R pass position → 1R rank, M3).
    * ``grouping`` — ``"single"``, ``"snake"``, ``"mod"``, or ``"courses"`` (players
      choose, see :func:`~brackets.engine.buzzer.assignment.number10_courses`).
    * ``carry`` — values carried from the source state: ``"points"``, ``"rests"``,
      ``"board_correct"``.
    * ``perfect_advantage`` — ○ head start for players with no wrong in the source (L4).
    * ``fallback`` — ``"first_round"`` (ties go to 1R rank, L11) or ``"feed_order"``
      (M6: semi-final pass order).
    * ``limit`` — take only the first N (1R → 2R cut).
    """

    sources: tuple[str, ...]
    take: str = "winners"
    order: str = "source"
    grouping: str = "single"
    groups: int = 1
    carry: tuple[str, ...] = ()
    perfect_advantage: int = 0
    fallback: str = "first_round"
    limit: int | None = None


@dataclass(frozen=True)
class RoundPreset:
    """One round of a preset tournament; ``rule`` points at the domain brief (L1, M3 …).

    ``name`` is the round's name as the event's rule page writes it (「2nd Round
    連答つき5○2×」「決勝 トリプルセブン」): staff and the stage show it, never the slug.

    ``skip_when_revived_from`` names a written round whose lone-survivor revival makes this
    round unnecessary (M4): its winner then stands in for this round's winner.
    """

    slug: str
    name: str
    rule: str
    config: RoundConfig | None
    feed: Feed | None
    skip_when_revived_from: str | None = None
    paper: PaperRules | None = None

    @property
    def kind(self) -> str:
        """``"paper"``, ``"external"`` (scored elsewhere) or the config's round format."""
        if self.paper is not None:
            return "paper"
        return "external" if self.config is None else self.config.format


@dataclass(frozen=True)
class TournamentPreset:
    """A whole tournament, round by round."""

    slug: str
    name: str
    rounds: tuple[RoundPreset, ...]

    def round(self, slug: str) -> RoundPreset:
        """One round by slug."""
        for r in self.rounds:
            if r.slug == slug:
                return r
        raise RuleRefusal("unknown_round", f"no round {slug!r} in {self.slug}", round=slug)

    def next_rounds(self, slug: str) -> list[str]:
        """Rounds fed (directly) by ``slug``: which rounds its players go on to."""
        return [r.slug for r in self.rounds if r.feed is not None and slug in r.feed.sources]


def nomx(n: int, m: int, **kw: Any) -> RoundConfig:
    """An n○m× round: the plain buzz rule most presets start from."""
    return RoundConfig(
        scoring=Rule("nomx"),
        win=Rule("correct-at-least", {"n": n}),
        loss=Rule("wrong-at-least", {"n": m}),
        **kw,
    )


MINUTE = 60_000
