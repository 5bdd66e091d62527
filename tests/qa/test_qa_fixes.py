"""Regression tests for problems found by walking the app as its users (QA pass).

Each test names what a person saw, so a later change that brings it back fails here.
"""

from __future__ import annotations

from typing import Any

import pytest

from brackets.adapters.rounds import round_rules
from brackets.forms import StaffForm
from brackets.models import Entrant, Tournament
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def test_staff_form_fields_are_styled_for_tablets() -> None:
    """The staff page showed bare browser inputs (tiny select) beside Bootstrap pages."""
    form = StaffForm()
    assert "form-control" in str(form["username"])
    assert "form-control" in str(form["password"])
    assert "form-select" in str(form["role"])


def test_shura_desk_names_lot_reasons_in_japanese(tournament: Tournament, cast: dict[str, Any]) -> None:
    """The 修羅くじ page showed engine codes (national_title, shiga_winner) as the reason."""
    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    Entrant.objects.create(tournament=tournament, name="山田 太郎", card_name="ヤマダ",
                           q_level=90, shura_titles=1, shura_extra_lots=1, checked_in=True)
    page = client_for(cast["desk"]).get(f"/t/{tournament.slug}/shura/").content.decode()
    assert "全国大会タイトル" in page
    assert "追加" in page
    assert "national_title" not in page


def test_rounds_page_offers_configure_only_to_organisers(tournament: Tournament,
                                                         cast: dict[str, Any]) -> None:
    """Bracket staff saw 「プリセットから回戦を作成」 and a 修羅 link, and both answered 403."""
    staff = client_for(cast["bracket"]).get(f"/t/{tournament.slug}/rounds/").content.decode()
    assert "プリセットから回戦を作成</button>" not in staff
    assert f"/t/{tournament.slug}/shura/" not in staff
    assert "主催者が" in staff
    org = client_for(cast["organiser"]).get(f"/t/{tournament.slug}/rounds/").content.decode()
    assert "プリセットから回戦を作成</button>" in org


def test_shura_desk_says_rounds_come_first(tournament: Tournament, cast: dict[str, Any]) -> None:
    """The desk learned only after pressing a draw button that rounds had to exist first."""
    page = client_for(cast["desk"]).get(f"/t/{tournament.slug}/shura/").content.decode()
    assert "くじを引く前に" in page


def test_rounds_page_names_preset_and_round_kinds(tournament: Tournament,
                                                  cast: dict[str, Any]) -> None:
    """The rounds list showed the preset slug and kinds like ``ranked_final``."""
    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    org = client_for(cast["organiser"])
    org.post(f"/t/{tournament.slug}/rounds/configure/")
    page = org.get(f"/t/{tournament.slug}/rounds/").content.decode()
    assert "堅田大会（" in page
    assert "ranked_final" not in page
    assert "順位決定" in page


def test_final_ranking_keeps_a_disqualified_player(tournament: Tournament,
                                                   cast: dict[str, Any]) -> None:
    """A player disqualified in round 1 vanished from 最終順位 (12 of 13 listed)."""
    import random

    from brackets.models import Group, Round
    from brackets.selectors.documents import final_ranking
    from brackets.services import rounds as svc
    from tests.rounds.helpers import add_entrants, play_group

    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    add_entrants(tournament, 13, q_levels=[40] * 13)
    user = cast["bracket"]
    svc.rounds_configure(tournament=tournament, by=user)
    rnd = Round.objects.get(tournament=tournament, number=1)
    svc.round_draw(round=rnd, by=user)
    svc.round_start(round=rnd, by=user)
    rng = random.Random(7)
    groups = list(Group.objects.filter(round=rnd).order_by("number"))
    for group in groups:
        play_group(group, user, rng)
    first = groups[0]
    seat = min(s.number for s in first.seats.all() if s.entrant_id)
    svc.disqualification_add(group=first, by=user, seat_number=seat, reason="バグ技")
    svc.round_close(round=rnd, by=user)
    svc.round_advance(round=rnd, by=user)
    rows = final_ranking(tournament)
    assert len(rows) == 13 - 8  # the 8 advancers are still playing
    assert any(r.detail.endswith("失格") for r in rows)


