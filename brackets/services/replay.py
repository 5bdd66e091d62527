"""Run a whole tournament from a tournament file, through the same services as the tablets.

The file is the versioned ``kyushu-tournament`` document (docs/tournament-file.md) with a
``play`` section (docs/replay.md): what happened at the desk and the cabinets, round by
round, keyed by card name and group label. Draws are *not* in the file: they are re-drawn
from the stored lottery seed, so a replay also checks that the draw is reproducible (a
player listed in a group they were not drawn into is an error naming the key).

:func:`tournament_summary` (in :mod:`.replay_summary`) prints the derived state (groups,
placements, 惜敗率, advancers, penalties, each player's remaining options); the replay
command and the tests compare it with a run done through the pages.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from decimal import InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from brackets import engine_adapter as ea
from brackets.adapters import entrants as entrant_rules
from brackets.engine import EngineError, RuleRefusal, bounds
from brackets.errors import Refused
from brackets.messages import error_text
from brackets.models import Entrant, Group, QmaVersion, Round, Seat, SpecialFact, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from brackets.services.entrants import entrant_register
from brackets.services.replay_summary import tournament_summary

__all__ = ["ReplayError", "check_depth", "check_header", "tournament_play_export",
           "tournament_replay", "tournament_summary"]

FILE_FORMAT = "kyushu-tournament"
#: Version 2 adds the registry section and each entrant's ``player``, version 3 the series
#: section, version 4 the registry's corrections: replay reads none of them (a replayed
#: tournament plays the same without its players' records or its series), so it reads
#: all four versions.
FILE_VERSION = 4
PLAY_VERSION = 1

#: The keys an entrant record may carry: every field the tournament file writes for an
#: entrant (docs/tournament-file.md), so a file from ``tournament_export`` replays as it is.
#: What staff typed is read (:data:`TYPED_FIELDS`, checked as the desk checks it); ids,
#: revisions, time stamps and the derived search keys are re-made by the services.
ENTRANT_FIELDS = frozenset(
    {"id"} | {f.name for f in Entrant._meta.concrete_fields if f.name != "tournament"})
TYPED_FIELDS = frozenset(entrant_rules.ENTRANT_FIELDS)


class ReplayError(Refused):
    """A malformed or inconsistent file: ``where`` names the key (or line)."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def _need(data: Mapping[str, Any], key: str, where: str, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(data, Mapping):
        raise ReplayError(where, "an object is expected here")
    if key not in data:
        raise ReplayError(f"{where}.{key}" if where else key, "missing key")
    value = data[key]
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise ReplayError(f"{where}.{key}" if where else key, f"expected {names}")
    return value


def check_header(data: Any) -> None:
    if not isinstance(data, Mapping):
        raise ReplayError("(top)", "the file must hold one JSON object")
    if data.get("format") != FILE_FORMAT:
        raise ReplayError("format", f"expected {FILE_FORMAT!r}, got {data.get('format')!r}")
    version = data.get("version")
    if not isinstance(version, int) or version < 1 or version > FILE_VERSION:
        raise ReplayError("version", f"this app reads versions 1..{FILE_VERSION}, got {version!r}")
    # ``play`` is versioned on its own (docs/replay.md): a higher play_version is a file
    # from a newer app, whose play this one would misread.
    play_version = data.get("play_version", PLAY_VERSION)
    if (not isinstance(play_version, int) or isinstance(play_version, bool)
            or not 1 <= play_version <= PLAY_VERSION):
        raise ReplayError("play_version", f"this app reads play versions 1..{PLAY_VERSION}, "
                                          f"got {play_version!r}")


def check_depth(text: str) -> None:
    """Refuse a file nested deeper than ``bounds.JSON_DEPTH`` before it is parsed."""
    try:
        bounds.text_depth(text)
    except RuleRefusal as exc:
        raise ReplayError("(top)", f"nested deeper than {bounds.JSON_DEPTH.high} levels "
                                   f"({error_text(exc)})") from exc


