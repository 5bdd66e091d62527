"""Rounds for the web-layer tests, built through the services like staff would."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from brackets.engine.buzzer import RoundConfig, Rule
from brackets.models import BuzzerQuestionFile, BuzzerRound, PaperMarking, Tournament
from brackets.services.buzzer import buzzer_round_create
from brackets.services.buzzer_paper import paper_marking_upload


def nomx(n: int = 5, m: int = 2, **kw: Any) -> RoundConfig:
    """An n○m× round (L1 style)."""
    kw.setdefault("slots", 2)
    return RoundConfig(
        scoring=Rule("nomx"),
        win=Rule("correct-at-least", {"n": n}),
        loss=Rule("wrong-at-least", {"n": m}),
        **kw,
    )


def make_round(
    tournament: Tournament,
    players: int = 4,
    config: RoundConfig | None = None,
    name: str = "2R",
    group: str = "A組",
    by: Any = None,
) -> BuzzerRound:
    """A round with players 「選手1」… seated 1..n (keys s1..sn)."""
    return buzzer_round_create(
        tournament=tournament,
        name=name,
        group_name=group,
        config=config or nomx(question_limit=35),
        players=[{"name": f"選手{i}"} for i in range(1, players + 1)],
        by=by,
    )


def make_matrix_buzzer_world(tournament: Tournament) -> dict[str, Any]:
    """One round of each kind the role matrix walks (reused across rebuilds)."""
    round_ = BuzzerRound.objects.filter(tournament=tournament, name="matrix", parent=None).first()
    if round_ is None:
        round_ = make_round(tournament, config=nomx(slots=1), name="matrix")
    sub = BuzzerRound.objects.filter(tournament=tournament, parent=round_).first()
    if sub is None:
        sub = make_round(tournament, players=2, config=nomx(1, 1, slots=1), name="matrix-sd")
        BuzzerRound.objects.filter(pk=sub.pk).update(parent=round_, side="win")
        sub.refresh_from_db()
    if not BuzzerQuestionFile.objects.filter(round=round_).exists():
        from brackets.services.buzzer_questions import buzzer_questions_confirm, question_file_read

        preview = question_file_read(
            round=round_, filename="questions.csv",
            content="番号,問題,答え,備考\n1,日本で一番高い山は？,富士山,3776m\n".encode(),
        )
        buzzer_questions_confirm(round=round_, token=preview.token)
    marking = PaperMarking.objects.filter(tournament=tournament).first()
    if marking is None:
        marking = paper_marking_upload(
            tournament=tournament,
            name="1R",
            questions=3,
            first_half=2,
            content="名前,1,2,3\n甲,1,1,0\n乙,○,×,○\n".encode(),
            filename="marks.csv",
        )
    return {"buzzer_round": round_, "buzzer_tiebreak": sub, "paper_marking": marking}


def round_form_data(config: RoundConfig | None = None, **fields: Any) -> dict[str, Any]:
    """What the round form posts when staff change nothing but ``fields`` (every setting of
    ``config`` as its own field, as the browser sends it)."""
    from brackets.forms.buzzer_settings import RoundSettingsForm

    data = RoundSettingsForm(config=config).post_data()
    data.update(fields)
    return data


def url(name: str, round_: BuzzerRound) -> str:
    """A round's URL by name (console, tap, public state ...)."""
    return reverse(name, kwargs={"slug": round_.tournament.slug, "round_id": round_.pk})


def tap(client: Client, round_: BuzzerRound, **data: Any) -> dict[str, Any]:
    """One console tap through the JSON endpoint, as the console script sends it."""
    response = client.post(url("buzzer_tap", round_), data, HTTP_ACCEPT="application/json")
    body: dict[str, Any] = response.json()
    assert response.status_code == 200, body
    return body


def players(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A state payload's player rows by id."""
    return {p["id"]: p for p in body["players"]}


def played_round_with_protests(tournament: Tournament, cast: dict[str, Any]) -> BuzzerRound:
    """A 5○2× round of four (選手1…選手4) played four questions, with a protest and a
    thrown-out question on the way (the score sheet and spreadsheet tests read it):

    Q1 選手1 × then 選手2 ○; Q2 選手3 ○, judged × on protest (the question closes as a
    スルー); Q3 選手4 ○; Q4 選手1 ○, thrown out, replaced by a question 選手2 answers ○.
    """
    from brackets.engine.buzzer import Rejudge, ThrowOut
    from brackets.selectors.buzzer import latest_seq
    from brackets.services.buzzer import buzzer_event_append
    from brackets.services.buzzer_protests import buzzer_protest_record

    round_ = make_round(tournament, by=cast["organiser"])

    def tap(kind: str, player: str | None = None) -> None:
        data: dict[str, Any] = {"kind": kind}
        if player:
            data["player"] = player
        buzzer_event_append(round=round_, data=data, expected_seq=latest_seq(round_.pk),
                            by=cast["bracket"])

    tap("wrong", "s1")
    tap("correct", "s2")
    tap("correct", "s3")
    buzzer_protest_record(round=round_, event=Rejudge(2, "s3", False),
                          expected_seq=latest_seq(round_.pk), by=cast["bracket"],
                          organiser=False)
    tap("correct", "s4")
    tap("correct", "s1")
    buzzer_protest_record(round=round_, event=ThrowOut(4), expected_seq=latest_seq(round_.pk),
                          by=cast["organiser"], organiser=True)
    tap("correct", "s2")
    return round_
