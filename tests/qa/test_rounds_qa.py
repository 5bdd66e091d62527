"""QA regressions of the rounds area: the final's podium, partners, withdrawals, labels,
match-page feedback and the tournament's status (K9, K10).

Each test names what a person saw, so a later change that brings it back fails here.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from brackets.models import Round, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.printing.world import build_kyushu

pytestmark = pytest.mark.django_db


@pytest.fixture
def kyushu_done(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    build_kyushu(tournament, cast["organiser"], count=20, seeds=4)
    tournament.refresh_from_db()
    return tournament


def _podium(t: Tournament) -> dict[str, str]:
    return {row.label: row.name for row in sel.podium(t)}


def test_final_page_announces_champion_runner_up_and_third(kyushu_done: Tournament) -> None:
    """The final's public page listed two names in an <ol> and nothing said who won."""
    t = kyushu_done
    podium = _podium(t)
    assert set(podium) == {"優勝", "準優勝", "3位"}
    final = Round.objects.get(tournament=t, kind="partner_series")
    html = client_for(None).get(f"/p/{t.slug}/r/{final.number}/").content.decode()
    champion = re.search(r'podium-champion">\s*<span class="podium-label">(.*?)</span>\s*'
                         r'<a class="podium-name"[^>]*>(.*?)</a>', html, re.DOTALL)
    assert champion is not None
    assert champion.group(1).strip() == "優勝" and champion.group(2) == podium["優勝"]
    assert podium["準優勝"] in html and podium["3位"] in html
    bracket = client_for(None).get(f"/p/{t.slug}/bracket/").content.decode()
    assert 'id="podium"' in bracket and "podium-champion" in bracket
    assert podium["優勝"] in bracket.split('id="podium"')[1].split("</section>")[0]


def test_partners_are_labelled_not_placed(kyushu_done: Tournament) -> None:
    """A partner placed 1st on the screen showed as 「1. name」 in the final's game card,
    as if they had won the game (K9/K10: partners' results do not count)."""
    t = kyushu_done
    final = Round.objects.get(tournament=t, kind="partner_series")
    rv = sel.round_view(final)
    game = rv.groups[0]
    roles = sel.pair_roles(game)
    assert sorted(roles.values()) == ["loser", "partner", "partner", "winner"]
    html = client_for(None).get(f"/p/{t.slug}/r/{final.number}/").content.decode()
    card = html.split('id="pg-第1試合"')[1].split("</table>")[0]
    names = sel.seated_names([game])
    for player, role in roles.items():
        row = next(r for r in card.split("<tr")[1:] if names[player] in r)
        if role == "partner":
            assert "パートナー" in row and "table-success" not in row
        elif role == "winner":
            assert "勝ち" in row and "table-success" in row
    assert "パートナーの順位は数えません" in card
    third = Round.objects.get(tournament=t, kind="partner_match")
    page = client_for(None).get(f"/p/{t.slug}/r/{third.number}/").content.decode()
    assert "パートナー" in page and 'id="podium"' in page


def test_bracket_chart_final_box_shows_games_and_champion(kyushu_done: Tournament) -> None:
    """The A3 chart's 決勝 box showed game 1's seats only: no scores, no winner, no 優勝."""
    from brackets.printing.bracket_chart import _series_box
    from brackets.printing.registry import get_document
    from brackets.selectors.documents import round_document
    from tests.printing.pdfcheck import pdf_text

    t = kyushu_done
    final = Round.objects.get(tournament=t, kind="partner_series")
    doc = round_document(t, final.number)
    box = _series_box(doc, 0)
    champion = _podium(t)["優勝"]
    gold = [box.rows[i] for i in box.gold]
    assert len(gold) == 1 and gold[0][1] == f"{champion}　優勝" and gold[0][2] == "2勝"
    played = [g for g in doc.groups if not g.unneeded]
    for g in played:
        i = next(i for i, r in enumerate(box.rows) if r[1].startswith(f"第{g.game}試合"))
        assert "–" in box.rows[i][2] and "勝ち：" in box.rows[i + 1][1]
    text = re.sub(r"\s+", "", pdf_text(get_document("bracket-chart").render(t)[2]))
    assert f"{champion}優勝" in text and f"勝ち：{champion}" in text