@transaction.atomic
def tournament_replay(*, data: Mapping[str, Any], by: Any = None,
                      slug: str | None = None) -> Tournament:
    """Create the tournament of ``data`` and play it through the services.

    Every value goes through the checks the desk and the tablets apply (entrants through
    :func:`~brackets.services.entrants.entrant_register`, every fact through its
    service); a value of the wrong shape anywhere is a :class:`ReplayError` naming the
    section it was in, never a traceback.
    """
    check_header(data)
    try:
        bounds.json_depth(data)
    except RuleRefusal as exc:
        raise ReplayError("(top)", error_text(exc)) from exc
    catalog_slug = _need(data, "catalog", "", str)
    version = QmaVersion.objects.filter(slug=catalog_slug).first()
    if version is None:
        from brackets.services.catalog import catalog_load_builtin

        catalog_load_builtin()
        version = QmaVersion.objects.filter(slug=catalog_slug).first()
        if version is None:
            raise ReplayError("catalog", f"unknown catalog {catalog_slug!r}")
    t = _need(data, "tournament", "", dict)
    if slug is None:
        _need(t, "slug", "tournament", str)
    for key in ("name", "preset", "lottery_seed"):
        _need(t, key, "tournament", str)
    records = _need(data, "records", "", dict)
    rows = _need(records, "entrant", "records", list)
    with _shape("tournament"):
        tournament = _tournament(t, version, slug, rows)
    by_card: dict[str, Entrant] = {}
    roster = entrant_rules.Roster.load(tournament)
    for i, row in enumerate(rows):
        where = f"records.entrant[{i}]"
        with _shape(where):
            entrant = _entrant_register(tournament, row, where, by, roster)
        by_card[entrant.card_name] = entrant
    play = data.get("play", [])
    if not isinstance(play, list):
        raise ReplayError("play", "expected a list of rounds")
    _play(tournament, data, play, by_card, by)
    return tournament


@contextmanager
def _shape(where: str) -> Iterator[None]:
    """A value of the wrong shape under ``where`` (a number where a list belongs, a list
    too short …) becomes a :class:`ReplayError` naming ``where``."""
    try:
        yield
    except (TypeError, ValueError, AttributeError, KeyError, IndexError,
            InvalidOperation, OverflowError) as exc:
        raise ReplayError(where, f"a value of the wrong shape ({type(exc).__name__}: "
                                 f"{str(exc)[:200]})") from exc


def _tournament(t: Mapping[str, Any], version: QmaVersion, slug: str | None,
                rows: list[Any]) -> Tournament:
    """The tournament row, checked as the tournament form checks it. A file without
    ``capacity`` or ``seed_slots`` (a hand-written one) gets room for its entrants."""
    seeds = [r.get("seed") for r in rows if isinstance(r, dict)]
    numbers = [s for s in seeds if isinstance(s, int) and not isinstance(s, bool)]
    general = sum(1 for s in seeds if s is None)
    tournament = Tournament(
        slug=slug or _need(t, "slug", "tournament", str),
        name=_need(t, "name", "tournament", str),
        date=datetime.date.fromisoformat(t["date"]) if t.get("date") else None,
        venue=t.get("venue", ""), version=version,
        preset=_need(t, "preset", "tournament", str),
        lottery_seed=_need(t, "lottery_seed", "tournament", str),
        two_person_confirmation=bool(t.get("two_person_confirmation", False)),
        seed_slots=_whole(t, "seed_slots", max([8, *numbers])),
        capacity=_whole(t, "capacity", max(64, general)),
        preset_settings=_preset_settings(t),
    )
    try:
        tournament.full_clean()
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise ReplayError(f"tournament.{field}", " ".join(messages)) from exc
    tournament.save()
    return tournament


def _whole(t: Mapping[str, Any], key: str, default: int) -> int:
    value = t.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ReplayError(f"tournament.{key}", "expected int")
    return value


def _entrant_register(tournament: Tournament, row: Any, where: str, by: Any,
                      roster: entrant_rules.Roster) -> Entrant:
    """One entrant record through the desk's own registration (the same checks)."""
    if not isinstance(row, dict):
        raise ReplayError(where, "an object is expected here")
    unknown = sorted(set(row) - ENTRANT_FIELDS)
    if unknown:
        raise ReplayError(f"{where}.{unknown[0]}", "unknown field (file from a newer app?)")
    _need(row, "name", where, str)
    card = _need(row, "card_name", where, str)
    fields = {k: v for k, v in row.items() if k in TYPED_FIELDS}
    try:
        return entrant_register(tournament=tournament, by=by, data=fields, action="import",
                                roster=roster)
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        key = where if field == "__all__" else f"{where}.{field}"
        if field == "card_name" and any(card in m for m in messages):
            raise ReplayError(key, f"card name {card!r} appears twice ({' '.join(messages)})"
                              ) from exc
        raise ReplayError(key, " ".join(messages)) from exc