def _round4_group(tournament: Tournament, user: Any) -> Any:
    """A drawn 九州杯IX round-4 group (K7 cards) with four entrants, built directly."""
    from brackets.models import Group, Round, Seat
    from brackets.services import rounds as svc
    from tests.rounds.helpers import add_entrants

    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    people = add_entrants(tournament, 4)
    svc.rounds_configure(tournament=tournament, by=user)
    r4 = Round.objects.get(tournament=tournament, number=4)
    assert round_rules(r4).cards
    Round.objects.filter(id=r4.id).update(status=Round.Status.RUNNING)
    group = Group.objects.create(round=r4, number=1, label="A")
    for n, e in enumerate(people, start=1):
        Seat.objects.create(group=group, number=n, entrant=e)
    return group


def test_physical_card_form_offers_the_decks_groups(tournament: Tournament,
                                                    cast: dict[str, Any]) -> None:
    """The app could draw a サブジャンル card, but the form to record a physical draw did
    not offer サブジャンル, so such a card could not be recorded."""
    group = _round4_group(tournament, cast["bracket"])
    page = client_for(cast["bracket"]).get(f"/t/{tournament.slug}/match/{group.id}/")
    html = page.content.decode()
    form = html[html.index('name="card_group_1"'):]
    form = form[:form.index("</select>")]
    assert "サブジャンル" in form and "セレクト" in form
    assert "ランダム" not in form


