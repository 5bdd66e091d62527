"""QA regressions, third session: what a person stumbled on running a whole 九州杯IX on
tablets (tests/browser/test_kyushu_full_browser.py), each test naming what they saw.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

import pytest

from brackets import engine_adapter as ea
from brackets.models import Entrant, Group, Round, Seat, SelectionFact, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.helpers import add_entrants

pytestmark = pytest.mark.django_db


# ------------------------------------------------------ K8: selections wait for the reveal


def _semi_final_group(tournament: Tournament, user: Any) -> Group:
    """A running 九州杯IX semi-final (K8) with one four-player group, no bans yet.

    Built directly (as the other QA tests do) rather than by playing rounds 1–4."""
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    people = add_entrants(tournament, 4)
    svc.rounds_configure(tournament=tournament, by=user)
    sf = Round.objects.get(tournament=tournament, number=5)
    assert sf.spec.get("bans")
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
                                                 "difficulty": "HARD", "key": "s3-k8"})
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


# ---------------------------------------------- K10: a game after the series is decided


def _play_game(game: Group, user: Any, winner: int, rng: random.Random) -> None:
    """Legal sets for every seat, then a result screen where ``winner`` tops the group."""
    catalog = ea.catalog_for(game.round.tournament.version_id)
    for seat in Seat.objects.filter(group=game, superseded_by__isnull=True).order_by("number"):
        gv = sel.group_view(Group.objects.get(id=game.id))
        options = [o for o in sel.seat_choices(gv, catalog)[seat.number].choices.options()
                   if o.legal]
        option = options[rng.randrange(len(options))]
        svc.selection_save(group=Group.objects.get(id=game.id), by=user,
                           seat_number=seat.number, genre=option.genre, format=option.format,
                           difficulty="HARD")
    seats = list(Seat.objects.filter(group=game, superseded_by__isnull=True)
                 .order_by("number"))
    ordered = sorted(seats, key=lambda s: (s.entrant_id != winner, s.number))
    rows = {s.number: (str(Decimal(300 - 20 * i)), i + 1) for i, s in enumerate(ordered)}
    svc.results_save(group=Group.objects.get(id=game.id), by=user, rows=rows)


def test_unneeded_final_game_offers_no_forms(tournament: Tournament,
                                             cast: dict[str, Any]) -> None:
    """After a 2–0 final, game 3's tablet page said 「入力しても結果は変わりません」 and
    offered every form, but each save was refused. Now the page says the game is not
    played and offers no selection, result or reseat form."""
    from tests.printing.world import build_kyushu

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=6)
    final = Round.objects.get(tournament=tournament, number=7)
    svc.round_start(round=final, by=user)
    games = list(Group.objects.filter(round=final).order_by("game"))
    champion = Seat.objects.get(group=games[0], number=1).entrant_id
    rng = random.Random(3)
    for game in games[:2]:
        _play_game(game, user, champion, rng)
    client = client_for(cast["bracket"])
    html = client.get(f"/t/{tournament.slug}/match/{games[2].id}/").content.decode()
    name = Entrant.objects.get(id=champion).name
    assert f"この試合は行いません：{name} さんの勝ちで決着しています。入力はできません。" in html
    assert "入力しても結果は変わりません" not in html
    assert 'class="selection-form"' not in html
    assert "結果を登録" not in html
    assert "席替え" not in html
    # Games that decide the series keep their forms.
    html = client.get(f"/t/{tournament.slug}/match/{games[1].id}/").content.decode()
    assert "結果を登録" in html
