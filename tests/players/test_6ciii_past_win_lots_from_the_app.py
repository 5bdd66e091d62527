"""6-c-iii from the app's own facts: a past 堅田 champion's lots at that win are read from
the lots recorded there (never copied), and at the next 堅田 desk they give L_past and the
format-lot allowance k ≤ min(L_past − 3, 5 − M)."""

from __future__ import annotations

import datetime
from typing import Any

from brackets.adapters.rounds import round_rules
from brackets.engine import PastWin, format_lots_allowed
from brackets.models import Achievement, QmaVersion, Round, Tournament
from brackets.selectors.duties import in_force_of
from brackets.selectors.registry import entrant_duties, player_record
from brackets.services import rounds as svc
from tests.players.helpers import katata, katata_won_with_four_lots, register


def test_past_champion_lots_give_l_past_and_the_allowance(
        tournament: Tournament, cast: dict[str, Any], catalog: QmaVersion) -> None:
    first = katata("katata-first", datetime.date(2018, 11, 4), catalog, cast)
    champion = katata_won_with_four_lots(first, cast)
    record = player_record(player=champion.player)
    won = [r for r in record.results if r.champion]
    assert [r.tournament for r in won] == [first]
    assert won[0].lots is not None and len(won[0].lots["genres"]) == 4
    assert not Achievement.objects.exists()  # derived from the tournament, not stored

    second = katata("katata-second", datetime.date(2019, 1, 13), catalog, cast)
    entrant = register(second, cast["desk"], name=champion.name, card=champion.card_name,
                       q=champion.q_level, player=champion.player, shura_voluntary=True,
                       shura_extra_lots=3)
    for i in range(8):
        register(second, cast["desk"], name=f"他{i}", card=f"S{i}", q=40)
    assert in_force_of(entrant).duties.past_win_lots == 4
    svc.rounds_configure(tournament=second, by=cast["organiser"])
    duties = entrant_duties(entrant=entrant)
    assert duties is not None and duties.l_past == 4
    m = round_rules(Round.objects.get(tournament=second, number=1)).max_matches
    expected = format_lots_allowed([PastWin(4)], q_level=duties.highest.q_level,  # type: ignore[union-attr]
                                   genre_lots_now=4, max_matches=m)
    assert duties.format_lots == expected
    assert svc.shura_format_lots_allowed(tournament=second, entrant=entrant,
                                         genre_lots=4) == expected