def test_wrong_card_count_is_explained_in_japanese(tournament: Tournament,
                                                   cast: dict[str, Any]) -> None:
    """Two cards sharing a genre answered 「…：3 cards should have been drawn, 2 recorded」."""
    group = _round4_group(tournament, cast["bracket"])
    response = client_for(cast["bracket"]).post(
        f"/t/{tournament.slug}/match/{group.id}/special/",
        {"action": "cards_physical", "card_genre_1": "スポーツ", "card_group_1": "パネル",
         "card_genre_2": "スポーツ", "card_group_2": "キーボード"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "3枚目も" in html
    assert "should have been drawn" not in html


def test_forbidden_and_missing_pages_speak_japanese(tournament: Tournament,
                                                    cast: dict[str, Any]) -> None:
    """A desk user following a link got a bare English 「403 Forbidden」; a wrong URL
    answered 「Not Found」 with no way back."""
    desk = client_for(cast["desk"])
    forbidden = desk.get(f"/t/{tournament.slug}/settings/")
    assert forbidden.status_code == 403
    assert "権限がありません" in forbidden.content.decode()
    missing = client_for(None).get("/p/no-such-tournament/")
    assert missing.status_code == 404
    assert "ページが見つかりません" in missing.content.decode()


def test_language_menu_names_english_in_english() -> None:
    """In Japanese the menu offered 「英語(米国)」 (Django's ja name of "English")."""
    from django.test import Client

    html = Client().get("/").content.decode()
    assert ">English</option>" in html
    assert "英語(米国)" not in html


def test_an_extra_final_game_does_not_void_the_champion(tournament: Tournament,
                                                        cast: dict[str, Any]) -> None:
    """A 2–0 final whose unneeded game 3 was entered anyway had no champion at all: the
    public pages showed no winner and 最終順位 put the third-place winner first."""
    from brackets.models import Group, Round, Seat
    from brackets.selectors import rounds as sel
    from brackets.services import rounds as svc
    from tests.rounds.helpers import add_entrants

    user = cast["bracket"]
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    a, pa, pb, b = add_entrants(tournament, 4)
    svc.rounds_configure(tournament=tournament, by=user)
    final = Round.objects.get(tournament=tournament, kind="partner_series")
    Round.objects.filter(id=final.id).update(status=Round.Status.RUNNING)
    groups = []
    for game in (1, 2, 3):
        g = Group.objects.create(round=final, number=game, label=f"第{game}試合", game=game)
        for n, e in enumerate((a, pa, pb, b), start=1):  # contenders at 1 and 4
            Seat.objects.create(group=g, number=n, entrant=e)
        groups.append(g)
    # a, b, a: 2–1 with all three games played; then game 2 is corrected to a win for a,
    # so the series was decided 2–0 and the entered game 3 is no longer needed.
    for g, winner_first in zip(groups + [groups[1]], (True, False, True, True)):
        order = (a, pa, pb, b) if winner_first else (b, pb, pa, a)
        rows = {}
        for n, e in enumerate((a, pa, pb, b), start=1):
            place = order.index(e) + 1
            rows[n] = (str(400 - place * 50), place)
        svc.results_save(group=Group.objects.get(id=g.id), by=user, rows=rows)
    final.refresh_from_db()
    final.tournament = tournament
    assert sel.final_order(sel.round_view(final))[0] == str(a.id)
    page = client_for(user).get(f"/t/{tournament.slug}/match/{groups[2].id}/")
    assert "この試合は不要です" in page.content.decode()


def test_printed_qr_address_is_not_loopback(monkeypatch: Any) -> None:
    """Entry sheets printed from the server laptop (http://127.0.0.1:8000/) carried
    QR codes to 127.0.0.1, which every player's phone resolves to itself."""
    from django.test import RequestFactory

    from brackets.management.commands import up
    from brackets.views.documents import _printed_base_url

    monkeypatch.setattr(up, "lan_address", lambda: "192.0.2.10")
    rf = RequestFactory()
    assert _printed_base_url(rf.get("/", HTTP_HOST="127.0.0.1:8000")) == "http://192.0.2.10:8000/"
    assert _printed_base_url(rf.get("/", HTTP_HOST="localhost:8000")) == "http://192.0.2.10:8000/"
    assert _printed_base_url(rf.get("/", HTTP_HOST="192.168.1.5:8000")) == "http://192.168.1.5:8000/"


def test_round_page_shows_the_score_after_a_penalty(tournament: Tournament,
                                                    cast: dict[str, Any]) -> None:
    """The round page's group card showed 320.50 for a player ranked last after −400."""
    from brackets.models import Group, Round
    from brackets.services import rounds as svc
    from tests.rounds.helpers import add_entrants

    user = cast["bracket"]
    add_entrants(tournament, 4)
    svc.rounds_configure(tournament=tournament, by=user)
    rnd = Round.objects.get(tournament=tournament, number=1)
    svc.round_draw(round=rnd, by=user)
    group = Group.objects.get(round=rnd)
    rows = {1: ("320.50", 1), 2: ("300.25", 2), 3: ("250.00", 3), 4: ("180.50", 4)}
    svc.results_save(group=group, by=user, rows=rows)
    svc.penalty_add(group=Group.objects.get(id=group.id), by=user, seat_number=1,
                    points="400", reason="出題違反")
    html = client_for(user).get(f"/t/{tournament.slug}/rounds/1/").content.decode()
    assert "-79.50" in html


def _final_two_nil(tournament: Tournament, user: Any) -> tuple[Any, list[Any], list[Entrant]]:
    """九州杯IX's final drawn with three games, a beating b in games 1 and 2."""
    from brackets.models import Group, Round, Seat
    from brackets.services import rounds as svc
    from tests.rounds.helpers import add_entrants

    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    a, pa, pb, b = add_entrants(tournament, 4)
    svc.rounds_configure(tournament=tournament, by=user)
    final = Round.objects.get(tournament=tournament, kind="partner_series")
    Round.objects.filter(id=final.id).update(status=Round.Status.RUNNING)
    groups = []
    for game in (1, 2, 3):
        g = Group.objects.create(round=final, number=game, label=f"第{game}試合", game=game)
        for n, e in enumerate((a, pa, pb, b), start=1):
            Seat.objects.create(group=g, number=n, entrant=e)
        groups.append(g)
    for g in groups[:2]:
        svc.results_save(group=Group.objects.get(id=g.id), by=user,
                         rows={1: ("350", 1), 2: ("300", 2), 3: ("250", 3), 4: ("200", 4)})
    final.refresh_from_db()
    return final, groups, [a, pa, pb, b]


def test_unneeded_final_game_is_refused(tournament: Tournament, cast: dict[str, Any]) -> None:
    """After a 2–0 final, game 3's results and selections were saved although the match
    page said the game was not needed; now they are refused in Japanese, nothing saved."""
    from brackets.models import ResultFact, SelectionFact
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
    from brackets.selectors.documents import round_document

    final, _groups, _people = _final_two_nil(tournament, cast["bracket"])
    data = round_document(tournament, final.number)
    assert [g.unneeded for g in data.groups] == [False, False, True]
    story = ResultSheets().get_story(data, tournament=tournament)
    text = " ".join(str(getattr(f, "_content", f)) for f in story)
    assert "第1試合" in text and "第2試合" in text
    assert "第3試合" not in text
