"""Regression tests for what a person stumbled on running a whole 堅田大会 on tablets
(tests/browser/test_katata_full_browser.py walks the same path in Chromium)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from brackets.models import Entrant, Group, Round, Seat, SelectionFact, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.helpers import add_entrants, play_round


def katata(tournament: Tournament) -> Tournament:
    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    return tournament


# ------------------------------------------------------------------ the desk


@pytest.mark.django_db
def test_desk_menu_leads_to_the_shura_lots_when_the_preset_has_them(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """The desk draws 修羅 lots before round 1, but only the dashboard linked that page."""
    desk = client_for(cast["desk"])
    page = desk.get(f"/t/{tournament.slug}/desk/").content.decode()
    assert f"/t/{tournament.slug}/shura/" not in page  # shop-top2: no 修羅
    katata(tournament)
    for url in ("desk/", "desk/new/", "desk/import/"):
        page = desk.get(f"/t/{tournament.slug}/{url}").content.decode()
        assert f'href="/t/{tournament.slug}/shura/"' in page, url


@pytest.mark.django_db
def test_shura_desk_at_tablet_width_reads_as_the_desk_needs(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """The draw form shared the row with name, count and reason: at 768 px the headers
    broke into one character a line. It now has a row of its own, says what the selects
    are for, the volunteer's extra lot reads as the form's field does, and the desk is led
    back to its list (not to the rounds page, which refuses desk staff)."""
    katata(tournament)
    Entrant.objects.create(tournament=tournament, name="近江五郎", card_name="ゴロウ",
                           q_level=65, shura_voluntary=True, shura_extra_lots=1,
                           checked_in=True)
    add_entrants(tournament, 6)
    svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    page = client_for(cast["desk"]).get(f"/t/{tournament.slug}/shura/").content.decode()
    assert re.search(r'<tr class="shura-owed">.*?</tr>\s*<tr><td colspan="4"[^>]*>\s*'
                     r'<form[^>]*shura-draw', page, re.S)
    assert "または実物の箱から引いた結果" in page
    assert "修羅の道、追加くじ（自己申告）" in page
    assert f'href="/t/{tournament.slug}/desk/"' in page
    assert f'href="/t/{tournament.slug}/rounds/"' not in page
    assert client_for(cast["desk"]).get(f"/t/{tournament.slug}/rounds/").status_code == 403
    page = client_for(cast["organiser"]).get(f"/t/{tournament.slug}/shura/").content.decode()
    assert f'href="/t/{tournament.slug}/rounds/"' in page


# ------------------------------------------------------------------ the match page


def shura_group(tournament: Tournament, cast: dict[str, Any]) -> tuple[Group, int, Entrant]:
    """Round 1 started; everyone walks 修羅の道 and drew 芸能. (group, seat, player)."""
    katata(tournament)
    add_entrants(tournament, 7, q_levels=[90, 60, 40, 20, 85, 55, 30])
    Entrant.objects.filter(tournament=tournament).update(shura_voluntary=True)
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
    assert (fact.difficulty, fact.accepted_illegal, str(fact.penalty)) == ("EASY", True,
                                                                          "400.00")


@pytest.mark.django_db
def test_confirm_illegal_box_says_what_it_costs(tournament: Tournament,
                                                cast: dict[str, Any]) -> None:
    """「違反を承知で登録（ペナルティ）」 did not say how much: H7 takes 400 points."""
    group, _n, _player = shura_group(tournament, cast)
    page = client_for(cast["bracket"]).get(
        f"/t/{tournament.slug}/match/{group.id}/").content.decode()
    assert "違反を承知で登録（−400点）" in page


# ------------------------------------------------------------------ advancing, the final


def played_katata(tournament: Tournament, cast: dict[str, Any]) -> list[Round]:
    katata(tournament)
    add_entrants(tournament, 13, q_levels=[95, 85, 82, 70, 65, 60, 55, 45, 40, 33, 30, 20, 10])
    rounds = svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    rng = random.Random(7)
    for rnd in rounds[:-1]:
        svc.round_draw(round=rnd, by=cast["organiser"])
        play_round(rnd, cast["bracket"], rng)
        svc.round_advance(round=rnd, by=cast["organiser"])
    svc.round_draw(round=rounds[-1], by=cast["organiser"])
    play_round(rounds[-1], cast["bracket"], rng)
    return rounds


@pytest.mark.django_db
def test_advance_page_says_how_many_advance_and_what_the_table_is(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """The 惜敗率 table of the non-advancers had no heading: with no wildcards in a
    13-player 堅田大会 staff could not tell whether anyone below would still go through."""
    katata(tournament)
    add_entrants(tournament, 13, q_levels=[95, 85, 82, 70, 65, 60, 55, 45, 40, 33, 30, 20, 10])
    r1 = svc.rounds_configure(tournament=tournament, by=cast["organiser"])[0]
    svc.round_draw(round=r1, by=cast["organiser"])
    play_round(r1, cast["bracket"], random.Random(3))
    page = client_for(cast["organiser"]).get(
        f"/t/{tournament.slug}/rounds/1/advance/").content.decode()
    assert "勝ち抜け 8名（追加勝ち抜けなし）" in page
    assert "各組上位以外（惜敗率順・敗退）" in page


@pytest.mark.django_db
def test_advance_page_warnings_are_words_not_engine_codes(
        tournament: Tournament, cast: dict[str, Any], monkeypatch: Any) -> None:
    """Warnings were printed as ``{{ w.code }} {{ w.params }}`` (unresolved_tie_at_cut
    {'players': ...})."""
    from brackets.engine.errors import Violation

    katata(tournament)
    add_entrants(tournament, 7)
    r1 = svc.rounds_configure(tournament=tournament, by=cast["organiser"])[0]
    svc.round_draw(round=r1, by=cast["organiser"])
    play_round(r1, cast["bracket"], random.Random(3))
    real = sel.advancement_preview

    def with_tie(rnd: Round, rv: Any = None) -> Any:
        from dataclasses import replace

        return [(rule, replace(o, warnings=(Violation("unresolved_tie_at_cut",
                                                      {"players": ["1", "2"], "cut": 1}),)))
                for rule, o in real(rnd, rv)]

    monkeypatch.setattr(sel, "advancement_preview", with_tie)
    page = client_for(cast["organiser"]).get(
        f"/t/{tournament.slug}/rounds/1/advance/").content.decode()
    assert "unresolved_tie_at_cut" not in page
    assert "ボーダーで同率：抽選が必要" in page


@pytest.mark.django_db
def test_ranked_final_reads_as_final_places_and_names_the_champion(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """The final that ranks all four said 「勝ち抜けの確認」 / 「勝ち抜けを確定しました」,
    listed names without places, and once confirmed no staff page named the champion; its
    「特別ルールの入力」 button led to an empty page."""
    rounds = played_katata(tournament, cast)
    final = rounds[-1]
    org = client_for(cast["organiser"])
    order = sel.final_order(sel.round_view(final))
    names = {str(e.id): e.name for e in Entrant.objects.filter(tournament=tournament)}
    page = org.get(f"/t/{tournament.slug}/rounds/{final.number}/advance/").content.decode()
    assert "最終順位" in page and "勝ち抜けの確認" not in page
    rows = re.findall(r"<tr[^>]*><th[^>]*>(.+?)</th><td>(.+?)</td></tr>", page)
    assert rows == [(label, names[p]) for label, p in zip(["優勝", "準優勝", "3位", "4位"], order)]
    body = org.get(f"/t/{tournament.slug}/rounds/{final.number}/").content.decode()
    assert "特別ルールの入力" not in body
    response = org.post(f"/t/{tournament.slug}/rounds/{final.number}/do/close/", follow=True)
    response = org.post(f"/t/{tournament.slug}/rounds/{final.number}/do/advance/", follow=True)
    page = response.content.decode()
    assert "最終順位を確定しました。" in page
    champion = re.search(r'podium-champion">.*?podium-name"[^>]*>(.+?)</a>', page, re.S)
    assert champion is not None and champion.group(1) == names[order[0]]
    # Group rounds keep their wording.
    page = org.get(f"/t/{tournament.slug}/rounds/1/advance/").content.decode()
    assert "勝ち抜けの確認" in page and "podium" not in page


@pytest.mark.django_db
def test_an_advanced_round_leads_to_the_next_one(tournament: Tournament,
                                                 cast: dict[str, Any]) -> None:
    """After 「勝ち抜けを確定」 the round page offered nothing forward: staff went back to
    the rounds list to find the next round. The last round has no next one."""
    rounds = played_katata(tournament, cast)
    org = client_for(cast["organiser"])
    page = org.get(f"/t/{tournament.slug}/rounds/1/").content.decode()
    assert re.search(rf'id="next-round" href="/t/{tournament.slug}/rounds/2/">'
                     rf'次の回戦（{rounds[1].name}）', page)
    page = org.get(f"/t/{tournament.slug}/rounds/{rounds[-1].number}/").content.decode()
    assert 'id="next-round"' not in page  # drawn, not advanced
    org.post(f"/t/{tournament.slug}/rounds/{rounds[-1].number}/do/close/")
    org.post(f"/t/{tournament.slug}/rounds/{rounds[-1].number}/do/advance/")
    page = org.get(f"/t/{tournament.slug}/rounds/{rounds[-1].number}/").content.decode()
    assert 'id="next-round"' not in page


@pytest.mark.django_db
def test_bracket_dashboard_puts_the_rounds_before_the_buzzer_console(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """At a QMA arcade event the tablet's one task (回戦を開く) was the last card, after the
    buzzer-round console nobody at the cabinets uses."""
    katata(tournament)
    page = client_for(cast["bracket"]).get(f"/t/{tournament.slug}/").content.decode()
    assert page.index("回戦を開く") < page.index("早押しを開く")


@pytest.mark.django_db
def test_round_one_waits_for_the_shura_lots(tournament: Tournament,
                                            cast: dict[str, Any]) -> None:
    """Round 1 could be drawn while 修羅 players had no lots; after that draw the lots can
    no longer be drawn, and those players chose as if they had none (H4 silently lost).
    The round page names them, links the 修羅くじ page and holds the draw button back."""
    katata(tournament)
    entrants = add_entrants(tournament, 7, q_levels=[90, 60, 40, 20, 85, 55, 30])
    Entrant.objects.filter(id=entrants[0].id).update(shura_voluntary=True)
    Entrant.objects.filter(id=entrants[1].id).update(shura_titles=1)
    # Not checked in: not in round 1, so not waited for.
    Entrant.objects.filter(id=entrants[2].id).update(shura_voluntary=True, checked_in=False)
    Entrant.objects.filter(id=entrants[3].id).update(opt_up="bomber")  # no lots: プチ修羅
    svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    org = client_for(cast["organiser"])
    url = f"/t/{tournament.slug}/rounds/1/"
    page = org.get(url).content.decode()
    warning = re.search(r'id="shura-pending">(.*?)</div>', page, re.S)
    assert warning is not None
    assert "（2名）：選手P0001、選手P0002" in warning.group(1)
    assert f'href="/t/{tournament.slug}/shura/"' in warning.group(1)
    assert re.search(r'<button class="btn btn-primary" disabled>抽選する</button>', page)
    bracket_page = client_for(cast["bracket"]).get(url).content.decode()
    assert "shura-pending" in bracket_page and f"/t/{tournament.slug}/shura/" not in bracket_page
    for e in entrants[:2]:
        svc.shura_lots_draw(tournament=tournament, entrant=Entrant.objects.get(id=e.id),
                            by=cast["desk"])
    page = org.get(url).content.decode()
    assert "shura-pending" not in page
    assert re.search(r'<button class="btn btn-primary">抽選する</button>', page)


@pytest.mark.django_db
def test_round_page_follows_the_tablets(tournament: Tournament, cast: dict[str, Any]) -> None:
    """The organiser's round page never changed while the tablets entered results: 締め切る
    stayed greyed out until someone thought of reloading. The page now polls itself
    (?v=<version>: 204 while nothing changed) while the round is drawn or running."""
    from brackets.selectors.rounds import tournament_version

    katata(tournament)
    add_entrants(tournament, 7)
    r1 = svc.rounds_configure(tournament=tournament, by=cast["organiser"])[0]
    org = client_for(cast["organiser"])
    url = f"/t/{tournament.slug}/rounds/1/"
    assert 'id="round-live"' not in org.get(url).content.decode()  # nothing to follow yet
    svc.round_draw(round=r1, by=cast["organiser"])
    tournament.refresh_from_db()
    version = tournament_version(tournament)
    page = org.get(url).content.decode()
    assert f'id="round-live" data-version="{version}"' in page
    assert org.get(url, {"v": version}).status_code == 204
    svc.round_start(round=r1, by=cast["organiser"])
    assert org.get(url, {"v": version}).status_code == 200
    assert client_for(cast["outsider"]).get(url, {"v": version}).status_code in (302, 403)
