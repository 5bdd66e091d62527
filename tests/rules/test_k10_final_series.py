"""K10 final, best of 3: the dice and the decisions, and a game not needed once the series is
decided (refused, shown as not played, left out of the documents)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from brackets.models import Entrant, Group, Round, Seat, SelectionFact, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests import states
from tests.conftest import client_for
from tests.printing.world import build_kyushu
from tests.states import play_game_won_by

pytestmark = pytest.mark.django_db


def test_unneeded_final_game_offers_no_forms(tournament: Tournament,
                                             cast: dict[str, Any]) -> None:
    """After a 2–0 final, game 3's tablet page said 「入力しても結果は変わりません」 and
    offered every form, but each save was refused. Now the page says the game is not
    played and offers no selection, result or reseat form."""

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=6)
    final = Round.objects.get(tournament=tournament, number=7)
    svc.round_start(round=final, by=user)
    games = list(Group.objects.filter(round=final).order_by("game"))
    champion = Seat.objects.get(group=games[0], number=1).entrant_id
    rng = random.Random(3)
    for game in games[:2]:
        play_game_won_by(game, user, champion, rng)
    client = client_for(cast["bracket"])
    html = client.get(f"/t/{tournament.slug}/match/{games[2].id}/").content.decode()
    name = Entrant.objects.get(id=champion).name
    assert (f"この試合は不要です：{name} さんの勝ちで決着しています。"
            "この試合は行わないため入力はできません。") in html
    assert "入力しても結果は変わりません" not in html
    assert 'class="selection-form"' not in html
    assert "結果を登録" not in html
    assert "席替え" not in html
    # Games that decide the series keep their forms.
    html = client.get(f"/t/{tournament.slug}/match/{games[1].id}/").content.decode()
    assert "結果を登録" in html


def test_final_dice_and_setup_read_as_recorded(tournament: Tournament,
                                               cast: dict[str, Any]) -> None:
    """The final's page showed the dice as 「5–6 → 名前」 (whose 5?) and, after the
    decisions were recorded, the form went back to 席順 / first finalist / 単純 right
    above 「出題順: 交互」. Rolls now carry both names, the form shows what was recorded,
    and who decided what is said."""
    from brackets.models import SpecialFact

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=6)
    final = Round.objects.get(tournament=tournament, number=7)
    dice = SpecialFact.objects.filter(round=final, kind="dice").latest("id").data
    setup = SpecialFact.objects.filter(round=final, kind="final_setup").latest("id").data
    names = {str(e.id): e.name for e in Entrant.objects.filter(
        id__in=[int(p) for p in dice["players"]])}
    html = client_for(user).get(f"/t/{tournament.slug}/rounds/7/special/").content.decode()
    a, b = (names[str(p)] for p in dice["players"])
    first_roll = dice["rolls"][0]
    assert f"{a} {first_roll[0]} – {first_roll[1]} {b}" in html
    assert f"{names[str(dice['winner'])]} の勝ち" in html
    assert '<option value="alternating" selected>' in html
    assert f'<option value="{setup["first"]}" selected>' in html
    assert '<option value="seat_order" selected>' in html  # build_kyushu: winner took seats
    assert (f"（席順は{names[str(setup['seat_order_by'])]}、"
            f"出題順は{names[str(setup['question_order_by'])]}が決定）") in html


def test_an_extra_final_game_does_not_void_the_champion(tournament: Tournament,
                                                        cast: dict[str, Any]) -> None:
    """A 2–0 final whose unneeded game 3 was entered anyway had no champion at all: the
    public pages showed no winner and 最終順位 put the third-place winner first."""
    user = cast["bracket"]
    states.final_game_2(tournament, cast["organiser"])
    final = Round.objects.get(tournament=tournament, kind="partner_series")
    groups = list(Group.objects.filter(round=final).order_by("game"))
    a = states.game_winner(groups[0])
    b = next(s.entrant_id for s in Seat.objects.filter(group=groups[0], number__in=(1, 4))
             if s.entrant_id != a)
    # a, b, a: 2–1 with all three games played; then game 2 is corrected to a win for a,
    # so the series was decided 2–0 and the entered game 3 is no longer needed.
    rng = random.Random(4)
    states.play_game_won_by(groups[1], user, b, rng)
    states.play_game_won_by(groups[2], user, a, rng)
    states.results_won_by(groups[1], user, a)
    final.refresh_from_db()
    final.tournament = tournament
    assert sel.final_order(sel.round_view(final))[0] == str(a)
    page = client_for(user).get(f"/t/{tournament.slug}/match/{groups[2].id}/")
    assert "この試合は不要です" in page.content.decode()


def _final_two_nil(tournament: Tournament, user: Any) -> tuple[Any, list[Any], list[Entrant]]:
    """九州杯IX's final won 2–0 (the named state final_won_2_0): (final, its three games,
    [the champion])."""
    states.final_won_2_0(tournament, user)
    final = Round.objects.get(tournament=tournament, kind="partner_series")
    groups = list(Group.objects.filter(round=final).order_by("game"))
    return final, groups, [Entrant.objects.get(id=states.game_winner(groups[0]))]


def test_unneeded_final_game_is_refused(tournament: Tournament, cast: dict[str, Any]) -> None:
    """After a 2–0 final, game 3's results and selections were saved although the match
    page said the game was not needed; now they are refused in Japanese, nothing saved."""
    from brackets.models import ResultFact
    from brackets.services import rounds as svc

    user = cast["bracket"]
    _final, groups, _people = _final_two_nil(tournament, user)
    game3 = groups[2]
    with pytest.raises(svc.RoundError, match="この試合は不要です"):
        svc.results_save(group=game3, by=user,
                         rows={1: ("200", 4), 2: ("250", 3), 3: ("300", 2), 4: ("350", 1)})
    with pytest.raises(svc.RoundError, match="この試合は不要です"):
        svc.selection_save(group=game3, by=user, seat_number=1, genre="芸能", format="四択",
                           difficulty="HARD")
    response = client_for(user).post(
        f"/t/{tournament.slug}/match/{game3.id}/results/",
        {"score_1": "200", "place_1": "4", "score_2": "250", "place_2": "3",
         "score_3": "300", "place_3": "2", "score_4": "350", "place_4": "1", "key": "k-q1"})
    assert "この試合は不要です" in response.content.decode()
    assert not ResultFact.objects.filter(group=game3).exists()
    assert not SelectionFact.objects.filter(group=game3).exists()


def test_result_sheet_leaves_out_an_unneeded_final_game(tournament: Tournament,
                                                        cast: dict[str, Any]) -> None:
    """The final's 結果表 printed 第3試合 (結果未入力) after a 2–0 final."""
    from brackets.printing.result_sheets import ResultSheets
    from brackets.selectors.round_documents import round_document

    final, _groups, _people = _final_two_nil(tournament, cast["bracket"])
    data = round_document(tournament, final.number)
    assert [g.unneeded for g in data.groups] == [False, False, True]
    story = ResultSheets().get_story(data, tournament=tournament)
    text = " ".join(str(getattr(f, "_content", f)) for f in story)
    assert "第1試合" in text and "第2試合" in text
    assert "第3試合" not in text


def test_player_page_marks_an_unneeded_final_game(tournament: Tournament,
                                                  cast: dict[str, Any]) -> None:
    """After a 2–0 final the finalist's page listed 第3試合 as 「待機」, as if still to play."""

    _final, groups, people = _final_two_nil(tournament, cast["bracket"])
    html = client_for(None).get(f"/p/{tournament.slug}/players/{people[0].id}/").content.decode()
    row = html.split(">第3試合</a>")[1].split("</tr>")[0]
    assert "不要" in row and "待機" not in row
