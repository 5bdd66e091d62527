"""K9 and K10 pair games: contenders at seats 1 and 4, partners chosen from the players
present, partners' places do not count; pages say who won, lost or partnered."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from brackets import engine_adapter as ea
from brackets.models import Entrant, Group, Round, Seat, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.printing.world import build_kyushu
from tests.rounds.helpers import add_entrants, play_group, play_round
from tests.states import play_game_won_by

pytestmark = pytest.mark.django_db


def test_pair_games_name_contenders_partners_and_the_series(tournament: Tournament,
                                                            cast: dict[str, Any]) -> None:
    """The final's match page showed four equal seats with 順位 and 惜敗率 for all: nothing
    said seats 1 and 4 play for the title and 2 and 3 only partner them, nor where the
    best of 3 stood after a game."""

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=6)
    final = Round.objects.get(tournament=tournament, number=7)
    svc.round_start(round=final, by=user)
    game1 = Group.objects.get(round=final, game=1)
    client = client_for(cast["bracket"])
    html = client.get(f"/t/{tournament.slug}/match/{game1.id}/").content.decode()
    assert html.count("pair-role role-contender") == 2
    assert html.count("pair-role role-partner") == 2
    seats = {s.number: s.entrant for s in Seat.objects.filter(group=game1)
             .select_related("entrant")}
    assert f"{seats[1].name} 0勝 – 0勝 {seats[4].name}" in html

    play_game_won_by(game1, user, seats[4].id, random.Random(5))
    html = client.get(f"/t/{tournament.slug}/match/{game1.id}/").content.decode()
    assert html.count("pair-role role-winner") == 1 and html.count("pair-role role-loser") == 1
    assert f"{seats[1].name} 0勝 – 1勝 {seats[4].name}" in html
    third = Group.objects.get(round__tournament=tournament, round__number=6)
    html = client.get(f"/t/{tournament.slug}/match/{third.id}/").content.decode()
    assert html.count("pair-role role-partner") == 2
    assert "id=\"series-score\"" not in html  # a single game: no series


def test_partner_select_starts_empty_and_says_the_rule(tournament: Tournament,
                                                       cast: dict[str, Any]) -> None:
    """The 3位決定戦's partner selects both showed the same first name preselected, so one
    tap on 記録 recorded a partner nobody chose, and the page did not say who may partner
    or that partners' places do not count. An empty choice is now refused by name."""

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=5)
    third = Round.objects.get(tournament=tournament, number=6)
    client = client_for(user)
    url = f"/t/{tournament.slug}/rounds/6/special/"
    html = client.get(url).content.decode()
    # build_kyushu already recorded both partners: their selects show them, no placeholder.
    assert "— 選んでください —" not in html
    assert "パートナーの順位は数えない" in html and "対戦者以外の来場者から" in html
    from brackets.models import SpecialFact

    SpecialFact.objects.filter(round=third, kind="partner").delete()
    html = client.get(url).content.decode()
    assert html.count('<option value="">— 選んでください —</option>') == 2
    contender = next(e for e in Entrant.objects.filter(tournament=tournament)
                     if f'name="contender" value="{e.id}"' in html)
    response = client.post(url, {"action": "partner", "contender": str(contender.id),
                                 "partner": ""})
    assert response.status_code == 400
    assert f"{contender.name} さんのパートナーを選んでください。" in response.content.decode()
    assert not SpecialFact.objects.filter(round=third, kind="partner").exists()


def test_third_place_loser_is_fourth_not_second(tournament: Tournament,
                                                cast: dict[str, Any]) -> None:
    """The 3位決定戦's 最終順位 page listed 「3位 winner / 2位 loser」."""

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=5)
    third = Round.objects.get(tournament=tournament, number=6)
    svc.round_start(round=third, by=user)
    from tests.rounds.helpers import play_group

    play_group(Group.objects.get(round=third), user, random.Random(2))
    svc.round_close(round=third, by=user)
    html = client_for(user).get(f"/t/{tournament.slug}/rounds/6/advance/").content.decode()
    table = html[html.index("final-order"):]
    assert "3位</th>" in table and "4位</th>" in table
    assert "2位</th>" not in table


