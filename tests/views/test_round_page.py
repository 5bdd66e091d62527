"""The staff rounds list, round page and advance page."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from brackets.models import Round, Seat, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.printing.world import build_kyushu
from tests.rounds.helpers import add_entrants, play_round
from tests.states import katata_final_played, use_katata

pytestmark = pytest.mark.django_db


def test_rounds_page_offers_configure_only_to_organisers(tournament: Tournament,
                                                         cast: dict[str, Any]) -> None:
    """Bracket staff saw 「プリセットから回戦を作成」 and a 修羅 link, and both answered 403."""
    staff = client_for(cast["bracket"]).get(f"/t/{tournament.slug}/rounds/").content.decode()
    assert "プリセットから回戦を作成</button>" not in staff
    assert f"/t/{tournament.slug}/shura/" not in staff
    assert "主催者が" in staff
    org = client_for(cast["organiser"]).get(f"/t/{tournament.slug}/rounds/").content.decode()
    assert "プリセットから回戦を作成</button>" in org


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


@pytest.mark.django_db
def test_advance_page_warnings_are_words_not_engine_codes(
        tournament: Tournament, cast: dict[str, Any], monkeypatch: Any) -> None:
    """Warnings were printed as ``{{ w.code }} {{ w.params }}`` (unresolved_tie_at_cut
    {'players': ...})."""
    from brackets.engine import Violation

    use_katata(tournament)
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
def test_an_advanced_round_leads_to_the_next_one(tournament: Tournament,
                                                 cast: dict[str, Any]) -> None:
    """After 「勝ち抜けを確定」 the round page offered nothing forward: staff went back to
    the rounds list to find the next round. The last round has no next one."""
    rounds = katata_final_played(tournament, cast)
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
def test_round_page_follows_the_tablets(tournament: Tournament, cast: dict[str, Any]) -> None:
    """The organiser's round page never changed while the tablets entered results: 締め切る
    stayed greyed out until someone thought of reloading. The page now polls itself
    (?v=<version>: 204 while nothing changed) while the round is drawn or running."""
    from brackets.selectors.rounds import tournament_version

    use_katata(tournament)
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


def test_withdrawal_is_shown_on_round_bracket_and_player_pages(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """After 棄権を記録 nothing on the round page, public pages or bracket said the player
    had withdrawn; they still looked like they would play their group."""

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
