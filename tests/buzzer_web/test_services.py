"""The tap log: append, undo as an event, stale screens refused, double taps recorded once."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.engine.buzzer import RoundConfig, Rule
from brackets.models import BuzzerEvent, BuzzerRound, PaperMarking, Tournament
from brackets.selectors.buzzer import latest_seq, round_payload, round_state
from brackets.services.buzzer import (
    BuzzerRefused,
    buzzer_event_append,
    buzzer_round_create,
    buzzer_undo,
)
from brackets.services.buzzer_paper import paper_marking_upload, paper_sheet_parse
from tests.buzzer_web.factories import make_round, nomx

pytestmark = pytest.mark.django_db


def tap(round_: BuzzerRound, kind: str, player: str | None = None, **kw: Any) -> Any:
    data: dict[str, Any] = {"kind": kind}
    if player:
        data["player"] = player
    data.update(kw.pop("data", {}))
    return buzzer_event_append(
        round=round_, data=data, expected_seq=kw.pop("seq", latest_seq(round_.pk)), **kw
    )


def test_append_records_the_tap_with_who_and_when(
    tournament: Tournament, cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    appended = tap(round_, "correct", "s1", by=cast["bracket"])
    record = BuzzerEvent.objects.get(round=round_)
    assert record.seq == 1
    assert record.kind == "correct"
    assert record.data["player"] == "s1"
    assert record.data["question"] == 1
    assert record.by == cast["bracket"]
    assert record.at is not None
    assert appended.state.players["s1"].correct == 1
    assert round_state(round_).question == 1
    round_.refresh_from_db()
    assert round_.status == BuzzerRound.Status.LIVE


def test_undo_is_an_event_and_steps_back_one_tap_per_undo(tournament: Tournament) -> None:
    round_ = make_round(tournament)
    tap(round_, "correct", "s1")
    tap(round_, "wrong", "s2")
    tap(round_, "thru")
    before_thru = round_state(round_).previous
    buzzer_undo(round=round_, expected_seq=3)
    assert round_state(round_) == before_thru
    buzzer_undo(round=round_, expected_seq=4)
    buzzer_undo(round=round_, expected_seq=5)
    state = round_state(round_)
    assert state.question == 0 and state.players["s1"].correct == 0
    # Nothing was deleted: three taps and three undos are in the log.
    assert list(BuzzerEvent.objects.filter(round=round_).values_list("kind", flat=True)) == [
        "correct",
        "wrong",
        "thru",
        "undo",
        "undo",
        "undo",
    ]


def test_undo_past_the_start_is_refused_and_stores_nothing(tournament: Tournament) -> None:
    round_ = make_round(tournament)
    with pytest.raises(BuzzerRefused) as refused:
        buzzer_undo(round=round_, expected_seq=0)
    assert "取り消せません" in refused.value.message
    assert not BuzzerEvent.objects.filter(round=round_).exists()


def test_a_stale_screen_is_refused_with_a_message(tournament: Tournament) -> None:
    round_ = make_round(tournament)
    tap(round_, "correct", "s1", seq=0)
    # A second operator still showing the empty round taps × for seat 2.
    with pytest.raises(BuzzerRefused) as refused:
        tap(round_, "wrong", "s2", seq=0)
    assert refused.value.code == "stale"
    assert "別の端末" in refused.value.message
    assert refused.value.seq == 1
    assert BuzzerEvent.objects.filter(round=round_).count() == 1


def test_a_double_tap_with_the_same_key_records_once(tournament: Tournament) -> None:
    round_ = make_round(tournament)
    first = tap(round_, "correct", "s3", seq=0, idempotency_key="tap-abc")
    again = tap(round_, "correct", "s3", seq=0, idempotency_key="tap-abc")
    assert not first.duplicate and again.duplicate
    assert again.record.pk == first.record.pk
    assert BuzzerEvent.objects.filter(round=round_).count() == 1
    assert round_state(round_).players["s3"].correct == 1


def test_an_out_player_is_refused_and_nothing_is_stored(tournament: Tournament) -> None:
    round_ = make_round(tournament, config=nomx(5, 2, slots=2))
    tap(round_, "wrong", "s2")
    tap(round_, "thru")
    tap(round_, "wrong", "s2")  # second × : out (5○2×)
    assert round_state(round_).players["s2"].status == "out"
    count = BuzzerEvent.objects.filter(round=round_).count()
    for kind in ("correct", "wrong"):
        with pytest.raises(BuzzerRefused) as refused:
            tap(round_, kind, "s2")
        assert refused.value.message == "この人はすでに失格です。"
    assert BuzzerEvent.objects.filter(round=round_).count() == count


def test_a_resting_player_is_refused_and_nothing_is_stored(tournament: Tournament) -> None:
    config = RoundConfig(
        scoring=Rule("rest-n"),
        win=Rule("correct-at-least", {"n": 7}),
        lockout=Rule("misses-at-least", {"n": 3}),
        slots=1,
        question_limit=35,
    )
    round_ = make_round(tournament, config=config)
    tap(round_, "wrong", "s1")  # 1st wrong: rests one question
    tap(round_, "thru")
    assert round_state(round_).players["s1"].resting
    with pytest.raises(BuzzerRefused) as refused:
        tap(round_, "correct", "s1")
    assert refused.value.message == "この人は休み中です。"
    assert BuzzerEvent.objects.filter(round=round_).count() == 2


def test_a_second_correct_on_one_question_is_refused(tournament: Tournament) -> None:
    round_ = make_round(tournament)
    tap(round_, "correct", "s1", data={"question": 1})
    with pytest.raises(BuzzerRefused) as refused:
        tap(round_, "correct", "s2", data={"question": 1})
    assert "正解者" in refused.value.message or "終わって" in refused.value.message
    assert BuzzerEvent.objects.filter(round=round_).count() == 1


def test_an_unknown_seat_is_refused(tournament: Tournament) -> None:
    round_ = make_round(tournament)
    with pytest.raises(BuzzerRefused) as refused:
        tap(round_, "correct", "s99")
    assert refused.value.message == "このラウンドにいない席です。"


def test_round_creation_checks_seats_with_the_engine(tournament: Tournament) -> None:
    with pytest.raises(BuzzerRefused):
        buzzer_round_create(
            tournament=tournament,
            name="x",
            config=nomx(),
            players=[{"name": "甲", "seat": 1}, {"name": "乙", "seat": 1}],
        )
    assert not BuzzerRound.objects.filter(name="x").exists()


def test_the_round_finishes_when_the_engine_says_so(tournament: Tournament) -> None:
    round_ = make_round(tournament, players=3, config=nomx(1, 1, slots=1))
    tap(round_, "correct", "s1")
    round_.refresh_from_db()
    assert round_.status == BuzzerRound.Status.FINISHED
    with pytest.raises(BuzzerRefused) as refused:
        tap(round_, "thru")
    assert refused.value.message == "このラウンドは終了しています。"


def test_payload_names_and_labels(tournament: Tournament) -> None:
    round_ = make_round(tournament, players=3, config=nomx(1, 2, slots=2))
    tap(round_, "correct", "s2")
    data = round_payload(round_, for_console=True)
    by_id = {p["id"]: p for p in data["players"]}
    assert by_id["s2"]["name"] == "選手2"
    assert by_id["s2"]["label"] == "1抜け"
    assert by_id["s2"]["actions"] == []
    assert by_id["s2"]["blocked"] == "この人はすでに勝ち抜けています。"
    assert by_id["s1"]["actions"] == ["correct", "wrong"]
    assert "undo" in data["allowed"] and "thru" in data["allowed"]
    assert data["seq"] == 1 and data["question"] == 1


# ----------------------------------------------------------------------------- paper


def test_paper_sheet_accepts_circles_and_ones() -> None:
    rows = paper_sheet_parse("名前,Q1,Q2,Q3\n甲,○,×,1\n乙,0,1,\n".encode(), "m.csv", 3)
    assert rows == [{"name": "甲", "marks": "101"}, {"name": "乙", "marks": "010"}]


def test_paper_sheet_with_a_missing_question_column_is_refused(tournament: Tournament) -> None:
    with pytest.raises(BuzzerRefused) as refused:
        paper_marking_upload(
            tournament=tournament,
            name="1R",
            questions=4,
            first_half=2,
            content="名前,1,2,4\n甲,1,1,1\n".encode(),
            filename="m.csv",
        )
    assert "Q3" in refused.value.message
    assert not PaperMarking.objects.exists()


def test_paper_sheet_reads_xlsx(tournament: Tournament) -> None:
    import io

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["名前", 1, 2])
    sheet.append(["甲", 1, 0])
    sheet.append(["乙", "○", "○"])
    buffer = io.BytesIO()
    book.save(buffer)
    marking = paper_marking_upload(
        tournament=tournament,
        name="1R",
        questions=2,
        first_half=1,
        content=buffer.getvalue(),
        filename="m.xlsx",
    )
    assert marking.rows[1]["marks"] == "11"


def test_a_bad_mark_is_refused_naming_row_and_question() -> None:
    with pytest.raises(BuzzerRefused) as refused:
        paper_sheet_parse("名前,1,2\n甲,1,△\n".encode(), "m.csv", 2)
    assert "2行目" in refused.value.message and "Q2" in refused.value.message


# --------------------------------------------------------------------------- presets


def play_to_the_end(round_: BuzzerRound) -> None:
    """Tap ○ for the first seat the engine allows until the round is over."""
    from brackets.engine.buzzer import allowed_actions

    for _ in range(500):
        state = round_state(round_)
        if state.over:
            return
        allowed = allowed_actions(state)
        pid = next(p for p in state.seat_order if "correct" in allowed.players[p])
        tap(round_, "correct", pid)
    raise AssertionError("round did not end")


def test_seed_003_second_round_winners_seat_the_third_round(tournament: Tournament) -> None:
    from brackets.services.buzzer_presets import preset_round_seat

    names = [f"選手{i:02d}" for i in range(1, 25)]
    groups = preset_round_seat(
        tournament=tournament, preset="quiz-003", round_slug="2r", first_round=names, groups=2
    )
    assert [g.group_name for g in groups] == ["A組", "B組"]
    # Snake by 1R rank: A = 1, 4, 5, 8 ... ; advantages 3,2,2,1,1,1 by seat (L1).
    a = round_state(groups[0])
    assert [groups[0].players.get(key=p).name for p in a.seat_order[:4]] == [
        "選手01",
        "選手04",
        "選手05",
        "選手08",
    ]
    assert [a.players[p].correct for p in a.seat_order[:7]] == [3, 2, 2, 1, 1, 1, 0]
    with pytest.raises(BuzzerRefused) as refused:
        preset_round_seat(tournament=tournament, preset="quiz-003", round_slug="3r")
    assert "終わっていません" in refused.value.message
    for group in groups:
        play_to_the_end(group)
    third = preset_round_seat(tournament=tournament, preset="quiz-003", round_slug="3r")
    assert len(third) == 5
    seated = [p.name for r in third for p in r.players.all()]
    winners = [
        groups[i].players.get(key=pid).name
        for i in range(2)
        for pid in round_state(groups[i]).winners
    ]
    assert sorted(seated) == sorted(winners)
    # Fallback ranks (1R rank) and the ranking travel with the players.
    assert third[0].first_round == groups[0].first_round
    assert round_state(third[0]).players[third[0].players.first().key].advantage == 1


def test_clock_reading_goes_into_each_tap_and_expiry_is_an_event(tournament: Tournament) -> None:
    import datetime

    from brackets.engine.buzzer import PRESETS

    config = PRESETS.get("abc-the25th-004").round("3r-swedish").config
    assert config is not None
    round_ = make_round(tournament, players=5, config=config)
    with pytest.raises(BuzzerRefused) as refused:
        tap(round_, "clock_stop")
    assert refused.value.message == "時計は止まっています。"
    tap(round_, "clock_start")
    # Ten seconds pass on the wall clock.
    BuzzerEvent.objects.filter(round=round_, seq=1).update(
        at=BuzzerEvent.objects.get(round=round_, seq=1).at - datetime.timedelta(seconds=10)
    )
    tap(round_, "correct", "s1")
    reading = BuzzerEvent.objects.get(round=round_, seq=2).data["clock_ms"]
    assert 10_000 <= reading < 12_000
    payload = round_payload(round_)
    assert payload["clock"]["running"] and payload["clock"]["reading_ms"] >= reading
    tap(round_, "clock_stop")
    stopped = round_state(round_).clock
    assert not stopped.running and stopped.elapsed_ms >= reading
    tap(round_, "clock_start")
    tap(round_, "clock_expire", data={"question_in_play": "0"})
    state = round_state(round_)
    assert state.clock.expired
    record = BuzzerEvent.objects.get(round=round_, seq=5)
    assert record.kind == "clock_expire" and record.data["question_in_play"] is False
    assert record.data["elapsed_ms"] <= config.clock_ms


def test_a_write_racing_another_process_is_refused_by_the_database(
    tournament: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes read the log at the same length: the unique (round, seq) refuses one."""
    import brackets.services.buzzer as services

    round_ = make_round(tournament)
    tap(round_, "correct", "s1", seq=0)
    real_log = services.round_log
    # This process read the log before the other one's tap was committed.
    monkeypatch.setattr(services, "round_log", lambda r: real_log(r)[:-1])
    with pytest.raises(BuzzerRefused) as refused:
        tap(round_, "wrong", "s2", seq=0)
    assert refused.value.code == "stale"
    monkeypatch.undo()
    assert list(BuzzerEvent.objects.filter(round=round_).values_list("kind", flat=True)) == [
        "correct"
    ]