@pytest.mark.django_db
def test_a_disqualified_semi_finalist_is_named_in_the_third_place_refusal(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    user = cast["organiser"]
    rng = random.Random(5)
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    add_entrants(tournament, 40)
    r1, r2, r3, r4, sf, third, final = svc.rounds_configure(tournament=tournament, by=user)
    for rnd in (r1, r2):
        svc.round_draw(round=rnd, by=user)
        play_round(rnd, user, rng)
        svc.round_advance(round=rnd, by=user)
    for p in svc.round_players(Round.objects.get(id=r3.id))[0]:
        svc.rule_choice_record(round=r3, entrant=Entrant.objects.get(id=p),
                               rule=rng.choice("AB"), by=user)
    svc.round_draw(round=r3, by=user)
    play_round(r3, user, rng)
    svc.round_advance(round=r3, by=user)
    svc.round_draw(round=r4, by=user)
    for g in Group.objects.filter(round=r4):
        svc.card_draw(group=g, by=user)
    play_round(r4, user, rng)
    svc.round_advance(round=r4, by=user)
    svc.round_draw(round=sf, by=user)
    svc.round_start(round=sf, by=user)
    g = Group.objects.select_related("round", "round__tournament").get(round=sf)
    for seat in Seat.objects.filter(group=g, entrant__isnull=False):
        svc.ban_record(group=g, entrant=seat.entrant, genre="芸能", by=user)
    svc.ban_reveal(group=g, by=user)
    play_group(g, user, rng)
    dq_seat = Seat.objects.filter(group=g, entrant__isnull=False).order_by("number").last()
    svc.disqualification_add(group=Group.objects.select_related(
        "round", "round__tournament").get(id=g.id), by=user, seat_number=dq_seat.number,
        reason="不正行為")
    svc.round_close(round=Round.objects.get(id=sf.id), by=user)
    finalists = svc.round_advance(round=Round.objects.get(id=sf.id), by=user)
    with pytest.raises(svc.RoundError) as info:
        svc.round_draw(round=Round.objects.get(id=third.id), by=user)
    message = info.value.message
    assert "3位決定戦の対戦者が揃っていません" in message and "準決勝の3・4位" in message
    assert "失格" in message and "1人" not in message.split("いるのは")[0]
    assert dq_seat.entrant.name not in message  # the disqualified player is not "there"
    assert Round.objects.get(id=third.id).status == Round.Status.CONFIGURED
    # The final does not wait for the third-place match.
    from brackets import engine_adapter as ea

    others = Entrant.objects.filter(tournament=tournament).exclude(id__in=finalists)
    for contender, partner in zip(finalists, others[:2]):
        svc.partner_record(round=final, contender=Entrant.objects.get(id=contender),
                           partner=partner, by=user)
    dice = svc.dice_record(round=final, players=(finalists[0], finalists[1]), by=user)
    loser = next(p for p in finalists if ea.player_key(p) != dice.data["winner"])
    svc.final_setup_record(round=final, by=user, winner_decides="question_order", first=loser,
                           question_order="simple")
    svc.round_draw(round=Round.objects.get(id=final.id), by=user)
    assert Seat.objects.get(group__round=final, group__game=1, number=1).entrant_id == loser


def _rows(html: str) -> list[str]:
    """The rows of the player's table of games."""
    body = html[html.index("<tbody>"):html.index("</tbody>")]
    return body.split("<tr>")[1:]


def test_player_page_shows_pair_games_as_won_or_lost_not_by_ratio(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """A finalist's public page listed the third-place match and the final's games with a
    惜敗率, which a pair game (K9/K10) does not have: it is won or lost by the pair, and a
    partner's place does not count. Each such row now says 勝ち / 負け / パートナー."""

    build_kyushu(tournament, cast["organiser"], count=20, seeds=4)
    public = client_for(None)
    third = Group.objects.get(round__tournament=tournament, round__number=6)
    roles = sel.pair_roles(sel.group_view(third))
    assert sorted(roles.values()) == ["loser", "partner", "partner", "winner"]
    shown = {"winner": "勝ち", "loser": "負け", "partner": "パートナー"}
    for key, role in roles.items():
        html = public.get(f"/p/{tournament.slug}/players/{key}/").content.decode()
        row = next(r for r in _rows(html) if "3位決定戦" in r)
        assert re.search(rf'class="badge pair-role [^"]*">{shown[role]}</span>', row)
        ratio_cell = re.findall(r'<td class="num">(.*?)</td>', row)[-1]
        assert "—" in ratio_cell and "%" not in ratio_cell
    # An ordinary group round still shows the player's 惜敗率, without a role badge.
    first = Group.objects.filter(round__tournament=tournament, round__number=1).first()
    player = next(s.entrant_id for s in sel.group_view(first).seats if s.entrant_id)
    html = public.get(f"/p/{tournament.slug}/players/{ea.player_key(player)}/").content.decode()
    row = next(r for r in _rows(html) if "1回戦" in r)
    assert "pair-role" not in row


def test_partners_are_labelled_not_placed(tournament_finished: Tournament) -> None:
    """A partner placed 1st on the screen showed as 「1. name」 in the final's game card,
    as if they had won the game (K9/K10: partners' results do not count)."""
    t = tournament_finished
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


def test_pair_rounds_label_the_rule_that_applies(tournament_finished: Tournament,
                                                 cast: dict[str, Any]) -> None:
    """The third-place match's seats said 「ボンバーマン・高火力」 though K9 has no history
    restriction; the final and third-place pages said 「各組の勝ち抜け 2」."""
    from brackets.models import Group

    t = tournament_finished
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


def test_staff_round_page_of_the_final_names_each_games_winner(tournament_finished: Tournament,
                                                                cast: dict[str, Any]) -> None:
    """The final's round page footer listed 「1. partner · 2. …」 placements per game, as if a
    partner placed 1st had won it."""
    t = tournament_finished
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
