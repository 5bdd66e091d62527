"""K8 semi-final: bans are revealed together before any selection; 3rd and 4th go to the
third-place match."""

from __future__ import annotations

import random
from typing import Any

import pytest

from brackets.adapters.rounds import round_rules
from brackets.models import Group, Round, Seat, SelectionFact, Tournament
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.helpers import add_entrants

pytestmark = pytest.mark.django_db


def _semi_final_group(tournament: Tournament, user: Any) -> Group:
    """A running 九州杯IX semi-final (K8) with one four-player group, no bans yet.

    Built directly rather than by playing rounds 1–4: the test chooses exact sets
    (スポーツ/四択 …) that a real history could already have banned."""
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    people = add_entrants(tournament, 4)
    svc.rounds_configure(tournament=tournament, by=user)
    sf = Round.objects.get(tournament=tournament, number=5)
    assert round_rules(sf).bans
    Round.objects.filter(id=sf.id).update(status=Round.Status.RUNNING)
    group = Group.objects.create(round=sf, number=1, label="A")
    for n, e in enumerate(people, start=1):
        Seat.objects.create(group=group, number=n, entrant=e)
    return group


def test_semi_final_selection_before_the_reveal_is_refused(tournament: Tournament,
                                                           cast: dict[str, Any]) -> None:
    """The semi-final's tablet took 芸能/四択 while the bans were still being written: it was
    checked against no ban at all, and stayed even after 芸能 was revealed as banned. Now
    the service refuses any selection before the reveal, and the page says why instead of
    offering the form."""
    user = cast["bracket"]
    group = _semi_final_group(tournament, user)
    seats = list(Seat.objects.filter(group=group).select_related("entrant").order_by("number"))
    for seat in seats[:3]:
        svc.ban_record(group=group, entrant=seat.entrant, genre="芸能", by=user)
    with pytest.raises(svc.RoundError, match="一斉公開するまで") as refused:
        svc.selection_save(group=group, by=user, seat_number=1, genre="芸能", format="四択",
                           difficulty="HARD")
    assert refused.value.field == "bans"
    assert not SelectionFact.objects.filter(group=group).exists()

    client = client_for(user)
    url = f"/t/{tournament.slug}/match/{group.id}/"
    html = client.get(url).content.decode()
    assert "禁止ジャンルを一斉公開するまで出題は登録できません" in html
    assert 'class="selection-form"' not in html
    response = client.post(f"{url}selection/", {"seat": "1", "set": "芸能|四択",
                                                 "difficulty": "HARD", "key": "k8-selection"})
    assert response.status_code == 400
    assert not SelectionFact.objects.filter(group=group).exists()

    svc.ban_record(group=group, entrant=seats[3].entrant, genre="社会", by=user)
    svc.ban_reveal(group=group, by=user)
    html = client.get(url).content.decode()
    assert "禁止ジャンルを一斉公開するまで" not in html
    assert 'class="selection-form"' in html
    with pytest.raises(svc.RoundError):  # 芸能 is banned now (refused: illegal_selection)
        svc.selection_save(group=Group.objects.get(id=group.id), by=user, seat_number=1,
                           genre="芸能", format="四択", difficulty="HARD")
    fact = svc.selection_save(group=Group.objects.get(id=group.id), by=user, seat_number=1,
                              genre="スポーツ", format="四択", difficulty="HARD")
    assert fact.id


def test_ban_button_label_stays_on_one_line(tournament: Tournament,
                                            cast: dict[str, Any]) -> None:
    """At 768 px 「記入済✓」 broke into 「記入 / 済✓」 beside the genre select."""
    user = cast["bracket"]
    group = _semi_final_group(tournament, user)
    seat = Seat.objects.filter(group=group).select_related("entrant").first()
    svc.ban_record(group=group, entrant=seat.entrant, genre="芸能", by=user)
    html = client_for(user).get(f"/t/{tournament.slug}/match/{group.id}/").content.decode()
    assert '<button class="btn btn-outline-primary text-nowrap">記入済✓</button>' in html


def test_semi_final_losers_are_sent_to_the_third_place_match(tournament: Tournament,
                                                             cast: dict[str, Any]) -> None:
    """The 準決勝's advance page headed its 3rd and 4th 「敗退」, but K8 sends them to the
    3位決定戦."""
    from tests.printing.world import build_kyushu

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=4)
    sf = Round.objects.get(tournament=tournament, number=5)  # drawn, bans revealed
    from tests.rounds.helpers import play_round

    play_round(sf, user, random.Random(4))
    html = client_for(user).get(f"/t/{tournament.slug}/rounds/5/advance/").content.decode()
    assert "各組上位以外（惜敗率順）：3・4位は3位決定戦へ" in html
    assert "敗退" not in html
    html = client_for(user).get(f"/t/{tournament.slug}/rounds/4/advance/").content.decode()
    assert "3位決定戦へ" not in html  # round 4 feeds no third-place match