def _preset_settings(t: Mapping[str, Any]) -> dict[str, Any]:
    """The rule settings the organiser changed (absent: the preset's defaults), checked by
    the engine before anything is created."""
    values = t.get("preset_settings", {})
    if not isinstance(values, dict):
        raise ReplayError("tournament.preset_settings", "expected an object")
    try:
        ea.preset_for(str(t.get("preset", "")), values)
    except RuleRefusal as exc:
        raise ReplayError("tournament.preset_settings", str(exc)) from exc
    return values


def _entrant(by_card: Mapping[str, Entrant], card: Any, where: str) -> Entrant:
    if not isinstance(card, str) or card not in by_card:
        raise ReplayError(where, f"no entrant with card name {card!r}")
    return by_card[card]


def _wrap(where: str, func: Any, **kwargs: Any) -> Any:
    """``func(**kwargs)``, with every refusal the pages show for it (a service's message, a
    rule of the engine, a form field's check) as a :class:`ReplayError` at ``where``."""
    try:
        return func(**kwargs)
    except svc.Duplicate:
        return None
    except Refused as exc:
        raise ReplayError(where, exc.message) from exc
    except EngineError as exc:  # a rule's wording; an engine bug's generic sentence
        raise ReplayError(where, error_text(exc)) from exc
    except ValidationError as exc:
        raise ReplayError(where, " ".join(exc.messages)) from exc


def _play(tournament: Tournament, data: Mapping[str, Any], play: list[Any],
          by_card: Mapping[str, Entrant], by: Any) -> None:
    lots = data.get("shura_lots", {})
    if not isinstance(lots, dict):
        raise ReplayError("shura_lots", "expected an object")
    rounds = _wrap("tournament.preset", svc.rounds_configure, tournament=tournament, by=by)
    for card, drawn in lots.items():
        where = f"shura_lots.{card}"
        with _shape(where):
            entrant = _entrant(by_card, card, where)
            if drawn == "app":
                _wrap(where, svc.shura_lots_draw, tournament=tournament, entrant=entrant,
                      by=by)
            else:
                genres = _texts(_need(drawn, "genres", where, list), f"{where}.genres")
                formats = _texts(drawn.get("formats", []), f"{where}.formats")
                _wrap(where, svc.shura_lots_draw, tournament=tournament, entrant=entrant,
                      by=by, genres=genres, formats=formats)
    del rounds  # read again at every step: a withdrawal before round 1 re-plans them
    for index, step in enumerate(play):
        where = f"play[{index}]"
        with _shape(where):
            number = _need(step, "round", where, int)
            _round(tournament, number, where)
            _play_round(tournament, number, step, where, by_card, by)


def _round(tournament: Tournament, number: int, where: str) -> Round:
    """Round ``number`` as the database holds it now. Drawing round 1 re-plans the rounds
    when check-ins or withdrawals changed the field (``round_draw``), which replaces every
    round row, so a round read before the draw is not the one to start."""
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        raise ReplayError(f"{where}.round", f"the preset has no round {number} for this field")
    return rnd


