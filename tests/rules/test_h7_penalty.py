"""H7 penalties: −400 points for an illegal choice accepted knowingly; scores go negative."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest

from brackets.models import Entrant, Group, Round, Seat, SelectionFact, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.helpers import add_entrants
from tests.states import register_entrants, use_katata

pytestmark = pytest.mark.django_db


def shura_group(tournament: Tournament, cast: dict[str, Any]) -> tuple[Group, int, Entrant]:
    """Round 1 started; everyone walks 修羅の道 and drew 芸能. (group, seat, player)."""
    use_katata(tournament)
    register_entrants(tournament, cast["desk"], 7, q_levels=[90, 60, 40, 20, 85, 55, 30],
                      check_in_later=False,
                      declarations={i: {"shura_voluntary": True} for i in range(7)})
    r1 = svc.rounds_configure(tournament=tournament, by=cast["organiser"])[0]
    for e in Entrant.objects.filter(tournament=tournament):
        svc.shura_lots_draw(tournament=tournament, entrant=e, by=cast["desk"], genres=["芸能"])
    svc.round_draw(round=r1, by=cast["organiser"])
    svc.round_start(round=r1, by=cast["organiser"])
    seat = Seat.objects.filter(group__round=r1, entrant__isnull=False).order_by("id").first()
    assert seat is not None
    return seat.group, seat.number, seat.entrant


@pytest.mark.django_db
def test_refused_illegal_set_keeps_the_difficulty_staff_tapped(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """After 「規定違反」 the page came back with HARD checked whatever staff had tapped;
    ticking 「違反を承知で登録」 then saved HARD without anyone choosing it."""
    group, n, _player = shura_group(tournament, cast)
    staff = client_for(cast["bracket"])
    url = f"/t/{tournament.slug}/match/{group.id}/selection/"
    response = staff.post(url, {"seat": n, "set": "芸能|四択", "difficulty": "EASY",
                                "version": group.version})
    assert response.status_code == 400
    page = response.content.decode()
    assert "規定違反" in page
    checked = re.findall(rf'id="d{n}(\w+)" value="\w+" checked', page)
    assert checked == ["EASY"]
    other = next(s.number for s in Seat.objects.filter(group=group) if s.number != n)
    assert re.findall(rf'id="d{other}(\w+)" value="\w+" checked', page) == ["HARD"]
    staff.post(url, {"seat": n, "set": "芸能|四択", "difficulty": "EASY",
                     "confirm_illegal": "1", "version": group.version})
    fact = SelectionFact.objects.get(seat__group=group, seat__number=n)
    penalty = sel.group_view(group).selection_penalties[n]  # derived from the facts
    assert (fact.difficulty, fact.accepted_illegal, str(penalty)) == ("EASY", True, "400.00")


@pytest.mark.django_db
def test_confirm_illegal_box_says_what_it_costs(tournament: Tournament,
                                                cast: dict[str, Any]) -> None:
    """「違反を承知で登録（ペナルティ）」 did not say how much: H7 takes 400 points."""
    group, _n, _player = shura_group(tournament, cast)
    page = client_for(cast["bracket"]).get(
        f"/t/{tournament.slug}/match/{group.id}/").content.decode()
    assert "違反を承知で登録（−400点）" in page


def test_round_page_shows_the_score_after_a_penalty(tournament: Tournament,
                                                    cast: dict[str, Any]) -> None:
    """The round page's group card showed 320.50 for a player ranked last after −400."""
    from brackets.models import Group
    from brackets.services import rounds as svc

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