def test_the_stream_poll_is_one_indexed_query(tournament: Tournament) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    round_ = make_round(tournament)
    tap(round_, "thru")
    with CaptureQueriesContext(connection) as ctx:
        assert latest_seq(round_.pk) == 1
    assert len(ctx.captured_queries) == 1
    sql = ctx.captured_queries[0]["sql"].upper()
    assert "ORDER BY" in sql and "LIMIT 1" in sql


def test_recorded_taps_cannot_be_changed_or_deleted(tournament: Tournament) -> None:
    round_ = make_round(tournament)
    record = tap(round_, "correct", "s1").record
    record.data = {"kind": "wrong", "player": "s1"}
    with pytest.raises(ValueError):
        record.save()
    with pytest.raises(ValueError):
        record.delete()
    assert BuzzerEvent.objects.get(pk=record.pk).kind == "correct"


def test_scoreboard_labels_for_rests_and_lockout(tournament: Tournament) -> None:
    """L7 +1/N休: the k-th wrong rests k questions; 3 wrongs lock the player (still ranked)."""
    from brackets.engine.buzzer import PRESETS

    config = PRESETS.get("quiz-003").round("sf-1").config
    assert config is not None
    round_ = make_round(tournament, players=6, config=config)
    tap(round_, "wrong", "s1")
    labels = {p["id"]: p["label"] for p in round_payload(round_)["players"]}
    assert labels["s1"] == "1休"
    tap(round_, "thru")
    tap(round_, "thru")  # rest served
    tap(round_, "wrong", "s1")  # 2nd wrong: rests 2
    for _ in range(3):
        tap(round_, "thru")
    tap(round_, "wrong", "s1")  # 3rd wrong: locked
    players = {p["id"]: p for p in round_payload(round_, for_console=True)["players"]}
    assert players["s1"]["status"] == "locked"
    assert players["s1"]["label"] == "解答権なし"
    assert players["s1"]["actions"] == []
