"""Who plays a preset round: a round's feed evaluated against finished round states."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from brackets.engine.buzzer.assignment import mod_split, number10_priority, snake
from brackets.engine.buzzer.config import PlayerSpec
from brackets.engine.buzzer.presets.base import TournamentPreset
from brackets.engine.buzzer.state import OVER, RoundState
from brackets.engine.errors import RuleRefusal


def _as_list(value: RoundState | Sequence[RoundState]) -> list[RoundState]:
    return [value] if isinstance(value, RoundState) else list(value)


def round_winners(
    preset: TournamentPreset, slug: str, results: Mapping[str, RoundState | Sequence[RoundState]]
) -> list[str]:
    """Winners of a round (all groups), in win order group by group.

    A round skipped because of an earlier revival (M4) yields that revival's winner.
    """
    rp = preset.round(slug)
    if rp.skip_when_revived_from is not None:
        earlier = results.get(rp.skip_when_revived_from)
        if earlier is not None and any(s.end_reason == "revived" for s in _as_list(earlier)):
            return round_winners(preset, rp.skip_when_revived_from, results)
    if slug not in results:
        raise RuleRefusal("missing_result", f"round {slug!r} has no result yet", round=slug)
    states = _as_list(results[slug])
    for s in states:
        if s.phase != OVER:
            raise RuleRefusal("round_not_over", f"round {slug!r} is not over", round=slug)
    return [pid for s in states for pid in s.winners]


def is_skipped(
    preset: TournamentPreset, slug: str, results: Mapping[str, RoundState | Sequence[RoundState]]
) -> bool:
    """Whether a round need not be played (M4: step 1 already revived someone)."""
    rp = preset.round(slug)
    if rp.skip_when_revived_from is None:
        return False
    earlier = results.get(rp.skip_when_revived_from)
    return earlier is not None and any(s.end_reason == "revived" for s in _as_list(earlier))


def entrants(
    preset: TournamentPreset,
    slug: str,
    results: Mapping[str, RoundState | Sequence[RoundState]],
    first_round_rank: Mapping[str, int],
    *,
    groups: int | None = None,
) -> list[list[PlayerSpec]]:
    """Players of round ``slug`` per group, seated in order, with carried values.

    ``results`` maps earlier round slugs to their final state (or one state per group);
    ``first_round_rank`` is every entrant's 1st Round rank (1 = best), the fallback of
    L11 and the input of ``"1r"``. ``groups`` overrides the preset's group count (seed 003
    does not publish the 2nd Round's). For ``"courses"`` (Number10) one list in priority
    order is returned; split it with ``number10_courses``.
    """
    rp = preset.round(slug)
    if rp.feed is None:
        raise RuleRefusal("no_feed", f"round {slug!r} is not fed by this engine", round=slug)
    feed = rp.feed
    rank = dict(first_round_rank)

    def r1(pid: str) -> int:
        if pid not in rank:
            raise RuleRefusal("unknown_player", f"no 1st Round rank for {pid!r}", player=pid)
        return rank[pid]

    source_states: dict[str, RoundState] = {}
    ordered: list[str] = []
    if feed.take == "losers":
        winners = {pid for src in feed.sources for pid in round_winners(preset, src, results)}
        ordered = sorted((p for p in rank if p not in winners), key=r1)
    else:
        for src in feed.sources:
            if src == "1r":
                ordered += sorted(rank, key=r1)
                continue
            if src not in results and preset.round(src).config is None:
                continue  # an optional round not run (e.g. a Special Round)
            if feed.take == "winners":
                states = [] if is_skipped(preset, src, results) else _as_list(results.get(src, []))
                ids = round_winners(preset, src, results)
            elif feed.take == "continuing":
                states = _as_list(results.get(src, []))
                ids = [pid for s in states for pid in s.continuing]
            else:
                raise RuleRefusal("bad_config", f"unknown feed take {feed.take!r}", take=feed.take)
            for s in states:
                for pid in s.players:
                    source_states[pid] = s
            if feed.order == "source":
                ids = sorted(ids, key=lambda p: (_win_order(source_states.get(p), p), r1(p)))
            ordered += ids
        if feed.order == "rank":
            ordered = sorted(ordered, key=r1)
        elif feed.order == "number10":
            ordered = number10_priority(
                {p: _win_order(source_states.get(p), p) for p in ordered}, rank
            )
    if feed.limit is not None:
        ordered = ordered[: feed.limit]
    if feed.grouping == "snake":
        split = snake(ordered, groups or feed.groups)
    elif feed.grouping == "mod":
        split = mod_split(ordered, groups or feed.groups)
    else:
        split = [ordered]
    result: list[list[PlayerSpec]] = []
    for group in split:
        specs: list[PlayerSpec] = []
        for seat, pid in enumerate(group, start=1):
            src_state = source_states.get(pid)
            prior = src_state.players[pid] if src_state is not None else None
            advantage = None
            if feed.perfect_advantage and prior is not None and prior.wrong == 0:
                advantage = feed.perfect_advantage
            specs.append(
                PlayerSpec(
                    pid,
                    seat,
                    rank=ordered.index(pid) + 1 if feed.fallback == "feed_order" else r1(pid),
                    advantage=advantage,
                    points=prior.points if prior is not None and "points" in feed.carry else 0,
                    rests=prior.rests if prior is not None and "rests" in feed.carry else 0,
                    board_correct=prior.board_correct
                    if prior is not None and "board_correct" in feed.carry
                    else 0,
                )
            )
        result.append(specs)
    return result


def _win_order(state: RoundState | None, pid: str) -> int:
    if state is None:
        return 0
    order = state.players[pid].win_order
    return order if order is not None else len(state.players) + 1