@pytest.mark.django_db
def test_accepted_illegal_set_shows_its_derived_penalty_on_every_page(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """H7: the selection stores only that staff accepted it; the match page, its history
    and the player page show the penalty the engine derives (the preset's 400)."""
    from django.core.cache import cache

    group, n, player = shura_group(tournament, cast)
    staff = client_for(cast["bracket"])
    staff.post(f"/t/{tournament.slug}/match/{group.id}/selection/",
               {"seat": n, "set": "芸能|四択", "difficulty": "EASY", "confirm_illegal": "1",
                "version": group.version})
    cache.clear()
    match = staff.get(f"/t/{tournament.slug}/match/{group.id}/").content.decode()
    assert re.search(r"違反\s*−400\.00", match)
    history = staff.get(f"/t/{tournament.slug}/match/{group.id}/history/").content.decode()
    assert "違反承知・−400.00" in history
    public = client_for(None).get(f"/p/{tournament.slug}/players/{player.id}/")
    assert "−400.00 出題違反" in public.content.decode()


@pytest.mark.django_db
def test_h7_penalty_lifted_when_an_upstream_correction_makes_the_set_legal(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """H7 with K10: a set accepted as illegal in the final's game 2 because the pair played
    its genre in game 1 keeps −400 only while it is illegal. Correcting game 1's set (the
    upstream fact) makes it legal, and the penalty goes from the verdict, the match page,
    the public round and player pages and the replay summary; the fact that staff accepted
    it stays."""
    from django.urls import reverse

    from brackets import engine_adapter as ea
    from brackets.services import preset_settings as settings_svc
    from brackets.services.replay import tournament_summary
    from tests.states import KYUSHU, kyushu_play, use_preset

    user = cast["organiser"]
    use_preset(tournament, KYUSHU)
    settings_svc.settings_save(tournament=tournament, by=user,
                               values={"illegal_selection": "penalty"})
    kyushu_play(tournament, user, register_entrants(tournament, user, 20, seeds=4),
                "final_game_2")
    game1, game2 = Group.objects.filter(round__tournament=tournament,
                                        round__kind="partner_series").order_by("game")[:2]
    catalog = ea.catalog_for(tournament.version_id)
    played = sel.group_view(game1).facts.selections
    # Game 2: seat n takes a set refused only because its pair played the genre in game 1.
    n, bad = next((n, o) for n, sc in sorted(sel.seat_choices(sel.group_view(game2),
                                                              catalog).items())
                  for o in sc.choices.options()
                  if [v.code for v in o.reasons] == ["genre_used"])
    pair = {1: (1, 2), 2: (1, 2), 3: (3, 4), 4: (3, 4)}[n]
    upstream = next(m for m in pair if played[m].genre == bad.genre)
    svc.selection_save(group=game2, by=user, seat_number=n, genre=bad.genre,
                       format=bad.format, difficulty="EASY", confirm_illegal=True)
    for m in (1, 2, 3, 4):
        if m != n:
            legal = next(o for o in sel.seat_choices(sel.group_view(
                Group.objects.get(id=game2.id)), catalog)[m].choices.options() if o.legal)
            svc.selection_save(group=Group.objects.get(id=game2.id), by=user, seat_number=m,
                               genre=legal.genre, format=legal.format, difficulty="EASY")
    game2 = Group.objects.get(id=game2.id)
    others = iter([("250", 2), ("200", 3), ("100", 4)])
    svc.results_save(group=game2, by=user,
                     rows={m: ("300", 1) if m == n else next(others) for m in (1, 2, 3, 4)})
    player = sel.group_view(game2).facts.seats[n - 1].player
    public, staff = client_for(cast["outsider"]), client_for(cast["bracket"])
    round_url = reverse("public_round", args=[tournament.slug, game2.round.number])
    staff_round_url = f"/t/{tournament.slug}/rounds/{game2.round.number}/"

    def shown() -> dict[str, Any]:
        gv = sel.group_view(Group.objects.get(id=game2.id))
        summary = tournament_summary(tournament)
        final = next(r for r in summary["rounds"] if r["number"] == game2.round.number)
        return {
            "derived": dict(gv.selection_penalties),
            "verdict": str(gv.row_of(player).penalty),
            "match": "違反 −" in staff.get(f"/t/{tournament.slug}/match/{game2.id}/")
                                   .content.decode(),
            # The score that ranks, 300 on the screen less the penalty.
            "round": ["-100.00" in client.get(url).content.decode()
                      for client, url in ((public, round_url), (staff, staff_round_url))],
            "player": "出題違反" in public.get(f"/p/{tournament.slug}/players/{player}/")
                                       .content.decode(),
            "summary": [p for g in final["groups"] for p in g["penalties"]
                        if g["label"] == game2.label],
        }

    assert shown() == {"derived": {n: Decimal("400.00")}, "verdict": "400.00", "match": True,
                       "round": [True, True], "player": True,
                       "summary": [{"seat": n, "points": "400.00",
                                    "reason": "illegal_selection"}]}
    # The correction upstream: game 1's set of that genre is corrected to another genre.
    fix = next(o for o in sel.seat_choices(sel.group_view(game1), catalog)[upstream]
               .choices.options()
               if o.legal and o.genre != bad.genre
               and catalog.group_of(o.format) != catalog.group_of(bad.format))
    svc.selection_save(group=Group.objects.get(id=game1.id), by=user, seat_number=upstream,
                       genre=fix.genre, format=fix.format, difficulty="EASY")
    assert sel.match_snapshot(Group.objects.get(id=game2.id)).selection_check(n).ok
    assert shown() == {"derived": {}, "verdict": "0", "match": False,
                       "round": [False, False],
                       "player": False, "summary": []}
    assert SelectionFact.objects.filter(seat__group=game2, seat__number=n).get().accepted_illegal
