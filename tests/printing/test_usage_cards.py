"""使用履歴カード: what the printed card says is still open is what the tablet allows."""

from __future__ import annotations

from typing import Any

import pytest

from brackets import engine_adapter as ea
from brackets.models import Entrant, Group, Tournament
from brackets.printing.usage_cards import usage_cards
from brackets.selectors import rounds as sel
from brackets.services import preset_settings as settings_svc
from brackets.services import rounds as svc
from tests.printing.world import add_named_entrants

pytestmark = pytest.mark.django_db


def _katata_with_format_lot(tournament: Tournament, user: Any) -> Entrant:
    """堅田 with ``format_lot_pool = "formats"``; a past champion (Q95, BOMBER, 高火力)
    holding 4 genre lots and one format lot, 四択, recorded as a physical draw (H4, H5)."""
    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    settings_svc.settings_save(tournament=tournament, by=user,
                               values={"format_lot_pool": "formats"})
    entrants = add_named_entrants(tournament, 8, user=user, q_levels=[95] + [40] * 7)
    champion = entrants[0]
    Entrant.objects.filter(id=champion.id).update(shura_titles=1, shura_local_wins=1,
                                                  shura_extra_lots=2, past_win_lots=4)
    champion.refresh_from_db()
    rounds = svc.rounds_configure(tournament=tournament, by=user)
    svc.shura_lots_draw(tournament=tournament, entrant=champion, by=user,
                        genres=["芸能", "社会", "スポーツ", "理系学問"], formats=["四択"])
    svc.round_draw(round=rounds[0], by=user)
    return champion


def test_h5_format_lot_naming_a_format_closes_its_group_on_the_usage_card(
        other_tournament: Tournament, cast: dict[str, Any]) -> None:
    champion = _katata_with_format_lot(other_tournament, cast["organiser"])
    catalog = ea.catalog_for(other_tournament.version_id)
    seat = next(s for g in Group.objects.filter(round__tournament=other_tournament,
                                                 round__number=1)
                for s in sel.group_view(g).seats if s.entrant_id == champion.id)
    tablet = sel.seat_choices(sel.group_view(seat.group), catalog)[seat.number].choices
    assert "セレクト" not in tablet.legal_units  # 高火力: a 四択 lot bans its whole group
    _name, cards = usage_cards(other_tournament, 1)
    card = next(c for c in cards if c.name == champion.name)
    remaining = dict(card.remaining)
    assert "セレクト" not in remaining["残り形式"].split("・")
    assert remaining["残り形式"].split("・") == list(tablet.legal_units)
    assert remaining["残りジャンル"].split("・") == list(tablet.legal_genres)


def test_every_card_prints_what_the_tablet_leaves_before_the_match(
        kyushu_finished: Tournament) -> None:
    """Round 3 (K6): a rule-A card lists the BOMBER history's leftovers; a rule-B card says
    the round reads no history, as the tablet leaves everything open there. Round 4 (K7):
    the card is what the tablet allows before the match's cards."""
    catalog = ea.catalog_for(kyushu_finished.version_id)
    before_match = {"cards": None, "bans": {}, "revealed": False}
    for number in (3, 4):
        _name, cards = usage_cards(kyushu_finished, number)
        by_name = {c.name: c for c in cards}
        for group in Group.objects.filter(round__tournament=kyushu_finished,
                                          round__number=number):
            gv = sel.group_view(group)
            for seat_number, sc in sel.seat_choices(gv, catalog, before_match).items():
                card = by_name[sc.seat.entrant.name]
                assert list(card.open_genres) == list(sc.choices.legal_genres)
                assert list(card.open_units) == list(sc.choices.legal_units)
                printed = dict(card.used + card.remaining)
                if sc.choices.match.window is None:
                    assert group.rule == "B", seat_number
                    assert printed == {"制限": "なし（この回戦は使用履歴で制限されません）"}
                else:
                    assert printed["残りジャンル"] == "・".join(sc.choices.legal_genres)
                    assert printed["残り形式"] == "・".join(sc.choices.legal_units)
