"""Opening a sudden death / playoff as its own round, and carrying its result back."""

from __future__ import annotations

import pytest
from django.test import Client

from brackets.engine.buzzer import PRESETS
from brackets.models import BuzzerRound, Tournament
from brackets.selectors.buzzer import round_state
from brackets.services.buzzer import BuzzerRefused, buzzer_event_append, buzzer_tiebreak_open
from tests.buzzer_web.factories import make_round, nomx, tap, url

pytestmark = pytest.mark.django_db
ABC = PRESETS.get("abc-the25th-004")


def _deciding(tournament: Tournament) -> BuzzerRound:
    round_ = make_round(tournament, players=2, config=nomx(5, 2, slots=1, question_limit=1))
    buzzer_event_append(round=round_, data={"kind": "thru"}, expected_seq=0)
    assert round_state(round_).phase == "deciding"
    return round_


def test_the_sub_round_is_created_with_its_parent_and_side(tournament: Tournament) -> None:
    round_ = _deciding(tournament)
    side = round_state(round_).decisions[0].side
    sub = buzzer_tiebreak_open(round=round_, side=side)
    sub.refresh_from_db()
    assert (sub.parent_id, sub.side) == (round_.pk, side)
    assert sub.name == f"{round_.name} サドンデス（勝ち抜け側）"
    assert sorted(p.key for p in sub.players.all()) == ["s1", "s2"]


def test_a_second_start_returns_the_tie_break_still_open(tournament: Tournament) -> None:
    round_ = _deciding(tournament)
    side = round_state(round_).decisions[0].side
    first = buzzer_tiebreak_open(round=round_, side=side)
    again = buzzer_tiebreak_open(round=round_, side=side)
    assert again.pk == first.pk
    assert BuzzerRound.objects.filter(parent=round_).count() == 1


def test_no_pending_decision_is_refused_and_nothing_is_created(tournament: Tournament) -> None:
    round_ = make_round(tournament, players=2)
    with pytest.raises(BuzzerRefused) as refused:
        buzzer_tiebreak_open(round=round_, side="win")
    assert refused.value.code == "no_such_decision"
    assert not BuzzerRound.objects.filter(parent=round_).exists()


@pytest.mark.django_db
def test_playoff_sub_round_is_named_and_reported_as_playoff(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    """M5: a tie on the winning line opens an 早押しプレーオフ, not a サドンデス."""
    parent = make_round(tournament, players=4, config=ABC.round("sf-1").config, name="SF1")
    c = clients["bracket"]
    tap(c, parent, kind="clock_start")
    tap(c, parent, kind="correct", player="s1")
    tap(c, parent, kind="correct", player="s2")
    body = tap(c, parent, kind="clock_expire", question_in_play="0")
    assert body["phase"] == "deciding"
    c.post(url("buzzer_tiebreak_start", parent), {"side": "win"})
    sub = BuzzerRound.objects.get(parent=parent)
    assert "プレーオフ" in sub.name and "サドンデス" not in sub.name
    tap(c, sub, kind="correct", player="s2")
    response = c.post(url("buzzer_tiebreak_apply", sub), follow=True)
    assert "プレーオフの結果を反映しました。" in response.content.decode()
    final = clients["anonymous"].get(url("public_buzzer_state", parent)).json()
    assert final["winners"] == ["s2"]