def _texts(values: Any, where: str) -> list[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ReplayError(where, "expected a list of names")
    return values


def _play_round(tournament: Tournament, number: int, step: Mapping[str, Any], where: str,
                by_card: Mapping[str, Entrant], by: Any) -> None:
    for card in step.get("withdrawn", []):
        _wrap(f"{where}.withdrawn", svc.withdrawal_record, tournament=tournament,
              entrant=_entrant(by_card, card, f"{where}.withdrawn"), by=by, reason="replay")
    rnd = _round(tournament, number, where)
    for card, rule in step.get("rule_choices", {}).items():
        _wrap(f"{where}.rule_choices.{card}", svc.rule_choice_record, round=rnd,
              entrant=_entrant(by_card, card, f"{where}.rule_choices.{card}"), rule=rule, by=by)
    for card, partner in step.get("partners", {}).items():
        w = f"{where}.partners.{card}"
        _wrap(w, svc.partner_record, round=rnd, contender=_entrant(by_card, card, w),
              partner=_entrant(by_card, partner, w), by=by)
    if "dice" in step:
        w = f"{where}.dice"
        dice = step["dice"]
        players = _need(dice, "players", w, list)
        pair = (_entrant(by_card, players[0], w).id, _entrant(by_card, players[1], w).id)
        rolls = dice.get("rolls")
        _wrap(w, svc.dice_record, round=rnd, players=pair, by=by,
              rolls=None if rolls in (None, "app") else [tuple(r) for r in rolls])
    if "final_setup" in step:
        w = f"{where}.final_setup"
        fs = step["final_setup"]
        _wrap(w, svc.final_setup_record, round=rnd, by=by,
              winner_decides=_need(fs, "winner_decides", w, str),
              first=_entrant(by_card, _need(fs, "first", w, str), w).id,
              question_order=_need(fs, "question_order", w, str))
    rnd.refresh_from_db()
    _wrap(f"{where}.round", svc.round_draw, round=rnd, by=by)
    rnd = _round(tournament, number, where)  # the re-planned field may have fewer rounds
    _wrap(f"{where}.round", svc.round_start, round=rnd, by=by)
    groups = {g.label: g for g in Group.objects.filter(round=rnd)}
    if "cards" in step:  # K7 with k7_draw_per = round: one draw for every match
        cards = step["cards"]
        first = min(groups.values(), key=lambda g: g.number, default=None)
        if first is not None:
            _wrap(f"{where}.cards", svc.card_draw, group=first, by=by,
                  cards=None if cards == "app" else [tuple(c) for c in cards])
    played = _need(step, "groups", where, dict)
    for label, gdata in played.items():
        w = f"{where}.groups.{label}"
        if label not in groups:
            raise ReplayError(w, f"{rnd.name} has no group {label!r} in the draw")
        if not isinstance(gdata, dict):
            raise ReplayError(w, "an object is expected here")
        with _shape(w):
            _play_group(groups[label], gdata, w, by_card, by)
    _wrap(f"{where}.round", svc.round_close, round=rnd, by=by)
    _wrap(f"{where}.round", svc.round_advance, round=rnd, by=by)


def _play_group(group: Group, gdata: Mapping[str, Any], where: str,
                by_card: Mapping[str, Entrant], by: Any) -> None:
    seats = {s.entrant.card_name if s.entrant else "dummy": s.number
             for s in Seat.objects.filter(group=group, superseded_by__isnull=True)
             .select_related("entrant")}

    def seat_of(card: str, w: str) -> int:
        if card not in seats:
            raise ReplayError(w, f"{card!r} was not drawn into this group "
                                 f"(drawn: {', '.join(sorted(seats))})")
        return seats[card]

    if "cards" in gdata:
        w = f"{where}.cards"
        cards = gdata["cards"]
        _wrap(w, svc.card_draw, group=group, by=by,
              cards=None if cards == "app" else [tuple(c) for c in cards])
    for card, genre in gdata.get("bans", {}).items():
        w = f"{where}.bans.{card}"
        seat_of(card, w)
        _wrap(w, svc.ban_record, group=group, entrant=_entrant(by_card, card, w), genre=genre,
              by=by)
    if gdata.get("bans"):
        _wrap(f"{where}.bans", svc.ban_reveal, group=group, by=by)
    for card, chosen in gdata.get("selections", {}).items():
        w = f"{where}.selections.{card}"
        number = seat_of(card, w)
        if not isinstance(chosen, list) or len(chosen) != 3:
            raise ReplayError(w, "expected [genre, format, difficulty]")
        _wrap(w, svc.selection_save, group=group, by=by, seat_number=number, genre=chosen[0],
              format=chosen[1], difficulty=chosen[2], confirm_illegal=True)
    results = _need(gdata, "results", where, dict)
    rows = {}
    for card, value in results.items():
        w = f"{where}.results.{card}"
        if not isinstance(value, list) or len(value) != 2:
            raise ReplayError(w, "expected [score, placement]")
        rows[seat_of(card, w)] = (value[0], value[1])
    for i, pen in enumerate(gdata.get("penalties", [])):
        w = f"{where}.penalties[{i}]"
        _wrap(w, svc.penalty_add, group=group, by=by,
              seat_number=seat_of(_need(pen, "player", w, str), w),
              points=pen.get("points", "400"), reason=_need(pen, "reason", w, str))
    for i, dq in enumerate(gdata.get("disqualified", [])):
        w = f"{where}.disqualified[{i}]"
        _wrap(w, svc.disqualification_add, group=group, by=by,
              seat_number=seat_of(_need(dq, "player", w, str), w),
              reason=_need(dq, "reason", w, str))
    _wrap(f"{where}.results", svc.results_save, group=group, by=by, rows=rows)


def tournament_play_export(tournament: Tournament) -> dict[str, Any]:
    """The tournament as a replayable file (entrants + ``play``), for tests and archives."""
    entrants = list(Entrant.objects.filter(tournament=tournament).order_by("id"))
    fields = TYPED_FIELDS  # what replay reads back: the desk's fields
    records = [{"id": i + 1, **{f: getattr(e, f) for f in sorted(fields)}}
               for i, e in enumerate(entrants)]
    card = {e.id: e.card_name for e in entrants}
    data: dict[str, Any] = {
        "format": FILE_FORMAT, "version": FILE_VERSION, "play_version": PLAY_VERSION,
        "catalog": tournament.version.slug,
        "tournament": {"slug": tournament.slug, "name": tournament.name,
                       "date": tournament.date.isoformat() if tournament.date else None,
                       "venue": tournament.venue, "preset": tournament.preset,
                       "lottery_seed": tournament.lottery_seed,
                       "two_person_confirmation": tournament.two_person_confirmation},
        "records": {"entrant": records},
    }
    if tournament.preset_settings:
        data["tournament"]["preset_settings"] = dict(tournament.preset_settings)
    lots = sel.lots_of(tournament, list(card))
    if lots:
        data["shura_lots"] = {card[i]: {"genres": d["genres"], "formats": d["formats"]}
                              for i, d in lots.items()}
    play = []
    for rnd in sel.tournament_rounds(tournament):
        if rnd.status == Round.Status.CONFIGURED:
            break
        step: dict[str, Any] = {"round": rnd.number}
        facts = SpecialFact.objects.filter(tournament=tournament, round=rnd)
        choice = {card[f.entrant_id]: f.data["rule"] for f in sel.special_facts(
            tournament, SpecialFact.Kind.RULE_CHOICE, round=rnd)}
        if choice:
            step["rule_choices"] = choice
        partners = {card[f.entrant_id]: card[int(f.data["partner"])] for f in sel.special_facts(
            tournament, SpecialFact.Kind.PARTNER, round=rnd)}
        if partners:
            step["partners"] = partners
        dice = sel.special_facts(tournament, SpecialFact.Kind.DICE, round=rnd)
        if dice:
            step["dice"] = {"players": [card[int(p)] for p in dice[0].data["players"]],
                            "rolls": dice[0].data["rolls"]}
        setup = sel.special_facts(tournament, SpecialFact.Kind.FINAL_SETUP, round=rnd)
        if setup:
            d = setup[0].data
            winner_decides = ("seat_order" if d["seat_order_by"] == dice[0].data["winner"]
                              else "question_order")
            step["final_setup"] = {"winner_decides": winner_decides,
                                   "first": card[int(d["first"])],
                                   "question_order": d["question_order"]}
        del facts
        rv = sel.round_view(rnd)
        groups: dict[str, Any] = {}
        round_cards = sel.special_facts(tournament, SpecialFact.Kind.CARD_DRAW, round=rnd,
                                        group__isnull=True)
        if round_cards:
            step["cards"] = round_cards[0].data["cards"]
        for gv in rv.groups:
            if not gv.result_rows:
                continue
            names = {s.number: (card[s.entrant_id] if s.entrant_id else "dummy")
                     for s in gv.seats}
            g: dict[str, Any] = {}
            mctx = sel.match_context(gv)
            if mctx["cards"] is not None and mctx["cards"].group_id is not None:
                g["cards"] = mctx["cards"].data["cards"]
            if mctx["bans"]:
                g["bans"] = {card[eid]: f.data["genre"] for eid, f in mctx["bans"].items()}
            g["selections"] = {names[n]: [r.genre, r.format, r.difficulty]
                               for n, r in sorted(gv.selection_rows.items())}
            g["results"] = {names[n]: [f"{r.score}", r.placement]
                            for n, r in sorted(gv.result_rows.items())}
            if gv.penalty_rows:
                g["penalties"] = [{"player": names[_num(gv, p.seat_id)], "points": f"{p.points}",
                                   "reason": p.reason} for p in gv.penalty_rows]
            if gv.dq_rows:
                g["disqualified"] = [{"player": names[_num(gv, d.seat_id)], "reason": d.reason}
                                     for d in gv.dq_rows]
            groups[gv.label] = g
        step["groups"] = groups
        play.append(step)
    data["play"] = play
    return data


def _num(gv: sel.GroupView, seat_id: int) -> int:
    return next(s.number for s in gv.seats if s.id == seat_id)
