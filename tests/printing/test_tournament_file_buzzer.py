"""Live buzzer rounds in the tournament file: every tap (undos, protests, thrown-out
questions) with who, when and its operation key, every setting, the seats with their
entrants and carried values, the links between rounds (feeds, sudden deaths) — exported,
imported into an empty database, the round reads back the same, question by question."""

from __future__ import annotations

import json
from typing import Any

import pytest

from brackets.engine.buzzer import QUIZ_003
from brackets.exporters.tournament_file import tournament_file_export, tournament_file_import
from brackets.models import BuzzerEvent, BuzzerPlayer, BuzzerRound, Tournament
from brackets.selectors.buzzer import latest_seq, round_payload
from brackets.selectors.buzzer_documents import buzzer_round_doc
from brackets.services.buzzer import buzzer_event_append, buzzer_round_create
from tests.buzzer_web.factories import make_round, nomx, played_round_with_protests
from tests.printing.test_tournament_file import empty_the_database, without_stamp
from tests.printing.world import add_named_entrants

pytestmark = pytest.mark.django_db

EVENT_FIELDS = ("seq", "kind", "data", "idempotency_key", "submit_digest", "by__username", "at")
ROUND_FIELDS = ("name", "group_name", "position", "preset", "round_slug", "config", "status",
                "side", "first_round", "created_by__username", "created_at")
PLAYER_FIELDS = ("key", "name", "seat", "rank", "advantage", "carried", "entrant__name")


def snapshot(t: Tournament) -> dict[str, Any]:
    """Every buzzer fact of ``t`` by round name, and what the files read from each round."""
    out: dict[str, Any] = {}
    for round_ in BuzzerRound.objects.filter(tournament=t).order_by("position", "id"):
        key = f"{round_.name}/{round_.group_name}"
        doc = buzzer_round_doc(round_)
        payload = round_payload(round_, for_console=True)
        out[key] = {
            "round": BuzzerRound.objects.filter(pk=round_.pk).values(*ROUND_FIELDS).get(),
            "feeds_from": round_.feeds_from.name if round_.feeds_from else None,
            "parent": round_.parent.name if round_.parent else None,
            "players": list(BuzzerPlayer.objects.filter(round=round_).order_by("seat")
                            .values(*PLAYER_FIELDS)),
            "events": list(BuzzerEvent.objects.filter(round=round_).order_by("seq")
                           .values(*EVENT_FIELDS)),
            "questions": doc.questions,
            "standings": doc.standings,
            "protests": doc.protests,
            "log": [{k: v for k, v in line.items() if k != "at"} for line in payload["log"]],
        }
    return out


def test_buzzer_rounds_round_trip_with_every_event_protest_and_setting(
    tournament: Tournament, cast: dict[str, Any]
) -> None:
    played = played_round_with_protests(tournament, cast)
    buzzer_event_append(round=played, data={"kind": "wrong", "player": "s3"},
                        expected_seq=latest_seq(played.pk), by=cast["bracket"],
                        idempotency_key="tablet-1-0042")
    buzzer_event_append(round=played, data={"kind": "undo"},
                        expected_seq=latest_seq(played.pk), by=cast["organiser"])
    # A preset round seated from the played one, with entrants, ranks, advantages and
    # carried points; and a sudden death under it.
    entrants = add_named_entrants(tournament, 3, user=cast["desk"])
    rp = QUIZ_003.round("3r")
    later = buzzer_round_create(
        tournament=tournament, name=rp.name, group_name="B組",
        config=nomx(7, 3, slots=1, question_limit=45, clock_ms=600_000, protest_window=3),
        players=[{"entrant": entrants[0], "rank": 2, "advantage": 1},
                 {"entrant": entrants[1], "rank": 1, "carried": {"points": 3, "rests": 1}},
                 {"entrant": entrants[2], "rank": 3}], by=cast["organiser"])
    BuzzerRound.objects.filter(pk=later.pk).update(
        feeds_from=played, preset=QUIZ_003.slug, round_slug="3r",
        first_round=[e.name for e in entrants], status=BuzzerRound.Status.LIVE)
    buzzer_event_append(round=later, data={"kind": "correct", "player": "s1"}, expected_seq=0,
                        by=cast["bracket"])
    sudden = make_round(tournament, players=2, config=nomx(1, 1, slots=1), name="2R-SD")
    BuzzerRound.objects.filter(pk=sudden.pk).update(parent=played, side="win")
    before = snapshot(tournament)
    assert len(before) == 3

    content = tournament_file_export(tournament=tournament)
    records = json.loads(content)["records"]
    kinds = [r["kind"] for r in records["buzzerevent"]]
    assert {"rejudge", "throw_out", "undo"} <= set(kinds)
    empty_the_database()
    imported = tournament_file_import(data=content)

    assert snapshot(imported) == before
    assert without_stamp(tournament_file_export(tournament=imported)) == without_stamp(content)
