"""Protests (審議) through the service and the page: a judgement changed, a question thrown
out, the round recomputed from the log, both versions in the history with who decided, the
stage's stream payload changed, and the window enforced (the organiser for the rest)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from brackets.engine.buzzer import Rejudge, ThrowOut
from brackets.models import BuzzerEvent, BuzzerRound, Tournament
from brackets.selectors.buzzer import latest_seq, round_payload, round_state
from brackets.services.buzzer import BuzzerRefused, buzzer_event_append
from brackets.services.buzzer_protests import buzzer_protest_record
from brackets.views.buzzer_stream import build_state
from tests.buzzer_web.factories import make_round, nomx, url

pytestmark = pytest.mark.django_db


def tap(round_: BuzzerRound, kind: str, player: str | None = None, by: Any = None) -> None:
    data: dict[str, Any] = {"kind": kind}
    if player:
        data["player"] = player
    buzzer_event_append(round=round_, data=data, expected_seq=latest_seq(round_.pk), by=by)


def protest(round_: BuzzerRound, event: Rejudge | ThrowOut, by: Any, organiser: bool = False
            ) -> None:
    buzzer_protest_record(round=round_, event=event, expected_seq=latest_seq(round_.pk),
                          by=by, organiser=organiser)


def mains(payload: dict[str, Any]) -> dict[str, tuple[int, int]]:
    return {p["id"]: (p["main"], p["wrong"]) for p in payload["players"]}


def test_a_wrong_judged_correct_recomputes_the_standings_and_the_stage(
    tournament: Tournament, cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    tap(round_, "wrong", "s1", by=cast["bracket"])
    tap(round_, "correct", "s2", by=cast["bracket"])
    before = build_state(round_.pk, "ja")
    assert mains(before)["s1"] == (0, 1) and mains(before)["s2"] == (1, 0)

    protest(round_, Rejudge(1, "s1", True), by=cast["bracket"])

    after = build_state(round_.pk, "ja")
    assert after["seq"] == before["seq"] + 1
    assert mains(after)["s1"] == (1, 0) and mains(after)["s2"] == (0, 0)
    # Nothing was edited: the taps are all still there, the protest is a new record.
    kinds = list(BuzzerEvent.objects.filter(round=round_).values_list("kind", flat=True))
    assert kinds == ["wrong", "correct", "rejudge"]


def test_the_history_keeps_both_versions_with_who_decided(
    tournament: Tournament, cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    tap(round_, "correct", "s1", by=cast["bracket"])
    protest(round_, Rejudge(1, "s1", False), by=cast["organiser"], organiser=True)
    log = round_payload(round_, for_console=True)["log"]
    assert [(r["kind"], r["by"]) for r in log] == [("rejudge", "org"), ("correct", "bracket")]
    assert "選手1" in log[0]["text"] and "○→×" in log[0]["text"]
    # The tap stays in the log, marked as replaced by the protest (record 2).
    assert log[1]["in_effect"] and log[1]["superseded_by"] == 2
    assert log[0]["superseded_by"] is None


def test_a_thrown_out_question_does_not_count_and_its_point_goes(
    tournament: Tournament, cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    tap(round_, "correct", "s1")
    tap(round_, "correct", "s2")
    protest(round_, ThrowOut(1), by=cast["bracket"])
    state = round_state(round_)
    assert state.question == 1
    assert state.players["s1"].correct == 0 and state.players["s2"].correct == 1
    log = round_payload(round_, for_console=True)["log"]
    assert "没問" in log[0]["text"]
    # Only question 1's tap is replaced; question 2's ○ still stands.
    assert [r["superseded_by"] for r in log] == [None, None, 3]
    # The replacement question is played as the next one.
    tap(round_, "correct", "s3")
    assert round_state(round_).players["s3"].correct == 1


def test_outside_the_window_the_operator_is_refused_in_japanese(
    tournament: Tournament, cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament)
    tap(round_, "correct", "s1")
    tap(round_, "thru")
    tap(round_, "thru")
    with pytest.raises(BuzzerRefused) as refused:
        protest(round_, Rejudge(1, "s1", False), by=cast["bracket"])
    assert refused.value.code == "protest_late"
    assert "主催者" in refused.value.message and "2問先" in refused.value.message
    assert BuzzerEvent.objects.filter(round=round_).count() == 3
    protest(round_, Rejudge(1, "s1", False), by=cast["organiser"], organiser=True)
    record = BuzzerEvent.objects.filter(round=round_).last()
    assert record is not None and record.data["overrule"] is True


def test_a_finished_round_needs_the_organiser_and_reopens(
    tournament: Tournament, cast: dict[str, Any]
) -> None:
    round_ = make_round(tournament, config=nomx(1, 1, slots=1))
    tap(round_, "correct", "s1")
    round_.refresh_from_db()
    assert round_.status == BuzzerRound.Status.FINISHED
    with pytest.raises(BuzzerRefused) as refused:
        protest(round_, Rejudge(1, "s1", False), by=cast["bracket"])
    assert refused.value.code == "protest_round_over"
    protest(round_, Rejudge(1, "s1", False), by=cast["organiser"], organiser=True)
    round_.refresh_from_db()
    assert round_.status == BuzzerRound.Status.LIVE


def test_a_protest_cannot_be_sent_as_a_console_tap(tournament: Tournament) -> None:
    round_ = make_round(tournament)
    tap(round_, "correct", "s1")
    with pytest.raises(BuzzerRefused):
        buzzer_event_append(round=round_, expected_seq=1, data=Rejudge(
            1, "s1", False, overrule=True).to_dict())


def _post(client: Client, round_: BuzzerRound, **data: Any) -> Any:
    return client.post(url("buzzer_protest", round_), data)


def test_the_page_shows_what_changes_before_applying(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    tap(round_, "wrong", "s1")
    tap(round_, "correct", "s2")
    form = {"kind": "rejudge", "question": "1", "player": "s1", "correct": "1"}
    page = _post(clients["bracket"], round_, **form)
    body = page.content.decode()
    assert page.status_code == 200 and "この審議で変わること" in body
    assert "選手1" in body and "選手2" in body and "この内容で反映する" in body
    assert BuzzerEvent.objects.filter(round=round_).count() == 2
    done = _post(clients["bracket"], round_, **form, confirm="1", expected_seq="2")
    assert done.status_code == 302
    assert round_state(round_).players["s1"].correct == 1


def test_the_page_asks_for_the_organiser_on_a_late_protest(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    for kind in ("correct", "thru", "thru"):
        tap(round_, kind, "s1" if kind == "correct" else None)
    form = {"kind": "rejudge", "question": "1", "player": "s1", "correct": "0"}
    body = _post(clients["bracket"], round_, **form).content.decode()
    assert "主催者の承認が必要" in body and "主催者が反映します" in body
    assert "protest-apply" not in body
    refused = _post(clients["bracket"], round_, **form, confirm="1", expected_seq="3")
    assert refused.status_code == 200 and "主催者の承認が必要" in refused.content.decode()
    assert BuzzerEvent.objects.filter(round=round_).count() == 3
    body = _post(clients["organiser"], round_, **form).content.decode()
    assert "主催者として承認して反映する" in body
    _post(clients["organiser"], round_, **form, confirm="1", expected_seq="3")
    assert round_state(round_).players["s1"].wrong == 1


def test_the_form_refuses_a_rejudge_without_a_player(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    round_ = make_round(tournament)
    tap(round_, "correct", "s1")
    body = _post(clients["bracket"], round_, kind="rejudge", question="1").content.decode()
    assert "解答者を選んでください" in body
    body = _post(clients["bracket"], round_, kind="throw_out", question="0").content.decode()
    assert "1以上" in body