def test_withdrawal_is_shown_on_round_bracket_and_player_pages(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """After 棄権を記録 nothing on the round page, public pages or bracket said the player
    had withdrawn; they still looked like they would play their group."""
    from brackets.models import Seat

    t = tournament
    build_kyushu(t, cast["organiser"], count=20, seeds=4, upto=1)
    r2 = Round.objects.get(tournament=t, number=2)
    seat = Seat.objects.filter(group__round=r2, entrant__isnull=False).select_related(
        "entrant").first()
    quitter = seat.entrant
    badge = 'withdrawn-badge">棄権</span>'

    def marked(html: str) -> bool:
        i = html.find(quitter.name)
        return i >= 0 and badge in html[i:i + 400]

    staff = client_for(cast["bracket"])
    assert not marked(staff.get(f"/t/{t.slug}/rounds/2/").content.decode())
    response = staff.post(f"/t/{t.slug}/rounds/2/special/",
                          {"action": "withdraw", "entrant": quitter.id, "reason": "体調不良"})
    assert response.status_code == 302
    assert marked(staff.get(f"/t/{t.slug}/rounds/2/").content.decode())
    public = client_for(None)
    assert marked(public.get(f"/p/{t.slug}/r/2/").content.decode())
    bracket = public.get(f"/p/{t.slug}/bracket/").content.decode()
    assert 'withdrawn-badge">棄権</small>' in bracket
    player = public.get(f"/p/{t.slug}/players/{quitter.id}/").content.decode()
    assert 'id="withdrawn"' in player and badge in player
    assert "体調不良" not in player  # the reason is a staff note


def test_refused_physical_card_draw_keeps_the_cards_staff_picked(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """A refused 下関 physical draw (K7: two cards sharing a genre need a third) came back
    with every select blank; staff had to pick all cards again."""
    import random

    from django.utils.html import escape

    from brackets import engine_adapter as ea
    from brackets.models import Group, SpecialFact
    from brackets.services import rounds as svc
    from tests.printing.world import play_round

    t = tournament
    user = cast["organiser"]
    build_kyushu(t, user, count=20, seeds=4, upto=2)
    r3 = Round.objects.get(tournament=t, number=3)
    play_round(r3, user, random.Random(3))
    svc.round_advance(round=r3, by=user)
    r4 = Round.objects.get(tournament=t, number=4)
    svc.round_draw(round=r4, by=user)
    group = Group.objects.filter(round=r4).order_by("number").first()
    deck = svc._deck(ea.catalog_for(t.version_id), r4)
    genre = deck[0].genre
    groups = [c.group for c in deck if c.genre == genre]
    first, second = groups[0], next(g for g in groups if g != groups[0])
    staff = client_for(cast["bracket"])
    response = staff.post(f"/t/{t.slug}/match/{group.id}/special/", {
        "action": "cards_physical", "card_genre_1": genre, "card_group_1": first,
        "card_genre_2": genre, "card_group_2": second})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="cards-error"' in html
    form = html.split('id="cards-physical"')[1].split("</form>")[0]
    for name, value in (("card_genre_1", genre), ("card_group_1", first),
                        ("card_genre_2", genre), ("card_group_2", second)):
        select = form.split(f'name="{name}"')[1].split("</select>")[0]
        assert f"<option selected>{escape(value)}</option>" in select
    assert 'name="card_genre_3"' in form and "<option selected>" not in form.split(
        'name="card_genre_3"')[1].split("</select>")[0]
    assert not SpecialFact.objects.filter(group=group, kind="card_draw").exists()
    half = staff.post(f"/t/{t.slug}/match/{group.id}/special/", {
        "action": "cards_physical", "card_genre_1": genre, "card_group_1": first,
        "card_genre_2": deck[-1].genre})
    assert half.status_code == 400
    assert "カード2はジャンルと形式群の両方を選んでください" in half.content.decode()


def test_pair_rounds_label_the_rule_that_applies(kyushu_done: Tournament,
                                                 cast: dict[str, Any]) -> None:
    """The third-place match's seats said 「ボンバーマン・高火力」 though K9 has no history
    restriction; the final and third-place pages said 「各組の勝ち抜け 2」."""
    from brackets.models import Group

    t = kyushu_done
    staff = client_for(cast["bracket"])
    third = Round.objects.get(tournament=t, kind="partner_match")
    final = Round.objects.get(tournament=t, kind="partner_series")
    page = staff.get(f"/t/{t.slug}/match/{Group.objects.filter(round=third).first().id}/")
    html = page.content.decode()
    assert "ボンバーマン・高火力" not in html
    assert html.count("2セットでジャンル・形式群が重複不可") == 4
    game = Group.objects.filter(round=final).order_by("number").first()
    html = staff.get(f"/t/{t.slug}/match/{game.id}/").content.decode()
    assert html.count("決勝内でペアごとに基本ルール") == 4
    semi = Round.objects.get(tournament=t, number=final.number - 2)
    html = staff.get(f"/t/{t.slug}/match/{Group.objects.filter(round=semi).first().id}/")
    assert "ボンバーマン・高火力" in html.content.decode()  # a round with a history keeps it
    for rnd in (third, final):
        summary = staff.get(f"/t/{t.slug}/rounds/{rnd.number}/").content.decode().split(
            'id="round-summary"')[1].split("</p>")[0]
        assert "各組の勝ち抜け" not in summary
    assert "先に2勝" in staff.get(f"/t/{t.slug}/rounds/{final.number}/").content.decode()
    assert "各組の勝ち抜け 2" in staff.get(f"/t/{t.slug}/rounds/1/").content.decode()


def test_player_page_separates_pre_final_use_from_the_final(kyushu_done: Tournament) -> None:
    """A finalist's 使用済み mixed the sets of the final (a fresh history, K10) with those
    before it, so it looked as if the final had banned what they used in round 1."""
    from brackets.models import SelectionFact

    t = kyushu_done
    final = Round.objects.get(tournament=t, kind="partner_series")
    fact = SelectionFact.objects.filter(group__round=final, seat__number=1).select_related(
        "seat").first()
    html = client_for(None).get(f"/p/{t.slug}/players/{fact.seat.entrant_id}/").content.decode()
    assert "使用済み（決勝前）" in html
    assert "使用済み（決勝・履歴リセット後）" in html
    after = html.split("使用済み（決勝・履歴リセット後）")[1].split("</p>")[0]
    assert fact.genre in after


def test_match_saves_redirect_with_a_saved_message(tournament: Tournament,
                                                   cast: dict[str, Any]) -> None:
    """After 出題を登録 / 結果を登録 the tablet came back to the page with no sign the tap
    had been recorded; a refused save sat on the POST URL (a reload re-posted it)."""
    from brackets import engine_adapter as ea
    from brackets.models import Group, Seat
    from tests.rounds.conftest import running_round_one

    rnd = running_round_one(tournament, 16, cast["organiser"])
    group = Group.objects.filter(round=rnd).order_by("number").first()
    staff = client_for(cast["bracket"])
    page = f"/t/{tournament.slug}/match/{group.id}/"
    gv = sel.group_view(group)
    sc = sel.seat_choices(gv, ea.catalog_for(tournament.version_id))[1]
    legal = next(o for o in sc.choices.options() if o.legal)
    response = staff.post(f"{page}selection/", {"seat": "1", "set": f"{legal.genre}|{legal.format}",
                                                "difficulty": "HARD", "key": "qa-k1"})
    assert response.status_code == 302 and response["Location"] == page
    assert "保存しました" in staff.get(page).content.decode()
    again = staff.post(f"{page}selection/", {"seat": "1", "set": f"{legal.genre}|{legal.format}",
                                             "difficulty": "HARD", "key": "qa-k1"})
    assert again.status_code == 302  # the double tap is the same save, said the same way
    assert "保存しました" in staff.get(page).content.decode()
    seats = Seat.objects.filter(group=group).count()
    rows = {f"score_{n}": str(300 - n) for n in range(1, seats + 1)}
    rows.update({f"place_{n}": "1" for n in range(1, seats + 1)})  # 1位 twice: refused
    refused = staff.post(f"{page}results/", {**rows, "key": "qa-k2"})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert f'data-page-url="{page}"' in html
    assert 'value="299"' in html  # what staff typed is still there
    assert "保存しました" not in html


def test_tournament_status_follows_round_one_and_the_final(tournament: Tournament,
                                                           cast: dict[str, Any]) -> None:
    """The tournament stayed 「準備中」 all day: drawing round 1 did not make it 進行中 and
    deciding the final did not make it 終了 (and an undo must put it back)."""
    from brackets.models import RoundStep
    from brackets.services import rounds as svc

    t = tournament
    user = cast["organiser"]
    assert t.status == Tournament.Status.PREPARING
    build_kyushu(t, user, count=20, seeds=4, upto=0)  # round 1 drawn, nothing played
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    r1 = Round.objects.get(tournament=t, number=1)
    draw = RoundStep.objects.get(round=r1, action="draw")
    assert draw.data["tournament_status"] == ["preparing", "running"]
    svc.round_undo(round=r1, by=user)
    t.refresh_from_db()
    assert t.status == Tournament.Status.PREPARING


def test_tournament_finishes_with_the_final_and_reopens_on_undo(kyushu_done: Tournament,
                                                                cast: dict[str, Any]) -> None:
    from brackets.services import rounds as svc

    t = kyushu_done
    user = cast["organiser"]
    assert t.status == Tournament.Status.FINISHED
    third = Round.objects.get(tournament=t, kind="partner_match")
    assert "tournament_status" not in third.steps.get(action="advance").data  # not the last
    final = Round.objects.get(tournament=t, kind="partner_series")
    svc.round_undo(round=final, by=user)
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    undo = final.steps.filter(action="undo").latest("id")
    assert undo.data["tournament_status"] == ["finished", "running"]
    svc.round_advance(round=Round.objects.get(id=final.id), by=user)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED


def test_staff_round_page_of_the_final_names_each_games_winner(kyushu_done: Tournament,
                                                                cast: dict[str, Any]) -> None:
    """The final's round page footer listed 「1. partner · 2. …」 placements per game, as if a
    partner placed 1st had won it."""
    t = kyushu_done
    final = Round.objects.get(tournament=t, kind="partner_series")
    rv = sel.round_view(final)
    html = client_for(cast["bracket"]).get(f"/t/{t.slug}/rounds/{final.number}/").content.decode()
    names = sel.seated_names(rv.groups)
    played = [g for g in rv.groups if g.status == sel.DONE]
    assert html.count('pair-outcome">') == len(played)
    for g in played:
        winner = next(k for k, role in sel.pair_roles(g).items() if role == "winner")
        assert f'pair-outcome">勝ち：{names[winner]}</div>' in html
    assert "1. " not in html.split('id="round-summary"')[1]


def test_player_page_marks_an_unneeded_final_game(tournament: Tournament,
                                                  cast: dict[str, Any]) -> None:
    """After a 2–0 final the finalist's page listed 第3試合 as 「待機」, as if still to play."""
    from tests.qa.test_qa_fixes import _final_two_nil

    _final, groups, people = _final_two_nil(tournament, cast["bracket"])
    html = client_for(None).get(f"/p/{tournament.slug}/players/{people[0].id}/").content.decode()
    row = html.split(">第3試合</a>")[1].split("</tr>")[0]
    assert "不要" in row and "待機" not in row


def test_public_home_shows_the_podium_and_links_each_round(kyushu_done: Tournament) -> None:
    """Once the event was over, the public front page said only 終了 and one button; the
    champion was a tap away on the bracket and rounds two taps away. Session 3 (堅田 QA)."""
    t = kyushu_done
    assert t.status == Tournament.Status.FINISHED
    html = Client().get(f"/p/{t.slug}/").content.decode()
    podium = _podium(t)
    assert 'id="podium"' in html
    for label in ("優勝", "準優勝", "3位"):
        assert label in html and podium[label] in html
    for rnd in Round.objects.filter(tournament=t):
        assert f'href="/p/{t.slug}/r/{rnd.number}/"' in html


def test_public_home_before_the_draw_has_no_round_links(tournament: Tournament,
                                                        cast: dict[str, Any]) -> None:
    svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    html = Client().get(f"/p/{tournament.slug}/").content.decode()
    assert f"/p/{tournament.slug}/r/1/" not in html and 'id="podium"' not in html
