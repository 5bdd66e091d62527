"""The history in the pair rounds: K9's third-place match has no history restriction; K10's
final resets the history and applies the basic rule again per pair within the final."""

from __future__ import annotations

import re
from typing import Any

import pytest

from brackets.models import Group, Round, Seat, SelectionFact, SpecialFact, Tournament
from brackets.selectors import rounds as sel
from tests.conftest import client_for
from tests.printing.world import build_kyushu

pytestmark = pytest.mark.django_db


def _next_choices_html(html: str) -> str:
    part = html[html.index('id="next-choices"'):]
    return part[:part.index("</div>")]


def _legal_genres(html: str) -> list[str]:
    from html import unescape

    return [unescape(g) for g in re.findall(r'badge text-bg-success me-1">([^<]+)<',
                                            _next_choices_html(html))]


def _kyushu_upto(tournament: Tournament, user: Any, upto: int) -> dict[int, int]:
    """九州杯IX played through ``upto`` (tests.printing.world); the semi-final's places."""

    build_kyushu(tournament, user, count=20, seeds=4, upto=upto)
    semi = Round.objects.get(tournament=tournament, name="準決勝")
    return {r.place: int(r.player) for r in sel.round_table(sel.round_view(semi))}


def _pre_final_genres(tournament: Tournament, entrant_id: int) -> set[str]:
    return set(SelectionFact.objects.filter(
        seat__entrant_id=entrant_id, seat__superseded_by__isnull=True,
        group__round__tournament=tournament).exclude(group__round__kind="partner_series")
        .values_list("genre", flat=True))


def test_finalists_page_shows_the_finals_reset_history(tournament: Tournament,
                                                       cast: dict[str, Any]) -> None:
    """A finalist's 「まだ選べるもの」 left out every genre used since round 1, but the final
    resets the history (K10): before the final it now shows what the final allows."""
    places = _kyushu_upto(tournament, cast["organiser"], upto=5)
    finalist = places[1]
    used = _pre_final_genres(tournament, finalist)
    assert used
    html = client_for(None).get(f"/p/{tournament.slug}/players/{finalist}/").content.decode()
    block = _next_choices_html(html)
    assert "次の回戦（決勝）" in block
    assert "決勝・履歴リセット後" in block
    assert used <= set(_legal_genres(html))


def test_third_place_partner_sees_no_history_restriction(tournament: Tournament,
                                                         cast: dict[str, Any]) -> None:
    """The third-place match ignores history (K9): a partner seated there is told so, and
    nothing they used before is shown as unavailable; a player out of the event has no
    next match instead of a stale list."""
    from brackets.models import Entrant

    places = _kyushu_upto(tournament, cast["organiser"], upto=5)
    third = Round.objects.get(tournament=tournament, kind="partner_match")
    partner_facts = SpecialFact.objects.filter(round=third, kind="partner")
    partner = int(partner_facts.first().data["partner"])
    used = _pre_final_genres(tournament, partner)
    html = client_for(None).get(f"/p/{tournament.slug}/players/{partner}/").content.decode()
    block = _next_choices_html(html)
    assert "3位決定戦" in block and "履歴による制限なし" in block
    assert used <= set(_legal_genres(html))

    busy = set(places.values()) | {int(f.data["partner"]) for f in SpecialFact.objects.filter(
        tournament=tournament, kind="partner")}
    out = next(e for e in Entrant.objects.filter(tournament=tournament).order_by("id")
               if e.id not in busy and not Seat.objects.filter(
                   entrant=e, group__round__number__gte=5).exists())
    html = client_for(None).get(f"/p/{tournament.slug}/players/{out.id}/").content.decode()
    assert "出場が決まっている次の試合はありません" in _next_choices_html(html)
    assert _legal_genres(html) == []


def test_finalists_page_follows_the_pairs_final_history(tournament: Tournament,
                                                        cast: dict[str, Any]) -> None:
    """During the final the page shows exactly what the match page allows for the next
    game: the pair's game-1 genres are gone (basic rule within the final, per pair), the
    genres used before the final are back."""
    import random

    from brackets import engine_adapter as ea
    from tests.rounds.helpers import play_group

    user = cast["organiser"]
    places = _kyushu_upto(tournament, user, upto=6)
    final = Round.objects.get(tournament=tournament, kind="partner_series")
    game1, game2 = list(Group.objects.filter(round=final).order_by("game"))[:2]
    play_group(game1, user, random.Random(5))
    finalist = places[1]
    seat = Seat.objects.get(group=game2, entrant_id=finalist, superseded_by__isnull=True)
    mate_seat = {1: 2, 2: 1, 3: 4, 4: 3}[seat.number]
    pair = {finalist, Seat.objects.get(group=game2, number=mate_seat,
                                       superseded_by__isnull=True).entrant_id}
    final_used = set(SelectionFact.objects.filter(group=game1, seat__entrant_id__in=pair)
                     .values_list("genre", flat=True))
    catalog = ea.catalog_for(tournament.version_id)
    expected = sel.seat_choices(sel.group_view(game2), catalog)[seat.number].choices

    html = client_for(None).get(f"/p/{tournament.slug}/players/{finalist}/").content.decode()
    shown = _legal_genres(html)
    assert shown == list(expected.legal_genres)
    assert f"決勝 {game2.label}" in _next_choices_html(html)
    assert final_used and not final_used & set(shown)
    assert (_pre_final_genres(tournament, finalist) - final_used) <= set(shown)


def test_player_page_separates_pre_final_use_from_the_final(tournament_finished: Tournament) -> None:
    """A finalist's 使用済み mixed the sets of the final (a fresh history, K10) with those
    before it, so it looked as if the final had banned what they used in round 1."""
    from brackets.models import SelectionFact

    t = tournament_finished
    final = Round.objects.get(tournament=t, kind="partner_series")
    fact = SelectionFact.objects.filter(group__round=final, seat__number=1).select_related(
        "seat").first()
    html = client_for(None).get(f"/p/{t.slug}/players/{fact.seat.entrant_id}/").content.decode()
    assert "使用済み（決勝前）" in html
    assert "使用済み（決勝・履歴リセット後）" in html
    after = html.split("使用済み（決勝・履歴リセット後）")[1].split("</p>")[0]
    assert fact.genre in after
